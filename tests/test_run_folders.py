"""`openapps run --out` folders add up: repeated runs into one folder are all kept, a parent of
run folders is reported as one, and `openapps export` takes run folders (issue 26, point 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from openapps_sim.analysis.report.load import load_results, load_trajectory
from openapps_sim.analysis.report.write import write_report
from openapps_sim.cli.main import main
from openapps_sim.sweeps.store import read_results, result_folders


def _record(episode_id: str, **extra) -> dict:
    rec = {
        "episode_id": episode_id,
        "agent": "oracle",
        "task": "todo.add_item",
        "variation": "default",
        "seed": 0,
        "success": True,
        "reward": 1.0,
        "steps": 2,
    }
    rec.update(extra)
    return rec


def test_a_parent_of_run_folders_reads_every_run_and_finds_their_trajectories(tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "results.jsonl").write_text(json.dumps(_record("e1")) + "\n" + json.dumps(_record("e2")) + "\n")
    (tmp_path / "a" / "trajectories").mkdir()
    steps = [{"action": "noop()", "screenshot": "screenshots/e2/001.png"}]
    (tmp_path / "a" / "trajectories" / "e2.json").write_text(json.dumps({"steps": steps}))
    (tmp_path / "b").mkdir()  # a folder of an older `openapps run --out`: its episode.json only
    (tmp_path / "b" / "episode.json").write_text(json.dumps(_record("e3", success=False, reward=0.0)))
    (tmp_path / "notes").mkdir()  # not a results folder: left out
    assert result_folders(tmp_path) == [tmp_path / "a", tmp_path / "b"]
    df = load_results(tmp_path)
    assert sorted(df["episode_id"]) == ["e1", "e2", "e3"]
    traj = load_trajectory(tmp_path, "e2")
    assert traj["steps"][0]["screenshot"] == "a/screenshots/e2/001.png"  # relative to the parent
    assert load_trajectory(tmp_path / "a", "e2")["steps"][0]["screenshot"] == "screenshots/e2/001.png"


def test_report_and_export_name_what_they_accept(tmp_path: Path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "a folder of such folders" in capsys.readouterr().err


@pytest.mark.browser
def test_runs_into_one_folder_add_up_and_are_reported_and_exported(tmp_path: Path, capsys):
    runs = tmp_path / "runs"
    one = ["run", "--agent", "oracle", "--task", "todo.add_item", "--seed", "1"]
    assert main([*one, "--out", str(runs / "a")]) == 0
    assert main([*one, "--out", str(runs / "a")]) == 0
    out = capsys.readouterr().out
    assert "recorded as trial 1" in out
    assert main([*one[:-1], "2", "--no-screenshots", "--out", str(runs / "b")]) == 0
    records = read_results(runs / "a" / "results.jsonl")
    assert [r["trial"] for r in records] == [0, 1] and len({r["episode_id"] for r in records}) == 2
    assert not (runs / "a" / "episode.json").exists()
    assert len(list((runs / "a" / "trajectories").glob("*.json"))) == 2

    assert main(["report", str(runs / "a")]) == 0
    assert "| oracle | 2 |" in (runs / "a" / "report.md").read_text()
    assert main(["report", str(runs)]) == 0  # the parent of both run folders
    md, html = write_report(runs)
    assert "| oracle | 3 |" in md.read_text()
    page = html.read_text()
    assert all(f'id="ep-{r["episode_id"]}"' in page for r in records)
    assert "screenshot file missing" not in page  # the screenshots of runs/a are found from runs/

    capsys.readouterr()
    assert main(["export", str(runs / "a"), str(runs / "b"), "--out", str(tmp_path / "ds")]) == 0
    assert "train: 3 episodes" in capsys.readouterr().out
    rows = pd.read_parquet(tmp_path / "ds" / "data" / "train-00000.parquet")
    assert rows["episode_id"].nunique() == 3
