"""Metrics on hand-made results tables whose answers are worked out by hand in the comments."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from openapps_sim.analysis.metrics.axes import axis_breakdown, varied_axes, version_columns
from openapps_sim.analysis.metrics.behaviour import count_loops, find_loops, intent_misunderstood
from openapps_sim.analysis.metrics.rates import (
    effort,
    error_messages,
    error_summary,
    intent_misunderstanding_rate,
    invalid_actions,
    invalid_rates,
    loop_rates,
)
from openapps_sim.analysis.metrics.reliability import (
    across_version_deviation,
    agent_deviation,
    deviation_summary,
    fluctuation,
    reliability_summary,
    version_success,
    within_version_deviation,
)
from openapps_sim.analysis.metrics.stats import (
    bootstrap_ci,
    mean_absolute_deviation,
    pass_at_k,
    pass_hat_k,
    pass_k,
    pass_k_summary,
    population_std,
    success_rate,
    wilson_interval,
)
from openapps_sim.analysis.metrics.table import deduplicate, invalid_categories, prepare, valid_episodes
from openapps_sim.analysis.metrics.values import token_total


def ep(agent="A", task="todo.add_item", variation="default", seed=0, success=False, **kw) -> dict:
    """One episode row with the columns the runner writes."""
    row = {
        "run_id": "r1",
        "agent": agent,
        "agent_config": None,
        "task": task,
        "task_apps": ["todo"],
        "variation": variation,
        "seed": seed,
        "viewport": "1280x720",
        "temperature": None,
        "goal": "add milk",
        "reward": float(success),
        "partial_reward": float(success),
        "success": success,
        "steps": 2,
        "actions": ["click('1')", "fill('2', 'milk')"],
        "invalid": {},
        "apps_visited": ["start", "todo"],
        "error": None,
        "duration_s": 1.0,
        "tokens": {},
        "loops": 0,
    }
    row.update(kw)
    return row


def table(*rows: dict) -> pd.DataFrame:
    return pd.DataFrame(list(rows))


def one(frame: pd.DataFrame, **where) -> pd.Series:
    """The single row of ``frame`` matching ``where``."""
    sel = frame
    for k, v in where.items():
        sel = sel[sel[k] == v]
    assert len(sel) == 1, f"expected one row for {where}, got {len(sel)}"
    return sel.iloc[0]


@pytest.fixture()
def two_agents() -> pd.DataFrame:
    """A: default 3/3, dark_theme 1/3.  B: default 2/3, dark_theme 2/3.  Plus one error row."""
    rows = []
    for seed, ok in enumerate([True, True, True]):
        rows.append(ep("A", variation="default", seed=seed, success=ok))
    for seed, ok in enumerate([True, False, False]):
        rows.append(ep("A", variation="dark_theme", seed=seed, success=ok))
    for var in ("default", "dark_theme"):
        for seed, ok in enumerate([True, True, False]):
            rows.append(ep("B", variation=var, seed=seed, success=ok))
    # An infrastructure error that claims success: it must count nowhere but in error_summary.
    rows.append(ep("A", variation="dark_theme", seed=3, success=True, error="TargetClosedError: browser crashed"))
    return table(*rows)


# -- loops -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actions, expected",
    [
        ([], 0),
        (["click(47)"] * 3, 1),  # the paper's example: one loop
        (["click(47)"] * 6, 1),  # a longer run is still one (maximal) loop
        (["click(47)"] * 2, 0),  # two repeats are below the default threshold of three
        ("a b a b a b".split(), 1),  # period-2 block repeated three times
        ("a b a b".split(), 0),
        ("a b c a b c a b c".split(), 1),
        ("c c c x c c c".split(), 2),  # separate runs count separately
        ("x c c c y".split(), 1),
        ("a b a b a b a".split(), 1),  # a partial repetition at the end does not matter
        ("a a a b b b".split(), 2),
        (["click('1') ", "click('1')", " click('1')"], 1),  # surrounding whitespace is ignored
        ("a b c d e".split(), 0),
    ],
)
def test_count_loops(actions, expected):
    assert count_loops(actions) == expected


def test_find_loops_positions_and_threshold():
    assert find_loops("c c c x c c c".split()) == [(0, 1, 3), (4, 1, 3)]
    assert find_loops("x a b a b a b".split()) == [(1, 2, 3)]
    # The longest run starting at a position wins; its actions are not reused.
    assert find_loops("a a a b a b a b".split()) == [(0, 1, 3)]
    assert count_loops(["click(17)"] * 2, min_repeats=2) == 1  # the paper's looser example
    assert count_loops("a b a b".split(), min_repeats=2) == 1
    with pytest.raises(ValueError):
        count_loops(["a"], min_repeats=1)


def test_loops_are_recomputed_from_actions():
    df = table(ep(actions=["click(3)"] * 4, loops=0), ep(seed=1, actions=["a", "b"], loops=7))
    p = prepare(df)
    assert list(p["loops"]) == [1, 0]
    # Without an actions column the recorded count is kept.
    assert list(prepare(df.drop(columns=["actions"]))["loops"]) == [0, 7]
    rates = loop_rates(df, by=["agent"])
    assert one(rates, agent="A")["loops_per_episode"] == pytest.approx(0.5)
    assert one(rates, agent="A")["episodes_with_loops"] == pytest.approx(0.5)


def test_loops_by_outcome():
    df = table(
        ep(success=True, actions=["a"] * 3),  # 1 loop
        ep(seed=1, success=True, actions=["a", "b"]),  # 0
        ep(seed=2, success=False, actions=["a"] * 3 + ["b"] + ["c"] * 3),  # 2 loops
    )
    r = one(loop_rates(df, by=["agent"]), agent="A")
    assert r["loops"] == 3
    assert r["loops_success"] == pytest.approx(0.5)
    assert r["loops_failure"] == pytest.approx(2.0)


# -- success rate and errors -----------------------------------------------------------------


def test_success_rate_per_cell_excludes_errors(two_agents):
    s = success_rate(two_agents)
    assert one(s, agent="A", variation="default")["success_rate"] == pytest.approx(1.0)
    a_dark = one(s, agent="A", variation="dark_theme")
    assert a_dark["n"] == 3  # the error row is not an episode of the agent
    assert a_dark["successes"] == 1
    assert a_dark["success_rate"] == pytest.approx(1 / 3)
    assert one(s, agent="B", variation="dark_theme")["success_rate"] == pytest.approx(2 / 3)
    per_agent = success_rate(two_agents, by=["agent"])
    assert one(per_agent, agent="A")["success_rate"] == pytest.approx(4 / 6)
    # "default" sorts first among versions.
    assert list(s[s["agent"] == "A"]["variation"]) == ["default", "dark_theme"]


def test_error_summary_counts_errors_separately(two_agents):
    e = error_summary(two_agents)
    assert one(e, agent="A")["episodes"] == 7
    assert one(e, agent="A")["errors"] == 1
    assert one(e, agent="B")["errors"] == 0
    msgs = error_messages(two_agents)
    assert list(msgs["message"]) == ["TargetClosedError: browser crashed"]
    assert list(msgs["count"]) == [1]
    # Empty strings and NaN are not errors.
    df = table(ep(error=""), ep(seed=1, error=float("nan")), ep(seed=2, error="boom"))
    assert list(prepare(df)["is_error"]) == [False, False, True]
    assert len(valid_episodes(df)) == 2


def test_success_derived_from_reward_when_missing():
    df = table(ep(reward=1.0), ep(seed=1, reward=0.0)).drop(columns=["success"])
    assert list(prepare(df)["success"]) == [True, False]


def test_bootstrap_ci_is_deterministic_and_sensible():
    x = [1, 0] * 5
    lo, hi = bootstrap_ci(x, seed=3)
    assert (lo, hi) == bootstrap_ci(x, seed=3)
    assert lo < 0.5 < hi
    # Resample means of 10 fair coin flips: the 95% interval is about 0.2 .. 0.8.
    assert 0.1 <= lo <= 0.3 and 0.7 <= hi <= 0.9
    assert bootstrap_ci([1, 1, 1]) == (1.0, 1.0)  # no spread to resample
    assert bootstrap_ci([0]) == (0.0, 0.0)  # one episode
    assert all(math.isnan(v) for v in bootstrap_ci([]))


def test_success_ci_per_group_does_not_depend_on_other_groups(two_agents):
    full = success_rate(two_agents, by=["agent"], ci=True, seed=7)
    only_a = success_rate(two_agents[two_agents["agent"] == "A"], by=["agent"], ci=True, seed=7)
    assert one(full, agent="A")["ci_low"] == one(only_a, agent="A")["ci_low"]
    assert one(full, agent="A")["ci_high"] == one(only_a, agent="A")["ci_high"]
    row = one(full, agent="A")
    assert row["ci_low"] <= row["success_rate"] <= row["ci_high"]


def test_wilson_interval():
    lo, hi = wilson_interval(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12)
    assert hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)


# -- deviation -------------------------------------------------------------------------------


def test_within_and_across_deviation_by_hand(two_agents):
    w = within_version_deviation(two_agents)
    # A/default rewards 1,1,1: std 0.  A/dark_theme rewards 1,0,0: mean 1/3,
    # std = sqrt((4/9 + 1/9 + 1/9) / 3) = sqrt(2)/3, MAD = (2/3 + 1/3 + 1/3) / 3 = 4/9.
    assert one(w, agent="A", variation="default")["std"] == 0.0
    assert one(w, agent="A", variation="dark_theme")["std"] == pytest.approx(math.sqrt(2) / 3)
    assert one(w, agent="A", variation="dark_theme")["mad"] == pytest.approx(4 / 9)
    a = across_version_deviation(two_agents)
    # A pooled: 1,1,1,1,0,0 -> mean 2/3, std sqrt(2)/3, MAD (4 * 1/3 + 2 * 2/3) / 6 = 4/9.
    ra = one(a, agent="A")
    assert (ra["n"], ra["n_versions"]) == (6, 2)
    assert ra["std"] == pytest.approx(math.sqrt(2) / 3)
    assert ra["mad"] == pytest.approx(4 / 9)
    d = deviation_summary(two_agents)
    da = one(d, agent="A")
    assert da["within_std"] == pytest.approx(math.sqrt(2) / 6)  # mean of 0 and sqrt(2)/3
    assert da["within_mad"] == pytest.approx(2 / 9)
    assert da["std_ratio"] == pytest.approx(2.0)
    assert da["mad_ratio"] == pytest.approx(2.0)
    # B is equally good in both versions: across == within, ratio 1.
    db = one(d, agent="B")
    assert db["within_std"] == pytest.approx(math.sqrt(2) / 3)
    assert db["std_ratio"] == pytest.approx(1.0)


def test_population_formulas():
    assert population_std([1, 0]) == pytest.approx(0.5)  # not the sample std 0.707
    assert mean_absolute_deviation([1, 0, 0, 0]) == pytest.approx((0.75 + 3 * 0.25) / 4)


def test_agent_deviation_averages_over_tasks():
    rows = []
    # task t1: versions v1 (1,0) and v2 (1,0): within 0.5, across 0.5.
    # task t2: versions v1 (1,1) and v2 (0,0): within 0, across 0.5.
    for var in ("v1", "v2"):
        rows += [ep(task="t1", variation=var, seed=0, success=True), ep(task="t1", variation=var, seed=1)]
    rows += [ep(task="t2", variation="v1", seed=s, success=True) for s in (0, 1)]
    rows += [ep(task="t2", variation="v2", seed=s) for s in (0, 1)]
    d = one(agent_deviation(table(*rows)), agent="A")
    assert d["units"] == 2
    assert d["within_std"] == pytest.approx(0.25)
    assert d["across_std"] == pytest.approx(0.5)
    assert d["std_ratio"] == pytest.approx(2.0)  # ratio of averages, not the mean of (1, inf)
    per_task = deviation_summary(table(*rows))
    assert one(per_task, task="t2")["std_ratio"] == math.inf


def test_one_seed_edge_case():
    df = table(ep(variation="default", success=True), ep(variation="german"))
    w = within_version_deviation(df)
    assert w["std"].isna().all()  # one reward per version: no within-version spread to measure
    d = one(deviation_summary(df), agent="A")
    assert math.isnan(d["within_std"])
    assert d["across_std"] == pytest.approx(0.5)
    assert math.isnan(d["std_ratio"])
    pk = pass_k(df)
    assert list(pk["k"]) == [1, 1]
    assert one(fluctuation(df), agent="A")["fluctuation"] == pytest.approx(1.0)
    s = success_rate(df, ci=True)
    assert one(s, variation="default")[["ci_low", "ci_high"]].tolist() == [1.0, 1.0]


def test_all_failures_edge_case():
    df = table(*[ep(variation=v, seed=s) for v in ("default", "german") for s in range(3)])
    s = success_rate(df, by=["agent"], ci=True)
    assert one(s, agent="A")[["success_rate", "ci_low", "ci_high"]].tolist() == [0.0, 0.0, 0.0]
    d = one(deviation_summary(df), agent="A")
    assert d["within_std"] == 0.0 and d["across_std"] == 0.0
    assert math.isnan(d["std_ratio"])  # 0 / 0: no fluctuation at all
    assert one(fluctuation(df), agent="A")["fluctuation"] == 0.0
    pk = pass_k_summary(df)
    assert pk["pass_at_k"].tolist() == [0.0, 0.0, 0.0]
    assert pk["pass_hat_k"].tolist() == [0.0, 0.0, 0.0]


def test_fluctuation_sorted_and_ties(two_agents):
    f = fluctuation(two_agents)
    assert list(f["agent"]) == ["A", "B"]  # largest fluctuation first
    ra = f.iloc[0]
    assert (ra["max_success"], ra["best_version"]) == (1.0, "default")
    assert ra["min_success"] == pytest.approx(1 / 3) and ra["worst_version"] == "dark_theme"
    assert ra["fluctuation"] == pytest.approx(2 / 3)
    rb = f.iloc[1]
    assert rb["fluctuation"] == 0.0
    assert rb["best_version"] == "default, dark_theme"  # every tied version is named


def test_version_success_and_drop_unsolved():
    rows = [ep(task="t1", variation="v1", success=True), ep(task="t1", variation="v2")]
    rows += [ep(task="t2", variation="v1"), ep(task="t2", variation="v2")]  # never solved
    vs = version_success(table(*rows))
    assert one(vs, variation="v1")["success_rate"] == pytest.approx(0.5)
    vs = version_success(table(*rows), drop_unsolved=True)
    assert one(vs, variation="v1")["success_rate"] == pytest.approx(1.0)
    assert one(vs, variation="v1")["tasks"] == 1


# -- pass@k / pass^k -------------------------------------------------------------------------


def test_pass_k_estimators_by_hand():
    # n=3, c=1: pass@2 = 1 - C(2,2)/C(3,2) = 2/3; pass^2 = C(1,2)/C(3,2) = 0.
    assert pass_at_k(3, 1, 1) == pytest.approx(1 / 3)
    assert pass_at_k(3, 1, 2) == pytest.approx(2 / 3)
    assert pass_at_k(3, 1, 3) == 1.0
    assert pass_hat_k(3, 1, 2) == 0.0
    # n=4, c=2: pass^2 = C(2,2)/C(4,2) = 1/6, pass@2 = 1 - C(2,2)/C(4,2) = 5/6.
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert pass_at_k(4, 2, 2) == pytest.approx(5 / 6)
    assert pass_hat_k(4, 4, 4) == 1.0 and pass_at_k(4, 0, 4) == 0.0
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)
    with pytest.raises(ValueError):
        pass_hat_k(3, 4, 1)


def test_pass_k_tables(two_agents):
    pk = pass_k(two_agents)
    a_dark = pk[(pk["agent"] == "A") & (pk["variation"] == "dark_theme")]
    assert a_dark["k"].tolist() == [1, 2, 3]
    assert a_dark["pass_at_k"].tolist() == pytest.approx([1 / 3, 2 / 3, 1.0])
    assert a_dark["pass_hat_k"].tolist() == pytest.approx([1 / 3, 0.0, 0.0])
    only = pass_k(two_agents, ks=[2, 9])
    assert set(only["k"]) == {2}  # k beyond a cell's n is skipped
    s = pass_k_summary(two_agents)
    # A: cells default (3/3) and dark_theme (1/3): pass^2 = (1 + 0) / 2, pass@2 = (1 + 2/3) / 2.
    r = one(s, agent="A", k=2)
    assert r["pass_hat_k"] == pytest.approx(0.5)
    assert r["pass_at_k"] == pytest.approx(5 / 6)
    assert one(s, agent="A", k=1)["pass_at_k"] == pytest.approx(4 / 6)


# -- invalid actions, intent, effort ---------------------------------------------------------


def test_invalid_actions_per_category():
    df = table(
        ep(invalid={"malformed": 2, "bad_arguments": 1}, steps=5),
        ep(seed=1, invalid={"browser_error": 1, "made_up": 1}, steps=5),
        ep(seed=2, invalid=None, steps=10),
        ep(seed=3, invalid={"malformed": 9}, error="crash"),  # excluded
    )
    per = invalid_actions(df)
    assert per["invalid_total"].tolist() == [3, 2, 0]
    assert per["invalid_malformed"].tolist() == [2, 0, 0]
    assert per["invalid_made_up"].tolist() == [0, 1, 0]  # unknown categories are kept
    r = one(invalid_rates(df, by=["agent"]), agent="A")
    assert r["n"] == 3 and r["steps"] == 20
    assert r["malformed"] == 2 and r["malformed_per_episode"] == pytest.approx(2 / 3)
    assert r["unknown_action"] == 0
    assert r["invalid"] == 5
    assert r["invalid_per_episode"] == pytest.approx(5 / 3)
    assert r["invalid_per_step"] == pytest.approx(5 / 20)
    assert r["episodes_with_invalid"] == pytest.approx(2 / 3)


def test_invalid_rates_ignore_the_runners_detail_dict():
    # The runner writes ``invalid_detail`` (a summary dict) beside ``invalid``; it is not a category.
    detail = {"valid": 3, "malformed": 1, "total": 4, "invalid": 1, "browser_error_kinds": {}}
    df = table(ep(invalid={"malformed": 1}, invalid_detail=detail, steps=4), ep(seed=1, invalid_detail=detail))
    assert "detail" not in invalid_categories(prepare(df))
    r = one(invalid_rates(df, by=["agent"]), agent="A")
    assert r["invalid"] == 1 and r["malformed"] == 1
    assert one(reliability_summary(df, ["agent"]), agent="A")["invalid_per_episode"] == pytest.approx(0.5)


def test_intent_misunderstanding():
    assert not intent_misunderstood(["start", "todo"], ["todo"])
    assert not intent_misunderstood([], ["todo"])
    assert intent_misunderstood(["start", "calendar", "todo"], ["todo"])
    assert not intent_misunderstood(["calendar", "todo"], ["todo", "calendar"])
    assert intent_misunderstood(["todo"], [])
    df = table(
        ep(apps_visited=["start", "todo"]),
        ep(seed=1, apps_visited=["start", "maps", "todo"]),
        ep(seed=2, apps_visited=["todo"], variation="german"),
        ep(seed=3, task="start.open_calendar", task_apps=["calendar"], apps_visited=["maps"]),
        ep(seed=4, apps_visited=["shop"], error="crash"),  # excluded
    )
    r = intent_misunderstanding_rate(df, by=["agent"])
    assert one(r, agent="A")[["n", "misunderstood"]].tolist() == [4, 2]
    assert one(r, agent="A")["rate"] == pytest.approx(0.5)
    r = intent_misunderstanding_rate(df, by=["agent"], exclude_tasks=["start.open_calendar"])
    assert one(r, agent="A")["rate"] == pytest.approx(1 / 3)
    r = intent_misunderstanding_rate(df, by=["variation"])
    assert one(r, variation="german")["rate"] == 0.0


def test_effort():
    df = table(
        ep(steps=2, duration_s=1.0, tokens={"input_tokens": 100, "output_tokens": 20, "requests": 2}),
        ep(seed=1, steps=6, duration_s=3.0, tokens={"total_tokens": 500, "input_tokens": 400}),
        ep(seed=2, steps=99, duration_s=99.0, error="crash"),
    )
    r = one(effort(df), agent="A")
    assert r["mean_steps"] == 4.0 and r["median_steps"] == 4.0
    assert r["mean_duration_s"] == 2.0 and r["total_duration_s"] == 4.0
    assert r["mean_tokens"] == pytest.approx((120 + 500) / 2)  # "requests" is not a token count
    assert token_total({}) == 0.0


# -- axes ------------------------------------------------------------------------------------


def test_nan_temperature_is_kept_and_labelled():
    df = table(
        ep("llm", temperature=None, success=True),
        ep("llm", seed=1, temperature=float("nan")),
        ep("llm", seed=2, temperature=0.7, success=True),
        ep("llm", seed=3, temperature=0.7, success=True),
        ep("oracle", temperature=None, success=True),
    )
    assert varied_axes(df) == ["temperature"]
    b = axis_breakdown(df)
    llm = b[b["agent"] == "llm"]
    assert llm["value"].tolist() == ["0.7", "unset"]  # numbers first, unset last
    assert one(llm, value="unset")[["n", "successes"]].tolist() == [2, 1]
    assert one(llm, value="0.7")["success_rate"] == 1.0
    # Unset temperatures are a group, not dropped, in every grouping.
    s = success_rate(df, by=["agent", "temperature"])
    assert s["n"].sum() == 5
    assert len(within_version_deviation(df, ["agent", "temperature"])) == 3


def test_varied_axes_within_agent():
    # Each agent has one temperature: a property of the agents, not a swept axis.
    df = table(ep("a", temperature=None), ep("b", temperature=0.5), ep("a", seed=1, variation="german"))
    assert varied_axes(df) == ["variation"]
    df2 = table(ep(viewport="1920x1080"), ep(seed=1, viewport="480x320"), ep(seed=2, viewport="1280x720"))
    assert varied_axes(df2) == ["viewport"]
    b = axis_breakdown(df2, ci=False)
    assert b["value"].tolist() == ["480x320", "1280x720", "1920x1080"]  # ordered by area
    # A custom axis column is only considered when named.
    df3 = table(ep(interruptions="on"), ep(seed=1, interruptions="off"))
    assert varied_axes(df3) == []
    assert varied_axes(df3, axes=["interruptions"]) == ["interruptions"]
    assert version_columns(df2) == ["variation", "viewport"]


def test_reliability_summary_matches_components(two_agents):
    s = reliability_summary(two_agents)
    a = one(s, agent="A")
    assert a["n"] == 6 and a["errors"] == 1
    assert a["success_rate"] == pytest.approx(4 / 6)
    assert a["within_std"] == pytest.approx(math.sqrt(2) / 6)
    assert a["across_std"] == pytest.approx(math.sqrt(2) / 3)
    assert a["intent_rate"] == 0.0
    assert a["mean_steps"] == 2.0
    assert one(s, agent="B")["errors"] == 0
    per_var = reliability_summary(two_agents, by=["agent", "variation"])
    assert one(per_var, agent="A", variation="dark_theme")["within_std"] == pytest.approx(math.sqrt(2) / 3)


def test_deduplicate_prefers_the_successful_retry():
    df = table(
        ep(episode_id="e1", error="crash"),
        ep(episode_id="e1", success=True),
        ep(episode_id="e2", seed=1),
        ep(episode_id="e3", seed=2, error="first"),
        ep(episode_id="e3", seed=2, error="second"),
    )
    d = deduplicate(df)
    assert d["episode_id"].tolist() == ["e1", "e2", "e3"]
    assert bool(d.iloc[0]["success"]) is True
    assert d.iloc[2]["error"] == "second"


def test_prepare_is_idempotent_and_pure(two_agents):
    before = two_agents.copy()
    p = prepare(two_agents)
    assert prepare(p) is p
    pd.testing.assert_frame_equal(two_agents, before)  # the input is not modified
    assert "invalid_total" in p.columns and "invalid_total" not in two_agents.columns
    assert not two_agents.attrs  # the input is not flagged as prepared either
    valid_episodes(two_agents)
    assert not two_agents.attrs


def test_empty_table():
    df = pd.DataFrame(columns=["agent", "task", "success"])
    assert success_rate(df).empty
    assert reliability_summary(df).empty
    assert axis_breakdown(df).empty
    assert np.isnan(population_std([]))


def test_pass_k_summary_with_a_lost_episode():
    # Cells: v1 (3 seeds, 2 successes), v2 (3 seeds, 3), v3 (2 seeds left after an error, 1).
    rows = [ep(variation="v1", seed=s, success=s < 2) for s in range(3)]
    rows += [ep(variation="v2", seed=s, success=True) for s in range(3)]
    rows += [ep(variation="v3", seed=s, success=s == 0) for s in range(2)]
    rows.append(ep(variation="v3", seed=2, success=True, error="crash"))
    s = pass_k_summary(table(*rows))
    assert s["k"].tolist() == [1, 2, 3]  # the usual cell size is 3
    assert s["cells"].tolist() == [3, 3, 2]  # k=3 is averaged over the two full cells
    # pass^3: v1 0, v2 1 -> 0.5.  pass^2: v1 C(2,2)/C(3,2) = 1/3, v2 1, v3 0 -> 4/9.
    assert one(s, k=3)["pass_hat_k"] == pytest.approx(0.5)
    assert one(s, k=2)["pass_hat_k"] == pytest.approx(4 / 9)
