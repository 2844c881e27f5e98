"""Loops, invalid actions, intent misunderstanding, effort and failures per group, every answer
worked out by hand and written out (hand-made records; ``make mutants`` runs these against
``analysis/metrics/rates.py``).

Agent A in v1: seed 0 succeeds with a loop (a a a), 1 malformed action, 2 s, 100 tokens costing
$0.5; seed 1 (task nav) fails, 2 bad arguments, no duration, opens maps which it does not need;
seed 2 fails with a loop (b b b), 4 s, 10 + 5 tokens; seed 3 is an infrastructure error. Agent B:
seed 0 succeeds with no action, seed 1 ends on its own exception, seed 2 is a model-service error.
"""

from __future__ import annotations

import math

import pandas as pd

from openapps_sim.analysis.metrics.rates import (
    effort,
    error_messages,
    error_summary,
    intent_misunderstanding_rate,
    invalid_actions,
    invalid_rates,
    loop_rates,
)


def ep(agent, seed, success=False, task="t", **kw) -> dict:
    base = {"agent": agent, "task": task, "variation": "v1", "seed": seed, "success": success}
    base.update(actions=[], apps_visited=["todo"], task_apps=["todo"])
    return {**base, **kw}


def records() -> pd.DataFrame:
    return pd.DataFrame(
        [
            ep(
                "A",
                0,
                True,
                actions=["a"] * 3,
                invalid={"malformed": 1},
                duration_s=2.0,
                tokens={"total_tokens": 100, "cost_usd": 0.5},
            ),
            ep(
                "A",
                1,
                task="nav",
                actions=["x", "y"],
                invalid={"bad_arguments": 2, "malformed": 0},
                apps_visited=["todo", "maps"],
                tokens={},
            ),
            ep("A", 2, actions=["b"] * 3, duration_s=4.0, tokens={"input_tokens": 10, "output_tokens": 5}),
            ep("A", 3, error="crash"),
            ep("B", 0, True),
            ep("B", 1, agent_error="ValueError: bad\nmore lines"),
            ep("B", 2, error="rate limit", error_kind="model_service"),
        ]
    )


def test_loop_rates_by_value():
    got = loop_rates(records())
    assert list(got.columns) == [
        "agent",
        "variation",
        "n",
        "loops",
        "loops_per_episode",
        "episodes_with_loops",
        "loops_success",
        "loops_failure",
    ]
    assert got.values.tolist() == [["A", "v1", 3, 2, 2 / 3, 2 / 3, 1.0, 0.5], ["B", "v1", 2, 0, 0.0, 0.0, 0.0, 0.0]]
    assert got["loops"].dtype.kind == "i"


def test_invalid_rates_by_value():
    got = invalid_rates(records())
    assert list(got.columns) == [
        "agent",
        "variation",
        "n",
        "steps",
        "malformed",
        "malformed_per_episode",
        "unknown_action",
        "unknown_action_per_episode",
        "bad_arguments",
        "bad_arguments_per_episode",
        "browser_error",
        "browser_error_per_episode",
        "invalid",
        "invalid_per_episode",
        "invalid_per_step",
        "episodes_with_invalid",
    ]
    a, b = got.values.tolist()
    assert a == ["A", "v1", 3, 8, 1, 1 / 3, 0, 0.0, 2, 2 / 3, 0, 0.0, 3, 1.0, 0.375, 2 / 3]
    assert b[:14] == ["B", "v1", 2, 0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0]
    assert math.isnan(b[14]) and b[15] == 0.0  # no step taken: no rate per step
    for c in ("steps", "malformed", "invalid"):
        assert got[c].dtype.kind == "i"


def test_invalid_actions_per_episode():
    got = invalid_actions(records(), keep=("agent", "seed", "absent"))
    assert list(got.columns) == [
        "agent",
        "seed",
        "invalid_malformed",
        "invalid_unknown_action",
        "invalid_bad_arguments",
        "invalid_browser_error",
        "invalid_total",
    ]
    assert got.values.tolist()[:2] == [["A", 0, 1, 0, 0, 0, 1], ["A", 1, 0, 0, 2, 0, 2]]
    assert list(got.index) == [0, 1, 2, 3, 4]  # the error row left out, numbered afresh


def test_intent_misunderstanding_rate_with_and_without_a_task():
    got = intent_misunderstanding_rate(records())
    assert list(got.columns) == ["agent", "variation", "n", "misunderstood", "rate"]
    assert got.values.tolist() == [["A", "v1", 3, 1, 1 / 3], ["B", "v1", 2, 0, 0.0]]
    assert got["misunderstood"].dtype.kind == "i"
    without = intent_misunderstanding_rate(records(), ["agent"], exclude_tasks=["nav"])
    assert without.values.tolist() == [["A", 2, 0, 0.0], ["B", 2, 0, 0.0]]


def test_effort_by_value():
    got = effort(records())
    assert list(got.columns) == [
        "agent",
        "n",
        "mean_steps",
        "median_steps",
        "mean_duration_s",
        "total_duration_s",
        "mean_tokens",
        "total_tokens",
        "total_cost_usd",
    ]
    a, b = got.values.tolist()
    assert a == ["A", 3, 8 / 3, 3.0, 3.0, 6.0, 115 / 3, 115.0, 0.5]
    assert b[:4] == ["B", 2, 0.0, 0.0] and math.isnan(b[4]) and math.isnan(b[5]) and b[6:] == [0.0, 0.0, 0.0]


def test_error_summary_by_value():
    got = error_summary(records())
    assert list(got.columns) == [
        "agent",
        "episodes",
        "errors",
        "error_rate",
        "infrastructure",
        "model_service",
        "agent_errors",
        "agent_error_rate",
    ]
    assert got.values.tolist() == [["A", 4, 1, 0.25, 1, 0, 0, 0.0], ["B", 3, 1, 1 / 3, 0, 1, 1, 0.5]]
    only_errors = error_summary(pd.DataFrame([ep("C", 0, error="x")]))
    assert only_errors.values.tolist()[0][:7] == ["C", 1, 1, 1.0, 1, 0, 0]
    assert math.isnan(only_errors["agent_error_rate"][0])  # nothing scored


def test_error_messages_by_count_kind_and_message():
    got = error_messages(records())
    assert list(got.columns) == ["kind", "message", "count", "agents"]
    assert got.values.tolist() == [
        ["agent", "ValueError: bad", 1, "B"],
        ["infrastructure", "crash", 1, "A"],
        ["model_service", "rate limit", 1, "B"],
    ]
    more = pd.concat([records(), pd.DataFrame([ep("C", 5, error="rate limit", error_kind="model_service")])])
    got = error_messages(more, top=2, width=4)
    assert got.values.tolist() == [["model_service", "rate", 2, "B, C"], ["agent", "Valu", 1, "B"]]
    assert list(got.index) == [0, 1]
    none = error_messages(pd.DataFrame([ep("A", 0)]))
    assert none.empty and list(none.columns) == ["kind", "message", "count", "agents"]


def test_error_messages_default_top_ten_cut_to_160():
    rows = [ep("A", i, error=f"e{i:02d} " + "x" * 200) for i in range(12)]
    got = error_messages(pd.DataFrame(rows))
    assert len(got) == 10 and got["message"].tolist()[0] == "e00 " + "x" * 156
    assert {len(m) for m in got["message"]} == {160}


def test_rates_of_groups_of_one_episode():
    """One episode per agent: the rates divide by one, a single timed episode has a total."""
    one = pd.DataFrame(
        [
            ep("A", 0, actions=["x"], invalid={"malformed": 1}, apps_visited=["todo", "maps"], duration_s=3.0),
            ep("B", 0, actions=["x", "y"], invalid={"malformed": 1}),
            ep("C", 0, agent_error="ValueError: boom"),
        ]
    )
    inv = invalid_rates(one, ["agent"])
    assert inv["invalid_per_episode"].tolist() == [1.0, 1.0, 0.0]
    assert inv["invalid_per_step"].tolist()[:2] == [1.0, 0.5]
    assert intent_misunderstanding_rate(one, ["agent"])["rate"].tolist() == [1.0, 0.0, 0.0]
    eff = effort(one, ["agent"])
    assert eff["total_duration_s"].tolist()[0] == 3.0 and eff["mean_duration_s"].tolist()[0] == 3.0
    errs = error_summary(one)
    assert errs["agent_error_rate"].tolist() == [0.0, 0.0, 1.0]


def test_error_counts_are_integers():
    got = error_summary(records())
    for name in ("errors", "infrastructure", "model_service", "agent_errors"):
        assert str(got[name].dtype) == "int64", name
        assert all(type(n) is int for n in got[name].tolist()), name
