"""The catalogue of a world: which apps exist, what a variation expression composes to, and
the initial state it starts from. Everything here is pure and cached; the live world that
serves pages is :class:`openapps_sim.web.world.World`.

A world's reset reads its config and state from here as new objects (:func:`fresh_config`,
:func:`fresh_state`), loaded from ``marshal`` bytes kept by what they are made of: the config
by its composed text; each app's initial state by the app (the very object discovered), the
seed and the text of its config section, so an app whose section is the same in two packs (a
described app's records under a theme or an interruption pack) is drawn once for both."""

from __future__ import annotations

import json
import marshal
import os
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
    return json.dumps(fresh_state(composed_json(expression, overrides), seed))


class Recent:
    """A bounded map from keys to values, the least recently used let go first; safe across
    threads (the sessions of one MCP process reset their worlds from their own threads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Any], valid: Callable[[Any], bool] = lambda _: True) -> Any:
        """The value kept for ``key`` if ``valid`` says it still holds, else ``make()`` (kept)."""
        with self._lock:
            value = self._values.get(key)
            if value is not None and valid(value):
                self._values.move_to_end(key)
                return value
        value = make()
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value


KEPT_WORLDS = 512  # initial states kept, one per config and seed (a sweep's 46 packs x 3 seeds)
KEPT_APP_STATES = 4096  # one app's initial state per app, seed and config section
_world_states = Recent(KEPT_WORLDS)
_app_states = Recent(KEPT_APP_STATES)


_SCALARS = (str, int, float, bool, type(None))
_NOT_PLAIN = object()


def as_json_value(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists, keys as strings), new objects throughout.
    A value already of JSON's own types is copied as it is walked (no text written and read
    again: a world's draw at a new seed copies 65 states); anything else goes through JSON."""
    plain = _plain_copy(value)
    return json.loads(json.dumps(value)) if plain is _NOT_PLAIN else plain


def _plain_copy(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                return _NOT_PLAIN
            if type(item) not in _SCALARS:
                item = _plain_copy(item)
                if item is _NOT_PLAIN:
                    return _NOT_PLAIN
            out[key] = item
        return out
    if kind is list or kind is tuple:
        items = [item if type(item) in _SCALARS else _plain_copy(item) for item in value]
        return _NOT_PLAIN if any(item is _NOT_PLAIN for item in items) else items
    return _NOT_PLAIN


@lru_cache(maxsize=256)
def config_bytes(text: str) -> bytes:
    """The ``marshal`` bytes of the config whose JSON is ``text`` (a composed config)."""
    return marshal.dumps(json.loads(text))


def fresh_config(text: str) -> dict:
    """``json.loads(text)`` of a composed config (:func:`composed_json`), as new objects every call."""
    return marshal.loads(config_bytes(text))


@lru_cache(maxsize=64)  # about 0.5 MB a config of 65 apps: a sweep's 46 packs fit
def config_sections(text: str) -> dict[str, tuple[str, bytes]]:
    """Each section of the composed config ``text``: its JSON text (what an app's drawn state is
    kept by) and the ``marshal`` bytes of its value (what the app is given, new every draw), so
    a draw at a new seed neither parses the config nor writes its sections again."""
    return {name: (json.dumps(section), marshal.dumps(section)) for name, section in json.loads(text).items()}


def app_state_bytes(name: str, app: AppSpec, section: dict | tuple[str, bytes], seed: int) -> bytes:
    """The ``marshal`` bytes of app ``name``'s initial state (its JSON value) under its config
    ``section`` (a value, or its JSON text and marshal bytes from :func:`config_sections`),
    drawn from the app's own random stream of ``seed``."""
    if isinstance(section, dict):
        section = (json.dumps(section), marshal.dumps(section))
    key_text, blob = section

    def make() -> tuple[AppSpec, bytes]:
        state = app.initial_state(marshal.loads(blob), random.Random(f"{seed}:{name}"))
        return app, marshal.dumps(as_json_value(state))

    return _app_states.get((name, seed, key_text), make, lambda kept: kept[0] is app)[1]


class Undrawn:
    """An app's initial state in a world that has not read it yet: a world starts with one for
    every app and draws an app's state when something first reads it
    (:meth:`openapps_sim.appkit.WorldView.app_state`), so a new world costs what its task and its
    agent use, not all of its apps.

    A copy of it is itself, and it equals what it stands for: the same app's undrawn state of the
    same config and seed without drawing, any other state by drawing. Whatever reads a
    whole state either keeps it as it is (a copy, a snapshot, a normalisation) or draws it
    (:meth:`draw`, :func:`drawn`); anything else that meets one fails (it is not a mapping)."""

    __slots__ = ("app", "_draws")

    def __init__(self, app: str, draws: Draws) -> None:
        self.app, self._draws = app, draws

    def draw(self) -> Any:
        """The app's initial state, as new objects every call."""
        return marshal.loads(self._draws.blob(self.app))

    def __eq__(self, other: object) -> bool:
        if type(other) is Undrawn:
            mine, theirs = self._draws, other._draws
            if self.app == other.app and (mine is theirs or (mine.seed, mine.text) == (theirs.seed, theirs.text)):
                return True
            other = other.draw()  # another app, config or seed: the states themselves
        return self.draw() == other

    __hash__ = None  # a state, as a dict, is not hashed

    def __copy__(self) -> Undrawn:
        return self

    def __deepcopy__(self, memo: dict) -> Undrawn:
        return self

    def __reduce__(self):
        raise TypeError(f"{self.app}: an initial state not drawn yet is not pickled (draw it first)")

    def _unread(self) -> str:
        return (
            f"{self.app}: initial state not drawn yet; read it through the world "
            f"(WorldView.app_state({self.app!r})) or draw it (catalog.drawn); a task family is given "
            "the apps it lists in `apps`"
        )

    def __getitem__(self, key: object) -> Any:
        raise TypeError(self._unread())

    def __getattr__(self, name: str) -> Any:  # .get, .items ...: the same clear refusal
        raise AttributeError(self._unread())

    def __repr__(self) -> str:
        return f"<{self.app}: initial state not drawn yet>"


def drawn(value: Any) -> Any:
    """``value``, or the state it stands for when it is :class:`Undrawn` (to be read)."""
    return value.draw() if type(value) is Undrawn else value


class Draws:
    """The initial states of the world of one composed config ``text`` and ``seed``, each app's
    drawn (as :func:`app_state_bytes`) when first asked for."""

    def __init__(self, text: str, seed: int) -> None:
        self.text, self.seed, self.apps = text, seed, discover_apps()
        self._blobs: dict[str, bytes] = {}

    def blob(self, app: str) -> bytes:
        blob = self._blobs.get(app)
        if blob is None:
            section = config_sections(self.text)[app]  # its JSON text and bytes: a new value each draw
            blob = self._blobs[app] = app_state_bytes(app, self.apps[app], section, self.seed)
        return blob


def draws(text: str, seed: int) -> Draws:
    """The initial states of the world of the composed config ``text`` and ``seed``, kept."""
    apps = discover_apps()
    return _world_states.get((text, seed), lambda: Draws(text, seed), lambda kept: kept.apps is apps)


def lazy_state(text: str, seed: int) -> dict:
    """A new world's state: every app :class:`Undrawn`, drawn when first read."""
    world = draws(text, seed)
    return {name: Undrawn(name, world) for name in world.apps}


def fresh_state(text: str, seed: int) -> dict:
    """The initial state of the world of the composed config ``text`` and ``seed`` (what
    ``json.loads`` of :func:`initial_state_json` gives), every app drawn, as new objects every call."""
    world = draws(text, seed)
    return {name: marshal.loads(world.blob(name)) for name in world.apps}
