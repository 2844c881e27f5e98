"""Fixtures that several test modules share, as factories: bind one to the fixture's name in the
module (``client = world_client()``), as tests/env_fixtures.py's ``module_env`` is bound."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from openapps_sim.config import catalog
from openapps_sim.config.discovery import check_app_folder, discover_apps
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.runner import Worker
from openapps_sim.taskkit import all_families, instantiate
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


def record_id(world: World, app: str, collection: str, field: str, value: str) -> str:
    """The id of the record of ``app``'s ``collection`` whose ``field`` is ``value``."""
    return next(r["id"] for r in world.app_state(app)[collection] if r[field] == value)


def check_problems(folder: Path, text: str) -> list[str]:
    """Writes ``text`` as ``folder``/app.yaml and checks it, which must fail: the problems as
    ``key: problem; allowed: ...`` lines, after asserting that every one names the file."""
    folder.mkdir(exist_ok=True)
    (folder / "app.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        check_app_folder(folder)
    errors = getattr(err.value, "errors", [err.value])
    assert all(str(folder / "app.yaml") in str(e) for e in errors), errors
    return [f"{e.path}: {e.problem}; allowed: {e.allowed}" for e in errors]


def check_names(folder: Path, text: str, message: str) -> None:
    """:func:`check_problems` of ``text`` has ``message`` among its lines."""
    lines = check_problems(folder, text)
    assert message in lines, lines


def seed_0_instance(fid: str):
    """The instance of the family ``fid`` in the default world of seed 0."""
    world = World()
    world.reset("default", 0)
    return instantiate(all_families()[fid], world.state, world.config, 0, "default", "auto")


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
