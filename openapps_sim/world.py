"""The world: every app's configuration and state, the event log, and in-memory reset."""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import random
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from . import packs
from .appkit import AppSpec
from .errors import ConfigError
from .schema import Record
from .theme import SHELL, THEME, theme_css


@lru_cache(maxsize=1)
def discover_apps() -> dict[str, AppSpec]:
    """Every app package under ``openapps_sim.apps``, in start-page order."""
    import openapps_sim.apps as apps_pkg

    found = []
    for info in pkgutil.iter_modules(apps_pkg.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"openapps_sim.apps.{info.name}")
        spec = getattr(module, "APP", None)
        if isinstance(spec, AppSpec):
            found.append(spec)
    found.sort(key=lambda a: (a.order, a.name))
    return {a.name: a for a in found}


def world_schema(apps: dict[str, AppSpec]) -> Record:
    fields = {"theme": THEME, "shell": SHELL}
    for name, app in apps.items():
        fields[name] = app.full_schema()
    return Record(fields)


@lru_cache(maxsize=1)
def base_config() -> dict:
    apps = discover_apps()
    schema = world_schema(apps)
    config = {"theme": THEME.check({}, "theme defaults", "theme"), "shell": SHELL.check({}, "shell defaults", "shell")}
    for name, app in apps.items():
        raw = packs.read_yaml(app.content) or {}
        config[name] = schema.fields[name].check(raw, packs.display_path(app.content), name)
    return config


@lru_cache(maxsize=256)
def _composed_json(expression: str, overrides: tuple[str, ...]) -> str:
    apps = discover_apps()
    chosen = [packs.resolve_pack(p) for p in packs.split_expression(expression)]
    config = packs.apply_packs(world_schema(apps), base_config(), chosen, list(overrides))
    return json.dumps(config)


def compose(expression: str | None = "default", overrides: tuple[str, ...] | list[str] = ()) -> dict:
    """The validated configuration for a variation expression such as ``dark_theme+german``."""
    return json.loads(_composed_json(expression or "default", tuple(overrides)))


@lru_cache(maxsize=512)
def _initial_state_json(expression: str, overrides: tuple[str, ...], seed: int) -> str:
    config = json.loads(_composed_json(expression, overrides))
    state = {}
    for name, app in discover_apps().items():
        rng = random.Random(f"{seed}:{name}")
        state[name] = app.initial_state(config[name], rng)
    return json.dumps(state)


class World:
    """All apps' state plus the log of every change. Reset happens in memory."""

    def __init__(self) -> None:
        self.apps = discover_apps()
        self.page_hooks: list[Callable[[Any], Any]] = []
        self.variation = "default"
        self.overrides: tuple[str, ...] = ()
        self.seed = 0
        self.config: dict = {}
        self.state: dict[str, dict] = {}
        self.events: list[dict] = []
        self._css_cache: tuple[str, str] | None = None
        self.reset()

    def reset(self, variation: str | None = "default", seed: int = 0, overrides: list[str] | tuple = ()) -> float:
        """Restore the world to ``variation`` and ``seed``. Returns the time taken in ms."""
        t0 = time.perf_counter()
        expression = variation or "default"
        overrides = tuple(overrides)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError("reset", "seed", f"expected an integer, got {seed!r}")
        config_json = _composed_json(expression, overrides)
        self.config = json.loads(config_json)
        self.state = json.loads(_initial_state_json(expression, overrides, seed))
        self.variation, self.seed, self.overrides = expression, seed, overrides
        self.events = []
        self._css_cache = None
        return (time.perf_counter() - t0) * 1000

    def set_state(self, state: dict) -> None:
        """Replace the state (used by tasks to prepare an instance). Clears the event log."""
        missing = set(self.apps) - set(state)
        if missing:
            raise ConfigError("set_state", ",".join(sorted(missing)), "missing app state")
        self.state = copy.deepcopy(state)
        self.events = []

    def log(self, app: str, op: str, args: dict) -> None:
        self.events.append({"i": len(self.events), "app": app, "op": op, "args": args, "t": time.time()})

    def snapshot(self) -> dict:
        return copy.deepcopy(self.state)

    def theme_css(self) -> str:
        key = json.dumps(self.config["theme"], sort_keys=True)
        if self._css_cache is None or self._css_cache[0] != key:
            self._css_cache = (key, theme_css(self.config["theme"]))
        return self._css_cache[1]
