"""Which apps exist: every app package under ``openapps_sim.apps`` that exposes ``APP``.

The lowest piece of the catalogue (:mod:`openapps_sim.config.catalog`): generated packs draw the
apps' structural knobs from it (:mod:`openapps_sim.config.sampler`), and the catalogue composes
their configuration and initial state."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the app contract sits above this layer; apps are found by their APP attribute
    from openapps_sim.appkit import AppSpec


@lru_cache(maxsize=1)
def discover_apps() -> dict[str, AppSpec]:
    """Every app package under ``openapps_sim.apps``, in start-page order."""
    # imported on first use, never with this module: the app packages are plug-ins that import
    # the app contract (openapps_sim.appkit), which sits above this layer
    import openapps_sim.apps as apps_pkg

    found = []
    for info in pkgutil.iter_modules(apps_pkg.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"openapps_sim.apps.{info.name}")
        spec = getattr(module, "APP", None)
        if spec is not None and hasattr(spec, "full_schema"):
            found.append(spec)
    found.sort(key=lambda a: (a.order, a.name))
    return {a.name: a for a in found}
