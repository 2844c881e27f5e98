"""OpenApps-Sim: offline apps, variation packs, BrowserGym tasks and reliability sweeps.

Importing the package registers one Gymnasium id per task family,
``browsergym/openapps.<family>``.
"""

__version__ = "0.1.0"

from openapps_sim.envs.registration import register_all as _register_all  # noqa: E402

_register_all()
