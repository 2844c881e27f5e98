"""The start page keeps no state."""

from __future__ import annotations


def initial_state(config: dict, rng) -> dict:
    return {}


def launchable(apps: dict, config: dict) -> list[str]:
    """The apps with a tile on the start page: every app but the home app, in start-page order."""
    return [name for name, spec in apps.items() if not spec.home and name in config]
