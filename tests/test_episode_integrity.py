"""Episode integrity in sweeps: an agent's failures are the agent's, infrastructure errors are
only a dead browser or server; repeated trials of one instance; spec keys checked."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from openapps_sim.analysis import metrics as m
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import RECORD_FIELDS
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep


def write_spec(tmp_path: Path, **data) -> Path:
    base = {"name": "t", "agents": ["oracle"], "tasks": ["todo.add_item"], "variations": ["default"], "seeds": 1}
    base.update(data)
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(base))
    return path


@pytest.mark.browser
def test_an_action_that_breaks_the_step_is_the_agents_failure(tmp_path):
    spec = load_spec(write_spec(tmp_path, agents=["tests.sweep_agents:BidCollisionAgent"], max_steps=4))
    summary = run_sweep(spec, tmp_path / "out", workers=1, progress=False)
    [rec] = read_results(tmp_path / "out" / "results.jsonl")
    assert summary["errors"] == 0
    assert rec["error"] is None and rec["attempt"] == 1, rec["error"]
    assert rec["success"] is False and rec["reward"] == 0.0
    assert rec["steps"] == 1 and rec["actions"][0].startswith('goto("data:')
    assert rec["invalid"].get("browser_error") == 1
    assert set(rec) == set(RECORD_FIELDS)
    # Scored as a failure by every agent metric, and no infrastructure error.
    summary = m.reliability_summary(m.prepare(_frame([rec])), ["agent"], n_boot=10)
    assert summary["n"].tolist() == [1] and summary["success_rate"].tolist() == [0.0]
    assert summary["errors"].tolist() == [0]


@pytest.mark.browser
def test_a_killed_browser_is_still_infrastructure(tmp_path):
    spec = load_spec(write_spec(tmp_path, agents=["tests.sweep_agents:BrowserKillerAgent"], max_steps=2))
    summary = run_sweep(spec, tmp_path / "out", workers=1, progress=False)
    [rec] = read_results(tmp_path / "out" / "results.jsonl")
    assert summary["errors"] == 1
    assert rec["error"] and rec["attempt"] == 2 and rec["success"] is False
    assert m.valid_episodes(_frame([rec])).empty


def _frame(records: list[dict]):
    import pandas as pd

    return pd.DataFrame(records)
