"""`dev/mutants.py --resume`: a mutation run stopped part way goes on with the mutants left
without a verdict. The scratch folder's copies of the package and the tests are made afresh, the
mutants folder (mutmut's verdicts) is kept, and the mutated modules are dated after their mutants
so that mutmut makes them again (keeping the verdicts of the functions whose text is unchanged)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest


def load_tool(root: Path):
    path = Path(__file__).resolve().parents[1] / "dev" / "mutants.py"
    spec = importlib.util.spec_from_file_location("openapps_mutants_tool", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.pop("openapps_mutants_tool", None)
    spec.loader.exec_module(module)
    module.ROOT = root
    module.OUT = root / "runs" / "mutants"
    return module


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_refresh_copies_the_package_and_tests_again_and_keeps_the_verdicts(tmp_path: Path) -> None:
    tool = load_tool(tmp_path)
    write(tmp_path / "openapps_sim" / "m.py", "X = 2\n")
    write(tmp_path / "tests" / "test_m.py", "def test_new(): pass\n")
    work = tmp_path / "runs" / "mutants" / "g"
    write(work / "openapps_sim" / "m.py", "X = 1\n")
    write(work / "openapps_sim" / "gone.py", "")
    write(work / "tests" / "test_m.py", "def test_old(): pass\n")
    meta = work / "mutants" / "openapps_sim" / "m.py.meta"
    write(
        meta,
        json.dumps({"exit_code_by_key": {"openapps_sim.m.x_f__mutmut_1": 1, "openapps_sim.m.x_f__mutmut_2": None}}),
    )
    mutant = work / "mutants" / "openapps_sim" / "m.py"
    write(mutant, "X = 1  # mutated\n")
    old = 1_000_000_000
    os.utime(tmp_path / "openapps_sim" / "m.py", (old, old))  # the worktree's file older than its mutants

    tool.refresh(work, ["openapps_sim/m.py"])

    assert (work / "openapps_sim" / "m.py").read_text(encoding="utf-8") == "X = 2\n"
    assert not (work / "openapps_sim" / "gone.py").exists()
    assert (work / "tests" / "test_m.py").read_text(encoding="utf-8") == "def test_new(): pass\n"
    assert mutant.read_text(encoding="utf-8") == "X = 1  # mutated\n"
    assert (work / "openapps_sim" / "m.py").stat().st_mtime >= mutant.stat().st_mtime
    assert (work / "openapps_sim" / "m.py").stat().st_mtime > old + 1
    assert tool.results(work) == {"openapps_sim.m.x_f__mutmut_1": 1, "openapps_sim.m.x_f__mutmut_2": None}


def test_a_group_never_run_is_run_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = load_tool(tmp_path)
    ran: list[str] = []
    monkeypatch.setattr(tool, "run_group", lambda group, jobs: ran.append(group) or tmp_path)
    assert tool.resume_group("normalise", 1) == tmp_path
    assert ran == ["normalise"]


def test_the_flags_are_read() -> None:
    tool = load_tool(Path("/nonexistent"))
    assert tool.expand(["metrics.rates"]) == ["metrics.rates"]
    assert tool.status_of(None) == "not run"
    assert tool.main(["--resume", "no-such-group"]) == 2
