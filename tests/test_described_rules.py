"""Rules of the described-app engine (docs/apps/spec.md) that the library once worked around:
a broken app.yaml breaks no other command, and the defects fixed with it. Text only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from openapps_sim.config import catalog
from openapps_sim.config.discovery import discover_apps
from openapps_sim.web import server
from openapps_sim.web.world import World

PLANTS = """
title: Leafy
category: House & Home
collections:
  plants:
    label: Plants
    title: name
    fields:
      name: {type: text}
      room: {type: choice, choices: [kitchen, bedroom]}
    records:
      - {name: Monstera, room: kitchen}
"""
# an unquoted comma in a flow map: YAML reads `b` as a key of its own
BAD_KEY = """
title: Broken
category: Tools
collections:
  things:
    label: Things
    title: name
    fields:
      name: {type: text, label: a, b}
"""
BAD_SYNTAX = "title: Broken\ncategory: Tools\ncollections: {things: [\n"


def _cli(args: list[str], apps: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "OPENAPPS_APPS": str(apps)}
    return subprocess.run(
        [sys.executable, "-m", "openapps_sim.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("broken", [BAD_KEY, BAD_SYNTAX], ids=["format", "syntax"])
def test_one_broken_app_breaks_no_command(tmp_path, broken):
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "app.yaml").write_text(broken, encoding="utf-8")
    (tmp_path / "plants").mkdir()
    (tmp_path / "plants" / "app.yaml").write_text(PLANTS, encoding="utf-8")
    where = str(tmp_path / "broken" / "app.yaml")
    for args in (["tasks"], ["apps"], ["apps", "check", str(tmp_path / "broken")]):
        run = _cli(args, tmp_path)
        assert run.returncode == 2, (args, run.stderr)
        assert "Traceback" not in run.stderr, (args, run.stderr)
        lines = run.stderr.strip().splitlines()
        assert lines and all(line.startswith(f"openapps: error: {where}") for line in lines), (args, lines)
    other = _cli(["apps", "check", str(tmp_path / "plants")], tmp_path)
    assert other.returncode == 0, other.stderr
    assert "app 'plants' (House & Home) is valid" in other.stdout
    assert "Traceback" not in other.stderr


def _clear() -> None:
    discover_apps.cache_clear()
    catalog.base_config.cache_clear()
    catalog.composed_json.cache_clear()
    catalog.initial_state_json.cache_clear()


@pytest.fixture()
def app_path(tmp_path, monkeypatch):
    """A folder on OPENAPPS_APPS (the apps' search path), caches cleared before and after."""
    monkeypatch.setenv("OPENAPPS_APPS", str(tmp_path))
    _clear()
    yield tmp_path
    monkeypatch.undo()
    _clear()


def _app(folder: Path, name: str, text: str) -> None:
    (folder / name).mkdir()
    (folder / name / "app.yaml").write_text(text, encoding="utf-8")


# fields named like the arguments of the engine's calls (ctx.log, an operation, its log entry)
CLASHES = """
title: Shelf
category: Books & Reference
collections:
  books:
    label: Books
    title: name
    fields:
      name: {type: text}
      title: {type: text}
      ctx: {type: text}
      self: {type: text}
      changed: {type: text}
      by: {type: number}
      value: {type: boolean}
    actions: {create: true, edit: [title, ctx, self, changed, by], toggle: [value]}
    records:
      - {name: Dune, title: Dr, ctx: a, self: b, changed: c, by: 1}
"""


def test_fields_may_have_the_names_of_the_engines_arguments(app_path):
    _app(app_path, "shelf", CLASHES)
    world = World()
    world.reset("default", 0)
    http = TestClient(server.build_app(world))
    made = {"name": "Emma", "title": "Mrs", "ctx": "x", "self": "y", "changed": "z", "by": "2"}
    assert http.post("/shelf/c/books/new", data=made).status_code == 200
    edit = {"title": "Miss", "ctx": "x2", "self": "y2", "changed": "z2", "by": "3"}
    assert http.post("/shelf/c/books/book-1/edit", data=edit).status_code == 200
    assert http.post("/shelf/c/books/book-1/toggle/value").status_code == 200
    books = world.state["shelf"]["books"]
    assert [(b["name"], b["title"], b["ctx"], b["self"], b["changed"], b["by"], b["value"]) for b in books] == [
        ("Dune", "Miss", "x2", "y2", "z2", 3, True),
        ("Emma", "Mrs", "x", "y", "z", 2, False),
    ]
    logged = [(e["op"], e["args"].get("title")) for e in world.events if e["app"] == "shelf"]
    assert logged == [("create_book", "Mrs"), ("edit_book", "Miss"), ("toggle_book_value", "Dune")]
