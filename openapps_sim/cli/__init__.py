"""The ``openapps`` command line."""

from openapps_sim.cli.main import main

__all__ = ["main"]
