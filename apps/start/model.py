"""The start page keeps no state."""

from __future__ import annotations


def initial_state(config: dict, rng) -> dict:
    return {}


def launchable(apps: dict, config: dict) -> list[str]:
    """The apps with a tile on the start page: every app but the home app, in start-page order."""
    return [name for name, spec in apps.items() if not spec.home and name in config]


def in_tile_order(names: list[str], config: dict, order: str) -> list[str]:
    """``names`` in the start page's ``tile_order``: the apps' own order, alphabetical by
    title, or the apps' order reversed."""
    names = list(names)
    if order == "alphabetical":
        names.sort(key=lambda n: str(config[n].get("title", n)).casefold())
    elif order == "reverse":
        names.reverse()
    return names
