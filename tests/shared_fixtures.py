"""Fixtures that several test modules share, as factories: bind one to the fixture's name in the
module (``client = world_client()``), as tests/env_fixtures.py's ``module_env`` is bound."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from openapps_sim.config import catalog
from openapps_sim.config.discovery import discover_apps
from openapps_sim.sweeps.runner import Worker
from openapps_sim.web import server
from openapps_sim.web.world import World


def world_client(scope: str = "function"):
    """A fixture: a world reset to ``default``, seed 0, and a TestClient on its real ASGI app."""

    @pytest.fixture(scope=scope)
    def client():
        world = World()
        world.reset("default", 0)
        return world, TestClient(server.build_app(world))

    return client


def module_worker():
    """A module-scoped fixture: one sweep Worker for the module's tests, closed after them."""

    @pytest.fixture(scope="module")
    def worker():
        w = Worker()
        yield w
        w.close()

    return worker


def clear_app_caches() -> None:
    """Forget the discovered apps and every configuration composed from them."""
    discover_apps.cache_clear()
    catalog.base_config.cache_clear()
    catalog.composed_json.cache_clear()
    catalog.initial_state_json.cache_clear()


def app_search_path():
    """A fixture: a folder on OPENAPPS_APPS (the apps' search path), caches cleared before and after."""

    @pytest.fixture()
    def app_path(tmp_path, monkeypatch):
        monkeypatch.setenv("OPENAPPS_APPS", str(tmp_path))
        clear_app_caches()
        yield tmp_path
        monkeypatch.undo()
        clear_app_caches()

    return app_path
