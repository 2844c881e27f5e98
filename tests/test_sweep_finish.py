"""A sweep leaves no lock file behind, and a --resume with nothing left says so instead of
printing a success rate of nothing ("success -") (issue 26, point 10)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.sweep import _Lock, manifest_for, run_sweep


def test_the_lock_file_goes_with_the_lock_and_a_second_sweep_is_still_refused(tmp_path: Path):
    import pytest

    from openapps_sim.errors import ConfigError

    lock = _Lock(tmp_path)
    assert (tmp_path / ".sweep.lock").is_file()
    with pytest.raises(ConfigError, match="another sweep"):
        _Lock(tmp_path)
    lock.release()
    assert not (tmp_path / ".sweep.lock").exists()
    again = _Lock(tmp_path)  # a new sweep locks the folder again
    again.release()
    assert not (tmp_path / ".sweep.lock").exists()


def test_resume_with_nothing_left_says_so(tmp_path: Path, capsys):
    (tmp_path / "spec.yaml").write_text(
        yaml.safe_dump({"name": "done", "agents": ["oracle"], "tasks": ["todo.add_item"], "seeds": 2})
    )
    spec = load_spec(tmp_path / "spec.yaml")
    out = tmp_path / "out"
    out.mkdir()
    records = [
        {"episode_id": e.episode_id, "agent": e.agent, "task": e.task, "seed": e.world.seed, "success": True}
        for e in spec.episodes()
    ]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (out / "manifest.json").write_text(json.dumps(manifest_for(spec, 1, "local")))
    summary = run_sweep(spec, out, workers=1, resume=True, progress=True)
    err = capsys.readouterr().err
    assert summary["ran"] == 0 and summary["skipped"] == 2
    assert "success -" not in err and f"nothing left to run: all 2 episodes of done are recorded in {out}" in err
    assert not (out / ".sweep.lock").exists()
