"""Perception drift's counting rules with every answer written out (hand-made tables, no browser;
``make mutants`` runs these against ``analysis/metrics/drift.py``)."""

from __future__ import annotations

import pandas as pd

from openapps_sim.analysis.metrics.drift import DRIFT_COLUMNS, drift_cell, perception_drift


def episode(agent: str, variation: str, stale, seed: int = 0) -> dict:
    return {"agent": agent, "task": "t", "seed": seed, "variation": variation, "success": True, "stale_actions": stale}


def test_one_stale_action_is_a_drifted_episode():
    """1 stale action drifts as surely as 4; rows sorted by agent then version whatever the file
    order; episodes no crash restarted (None) are left out."""
    rows = [
        episode("b", "v2", 1),
        episode("b", "v2", 0, seed=1),
        episode("b", "v1", 0),
        episode("a", "v2", 1),
        episode("a", "v2", None, seed=1),
    ]
    got = perception_drift(pd.DataFrame(rows))
    assert got.to_dict("records") == [
        {"agent": "a", "variation": "v2", "restarted": 1, "drifted": 1.0, "stale_actions": 1, "stale_mean": 1.0},
        {"agent": "b", "variation": "v1", "restarted": 1, "drifted": 0.0, "stale_actions": 0, "stale_mean": 0.0},
        {"agent": "b", "variation": "v2", "restarted": 2, "drifted": 0.5, "stale_actions": 1, "stale_mean": 0.5},
    ]


def test_no_restart_gives_an_empty_table_with_its_columns():
    assert DRIFT_COLUMNS == ["agent", "variation", "restarted", "drifted", "stale_actions", "stale_mean"]
    no_field = pd.DataFrame([{"agent": "a", "task": "t", "seed": 0, "success": True}])
    never = pd.DataFrame([episode("a", "v1", None), episode("a", "v1", None, seed=1)])
    for df in (no_field, never):
        got = perception_drift(df)
        assert got.empty and list(got.columns) == DRIFT_COLUMNS


def test_drift_cell_names_share_restarts_and_stale_actions():
    drift = {("a", "v1"): {"drifted": 0.25, "restarted": 4, "stale_actions": 7}}
    assert drift_cell(drift, "a", "v1") == "25.0% of 4 (7 stale)"
    assert drift_cell(drift, "a", "v2") == "\u2013"  # an en dash: no restart here
