"""Described apps as apps of the engine: the search path they are found on and the
:class:`~openapps_sim.appkit.AppSpec` each ``app.yaml`` becomes."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from openapps_sim.apps.described import generate, model, ops, words
from openapps_sim.apps.described.checks import APP_FILE, load
from openapps_sim.apps.described.style import CSS

from openapps_sim.appkit import AppSpec, Operation, Showcase
from openapps_sim.config.packs import display_path
from openapps_sim.config.schema import Record, Str
from openapps_sim.config.texts import texts
from openapps_sim.errors import ConfigError

SEARCH_ENV = "OPENAPPS_APPS"  # more folders of described apps, separated like PATH
HERE = Path(__file__).parent
STRINGS = texts(HERE / "strings.yaml")
CONTENT = HERE / "content.yaml"  # the base configuration of every described app: the schema's defaults


def library_dir() -> Path:
    """The described apps shipped with the package."""
    return HERE / "library"


def search_path() -> list[Path]:
    """The package's library, then every folder of ``OPENAPPS_APPS``."""
    extra = [Path(p) for p in os.environ.get(SEARCH_ENV, "").split(os.pathsep) if p]
    return [library_dir(), *extra]


def app_folders(dirs: list[Path] | None = None) -> list[Path]:
    """Every app folder on the search path (or in ``dirs``): a folder holding app.yaml, or the
    folders of one that do."""
    found = []
    for d in search_path() if dirs is None else dirs:
        if (d / APP_FILE).is_file():
            found.append(d)
        elif d.is_dir():
            found += sorted(p for p in d.iterdir() if (p / APP_FILE).is_file())
    return found


@dataclass
class DescribedApp(AppSpec):
    """An app made from an ``app.yaml``: its description (checked) is ``desc``."""

    desc: dict = field(default_factory=dict)
    folder: Path | None = None
    source: str = "described"  # `openapps apps`: hand-built apps have none

    def localise(self, raw: dict, lang: str) -> dict:
        """The base configuration in ``lang``: the app's title and description from its
        ``strings.<lang>``, the engine's texts from ``lang/<lang>.yaml`` (English where they lack
        one); the world's packs apply over it (``openapps_sim.config.catalog.base_config``)."""
        own = words.own_table(self.desc, lang)
        out = {k: own[k] for k in ("title", "description") if k in own}
        engine = words.engine_texts(lang)
        if engine:
            out["strings"] = {k: v for k, v in engine.items() if k in STRINGS.fields}
        return {**out, **raw}

    def load_operations(self) -> dict[str, Operation]:
        if "_ops" not in self.__dict__:
            self.__dict__["_ops"] = ops.build(self.desc)
        return self.__dict__["_ops"]


def is_icon_path(icon: str) -> bool:
    return any(ch.isdigit() for ch in icon)


def make_app(folder: Path) -> DescribedApp:
    """The app of ``folder/app.yaml`` (every problem of the file at once, as ConfigErrors)."""
    desc = load(folder)
    icon = desc["icon"]
    schema = Record(
        title=Str(desc["title"], doc="the app's name on the start page and in its top bar"),
        description=Str(desc["description"], doc="the app's description on the start page"),
        icon=Str("" if is_icon_path(icon) else icon, doc="name of the icon on the start page"),
        strings=STRINGS,
    )
    return DescribedApp(
        name=desc["name"],
        schema=schema,
        content=CONTENT,
        initial_state=partial(_initial_state, desc),
        routes="openapps_sim.apps.described.routes",
        normalise=partial(model.normalise, desc),
        order=desc["order"],
        icon_svg=icon if is_icon_path(icon) else "",
        css=CSS,
        item_keys=model.item_keys(desc),
        operations="described",
        showcase=partial(showcase, desc),
        category=desc["category"],
        desc=desc,
        folder=folder,
    )


def _initial_state(desc: dict, config: dict, rng: random.Random) -> dict:
    return generate.initial_state(desc, rng)


def showcase(desc: dict, state: dict, config: dict) -> list[Showcase]:
    """Beyond the first page: every other collection, a record, a form, a flow, the settings."""
    home = desc["home"] or next(iter(desc["collections"]))
    pages = [Showcase(name, f"/c/{name}") for name in desc["collections"] if name != home]
    if state.get(home):
        pages.append(Showcase(f"{home} record", f"/c/{home}/{state[home][0]['id']}"))
    pages += [Showcase(f"new {n}", f"/c/{n}/new") for n, c in desc["collections"].items() if c["actions"]["create"]][:1]
    pages += [Showcase(f"flow {n}", f"/flow/{n}") for n in desc["flows"]]
    if desc["settings"]:
        pages.append(Showcase("settings", "/settings"))
    return pages


BROKEN: list[ConfigError] = []  # the problems of the apps the last discovery left out


def described_apps(taken: set[str]) -> list[DescribedApp]:
    """Every described app on the search path that passes its check. One that does not (a YAML
    syntax error, a format error, the name of another app) is left out and its problems kept in
    :data:`BROKEN` (``PROBLEMS()``), so that one broken file breaks no other app: the commands
    report them (:func:`openapps_sim.config.discovery.require_apps`)."""
    out: list[DescribedApp] = []
    BROKEN.clear()
    for folder in app_folders():
        try:
            app = make_app(folder)
            names = taken | {a.name for a in out}
            if app.name in names:
                raise ConfigError(
                    display_path(folder / APP_FILE), "name", f"{app.name!r} is the name of another app", "a new name"
                )
        except ConfigError as e:
            BROKEN.extend(e.each())
            continue
        out.append(app)
    return out
