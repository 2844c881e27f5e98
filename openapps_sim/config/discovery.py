"""Which apps exist: every app package under ``openapps_sim.apps`` that exposes ``APP``, and the
apps a package makes from data (its ``APPS()``: the described apps, docs/apps/spec.md).

The lowest piece of the catalogue (:mod:`openapps_sim.config.catalog`): generated packs draw the
apps' structural knobs from it (:mod:`openapps_sim.config.sampler`), and the catalogue composes
their configuration and initial state."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from openapps_sim.errors import ConfigError, ConfigErrors

if TYPE_CHECKING:  # the app contract sits above this layer; apps are found by their APP attribute
    from openapps_sim.appkit import AppSpec


@lru_cache(maxsize=1)
def discover_apps() -> dict[str, AppSpec]:
    """Every app package under ``openapps_sim.apps``, and every app its ``APPS()`` makes, in
    start-page order; two apps of one name are an error naming both."""
    found, makers = [], []
    for module in _app_packages():
        spec = getattr(module, "APP", None)
        if spec is not None and hasattr(spec, "full_schema"):
            found.append(spec)
        if callable(getattr(module, "APPS", None)):
            makers.append(module.APPS)
    for make in makers:  # after every package's APP, so that a made app cannot take a name of one
        found.extend(make({a.name for a in found}))
    found.sort(key=lambda a: (a.order, a.name))
    return {a.name: a for a in found}


def app_problems() -> list[ConfigError]:
    """The problems of the apps a package could not make (its ``PROBLEMS()``: a described app
    whose ``app.yaml`` is broken); :func:`discover_apps` leaves those apps out, so that one bad
    file breaks no other app."""
    discover_apps()
    found: list[ConfigError] = []
    for module in _app_packages():
        if callable(getattr(module, "PROBLEMS", None)):
            found += module.PROBLEMS()
    return found


def require_apps() -> None:
    """Raise the problems of every app left out (:func:`app_problems`), one line each."""
    problems = app_problems()
    if problems:
        raise ConfigErrors(problems)


def _app_packages() -> list:
    # imported on first use, never with this module: the app packages are plug-ins that import
    # the app contract (openapps_sim.appkit), which sits above this layer
    import openapps_sim.apps as apps_pkg

    infos = [i for i in pkgutil.iter_modules(apps_pkg.__path__) if i.ispkg]
    return [importlib.import_module(f"openapps_sim.apps.{i.name}") for i in infos]


def check_app_folder(folder: Path) -> AppSpec:
    """The app a package makes from the data in ``folder`` (its ``CHECK(folder)``: a described
    app's ``app.yaml``), every problem of it reported at once as ConfigErrors."""
    checks = [m.CHECK for m in _app_packages() if callable(getattr(m, "CHECK", None))]
    if not checks:
        raise ConfigError(str(folder), "", "no app package makes apps from data")
    return checks[0](Path(folder))


def app_guide() -> str:
    """What a model writing a described app is told: the format and an example (the ``GUIDE()``
    of the package that makes apps from data, docs/apps/spec.md, ``openapps apps new``)."""
    guides = [m.GUIDE for m in _app_packages() if callable(getattr(m, "GUIDE", None))]
    if not guides:
        raise ConfigError("openapps apps new", "", "no app package makes apps from data")
    return guides[0]()
