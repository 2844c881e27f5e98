"""OpenApps-Sim as a verifiers environment: ``vf-eval openapps`` (docs/training.md).

verifiers resolves the taskset id ``openapps`` to this module and takes from ``__all__`` its
Taskset (the instances), its Env (the world plays the user; the full-state reward) and its
Harness (the default seat: one chat request per turn). :func:`load_environment` builds the same
environment from Python, for a trainer.
"""

from __future__ import annotations

from typing import Any

import verifiers.v1 as vf

from .env import OpenAppsEnv, OpenAppsEnvConfig
from .harness import OpenAppsHarness, OpenAppsHarnessConfig
from .taskset import OpenAppsConfig, OpenAppsData, OpenAppsTask, OpenAppsTaskset

TASKSET_ID = "openapps"


def load_environment(agent: dict[str, Any] | None = None, **taskset: Any) -> OpenAppsEnv:
    """The environment over the instances ``taskset`` names (``tasks``, ``variations``,
    ``seeds``, ``language``, ``interface``, ``backend``, ``termination``: the fields of
    :class:`OpenAppsConfig`); ``agent`` overrides the seat's config (``max_turns``, ...)."""
    config = vf.resolve_env_config({"taskset": {"id": TASKSET_ID, **taskset}, **({"agent": agent} if agent else {})})
    return vf.load_environment(config)


__all__ = [
    "OpenAppsConfig",
    "OpenAppsData",
    "OpenAppsEnv",
    "OpenAppsEnvConfig",
    "OpenAppsHarness",
    "OpenAppsHarnessConfig",
    "OpenAppsTask",
    "OpenAppsTaskset",
    "load_environment",
]
