"""Which axes a sweep varied, how their values are named and ordered, and the breakdown by them,
every answer written out (hand-made tables; ``make mutants`` runs these against
``analysis/metrics/axes.py``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from openapps_sim.analysis.metrics.axes import Rows, axis_breakdown, axis_label, varied_axes, version_columns

from .metric_columns import CI_COLUMNS, SUCCESS_COLUMNS


@pytest.mark.parametrize(
    "value, label",
    [
        (None, "unset"),
        (float("nan"), "unset"),
        (True, "True"),
        (np.bool_(False), "False"),
        (0.7, "0.7"),
        (2, "2"),
        (np.int64(3), "3"),
        (np.float32(0.5), "0.5"),
        (1e-05, "1e-05"),
        (1280.0, "1280"),
        ("german", "german"),
    ],
)
def test_axis_label_by_value(value, label):
    assert axis_label(value) == label


def ep(agent="A", seed=0, success=False, **kw) -> dict:
    return {"agent": agent, "task": "t", "seed": seed, "success": success, **kw}


def test_an_axis_varies_only_within_one_agent():
    both = pd.DataFrame([ep(language="en"), ep(seed=1, language="de"), ep("B", language="en")])
    assert varied_axes(both) == ["language"]
    per_agent = pd.DataFrame([ep(language="en"), ep("B", language="de")])
    assert varied_axes(per_agent) == []
    assert varied_axes(per_agent, within=()) == ["language"]  # over every episode
    assert varied_axes(per_agent, within=("nobody",)) == ["language"]  # a grouping column absent
    assert varied_axes(per_agent.iloc[:0]) == []
    # standard axes first, then the caller's, each once, the grouping column never
    many = pd.DataFrame([ep(custom=1, viewport="1x1"), ep(seed=1, custom=2, viewport="2x2")])
    assert varied_axes(many, axes=["custom", "viewport", "agent"]) == ["viewport", "custom"]
    # an infrastructure error is no value of the axis
    err = pd.DataFrame([ep(language="en"), ep(seed=1, language="de", error="crash")])
    assert varied_axes(err) == []


def test_version_columns_leave_the_agent_config_out():
    df = pd.DataFrame(
        [
            ep(agent_config="x", viewport="1x1", variation="dark"),
            ep(seed=1, agent_config="y", viewport="2x2", variation="default"),
        ]
    )
    assert varied_axes(df) == ["variation", "viewport", "agent_config"]
    assert version_columns(df) == ["variation", "viewport"]
    assert version_columns(pd.DataFrame([ep(custom=1), ep(seed=1, custom=2)]), axes=["custom"]) == [
        "variation",
        "custom",
    ]


def test_axis_breakdown_rows_in_axis_value_and_group_order():
    df = pd.DataFrame(
        [
            ep("B", 0, True, language="de"),
            ep("A", 1, False, language="unset_text"),
            ep("A", 2, True, language="de"),
            ep("A", 3, True, language=None),
            ep("A", 4, False, language="default"),
            ep("A", 5, False, language="de"),
        ]
    )
    b = axis_breakdown(df, ci=False)
    assert list(b.columns) == ["axis", "value", "agent", *SUCCESS_COLUMNS]
    assert b[["axis", "value", "agent", "n", "successes"]].values.tolist() == [
        ["language", "default", "A", 1, 0],
        ["language", "de", "A", 2, 1],
        ["language", "de", "B", 1, 1],
        ["language", "unset_text", "A", 1, 0],
        ["language", "unset", "A", 1, 1],
    ]
    assert b["success_rate"].tolist() == [0.0, 0.5, 1.0, 0.0, 1.0]


def test_axis_breakdown_intervals_and_no_axis():
    """de: 2 of 5; with 50 resamples, 90% and seed 3 the interval is (0.09, 0.6) (the defaults
    give (0, 0.8); any one of the three left at its default gives another interval)."""
    outcomes = [True, False, False, True, False]
    df = pd.DataFrame(
        [ep(seed=i, success=ok, language="de") for i, ok in enumerate(outcomes)] + [ep(seed=9, language="en")]
    )
    b = axis_breakdown(df, n_boot=50, level=0.9, seed=3)
    assert list(b.columns)[-2:] == ["ci_low", "ci_high"]
    assert b[["value", "ci_low", "ci_high"]].values.tolist() == [["de", pytest.approx(0.09), 0.6], ["en", 0.0, 0.0]]
    b = axis_breakdown(df)
    assert b[["value", "ci_low", "ci_high"]].values.tolist() == [["de", 0.0, 0.8], ["en", 0.0, 0.0]]
    none = axis_breakdown(pd.DataFrame([ep()]))
    assert none.empty
    assert list(none.columns) == ["axis", "value", "agent", *SUCCESS_COLUMNS, *CI_COLUMNS]
    assert list(axis_breakdown(pd.DataFrame([ep()]), by=["task"], ci=False).columns) == [
        "axis",
        "value",
        "task",
        *SUCCESS_COLUMNS,
    ]


def test_rows_find_the_first_record_by_its_labels():
    frame = pd.DataFrame(
        [
            {"agent": "A", "t": 0.5, "x": 1},
            {"agent": "A", "t": 0.5, "x": 2},
            {"agent": "A", "t": None, "x": 3},
            {"agent": "B", "t": 0.5, "x": 4},
        ]
    )
    rows = Rows(frame, "agent", "t")
    assert rows.cols == ("agent", "t")
    assert rows.get("A", 0.5)["x"] == 1  # the first of two
    assert rows.get("A", "0.5")["x"] == 1  # found by the label
    assert rows.get("A", float("nan"))["x"] == 3
    assert rows.get("B", 0.5)["x"] == 4
    assert rows.get("B", None) is None
    assert sorted(rows.index) == [("A", "0.5"), ("A", "unset"), ("B", "0.5")]


def test_axis_breakdown_keeps_group_order_within_a_value_at_any_size():
    """40 agents in two languages: within each language the agents stay in order (an unstable
    sort shuffles rows of one value once there are more than 16)."""
    df = pd.DataFrame(
        [
            ep(f"a{i:02d}", seed=2 * i + k, success=i % 3 == 0, language=lang)
            for i in range(40)
            for k, lang in enumerate(("en", "de"))
        ]
    )
    b = axis_breakdown(df, ci=False)
    agents = [f"a{i:02d}" for i in range(40)]
    assert b["value"].tolist() == ["de"] * 40 + ["en"] * 40
    assert b["agent"].tolist() == agents + agents


def test_axis_breakdown_takes_the_callers_axes_and_missing_groups():
    df = pd.DataFrame([ep(custom="x", success=True), ep(seed=1, custom="y")])
    assert axis_breakdown(df, ci=False).empty
    got = axis_breakdown(df, axes=["custom"], ci=False)
    assert got[["axis", "value", "n", "successes"]].values.tolist() == [["custom", "x", 1, 1], ["custom", "y", 1, 0]]
    # a grouping value that is missing is a group of its own, not dropped
    teams = pd.DataFrame([ep(team=None, language="en"), ep(seed=1, team=None, language="de")])
    assert varied_axes(teams, within=("team",)) == ["language"]


def test_axis_breakdown_default_interval_and_grouping():
    """de: 4 of 14 for agent A; 2000 resamples seeded by ("de", "A") give (1/14, 0.50178...), 2001
    give (1/14, 0.5)."""
    de = [ep(seed=i, success=i < 4, language="de") for i in range(14)]
    b = axis_breakdown(pd.DataFrame([*de, ep(seed=20, language="en")]))
    lo, hi = b.loc[b["value"] == "de", ["ci_low", "ci_high"]].iloc[0]
    assert abs(lo - 1 / 14) < 1e-12 and abs(hi - 0.5017857142857045) < 1e-12
    # by task: a language that differs between agents varies within the task
    per_agent = pd.DataFrame([ep("A", language="en", success=True), ep("B", language="de")])
    got = axis_breakdown(per_agent, by=["task"], ci=False)
    assert got[["axis", "value", "task", "n"]].values.tolist() == [
        ["language", "de", "t", 1],
        ["language", "en", "t", 1],
    ]
    # two axes: one index over all their rows
    two = pd.DataFrame([ep(language="en", viewport="1x1"), ep(seed=1, language="de", viewport="2x2")])
    got = axis_breakdown(two, ci=False)
    assert got["axis"].tolist() == ["viewport", "viewport", "language", "language"]
    assert list(got.index) == [0, 1, 2, 3]
