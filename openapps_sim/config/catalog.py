"""The catalogue of a world: which apps exist, what a variation expression composes to, and
the initial state it starts from. Everything here is pure and cached; the live world that
serves pages is :class:`openapps_sim.web.world.World`."""

from __future__ import annotations

import json
import os
import random
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import openapps_sim.config.packs as packs
import openapps_sim.config.sampler as sampler
from openapps_sim.config.appearance import SHELL, THEME
from openapps_sim.config.discovery import discover_apps
from openapps_sim.config.interruptions import INTERRUPTIONS
from openapps_sim.config.schema import Record
from openapps_sim.errors import ConfigError, Problems

if TYPE_CHECKING:  # the app contract sits above this layer
    from openapps_sim.appkit import AppSpec


def resolve_pack(part: str, source: str = "--variation", key: str = "variation", _seen: tuple = ()) -> packs.Pack:
    """The pack named by ``part`` (a name, a generated name or a file), with every pack it
    ``extends`` applied first."""
    part = part.strip()
    if part.endswith(".yaml") or "/" in part or os.sep in part:
        path = Path(part)
        if not path.exists():
            raise ConfigError(source, key, f"pack file {part!r} does not exist")
        pack = packs.load_pack_path(path)
    elif packs.is_generated(part):
        pack = sampler.generated_pack(part)
    else:
        named = packs.list_packs()
        if part not in named:
            packs.no_pack_yaml(part)
            raise packs.unknown_pack(source, key, part)
        pack = packs.load_pack_path(named[part])
    if not pack.extends:
        return pack
    own_file = pack.source or part
    if part in _seen:
        raise ConfigError(own_file, "extends", f"packs extend each other in a cycle: {' -> '.join([*_seen, part])}")
    inherited: list = []
    for parent in pack.extends:
        name, apps = (parent, None) if isinstance(parent, str) else parent
        sections = resolve_pack(name, own_file, "extends", (*_seen, part)).sections
        where = f"{own_file} (extends {name}, apps)"
        inherited.extend(sections if apps is None else packs.only_apps(sections, apps, where))
    return packs.Pack(name=pack.name, description=pack.description, sections=(*inherited, *pack.sections))


def world_schema(apps: dict[str, AppSpec]) -> Record:
    fields = {"theme": THEME, "shell": SHELL, "interruptions": INTERRUPTIONS}
    for name, app in apps.items():
        fields[name] = app.full_schema()
    return Record(fields)


@lru_cache(maxsize=16)
def base_config(lang: str = "en") -> dict:
    """Every app's base configuration (its ``content``); an app that translates itself (a
    described app's ``localise(raw, lang)``) gives its texts in ``lang``."""
    apps = discover_apps()
    schema = world_schema(apps)
    config = {
        "theme": THEME.check({}, "theme defaults", "theme"),
        "shell": SHELL.check({}, "shell defaults", "shell"),
        "interruptions": {},
    }
    for name, app in apps.items():
        raw = packs.read_yaml(app.content) or {}
        localise = getattr(app, "localise", None)
        if localise is not None and lang != "en":
            raw = localise(raw, lang)
        config[name] = schema.fields[name].check(raw, packs.display_path(app.content), name)
    return config


@lru_cache(maxsize=256)
def composed_json(expression: str, overrides: tuple[str, ...]) -> str:
    apps = discover_apps()
    problems = Problems()  # every unknown pack of the expression, at once
    chosen = [problems.check(resolve_pack, p) for p in packs.split_expression(expression)]
    problems.raise_any()
    schema = world_schema(apps)
    config = packs.apply_packs(schema, base_config(), chosen, list(overrides))
    lang = config["shell"]["lang"]
    if lang != "en" and any(hasattr(a, "localise") for a in apps.values()):
        # apps that translate themselves start from their texts in the world's language, under the packs
        config = packs.apply_packs(schema, base_config(lang), chosen, list(overrides))
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
