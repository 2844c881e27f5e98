"""``prepare``'s filling and coercing of a results table, column by column, every expected value
written out (hand-made tables; ``make mutants`` runs these against ``analysis/metrics/table.py``)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from openapps_sim.analysis.metrics.table import prepare


def _nan_list(values) -> list:
    """The values with every NaN written as the string "nan" (NaN never equals itself)."""
    return ["nan" if isinstance(v, float) and math.isnan(v) else v for v in values]


def _none_list(values) -> list:
    """The values with NaN written as None (pandas may store a missing text either way)."""
    return [None if isinstance(v, float) and math.isnan(v) else v for v in values]


def test_outcomes_are_coerced_and_missing_ones_filled_from_the_others():
    df = pd.DataFrame(
        {
            "agent": ["a", "a", "a"],
            "task": ["t", "t", "t"],
            "variation": [None, 3, "v2"],
            "agent_config": [float("nan"), "fast", None],
            "temperature": ["0.5", "hot", None],
            "success": [1, None, 0],
            "reward": [None, 0.25, float("nan")],
            "partial_reward": [None, 0.5, float("nan")],
        }
    )
    got = prepare(df)
    assert got["variation"].tolist() == ["default", "3", "v2"]
    assert got["agent_config"].tolist() == ["default", "fast", "default"]
    assert _nan_list(got["temperature"].tolist()) == [0.5, "nan", "nan"]
    assert str(got["temperature"].dtype) == "float64"
    assert got["success"].tolist() == [True, False, False]
    assert str(got["success"].dtype) == "bool"
    assert got["reward"].tolist() == [1.0, 0.25, 0.0]
    assert got["partial_reward"].tolist() == [1.0, 0.5, 0.0]
    # the input is left as it was
    assert df["variation"].tolist() == [None, 3, "v2"]


def test_success_from_the_reward_when_there_is_no_success_column():
    df = pd.DataFrame({"agent": ["a"] * 4, "task": ["t"] * 4, "reward": [1.0, 0.99, None, 2.0]})
    got = prepare(df)
    assert got["success"].tolist() == [True, False, False, True]
    assert str(got["success"].dtype) == "bool"
    assert got["reward"].tolist() == [1.0, 0.99, 0.0, 2.0]
    assert got["partial_reward"].tolist() == [1.0, 0.99, 0.0, 2.0]
    assert got["variation"].tolist() == ["default"] * 4
    assert "agent_config" not in got.columns
    assert "temperature" not in got.columns


def test_reward_from_the_success_when_there_is_no_reward_column():
    df = pd.DataFrame({"agent": ["a", "a"], "task": ["t", "t"], "success": [True, False]})
    got = prepare(df)
    assert got["reward"].tolist() == [1.0, 0.0]
    assert got["partial_reward"].tolist() == [1.0, 0.0]
    assert got["success"].tolist() == [True, False]


def test_lists_dicts_and_errors_are_coerced():
    df = pd.DataFrame(
        {
            "agent": ["a"] * 4,
            "task": ["t"] * 4,
            "success": [True, False, False, False],
            "actions": [("a", "b"), None, ["c"], []],
            "apps_visited": ["todo", np.array(["x"]), [], None],
            "task_apps": [None, ["todo"], ("mail",), []],
            "invalid": [{"malformed": 2}, "junk", None, {}],
            "error": [None, "  ", "timeout", 5],
            "error_kind": [None, "model", None, "model_service"],
            "agent_error": ["boom", "  ", "oops", float("nan")],
        }
    )
    got = prepare(df)
    assert got["actions"].tolist() == [["a", "b"], [], ["c"], []]
    assert got["apps_visited"].tolist() == [["todo"], ["x"], [], []]
    assert got["task_apps"].tolist() == [[], ["todo"], ["mail"], []]
    assert got["invalid"].tolist() == [{"malformed": 2}, {}, {}, {}]
    assert _none_list(got["error"].tolist()) == [None, None, "timeout", "5"]
    assert got["is_error"].tolist() == [False, False, True, True]
    assert str(got["is_error"].dtype) == "bool"
    assert _none_list(got["error_kind"].tolist()) == [None, None, "infrastructure", "model_service"]
    assert _none_list(got["agent_error"].tolist()) == ["boom", None, "oops", None]
    assert got["is_agent_error"].tolist() == [True, False, False, False]
    assert str(got["is_agent_error"].dtype) == "bool"


def test_absent_list_and_error_columns_are_filled_empty():
    df = pd.DataFrame({"agent": ["a", "b"], "task": ["t", "t"], "success": [True, False]})
    got = prepare(df)
    for col in ("actions", "apps_visited", "task_apps"):
        assert got[col].tolist() == [[], []]
    assert got["invalid"].tolist() == [{}, {}]
    assert _none_list(got["error"].tolist()) == [None, None]
    assert got["is_error"].tolist() == [False, False]
    assert _none_list(got["error_kind"].tolist()) == [None, None]
    assert _none_list(got["agent_error"].tolist()) == [None, None]
    assert got["is_agent_error"].tolist() == [False, False]
    # the filled lists are distinct objects
    got["actions"].iloc[0].append("x")
    assert got["actions"].iloc[1] == []


def test_behaviour_columns_are_derived_from_the_recorded_ones():
    df = pd.DataFrame(
        {
            "agent": ["a"] * 3,
            "task": ["t"] * 3,
            "success": [True, False, False],
            "actions": [["a", "a", "a"], ["a", "b"], []],
            "steps": [None, 7, float("nan")],
            "duration_s": ["2.5", "slow", None],
            "loops": [9, 9, 9],
            "invalid": [
                {"malformed": 2, "bad_arguments": None, "weird": 1},
                {},
                {"unknown_action": 1, "browser_error": 3, "zeta": 1},
            ],
            "apps_visited": [["start", "todo", "mail"], ["mail"], []],
            "task_apps": [["todo"], ["todo"], ["todo"]],
            "apps_opened_by_interruptions": [["mail"], None, None],
            "intent_misunderstanding": [True, False, True],
            "tokens": [
                {"total_tokens": 100, "cost_usd": 0.5},
                None,
                {"input_tokens": 3, "output_tokens": 4, "cost_usd": None},
            ],
        }
    )
    got = prepare(df)
    assert got["steps"].tolist() == [3, 7, 0]
    assert _nan_list(got["duration_s"].tolist()) == [2.5, "nan", "nan"]
    assert str(got["duration_s"].dtype) == "float64"
    assert got["loops"].tolist() == [1, 0, 0]
    invalid = [c for c in got.columns if c.startswith("invalid_")]
    assert invalid == [
        "invalid_malformed",
        "invalid_unknown_action",
        "invalid_bad_arguments",
        "invalid_browser_error",
        "invalid_weird",
        "invalid_zeta",
        "invalid_total",
    ]
    assert got["invalid_malformed"].tolist() == [2, 0, 0]
    assert got["invalid_unknown_action"].tolist() == [0, 0, 1]
    assert got["invalid_bad_arguments"].tolist() == [0, 0, 0]
    assert got["invalid_browser_error"].tolist() == [0, 0, 3]
    assert got["invalid_weird"].tolist() == [1, 0, 0]
    assert got["invalid_zeta"].tolist() == [0, 0, 1]
    assert got["invalid_total"].tolist() == [3, 0, 5]
    assert got["intent_misunderstanding"].tolist() == [False, True, False]
    assert str(got["intent_misunderstanding"].dtype) == "bool"
    assert got["tokens_total"].tolist() == [100.0, 0.0, 7.0]
    assert got["cost_usd"].tolist() == [0.5, 0.0, 0.0]


def test_loops_and_intent_kept_as_given_without_actions_or_visits():
    df = pd.DataFrame(
        {
            "agent": ["a", "a"],
            "task": ["t", "t"],
            "success": [True, False],
            "loops": [2, None],
            "intent_misunderstanding": [1, None],
        }
    )
    got = prepare(df)
    assert got["loops"].tolist() == [2, 0]
    assert got["intent_misunderstanding"].tolist() == [True, False]
    assert str(got["intent_misunderstanding"].dtype) == "bool"
    assert got["steps"].tolist() == [0, 0]
    assert _nan_list(got["duration_s"].tolist()) == ["nan", "nan"]
    assert str(got["duration_s"].dtype) == "float64"
    assert got["tokens_total"].tolist() == [0.0, 0.0]
    assert got["cost_usd"].tolist() == [0.0, 0.0]
    assert [c for c in got.columns if c.startswith("invalid_")] == [
        "invalid_malformed",
        "invalid_unknown_action",
        "invalid_bad_arguments",
        "invalid_browser_error",
        "invalid_total",
    ]
    assert got["invalid_total"].tolist() == [0, 0]


def test_loops_and_intent_derived_when_not_given_at_all():
    df = pd.DataFrame(
        {"agent": ["a", "a"], "task": ["t", "t"], "success": [True, False], "actions": [["x", "x"], ["y"]]}
    )
    got = prepare(df, min_repeats=2)
    assert got["loops"].tolist() == [1, 0]
    assert got["steps"].tolist() == [2, 1]
    assert got["intent_misunderstanding"].tolist() == [False, False]
    bare = pd.DataFrame({"agent": ["a"], "task": ["t"], "success": [True], "apps_visited": [["mail"]]})
    got = prepare(bare)
    assert got["loops"].tolist() == [0]
    assert got["intent_misunderstanding"].tolist() == [True]


def test_the_missing_outcome_message_is_exactly_this():
    with pytest.raises(KeyError) as caught:
        prepare(pd.DataFrame([{"agent": "A", "task": "t"}]))
    assert caught.value.args == ("results table has neither a 'success' nor a 'reward' column",)
