"""The catalogue of a world: which apps exist, what a variation expression composes to, and
the initial state it starts from. Everything here is pure and cached; the live world that
serves pages is :class:`openapps_sim.web.world.World`."""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
from functools import lru_cache
from typing import TYPE_CHECKING

import openapps_sim.config.packs as packs
from openapps_sim.config.appearance import SHELL, THEME
from openapps_sim.config.interruptions import INTERRUPTIONS
from openapps_sim.config.schema import Record

if TYPE_CHECKING:  # the app contract sits above this layer; apps are found by their APP attribute
    from openapps_sim.appkit import AppSpec


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
        if spec is not None and hasattr(spec, "full_schema"):
            found.append(spec)
    found.sort(key=lambda a: (a.order, a.name))
    return {a.name: a for a in found}


def world_schema(apps: dict[str, AppSpec]) -> Record:
    fields = {"theme": THEME, "shell": SHELL, "interruptions": INTERRUPTIONS}
    for name, app in apps.items():
        fields[name] = app.full_schema()
    return Record(fields)


@lru_cache(maxsize=1)
def base_config() -> dict:
    apps = discover_apps()
    schema = world_schema(apps)
    config = {
        "theme": THEME.check({}, "theme defaults", "theme"),
        "shell": SHELL.check({}, "shell defaults", "shell"),
        "interruptions": {},
    }
    for name, app in apps.items():
        raw = packs.read_yaml(app.content) or {}
        config[name] = schema.fields[name].check(raw, packs.display_path(app.content), name)
    return config


@lru_cache(maxsize=256)
def composed_json(expression: str, overrides: tuple[str, ...]) -> str:
    apps = discover_apps()
    chosen = [packs.resolve_pack(p) for p in packs.split_expression(expression)]
    config = packs.apply_packs(world_schema(apps), base_config(), chosen, list(overrides))
    return json.dumps(config)


def compose(expression: str | None = "default", overrides: tuple[str, ...] | list[str] = ()) -> dict:
    """The validated configuration for a variation expression such as ``dark_theme+german``."""
    return json.loads(composed_json(expression or "default", tuple(overrides)))


@lru_cache(maxsize=512)
def initial_state_json(expression: str, overrides: tuple[str, ...], seed: int) -> str:
    config = json.loads(composed_json(expression, overrides))
    state = {}
    for name, app in discover_apps().items():
        rng = random.Random(f"{seed}:{name}")
        state[name] = app.initial_state(config[name], rng)
    return json.dumps(state)
