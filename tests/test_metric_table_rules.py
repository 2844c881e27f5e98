"""The results table's helpers (deduplication, group order, frames of rows), every answer written
out (hand-made tables; ``make mutants`` runs these against ``analysis/metrics/table.py``)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from openapps_sim.analysis.metrics.table import (
    Grouping,
    deduplicate,
    frame_of,
    iter_groups,
    key_dict,
    prepare,
    sort_key,
    valid_episodes,
)


def test_deduplicate_keeps_the_last_good_record_of_each_episode_in_table_order():
    df = pd.DataFrame(
        [
            {"episode_id": "b", "error": None, "n": 0},
            {"episode_id": "a", "error": "crash", "n": 1},
            {"episode_id": "b", "error": None, "n": 2},
            {"episode_id": "a", "error": None, "n": 3},
            {"episode_id": "a", "error": "crash", "n": 4},
            {"episode_id": "c", "error": "crash", "n": 5},
            {"episode_id": "c", "error": "crash", "n": 6},
            {"episode_id": None, "error": None, "n": 7},
            {"episode_id": None, "error": None, "n": 8},
        ]
    )
    got = deduplicate(df)
    assert got["n"].tolist() == [2, 3, 6, 8]
    assert got.index.tolist() == [2, 3, 6, 8]


def test_deduplicate_without_an_error_column_keeps_the_last_record():
    df = pd.DataFrame({"episode_id": ["x", "y", "x"], "n": [0, 1, 2]})
    assert deduplicate(df)["n"].tolist() == [1, 2]
    assert deduplicate(df, key="n")["n"].tolist() == [0, 1, 2]
    assert deduplicate(df, key="missing") is df
    empty = df.iloc[:0]
    assert deduplicate(empty) is empty


def test_sort_key_orders_mixed_values():
    values = ["b", None, 2, "default", "10x10", True, "a", 1.5, "2x3", float("nan"), np.int64(0)]
    ordered = sorted(values, key=sort_key)
    assert ordered[:4] == [np.int64(0), True, 1.5, 2]
    assert ordered[4:9] == ["2x3", "10x10", "default", "a", "b"]
    assert ordered[9] is None and math.isnan(ordered[10])
    assert sort_key("800X600") == (1, 480000.0, "800X600")
    assert sort_key("x5") == (2, 1.0, "x5")
    assert sort_key(np.bool_(False)) == (0, 0.0, "")


def test_iter_groups_in_sort_key_order_with_missing_keys_kept():
    df = pd.DataFrame({"v": ["b", None, "default", "b", "a"], "t": [2, 1, 1, 1, 1], "n": [0, 1, 2, 3, 4]})
    got = [(k, g["n"].tolist()) for k, g in iter_groups(df, ["v"])]
    assert [k for k, _ in got][:3] == [("default",), ("a",), ("b",)]
    assert [rows for _, rows in got] == [[2], [4], [0, 3], [1]]
    assert got[3][0][0] is None or math.isnan(got[3][0][0])
    two = [(k, g["n"].tolist()) for k, g in iter_groups(df.dropna(), ["t", "v"])]
    assert two == [((1, "default"), [2]), ((1, "a"), [4]), ((1, "b"), [3]), ((2, "b"), [0])]
    whole = list(iter_groups(df, []))
    assert len(whole) == 1 and whole[0][0] == () and whole[0][1] is df
    assert list(iter_groups(df.iloc[:0], ["v"])) == []


def test_frame_of_rows_or_of_nothing():
    empty = frame_of([], ["a", "b"])
    assert empty.empty and list(empty.columns) == ["a", "b"]
    got = frame_of([{"b": 1, "a": 2}], ["a", "b"])
    assert list(got.columns) == ["b", "a"] and got.values.tolist() == [[1, 2]]


def test_key_dict():
    assert key_dict(["agent", "task"], ("A", "t")) == {"agent": "A", "task": "t"}


def grouping(groups: list) -> Grouping:
    return Grouping(pd.DataFrame({"g": groups}), ["g"])


def test_grouping_reads_missing_values_given_as_none():
    g = grouping(["a", "a", "b", "b"])
    values = [1, None, 3, 5]
    assert g.max(values).tolist()[1] == 5.0 and math.isnan(g.max(values).tolist()[0])
    assert g.min(values).tolist()[1] == 3.0 and math.isnan(g.min(values).tolist()[0])
    assert g.median(values).tolist()[1] == 4.0
    assert g.std([1, 3, 3, 5]).tolist() == [1.0, 1.0]
    assert g.mad([1, 3, 3, 5]).tolist() == [1.0, 1.0]
    assert math.isnan(g.std(values).tolist()[0]) and g.std(values).tolist()[1] == 1.0
    assert math.isnan(g.mad(values).tolist()[0]) and g.mad(values).tolist()[1] == 1.0


def test_grouping_counts_distinct_codes_per_group():
    g = grouping(["a", "b", "a", "b", "a"])
    assert g.nunique(np.array([0, 1, 1, 1, 0])).tolist() == [2, 1]
    assert grouping(["a", "a", "a"]).nunique(np.array([0, 1, 2])).tolist() == [3]
    empty = grouping([])
    got = empty.nunique(np.array([], dtype=np.int64))
    assert got.tolist() == [] and got.dtype == np.int64


def test_grouping_members_in_row_order():
    groups = ["a", "b"] * 40
    members = grouping(groups).members()
    assert [m.tolist() for m in members] == [list(range(0, 80, 2)), list(range(1, 80, 2))]


def test_a_grouping_by_nothing_is_one_group():
    g = Grouping(pd.DataFrame({"x": [1.0, 2.0, 4.0]}), [])
    assert g.size == 1 and g.keys == [()] and g.n.tolist() == [3] and g.gid.tolist() == [0, 0, 0]
    assert g.gid.dtype == np.int64
    assert g.sum([1.0, 2.0, 4.0]).tolist() == [7.0]
    assert g.frame(total=g.sum([1.0, 2.0, 4.0])).values.tolist() == [[7.0]]


def test_a_grouping_numbers_its_groups_in_sort_key_order_with_missing_last():
    g = grouping(["b", None, "default", "a", "b"])
    assert g.keys[:3] == [("default",), ("a",), ("b",)]
    assert g.keys[3][0] is None or math.isnan(g.keys[3][0])
    assert g.gid.tolist() == [2, 3, 0, 1, 2] and g.n.tolist() == [1, 1, 2, 1]
    assert g.sum([1, None, 2, 3, 4]).tolist()[2] == 5.0 and math.isnan(g.sum([1, None, 2, 3, 4]).tolist()[3])


def test_prepare_names_what_is_missing():
    with pytest.raises(KeyError, match=r"results table has no 'task' column"):
        prepare(pd.DataFrame([{"agent": "A", "success": True}]))
    with pytest.raises(KeyError, match=r"results table has neither a 'success' nor a 'reward' column"):
        prepare(pd.DataFrame([{"agent": "A", "task": "t"}]))


def test_prepare_keeps_the_loop_threshold_of_a_prepared_frame():
    df = pd.DataFrame([{"agent": "A", "task": "t", "success": True, "actions": ["a", "a"]}])
    two = prepare(df, 2)
    assert two["loops"].tolist() == [1]
    assert prepare(two)["loops"].tolist() == [1] and prepare(two) is two
    assert prepare(df)["loops"].tolist() == [0]
    assert valid_episodes(df, 2)["loops"].tolist() == [1]
    assert valid_episodes(two)["loops"].tolist() == [1]


def test_a_groupings_mean_and_median_read_missing_values_and_numbers_written_as_text():
    g = grouping(["a", "a", "b"])
    assert g.mean([1, None, 4]).tolist() == [1.0, 4.0]
    assert g.mean(["1.5", "2", "4"]).tolist() == [1.75, 4.0]
    assert g.median(["1.5", "2.5", "4"]).tolist() == [2.0, 4.0]
    median = g.median([1, None, 4])
    assert median.dtype == np.float64 and median.tolist() == [1.0, 4.0]


def test_prepare_keeps_intent_misunderstanding_boolean_on_an_empty_table():
    empty = pd.DataFrame({"agent": [], "task": [], "variation": [], "success": [], "intent_misunderstanding": []})
    assert prepare(empty)["intent_misunderstanding"].dtype == np.bool_
