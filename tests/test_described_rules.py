"""Rules of the described-app engine (docs/apps/spec.md) that the library once worked around:
a broken app.yaml breaks no other command, and the defects fixed with it. Text only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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
