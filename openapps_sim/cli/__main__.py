from openapps_sim.cli.main import main

raise SystemExit(main())
