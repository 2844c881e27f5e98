"""Described apps: every folder holding an ``app.yaml`` on the search path becomes an app
(docs/apps/spec.md). The format is :mod:`.format` and :mod:`.checks`."""

from __future__ import annotations


def APPS(taken: set[str]) -> list:  # noqa: N802 - the discovery hook, named like APP
    """Every described app on the search path (``taken``: the names hand-built apps have)."""
    from openapps_sim.apps.described.spec import described_apps

    return described_apps(taken)


def CHECK(folder) -> object:  # noqa: N802 - the discovery hook for `openapps apps check`
    """The app of ``folder/app.yaml``, every problem of the file at once (ConfigErrors)."""
    from openapps_sim.apps.described.spec import make_app

    return make_app(folder)


def PROBLEMS() -> list:  # noqa: N802 - the discovery hook for apps left out
    """The problems of every described app the last discovery left out (ConfigErrors)."""
    from openapps_sim.apps.described.spec import BROKEN

    return list(BROKEN)


def GUIDE() -> str:  # noqa: N802 - the discovery hook for `openapps apps new`
    """The format of ``app.yaml`` as a model writing one is told it, with a shipped example."""
    from openapps_sim.apps.described.authoring import guide

    return guide()
