"""RSR and the interruption breakdown on hand-made results tables."""

from __future__ import annotations

import math

import pandas as pd

import openapps_sim.analysis.metrics as m
from openapps_sim.analysis.report.robustness import robustness_tables


def episode(agent, task, seed, variation, success, shown=(), error=None):
    return {
        "agent": agent,
        "task": task,
        "seed": seed,
        "variation": variation,
        "success": success,
        "reward": float(success),
        "error": error,
        "interruptions": list(shown),
    }


def shown(kind, buttons, button, harmful=False, steps=1):
    return {
        "id": kind,
        "kind": kind,
        "buttons": buttons,
        "button": button,
        "steps_to_recover": steps,
        "harmful": harmful,
    }


def table():
    rows = []
    for seed in range(4):
        rows.append(episode("a", "t", seed, "default", seed != 3))  # solved on seeds 0, 1, 2
        ok = seed in (0, 3)  # of the solved units only seed 0 survives; seed 3 is not counted
        rows.append(episode("a", "t", seed, "interrupt_x", ok, [shown("permission", 2, "accept", harmful=not ok)]))
        rows.append(episode("b", "t", seed, "default", True))
        rows.append(episode("b", "t", seed, "interrupt_x", True, [shown("crash", 1, "restart", steps=2)]))
    rows.append(episode("b", "t", 9, "interrupt_x", False, error="browser crashed"))  # never counted
    return pd.DataFrame(rows)


def test_rsr_counts_only_units_solved_in_the_baseline():
    rsr = m.robust_success_rate(table(), "default", "interrupt_x").set_index("agent")
    assert rsr.loc["a", "solved"] == 3 and rsr.loc["a", "units"] == 4
    assert math.isclose(rsr.loc["a", "rsr"], 1 / 3)
    assert math.isclose(rsr.loc["a", "baseline_sr"], 0.75) and math.isclose(rsr.loc["a", "variation_sr"], 0.5)
    assert rsr.loc["a", "ci_lo"] <= 1 / 3 <= rsr.loc["a", "ci_hi"]
    assert rsr.loc["b", "rsr"] == 1.0 and rsr.loc["b", "units"] == 4


def test_rsr_works_for_any_pair_and_is_empty_without_the_baseline():
    df = table()
    assert list(m.rsr_table(df)["variation"].unique()) == ["interrupt_x"]
    assert m.rsr_table(df[df["variation"] != "default"]).empty
    swapped = m.robust_success_rate(df, "interrupt_x", "default").set_index("agent")
    assert swapped.loc["a", "rsr"] == 0.5  # of seeds 0 and 3 (solved when interrupted) only 0 is solved without


def test_breakdown_by_kind_and_buttons():
    out = m.interruption_breakdown(table(), ("agent", "kind", "buttons")).set_index(["agent", "kind"])
    assert out.loc[("a", "permission"), "shown"] == 4
    assert math.isclose(out.loc[("a", "permission"), "harmful"], 0.5)
    assert out.loc[("b", "crash"), "buttons"] == 1 and out.loc[("b", "crash"), "steps_to_recover"] == 2.0


def test_report_tables():
    captions = [c for c, _, _ in robustness_tables(table())]
    assert len(captions) == 2 and "RSR" in captions[0]
    assert robustness_tables(pd.DataFrame([episode("a", "t", 0, "default", True)])) == []
