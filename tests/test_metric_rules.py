"""Counting rules of the metrics that a one-point change would move, each with its answer written
out (hand-made tables, no browser; ``make mutants`` runs these against the metric modules)."""

from __future__ import annotations

import math
import zlib

import pandas as pd
import pytest

from openapps_sim.analysis.metrics.robustness import robust_success_rate
from openapps_sim.analysis.metrics.stats import (
    bootstrap_ci,
    group_seed,
    mean_absolute_deviation,
    pass_at_k,
    pass_hat_k,
    pass_k,
    pass_k_summary,
    population_std,
    success_rate,
    wilson_interval,
)
from openapps_sim.analysis.metrics.table import deduplicate

from .metric_columns import CI_COLUMNS, SUCCESS_COLUMNS


def row(agent="A", task="t", seed=0, variation="default", success=False, **kw) -> dict:
    return {
        "run_id": "r1",
        "agent": agent,
        "task": task,
        "variation": variation,
        "seed": seed,
        "reward": float(success),
        "success": success,
        "steps": 2,
        "error": None,
        "interruptions": [],
        **kw,
    }


# --- robust success rate: a unit is solved when at least half of its episodes succeeded -------


def unit_rows(seed: int, variation: str, outcomes: list[bool]) -> list[dict]:
    """Repeated episodes of one (agent, task, seed) unit in one version."""
    return [row(seed=seed, variation=variation, success=ok, trial=i) for i, ok in enumerate(outcomes)]


# (outcomes in the baseline, solved there?): the threshold is "at least half", for 1 to 5 episodes
HALF_RULE = [
    ([True], True),
    ([False], False),
    ([True, False], True),  # exactly half
    ([False, False], False),
    ([True, False, False], False),  # a third
    ([True, True, False], True),  # two thirds
    ([True, True, False, False], True),  # exactly half of four
    ([True, False, False, False], False),  # a quarter
    ([True, True, True, False, False], True),  # three fifths
    ([True, True, False, False, False], False),  # two fifths
]


@pytest.mark.parametrize("outcomes, solved", HALF_RULE)
def test_a_unit_is_solved_when_at_least_half_its_episodes_succeed(outcomes, solved):
    rows = unit_rows(0, "default", outcomes) + unit_rows(0, "german", outcomes)
    rsr = robust_success_rate(pd.DataFrame(rows), "default", "german").set_index("agent")
    assert rsr.loc["A", "solved"] == (1 if solved else 0)
    assert rsr.loc["A", "baseline_sr"] == (1.0 if solved else 0.0)
    assert rsr.loc["A", "variation_sr"] == (1.0 if solved else 0.0)
    if solved:
        assert rsr.loc["A", "rsr"] == 1.0
    else:
        assert math.isnan(rsr.loc["A", "rsr"])


def test_rsr_over_units_solved_by_half_in_both_versions():
    """Four units: baseline 1/2, 2/3, 1/3, 2/2 -> solved are seeds 0, 1, 3; in the other version
    1/2, 1/3, 2/2, 0/2 -> of the solved units seed 0 stays solved: RSR 1/3."""
    rows = (
        unit_rows(0, "default", [True, False])
        + unit_rows(1, "default", [False, True, True])
        + unit_rows(2, "default", [True, False, False])
        + unit_rows(3, "default", [True, True])
        + unit_rows(0, "german", [False, True])
        + unit_rows(1, "german", [True, False, False])
        + unit_rows(2, "german", [True, True])
        + unit_rows(3, "german", [False, False])
    )
    rsr = robust_success_rate(pd.DataFrame(rows), "default", "german").set_index("agent")
    assert rsr.loc["A", "units"] == 4
    assert rsr.loc["A", "solved"] == 3
    assert rsr.loc["A", "rsr"] == pytest.approx(1 / 3)
    assert rsr.loc["A", "baseline_sr"] == 0.75
    assert rsr.loc["A", "variation_sr"] == 0.5


# --- de-duplication: an error record never replaces a record that counts ----------------------

DEDUP = [
    # (rows of one episode id in file order as (error, success), the one kept)
    ([(None, True), ("crash", False)], 0),  # a success, then an error: the success stays
    ([("crash", False), (None, True)], 1),
    ([(None, False), ("crash", False)], 0),  # a counted failure beats a later error too
    ([(None, True), ("crash", False), ("timeout", False)], 0),
    ([("crash", False), (None, True), ("crash", False)], 1),
    ([(None, False), (None, True)], 1),  # two that count: the last
    ([(None, True), (None, False)], 1),
    ([("first", False), ("second", False)], 1),  # only errors: the last
    ([(None, True)], 0),
]


@pytest.mark.parametrize("records, kept", DEDUP)
def test_deduplicate_keeps_the_last_record_that_counts(records, kept):
    rows = [row(episode_id="e1", error=err, success=ok, n=i) for i, (err, ok) in enumerate(records)]
    rows.insert(0, row(episode_id="e0", seed=5, n=-1))  # another episode first: positions shift
    d = deduplicate(pd.DataFrame(rows))
    assert d["episode_id"].tolist() == ["e0", "e1"]
    assert d.iloc[1]["n"] == kept


def test_deduplicate_keeps_file_order_across_episodes():
    rows = [
        row(episode_id="b", n=0, error="crash"),
        row(episode_id="a", n=1),
        row(episode_id="b", n=2),
        row(episode_id="c", n=3),
        row(episode_id="a", n=4, error="crash"),
    ]
    d = deduplicate(pd.DataFrame(rows))
    assert d["n"].tolist() == [1, 2, 3]
    assert d["episode_id"].tolist() == ["a", "b", "c"]


# --- bootstrap intervals: seeded by the group's key, never by its position --------------------


def test_group_seed_is_the_seed_and_a_checksum_of_the_key():
    assert group_seed(7, ("B",)) == [7, zlib.crc32(b"('B',)")]
    assert group_seed(0, ("A", "default")) == [0, zlib.crc32(b"('A', 'default')")]
    assert group_seed(3, (1, 2.5)) == [3, zlib.crc32(b"('1', '2.5')")]


def coin_rows(agent: str, successes: int, n: int) -> list[dict]:
    return [row(agent=agent, seed=i, success=i < successes) for i in range(n)]


def test_a_groups_interval_is_the_same_at_any_position():
    """B's interval alone, after A, and after A and 0 (sorted first): the same numbers. With 25
    resamples an interval seeded by position (0, 1 or 2) would differ."""
    a, b, z = coin_rows("A", 9, 23), coin_rows("B", 11, 29), coin_rows("0", 3, 17)
    kw = dict(by=["agent"], ci=True, n_boot=25, seed=4)
    alone = success_rate(pd.DataFrame(b), **kw).set_index("agent").loc["B"]
    second = success_rate(pd.DataFrame(a + b), **kw).set_index("agent").loc["B"]
    third = success_rate(pd.DataFrame(z + a + b), **kw).set_index("agent").loc["B"]
    s = [1.0] * 11 + [0.0] * 18
    want = bootstrap_ci(s, 25, 0.95, [4, zlib.crc32(b"('B',)")])
    for got in (alone, second, third):
        assert (got["ci_low"], got["ci_high"]) == want
    a_alone = success_rate(pd.DataFrame(a), **kw).set_index("agent").loc["A"]
    a_second = success_rate(pd.DataFrame(z + a), **kw).set_index("agent").loc["A"]
    assert (a_alone["ci_low"], a_alone["ci_high"]) == (a_second["ci_low"], a_second["ci_high"])


# --- Wilson interval and the deviations, by value ----------------------------------------------


@pytest.mark.parametrize(
    "successes, n, level, lo, hi",
    [
        (5, 10, 0.95, 0.23659309051256405, 0.763406909487436),
        (3, 7, 0.95, 0.1582198552514697, 0.7495416354723428),
        (0, 1, 0.95, 0.0, 0.7934506856227626),
        (1, 1, 0.95, 0.20654931437723745, 1.0),
        (7, 7, 0.9, 0.7212373045474582, 1.0),
        (9, 9, 0.95, 0.7008549515804562, 1.0),  # the formula gives 1.0000000000000002 here: kept to 1
        (0, 21, 0.95, 0.0, 0.15463901892484688),  # and -1.4e-17 here: kept to 0
    ],
)
def test_wilson_interval_by_value(successes, n, level, lo, hi):
    got = wilson_interval(successes, n, level)
    assert got[0] == pytest.approx(lo, abs=1e-12) and got[1] == pytest.approx(hi, abs=1e-12)
    assert 0.0 <= got[0] and got[1] <= 1.0


@pytest.mark.parametrize("n", [0, -1])
def test_wilson_interval_of_no_episodes_is_nan(n):
    lo, hi = wilson_interval(0, n)
    assert math.isnan(lo) and math.isnan(hi)


def test_population_std_and_mean_absolute_deviation_by_value():
    assert population_std([2, 4, 4, 4, 5, 5, 7, 9]) == 2.0
    assert population_std([1, 0, 0, 0]) == pytest.approx(0.4330127018922193)
    assert population_std([True, False]) == 0.5
    assert population_std([3]) == 0.0
    assert mean_absolute_deviation([1, 2, 3, 4, 10]) == pytest.approx(2.4)
    assert mean_absolute_deviation([True, False, False, False]) == 0.375
    assert mean_absolute_deviation([3]) == 0.0
    assert math.isnan(population_std([])) and math.isnan(mean_absolute_deviation([]))


# --- pass@k / pass^k tables --------------------------------------------------------------------


def cell_rows(variation: str, outcomes: list[bool], agent: str = "A") -> list[dict]:
    return [row(agent=agent, variation=variation, seed=i, success=ok) for i, ok in enumerate(outcomes)]


def test_pass_k_rows_written_out():
    df = pd.DataFrame(cell_rows("v1", [True, False, False]))
    got = pass_k(df, ["agent", "variation"])
    assert got.to_dict("records") == [
        {
            "agent": "A",
            "variation": "v1",
            "n": 3,
            "c": 1,
            "k": 1,
            "pass_at_k": pytest.approx(1 / 3),
            "pass_hat_k": pytest.approx(1 / 3),
        },
        {"agent": "A", "variation": "v1", "n": 3, "c": 1, "k": 2, "pass_at_k": pytest.approx(2 / 3), "pass_hat_k": 0.0},
        {"agent": "A", "variation": "v1", "n": 3, "c": 1, "k": 3, "pass_at_k": 1.0, "pass_hat_k": 0.0},
    ]
    assert pass_k(df, ["agent", "variation"], ks=[3, 1, 0, 4])["k"].tolist() == [1, 3]  # 1 and n kept


def test_pass_k_tables_of_no_valid_episode_have_their_columns():
    df = pd.DataFrame([row(error="crash")])
    assert list(pass_k(df, ["agent", "variation"]).columns) == [
        "agent",
        "variation",
        "n",
        "c",
        "k",
        "pass_at_k",
        "pass_hat_k",
    ]
    assert list(pass_k_summary(df, ["agent"], ["variation"]).columns) == [
        "agent",
        "k",
        "cells",
        "pass_at_k",
        "pass_hat_k",
    ]


@pytest.mark.parametrize(
    "sizes, ks, cells",
    [
        ([2, 2, 5], [1, 2], [3, 3]),  # the usual cell size is the most common one: 2
        ([1, 1, 3], [1], [3]),
        ([3, 3, 2], [1, 2, 3], [3, 3, 2]),
        ([2, 4], [1, 2, 3, 4], [2, 2, 1, 1]),  # a tie goes to the larger size
    ],
)
def test_pass_k_summary_runs_to_the_usual_cell_size(sizes, ks, cells):
    rows = [r for i, n in enumerate(sizes) for r in cell_rows(f"v{i}", [True] * n)]
    s = pass_k_summary(pd.DataFrame(rows), ["agent"], ["variation"])
    assert s["k"].tolist() == ks and s["cells"].tolist() == cells
    assert s["pass_at_k"].tolist() == [1.0] * len(ks) and s["pass_hat_k"].tolist() == [1.0] * len(ks)


def test_pass_k_estimators_name_what_is_out_of_range():
    with pytest.raises(ValueError, match=r"^need 0 <= c <= n, got c=4, n=3$"):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError, match=r"^need 0 <= c <= n, got c=-1, n=3$"):
        pass_hat_k(3, -1, 1)
    with pytest.raises(ValueError, match=r"^need 1 <= k <= n, got k=4, n=3$"):
        pass_at_k(3, 1, 4)
    with pytest.raises(ValueError, match=r"^need 1 <= k <= n, got k=0, n=3$"):
        pass_hat_k(3, 1, 0)


# --- bootstrap intervals by value ----------------------------------------------------------------


def test_bootstrap_ci_by_value():
    assert bootstrap_ci([1, 0] * 5) == (0.2, 0.8)  # 2000 resamples, 95%, seed 0
    assert bootstrap_ci([1, 0, 0] * 7, n_boot=300, level=0.8, seed=5) == pytest.approx(
        (0.19047619047619047, 0.47619047619047616), abs=1e-12
    )
    # 4000 episodes: the resamples are drawn in four batches of 500
    many = [1.0 if i % 3 == 0 else 0.0 for i in range(4000)]
    assert bootstrap_ci(many, n_boot=2000, seed=1) == pytest.approx((0.31899375, 0.34775), abs=1e-12)


@pytest.mark.parametrize("level", [0.0, 1.0, 1.5, -0.1])
def test_bootstrap_ci_level_must_be_inside_0_and_1(level):
    with pytest.raises(ValueError, match=r"^level must be in \(0, 1\), got "):
        bootstrap_ci([1, 0], level=level)


def test_success_rate_columns_with_and_without_intervals():
    df = pd.DataFrame(coin_rows("A", 2, 4))
    plain = success_rate(df, by=["agent"])
    assert list(plain.columns) == ["agent", *SUCCESS_COLUMNS]
    assert plain.iloc[0].to_dict() == {
        "agent": "A",
        "n": 4,
        "successes": 2,
        "success_rate": 0.5,
        "mean_partial_reward": 0.5,
    }
    with_ci = success_rate(df, by=["agent"], ci=True, n_boot=200, seed=3)
    assert list(with_ci.columns) == ["agent", *SUCCESS_COLUMNS, *CI_COLUMNS]


# --- reading record fields ----------------------------------------------------------------------


def test_record_values_read_whatever_shape_json_left():
    from openapps_sim.analysis.metrics.values import as_bool, as_list, token_total

    assert as_list(None) == [] and as_list(float("nan")) == [] and as_list("a") == ["a"]
    assert as_list((1, 2)) == [1, 2] and as_list({"k": 1}) == ["k"] and as_list(iter([3])) == [3]
    assert as_bool(None) is False and as_bool(float("nan")) is False and as_bool(pd.NA) is False
    assert as_bool(1) is True and as_bool(0) is False and as_bool("x") is True
    assert token_total({}) == 0.0 and token_total(None) == 0.0
    assert token_total({"total_tokens": 12, "input_tokens": 1}) == 12.0
    assert token_total({"total": 7, "input_tokens": 1}) == 7.0
    assert token_total({"total": True, "input_tokens": 2, "output_tokens": 3}) == 5.0
    assert token_total({"prompt_tokens": 2.5, "completion_tokens": 1}) == 3.5
    assert math.isnan(token_total({"cost": 3}))
