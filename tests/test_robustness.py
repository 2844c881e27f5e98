"""RSR and the interruption breakdown on hand-made results tables."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from openapps_sim.analysis.metrics.drift import perception_drift
from openapps_sim.analysis.metrics.robustness import (
    interruption_breakdown,
    robust_success_rate,
    robustness_tables,
    rsr_by_buttons,
    rsr_table,
)
from openapps_sim.config.world import WorldSpec


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
    rsr = robust_success_rate(table(), "default", "interrupt_x").set_index("agent")
    assert rsr.loc["a", "solved"] == 3 and rsr.loc["a", "units"] == 4
    assert math.isclose(rsr.loc["a", "rsr"], 1 / 3)
    assert math.isclose(rsr.loc["a", "baseline_sr"], 0.75) and math.isclose(rsr.loc["a", "variation_sr"], 0.5)
    assert rsr.loc["a", "ci_lo"] <= 1 / 3 <= rsr.loc["a", "ci_hi"]
    assert rsr.loc["b", "rsr"] == 1.0 and rsr.loc["b", "units"] == 4


def test_rsr_works_for_any_pair_and_is_empty_without_the_baseline():
    df = table()
    assert list(rsr_table(df)["variation"].unique()) == ["interrupt_x"]
    assert rsr_table(df[df["variation"] != "default"]).empty
    swapped = robust_success_rate(df, "interrupt_x", "default").set_index("agent")
    assert swapped.loc["a", "rsr"] == 0.5  # of seeds 0 and 3 (solved when interrupted) only 0 is solved without


def test_breakdown_by_kind_and_buttons():
    out = interruption_breakdown(table(), ("agent", "kind", "buttons")).set_index(["agent", "kind"])
    assert out.loc[("a", "permission"), "shown"] == 4
    assert math.isclose(out.loc[("a", "permission"), "harmful"], 0.5)
    assert out.loc[("b", "crash"), "buttons"] == 1 and out.loc[("b", "crash"), "steps_to_recover"] == 2.0


def test_report_tables():
    captions = [c for c, _, _ in robustness_tables(table())]
    assert len(captions) == 4 and "RSR" in captions[0] and "button mode" in captions[1] and "kind" in captions[2]
    assert robustness_tables(pd.DataFrame([episode("a", "t", 0, "default", True)])) == []


def _mixed_table(interruptible=True):
    """Four units solved in the baseline; in the interrupting version three ran with nothing shown
    (and succeeded), one was interrupted and failed."""
    rows = [episode("a", "t", seed, "default", True) for seed in range(4)]
    for seed in range(3):
        rows.append(dict(episode("a", "t", seed, "interrupt_mixed", True), interruptible=interruptible))
    rows.append(
        dict(episode("a", "t", 3, "interrupt_mixed", False, [shown("crash", 1, "restart")]), interruptible=True)
    )
    return pd.DataFrame(rows)


def test_rsr_counts_only_units_where_an_interruption_was_shown():
    r = robust_success_rate(_mixed_table(), "default", "interrupt_mixed").iloc[0]
    assert r["rsr"] == 0.0  # not 0.75: the three successes were never interrupted
    assert r["units"] == 4 and r["interrupted"] == 1 and r["solved"] == 1
    assert math.isclose(r["uninterrupted_share"], 0.75)
    assert r["interrupted_sr"] == 0.0 and math.isclose(r["variation_sr"], 0.75)
    # a version that interrupts but showed nothing (e.g. api interface): nothing to measure
    quiet = _mixed_table()
    quiet = quiet[~((quiet["variation"] == "interrupt_mixed") & (quiet["seed"] == 3))]
    r = robust_success_rate(quiet, "default", "interrupt_mixed").iloc[0]
    assert math.isnan(r["rsr"]) and r["uninterrupted_share"] == 1.0 and r["interrupted"] == 0
    # a version that never interrupts (a language) counts every unit
    lang = _mixed_table().replace({"variation": {"interrupt_mixed": "german"}})
    lang["interruptions"] = [[] for _ in range(len(lang))]
    lang["interruptible"] = False
    r = robust_success_rate(lang, "default", "german").iloc[0]
    assert math.isclose(r["rsr"], 0.75) and math.isnan(r["uninterrupted_share"])


def test_rsr_per_button_mode():
    rows = [episode("a", "t", seed, "default", True) for seed in range(4)]
    rows += [
        episode("a", "t", 0, "interrupt_x", True, [shown("permission", 2, "deny")]),
        episode("a", "t", 1, "interrupt_x", False, [shown("permission", 2, "accept", harmful=True)]),
        episode("a", "t", 2, "interrupt_x", True, [shown("crash", 1, "restart")]),
        episode("a", "t", 3, "interrupt_x", True),  # nothing shown: in no mode
    ]
    out = rsr_by_buttons(pd.DataFrame(rows)).set_index("buttons")
    assert out.loc[1, "rsr"] == 1.0 and out.loc[1, "interrupted"] == 1
    assert out.loc[2, "rsr"] == 0.5 and out.loc[2, "interrupted"] == 2 and out.loc[2, "units"] == 4
    tables = robustness_tables(pd.DataFrame(rows))
    [(_, headers, mode_rows)] = [t for t in tables if "button mode" in t[0]]
    assert headers[2] == "Buttons" and [r[2] for r in mode_rows] == ["1", "2"]
    [(_, headers, rsr_rows)] = [t for t in tables if t[0].startswith("RSR (D-GARA)")]
    assert rsr_rows[0][4] == "3/4 (25.0%)"  # interrupted units, and the share nothing interrupted


@pytest.mark.browser
def test_records_say_whether_their_version_interrupts():
    """RSR needs to know a version interrupts even where nothing was shown (api interface, a
    probability, a later step): the runner records it from the world's configuration."""
    from openapps_sim.sweeps.record import EpisodeSpec
    from openapps_sim.sweeps.runner import Worker, run_with_retry

    worker = Worker()
    try:
        quiet = run_with_retry(
            worker, EpisodeSpec("oracle", "todo.add_item", WorldSpec("default", 0)), None, "r"
        ).record
        loud = run_with_retry(
            worker, EpisodeSpec("oracle", "todo.add_item", WorldSpec("interrupt_permission", 0)), None, "r"
        )
    finally:
        worker.close()
    assert quiet["interruptible"] is False and quiet["interruptions"] == []
    assert loud.record["interruptible"] is True and loud.record["interruptions"]


def _drift_table() -> pd.DataFrame:
    """Agent b: three crash-restarted episodes, one drifted with 4 stale actions; agent a: one
    restart, no drift; default episodes restart nothing (stale_actions null)."""
    df = table()
    df["stale_actions"] = None
    crashed = df.index[(df["agent"] == "b") & (df["variation"] == "interrupt_x") & df["error"].isna()]
    df.loc[crashed[:3], "stale_actions"] = [4, 0, 0]
    first_a = df.index[(df["agent"] == "a") & (df["variation"] == "interrupt_x")][0]
    df.loc[first_a, "stale_actions"] = 0
    return df


def test_perception_drift_counts_restarted_episodes_only():
    out = perception_drift(_drift_table()).set_index(["agent", "variation"])
    assert list(out.index) == [("a", "interrupt_x"), ("b", "interrupt_x")], "no restart, no row"
    b = out.loc[("b", "interrupt_x")]
    assert (b["restarted"], b["stale_actions"]) == (3, 4)
    assert math.isclose(b["drifted"], 1 / 3) and math.isclose(b["stale_mean"], 4 / 3)
    assert out.loc[("a", "interrupt_x"), "drifted"] == 0.0
    assert perception_drift(table()).empty, "older results without the field"


def test_drift_is_shown_next_to_rsr():
    caption, headers, rows = robustness_tables(_drift_table())[0]
    assert headers[-2:] == ["RSR [95% CI]", "Perception drift"] and "Perception drift" in caption
    cells = {(r[0], r[1]): r[-1] for r in rows}
    assert cells[("b", "interrupt_x")] == "33.3% of 3 (4 stale)"
    assert cells[("a", "interrupt_x")] == "0.0% of 1 (0 stale)"
    alone = robustness_tables(_drift_table().query("variation != 'default'"))
    assert alone[0][1][2] == "Restarted episodes", "without a baseline, drift has its own table"
