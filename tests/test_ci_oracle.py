"""`.ci/run`'s check after the text-backend oracle matrix: it fails on any episode not solved
(the last record of an episode counts, as a resumed sweep runs a failed one again)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def check(tmp_path: Path, records: list[dict], *spec: str) -> subprocess.CompletedProcess:
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "all_solved.py"), str(path), *spec],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def record(episode: str, reward: float, error: str | None = None) -> dict:
    return {
        "episode_id": episode,
        "task": "todo.add_item",
        "variation": "german",
        "seed": 1,
        "reward": reward,
        "error": error,
    }


def test_an_unsolved_episode_fails_and_is_named(tmp_path):
    done = check(tmp_path, [record("a", 1.0), record("b", 0.0)])
    assert done.returncode == 1
    assert "1 / 2 episodes solved" in done.stdout and "todo.add_item / german / seed 1: reward 0.0" in done.stdout


def test_an_episode_run_again_counts_by_its_last_record(tmp_path):
    assert check(tmp_path, [record("a", 0.0, "app server died"), record("a", 1.0)]).returncode == 0
    assert check(tmp_path, [record("a", 1.0), record("a", 0.0, "app server died")]).returncode == 1


def test_an_unknown_spec_is_one_message(tmp_path):
    done = check(tmp_path, [record("a", 1.0)], "rides_check")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("rides_check: no such sweep spec file; allowed: a path, or one of "), line
