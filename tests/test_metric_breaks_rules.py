"""Where an agent breaks: variation kinds, rollup columns, loop kinds, paired versions, every
expected value written out (hand-made tables; ``make mutants`` runs these against
``analysis/metrics/breaks.py``)."""

from __future__ import annotations

import pandas as pd
import pytest

from openapps_sim.analysis.metrics.breaks import (
    flip_ids,
    length_band,
    loop_kind_rates,
    loop_kinds,
    pack_kinds,
    paired_summary,
    paired_versions,
    rollup_columns,
    rollups,
    variation_kind,
)


def test_pack_kinds_read_from_what_a_pack_changes(tmp_path):
    assert pack_kinds("dark_theme") == ("appearance",)
    assert pack_kinds("mobile") == ("structure",)
    assert pack_kinds("interrupt_battery") == ("interruption",)
    assert pack_kinds("german") == ("content",)
    assert pack_kinds("no_such_pack_here") == ("other",)
    both = tmp_path / "both.yaml"
    both.write_text("description: both\ntheme:\n  layout: mobile\n  font_size: 20\ntodo:\n  items: []\n")
    assert pack_kinds(str(both)) == ("appearance", "content", "structure")
    only = tmp_path / "only.yaml"
    only.write_text("description: structure only\ntheme:\n  nav_position: bottom\n")
    assert pack_kinds(str(only)) == ("structure",)


def test_variation_kind_of_a_pack_or_a_composition_in_kind_order():
    assert variation_kind(None) == variation_kind(float("nan")) == "default"
    kinds = {
        # read from what the pack changes
        "default": "default",
        "dark_theme": "appearance",
        "german": "content",
        "interrupt_cookies": "interruption",
        "mobile": "structure",
        "no_such_pack_anywhere": "other",
        # a composition: its packs' kinds in kind order, the default version left out
        " default + ": "default",
        "dark_theme+german": "appearance+content",
        "dark_theme+interrupt_battery+ german + default": "appearance+content+interruption",
        "no_such_pack_here+mobile": "structure+other",
        "interrupt_battery": "interruption",
    }
    assert {v: variation_kind(v) for v in kinds} == kinds


def test_length_bands():
    assert [length_band(n) for n in (0, 1, 2, 3, 4, 5, 9)] == ["1", "1", "2", "3-4", "3-4", "5+", "5+"]


def _episodes() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "agent": ["a", "a", "a", "b", "a"],
            "task": ["todo.add", "multi.plan", "maps.find", "todo.add", "todo.add"],
            "variation": ["default", "dark_theme", "mobile+german", "default", "default"],
            "success": [True, False, True, False, True],
            "task_apps": [["todo"], ["start", "todo", "calendar"], ["start"], None, ["start", "todo"]],
            "structure": ["single", None, "", "chain", "single"],
            "milestones": [{"x": 1}, {"a": 1, "b": 2}, {}, {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, None],
            "error": [None, None, None, None, "crash"],
        }
    )


def test_rollup_columns_of_the_valid_episodes():
    v = rollup_columns(_episodes())
    assert v["app"].tolist() == ["todo", "several apps", "maps", "todo"]
    assert v["variation_kind"].tolist() == ["default", "appearance", "content+structure", "default"]
    assert v["task_structure"].tolist() == ["single", "unknown", "unknown", "chain"]
    assert v["length"].tolist() == ["1", "2", "unknown", "5+"]


def test_rollup_columns_without_structure_or_milestones():
    df = _episodes().drop(columns=["structure", "milestones"])
    v = rollup_columns(df)
    assert v["task_structure"].tolist() == ["unknown"] * 4
    assert v["length"].tolist() == ["unknown"] * 4


def test_rollups_per_agent_and_column():
    r = rollups(_episodes(), n_boot=50, seed=1)
    assert list(r) == ["app", "variation_kind", "task_structure", "length"]
    app = r["app"]
    assert app[["agent", "app"]].values.tolist() == [["a", "maps"], ["a", "several apps"], ["a", "todo"], ["b", "todo"]]
    assert app["success_rate"].tolist() == [1.0, 0.0, 1.0, 0.0]
    assert rollups(_episodes().iloc[4:]) == {}


def test_loop_kinds_stuck_progressing_unknown():
    acts = ["x", "x", "x", "y", "z", "z", "z"]
    assert loop_kinds(acts, None) == (0, 0, 2)
    assert loop_kinds(acts, [True] * 6) == (0, 0, 2)
    assert loop_kinds(acts, [True] * 7) == (0, 2, 0)
    assert loop_kinds(acts, [True, True, False, True, True, True, True]) == (1, 1, 0)
    assert loop_kinds(acts, [False, True, True, True, True, False, True]) == (1, 1, 0)
    assert loop_kinds(acts, [False] * 7) == (2, 0, 0)
    assert loop_kinds(["p", "q", "p", "q", "p", "q"], [1, 1, 0, 1, 0, 0]) == (1, 0, 0)
    assert loop_kinds(["p", "q", "p", "q", "p", "q"], [0, 0, 0, 1, 1, 0]) == (0, 1, 0)
    assert loop_kinds(["x", "x"], [0, 0]) == (0, 0, 0)
    assert loop_kinds(["x", "x"], [0, 0], min_repeats=2) == (1, 0, 0)


def test_loop_kind_rates_per_group_in_sort_key_order():
    df = pd.DataFrame(
        {
            "agent": ["b", "a", "a", "a"],
            "task": ["t"] * 4,
            "variation": ["default"] * 4,
            "success": [True, False, False, True],
            "actions": [["x", "x", "x"], ["x", "x", "x"], ["y", "y", "y", "z", "z", "z"], ["q"]],
            "step_changed": [[0, 0, 0], [1, 1, 1], [1, 0, 1, 1, 1, 1], [1]],
        }
    )
    got = loop_kind_rates(df)
    assert got.columns.tolist() == [
        "agent",
        "variation",
        "n",
        "stuck_per_episode",
        "progressing_per_episode",
        "unknown_per_episode",
        "episodes_stuck",
    ]
    assert got["agent"].tolist() == ["a", "b"]
    assert got["n"].tolist() == [3, 1]
    assert got["stuck_per_episode"].tolist() == [1 / 3, 1.0]
    assert got["progressing_per_episode"].tolist() == [2 / 3, 0.0]
    assert got["unknown_per_episode"].tolist() == [0.0, 0.0]
    assert got["episodes_stuck"].tolist() == [1 / 3, 1.0]
    bare = loop_kind_rates(df.drop(columns=["step_changed"]), by=["agent"])
    assert bare["unknown_per_episode"].tolist() == [1.0, 1.0]
    assert bare["stuck_per_episode"].tolist() == [0.0, 0.0]
    two = loop_kind_rates(df.drop(columns=["step_changed"]), by=["agent"], min_repeats=2)
    assert two["unknown_per_episode"].tolist() == [1.0, 1.0]
    assert loop_kind_rates(df.iloc[:0]).empty


def _pairs_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "agent": ["a", "a", "a", "a", "a", "a", "b"],
            "task": ["t1", "t1", "t2", "t2", "t3", "t1", "t1"],
            "seed": [0, 0, 0, 0, 0, 1, 0],
            "variation": ["default", "dark", "default", "dark", "dark", "dark", "default"],
            "success": [True, False, False, True, True, True, True],
            "episode_id": ["e1", "e2", "e3", "e4", "e5", "e6", "e7"],
        }
    )


def test_paired_versions_match_agent_task_and_seed():
    pairs = paired_versions(_pairs_table())
    assert pairs.columns.tolist() == [
        "agent",
        "task",
        "seed",
        "variation",
        "success_other",
        "episode_other",
        "success_base",
        "episode_id_base",
        "flip",
    ]
    assert pairs[["task", "success_base", "success_other", "flip"]].values.tolist() == [
        ["t1", True, False, "lost"],
        ["t2", False, True, "gained"],
    ]
    assert pairs["episode_other"].tolist() == ["e2", "e4"]
    assert pairs["episode_id_base"].tolist() == ["e1", "e3"]
    assert pairs.index.tolist() == [0, 1]
    same = _pairs_table()
    same.loc[1, "success"] = True
    assert paired_versions(same)["flip"].tolist() == ["same", "gained"]
    assert paired_versions(_pairs_table(), baseline="dark")["flip"].tolist() == ["gained", "lost"]


def test_paired_versions_without_a_side_or_a_match():
    df = _pairs_table()
    assert paired_versions(df[df["variation"] == "default"]).empty
    assert paired_versions(df[df["variation"] == "dark"]).empty
    assert paired_versions(df.iloc[[0, 4]]).empty
    assert paired_versions(df, baseline="nowhere").empty


def test_paired_summary_per_agent_and_variation():
    pairs = pd.DataFrame(
        {
            "agent": ["a", "a", "a", "b"],
            "variation": ["dark", "dark", "mobile", "dark"],
            "flip": ["lost", "same", "gained", "lost"],
        }
    )
    got = paired_summary(pairs)
    assert got.to_dict("records") == [
        {"agent": "a", "variation": "dark", "pairs": 2, "lost": 1, "gained": 0},
        {"agent": "a", "variation": "mobile", "pairs": 1, "lost": 0, "gained": 1},
        {"agent": "b", "variation": "dark", "pairs": 1, "lost": 1, "gained": 0},
    ]
    assert paired_summary(pd.DataFrame()).empty


def test_flip_ids_both_sides_of_the_first_flips_in_order():
    pairs = pd.DataFrame(
        {
            "agent": ["b", "a", "a", "a"],
            "task": ["t", "t", "u", "t"],
            "variation": ["dark", "dark", "dark", "mobile"],
            "flip": ["lost", "same", "lost", "gained"],
            "episode_id_base": ["b1", "s1", "u1", "g1"],
            "episode_other": ["b2", "s2", "u2", "g2"],
        }
    )
    assert flip_ids(pairs, 10) == ["g1", "g2", "u1", "u2", "b1", "b2"]
    assert flip_ids(pairs, 2) == ["g1", "g2", "u1", "u2"]
    assert flip_ids(pairs.drop(columns=["episode_id_base"]), 10) == []
    assert flip_ids(pairs.iloc[:0], 10) == []
    assert flip_ids(pairs, 1) == ["g1", "g2"]


def _mixed() -> pd.DataFrame:
    """One agent on one app: 13 of 37 episodes solved, so the interval has room to move."""
    return pd.DataFrame(
        {
            "agent": ["a"] * 37,
            "task": ["todo.add"] * 37,
            "variation": ["default"] * 37,
            "success": [i % 3 == 0 for i in range(37)],
            "task_apps": [["todo"]] * 37,
        }
    )


def test_rollups_carry_intervals_with_the_given_resamples_and_seed():
    r = rollups(_mixed(), n_boot=60, seed=5)["app"]
    assert r["success_rate"].tolist() == [13 / 37]
    assert {"ci_low", "ci_high"} <= set(r.columns)
    lo, hi = r["ci_low"].iloc[0], r["ci_high"].iloc[0]
    assert 0.0 <= lo < 13 / 37 < hi <= 1.0
    other_seed = rollups(_mixed(), n_boot=60, seed=0)["app"]
    other_n = rollups(_mixed(), n_boot=7, seed=5)["app"]
    assert (other_seed["ci_low"].iloc[0], other_seed["ci_high"].iloc[0]) != (lo, hi)
    assert (other_n["ci_low"].iloc[0], other_n["ci_high"].iloc[0]) != (lo, hi)
    # the defaults: 1000 resamples, seed 0
    assert rollups(_mixed())["app"].equals(rollups(_mixed(), n_boot=1000, seed=0)["app"])
    assert not rollups(_mixed())["app"].equals(rollups(_mixed(), n_boot=1000, seed=1)["app"])


def test_a_pack_that_changes_nothing_is_the_default_kind(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("description: changes nothing\n")
    assert variation_kind(str(empty)) == "default"


def test_loop_kind_rates_keep_the_loop_threshold_given():
    df = pd.DataFrame(
        {
            "agent": ["a"],
            "task": ["t"],
            "variation": ["default"],
            "success": [False],
            "actions": [["x", "x"]],
            "step_changed": [[0, 0]],
        }
    )
    assert loop_kind_rates(df, min_repeats=2)["stuck_per_episode"].tolist() == [1.0]
    assert loop_kind_rates(df)["stuck_per_episode"].tolist() == [0.0]


def test_paired_versions_match_the_trial_too():
    df = pd.DataFrame(
        {
            "agent": ["a"] * 4,
            "task": ["t"] * 4,
            "seed": [0] * 4,
            "trial": [0, 1, 0, 1],
            "variation": ["default", "default", "dark", "dark"],
            "success": [True, False, True, True],
            "episode_id": ["b0", "b1", "d0", "d1"],
        }
    )
    pairs = paired_versions(df)
    assert pairs[["trial", "flip", "episode_id_base", "episode_other"]].values.tolist() == [
        [0, "same", "b0", "d0"],
        [1, "gained", "b1", "d1"],
    ]


def test_flip_ids_in_sort_key_order_of_the_tasks():
    pairs = pd.DataFrame(
        {
            "agent": ["a", "a"],
            "task": ["10x10", "2x3"],
            "variation": ["dark", "dark"],
            "flip": ["lost", "lost"],
            "episode_id_base": ["big1", "small1"],
            "episode_other": ["big2", "small2"],
        }
    )
    assert flip_ids(pairs, 5) == ["small1", "small2", "big1", "big2"]


def test_paired_versions_without_episode_ids():
    df = _pairs_table().drop(columns=["episode_id"])
    pairs = paired_versions(df)
    assert pairs.columns.tolist() == ["agent", "task", "seed", "variation", "success_other", "success_base", "flip"]
    assert pairs["flip"].tolist() == ["lost", "gained"]


def test_paired_summary_in_the_order_the_pairs_come():
    pairs = pd.DataFrame({"agent": ["b", "a"], "variation": ["dark", "dark"], "flip": ["lost", "gained"]})
    assert paired_summary(pairs)["agent"].tolist() == ["b", "a"]


def test_rollups_default_to_1000_resamples():
    # 5 of 7 solved: 1000 resamples put the lower bound at 0.425 (999 or 1001 elsewhere)
    seven = _mixed().iloc[:7].assign(success=[True] * 5 + [False] * 2)
    r = rollups(seven)["app"]
    assert r["ci_low"].tolist() == [pytest.approx(0.425)]
    assert r["ci_high"].tolist() == [1.0]


def test_loop_kind_rates_keep_a_missing_group_value_and_sort_default_first():
    df = pd.DataFrame(
        {
            "agent": ["a", "a", "a"],
            "task": ["t", "t", "u"],
            "variation": ["default", "apps_dark", "default"],
            "model": ["m", "m", None],
            "success": [False] * 3,
            "actions": [["x", "x", "x"], ["x"], ["x", "x", "x"]],
            "step_changed": [[0, 0, 0], [1], [1, 1, 1]],
        }
    )
    got = loop_kind_rates(df)
    assert got["variation"].tolist() == ["default", "apps_dark"]
    assert got["stuck_per_episode"].tolist() == [0.5, 0.0]
    by_model = loop_kind_rates(df, by=["model"])
    assert by_model["n"].tolist() == [2, 1]
    assert by_model["progressing_per_episode"].tolist() == [0.0, 1.0]
    assert by_model["model"].iloc[0] == "m" and by_model["model"].isna().tolist() == [False, True]
