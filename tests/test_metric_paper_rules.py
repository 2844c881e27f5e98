"""The paper's views as frames (Tables 4, 5/6, 7, 9 and the deviation intervals), every expected
value written out (hand-made tables; ``make mutants`` runs these against
``analysis/metrics/paper.py``). With one task per group a bootstrap over tasks can only draw that
task, so each interval is the value itself."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from openapps_sim.analysis.metrics.paper import (
    axis_grid,
    deviation_intervals,
    multi_step,
    task_reliability,
    version_reliability,
)


def _table() -> pd.DataFrame:
    rows = [
        ("a", "t1", "default", 0, 1.0),
        ("a", "t1", "default", 1, 0.0),
        ("a", "t2", "default", 0, 1.0),
        ("a", "t2", "default", 1, 1.0),
        ("b", "t1", "default", 0, 0.0),
        ("b", "t1", "default", 1, 0.0),
        ("a", "t1", "dark", 0, 1.0),
        ("a", "t1", "dark", 1, 1.0),
    ]
    df = pd.DataFrame(rows, columns=["agent", "task", "variation", "seed", "reward"])
    df["success"] = df["reward"] >= 1.0
    return df


def test_task_reliability_in_one_version():
    got = task_reliability(_table())
    assert got.columns.tolist() == ["agent", "task", "n", "success_rate", "std", "mad"]
    assert got.values.tolist() == [
        ["a", "t1", 2, 0.5, 0.5, 0.5],
        ["a", "t2", 2, 1.0, 0.0, 0.0],
        ["b", "t1", 2, 0.0, 0.0, 0.0],
    ]
    dark = task_reliability(_table(), version="dark")
    assert dark.values.tolist() == [["a", "t1", 2, 1.0, 0.0, 0.0]]
    none = task_reliability(_table(), version="nowhere")
    assert none.empty
    assert none.columns.tolist() == ["agent", "task", "n", "success_rate", "std", "mad"]


def test_version_reliability_averaged_over_tasks():
    got = version_reliability(_table(), n_boot=40, seed=3)
    rows = {(r["agent"], r["variation"]): r for r in got.to_dict("records")}
    assert sorted(rows) == [("a", "dark"), ("a", "default"), ("b", "default")]
    a = rows[("a", "default")]
    assert (a["tasks"], a["n"]) == (2, 4)
    assert (a["success_rate"], a["std"], a["mad"]) == (0.75, 0.25, 0.25)
    assert 0.5 <= a["success_rate_lo"] <= 0.75 <= a["success_rate_hi"] <= 1.0
    assert 0.0 <= a["std_lo"] <= 0.25 <= a["std_hi"] <= 0.5
    dark = rows[("a", "dark")]
    assert (dark["tasks"], dark["n"]) == (1, 2)
    assert [dark[k] for k in ("success_rate", "success_rate_lo", "success_rate_hi")] == [1.0, 1.0, 1.0]
    assert [dark[k] for k in ("std", "std_lo", "std_hi", "mad", "mad_lo", "mad_hi")] == [0.0] * 6
    b = rows[("b", "default")]
    assert [b[k] for k in ("tasks", "n", "success_rate", "success_rate_lo", "success_rate_hi")] == [1, 2, 0.0, 0.0, 0.0]
    assert list(got.columns[:3]) == ["agent", "variation", "tasks"]
    assert version_reliability(_table().iloc[:0]).empty


def test_deviation_intervals_of_one_task():
    df = _table()
    df = df[(df["agent"] == "a") & (df["task"] == "t1")]
    got = deviation_intervals(df, n_boot=30, seed=1).to_dict("records")
    assert len(got) == 1
    r = got[0]
    assert (r["agent"], r["tasks"]) == ("a", 1)
    expected = {
        "within_std": 0.25,
        "within_mad": 0.25,
        "across_std": 0.4330127018922193,
        "across_mad": 0.375,
        "std_ratio": 1.7320508075688772,
        "mad_ratio": 1.5,
    }
    for name, value in expected.items():
        assert r[name] == pytest.approx(value), name
        assert r[f"{name}_lo"] == pytest.approx(value), name
        assert r[f"{name}_hi"] == pytest.approx(value), name


def test_deviation_intervals_without_a_within_deviation_are_nan():
    df = _table()
    df = df[(df["agent"] == "b")]
    r = deviation_intervals(df, n_boot=10).to_dict("records")[0]
    assert (r["agent"], r["tasks"]) == ("b", 1)
    assert r["within_std"] == 0.0 and r["across_std"] == 0.0
    assert math.isnan(r["std_ratio"]) and math.isnan(r["mad_ratio"])  # 0 / 0
    assert math.isnan(r["std_ratio_lo"]) and math.isnan(r["std_ratio_hi"])
    assert math.isnan(r["mad_ratio_lo"]) and math.isnan(r["mad_ratio_hi"])
    assert (r["within_std_lo"], r["within_std_hi"]) == (0.0, 0.0)


def test_axis_grid_averages_tasks_per_cell():
    df = _table()
    df["viewport"] = ["800x600", "800x600", "800x600", "800x600", "1280x720", "1280x720", "800x600", "800x600"]
    got = axis_grid(df, "viewport")
    assert got.columns.tolist() == ["agent", "viewport", "variation", "tasks", "n", "success_rate"]
    assert got.values.tolist() == [
        ["a", "800x600", "default", 2, 4, 0.75],
        ["a", "800x600", "dark", 1, 2, 1.0],
        ["b", "1280x720", "default", 1, 2, 0.0],
    ]
    assert [str(got[c].dtype) for c in ("tasks", "n")] == ["int64", "int64"]
    assert axis_grid(_table(), "viewport").empty
    assert axis_grid(df.iloc[:0], "viewport").empty


def test_multi_step_over_the_multi_step_families():
    df = pd.DataFrame(
        {
            "agent": ["a", "a", "a", "b", "b", "a"],
            "task": ["t"] * 6,
            "success": [True, False, False, False, True, False],
            "reward": [1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            "partial_reward": [1.0, 0.5, 0.0, 0.0, 0.0, 0.9],
            "structure": ["sequential", "conjunctive", "hierarchical", "conditional", "sequential", "single"],
        }
    )
    got = multi_step(df)
    assert got.columns.tolist() == ["agent", "n", "success_rate", "partial_reward", "any_subgoal"]
    assert got["agent"].tolist() == ["a", "b"]
    assert got["n"].tolist() == [3, 2]
    assert got["success_rate"].tolist() == pytest.approx([1 / 3, 0.5])
    assert got["partial_reward"].tolist() == pytest.approx([0.5, 0.0])
    assert got["any_subgoal"].tolist() == pytest.approx([2 / 3, 0.5])
    assert multi_step(df.drop(columns=["structure"])).empty
    assert multi_step(df[df["structure"] == "single"]).empty


def _five_tasks() -> pd.DataFrame:
    """One agent, five tasks, two versions, two seeds each: intervals over tasks with room to move;
    t2 and t5 never vary within a version, so some resamples have no within deviation at all."""
    spec = {
        ("t1", "default"): (1, 0),
        ("t2", "default"): (1, 1),
        ("t3", "default"): (0, 0),
        ("t4", "default"): (1, 0),
        ("t5", "default"): (1, 1),
        ("t1", "dark"): (1, 1),
        ("t2", "dark"): (0, 0),
        ("t3", "dark"): (0, 1),
        ("t4", "dark"): (1, 0),
        ("t5", "dark"): (1, 1),
    }
    rows = [("a", t, var, seed, float(s)) for (t, var), succ in spec.items() for seed, s in enumerate(succ)]
    df = pd.DataFrame(rows, columns=["agent", "task", "variation", "seed", "reward"])
    df["success"] = df["reward"] >= 1.0
    return df


def test_version_reliability_intervals_over_tasks_by_default():
    # 1000 resamples of the tasks, seed 0: written out from a run, the means by hand
    # (success 12 of 20; std 0.5, 0, 0, 0.5, 0 in default and 0, 0, 0.5, 0.5, 0 in dark)
    got = version_reliability(_five_tasks(), ["agent"]).to_dict("records")
    assert got == [
        {
            "agent": "a",
            "tasks": 5,
            "n": 20,
            "success_rate": pytest.approx(0.6),
            "success_rate_lo": pytest.approx(0.4),
            "success_rate_hi": pytest.approx(0.85),
            "std": pytest.approx(0.373205, abs=1e-6),
            "std_lo": pytest.approx(0.186603, abs=1e-6),
            "std_hi": pytest.approx(0.486603, abs=1e-6),
            "mad": pytest.approx(0.35),
            "mad_lo": pytest.approx(0.175),
            "mad_hi": pytest.approx(0.475),
        }
    ]
    other = version_reliability(_five_tasks(), ["agent"], n_boot=40, seed=3).iloc[0]
    assert [other["std_lo"], other["std_hi"]] == pytest.approx([0.186268, 0.473205], abs=1e-6)


def test_deviation_intervals_over_tasks_by_default():
    r = deviation_intervals(_five_tasks()).iloc[0]
    assert (r["agent"], r["tasks"]) == ("a", 5)
    expected = {
        "within_std": (0.2, 0.05, 0.35),
        "across_std": (0.373205, 0.186603, 0.486603),
        "within_mad": (0.2, 0.05, 0.35),
        "across_mad": (0.35, 0.175, 0.475),
        "std_ratio": (1.866025, 1.14641, 4.732051),
        "mad_ratio": (1.75, 1.1, 4.5),
    }
    for name, values in expected.items():
        assert [r[name], r[f"{name}_lo"], r[f"{name}_hi"]] == pytest.approx(values, abs=1e-6), name
    seeded = deviation_intervals(_five_tasks(), n_boot=40, seed=3).iloc[0]
    assert [seeded["std_ratio_lo"], seeded["std_ratio_hi"]] == pytest.approx([1.242492, 3.73875], abs=1e-6)


def test_paper_intervals_keep_the_groups_in_sort_key_order_and_a_missing_key():
    df = _five_tasks()
    both = pd.concat([df.assign(agent="apps"), df.assign(agent="default")], ignore_index=True)
    both["model"] = ["m"] * 20 + [None] * 20
    assert deviation_intervals(both, n_boot=20)["agent"].tolist() == ["default", "apps"]
    by_model = deviation_intervals(both, by=["model"], n_boot=20)
    assert by_model["tasks"].tolist() == [5, 5]
    assert by_model["model"].iloc[0] == "m" and by_model["model"].isna().tolist() == [False, True]
    renamed = df.assign(variation=df["variation"].map({"default": "default", "dark": "apps_dark"}))
    assert version_reliability(renamed, n_boot=20)["variation"].tolist() == ["default", "apps_dark"]
    renamed["model"] = ["m"] * 10 + [None] * 10
    per_model = version_reliability(renamed, by=["model"], n_boot=20)
    assert per_model[["tasks", "n"]].values.tolist() == [[5, 10], [5, 10]]
    assert per_model["model"].isna().tolist() == [False, True]


def test_deviation_intervals_within_the_versions_given():
    # variation and viewport together: each version has one episode per task, so no within deviation
    df = _five_tasks()
    df["viewport"] = ["800x600", "1280x720"] * 10
    got = deviation_intervals(df, version=["variation", "viewport"], n_boot=20).iloc[0]
    assert got["tasks"] == 5
    assert math.isnan(got["within_std"])
    assert deviation_intervals(df, n_boot=20)["within_std"].tolist() == [pytest.approx(0.2)]


def _spread() -> pd.DataFrame:
    """One agent, five tasks, two versions, two seeds of partial rewards: resample means of many
    values, so that 1000 and 1001 resamples give other percentiles."""
    spec = {
        ("t1", "default"): (0.25, 0.75),
        ("t1", "dark"): (0.5, 1.0),
        ("t2", "default"): (0.75, 1.0),
        ("t2", "dark"): (0.5, 0.25),
        ("t3", "default"): (0.25, 1.0),
        ("t3", "dark"): (0.5, 0.0),
        ("t4", "default"): (1.0, 1.0),
        ("t4", "dark"): (0.0, 0.0),
        ("t5", "default"): (0.75, 0.5),
        ("t5", "dark"): (0.25, 0.0),
    }
    rows = [("a", t, var, seed, r) for (t, var), rewards in spec.items() for seed, r in enumerate(rewards)]
    df = pd.DataFrame(rows, columns=["agent", "task", "variation", "seed", "reward"])
    df["success"] = df["reward"] >= 1.0
    return df


def test_the_paper_intervals_take_1000_resamples_by_default():
    # written out from a run with seed 0: 1000 resamples by default, and 1001 would move the
    # upper bounds (0.421853 and 0.4 below)
    rel = version_reliability(_spread(), ["agent"]).iloc[0]
    assert [rel["std_hi"], rel["mad_hi"]] == pytest.approx([0.422053, 0.400312], abs=1e-6)
    dev = deviation_intervals(_spread()).iloc[0]
    assert [dev["across_std_hi"], dev["across_mad_hi"]] == pytest.approx([0.422053, 0.400312], abs=1e-6)
    more = version_reliability(_spread(), ["agent"], n_boot=1001).iloc[0]
    assert [more["std_hi"], more["mad_hi"]] == pytest.approx([0.421853, 0.4], abs=1e-6)
    more = deviation_intervals(_spread(), n_boot=1001).iloc[0]
    assert [more["across_std_hi"], more["across_mad_hi"]] == pytest.approx([0.421853, 0.4], abs=1e-6)
