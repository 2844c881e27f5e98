"""Within- and across-version deviation, their ratio, fluctuation and success per version, every
answer worked out by hand and written out (hand-made tables; ``make mutants`` runs these against
``analysis/metrics/reliability.py``)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from openapps_sim.analysis.metrics.reliability import (
    across_version_deviation,
    agent_deviation,
    apply_by,
    deviation_summary,
    fluctuation,
    has_trials,
    instance_keys,
    reliability_summary,
    safe_ratio,
    version_label,
    version_success,
    within_version_deviation,
)

from .metric_columns import SUCCESS_COLUMNS

SQRT_3_16 = 0.4330127018922193  # sqrt(3/16): the population std of 1, 0, 1, 1
# the spreads within and across versions, and their ratios, in the order of every deviation table
DEVIATION_COLUMNS = ["within_std", "across_std", "std_ratio", "within_mad", "across_mad", "mad_ratio"]


def ep(agent="A", task="t", variation="v1", seed=0, reward=0.0, **kw) -> dict:
    return {"agent": agent, "task": task, "variation": variation, "seed": seed, "reward": reward, **kw}


def two_versions() -> pd.DataFrame:
    """v1 rewards 1, 0 and v2 rewards 1, 1 (two seeds each)."""
    return pd.DataFrame(
        [ep(seed=0, reward=1.0), ep(seed=1), ep(variation="v2", reward=1.0), ep(variation="v2", seed=1, reward=1.0)]
    )


def test_within_version_over_seeds():
    got = within_version_deviation(two_versions())
    assert list(got.columns) == ["agent", "task", "variation", "n", "mean", "std", "mad", "within_over"]
    assert got.values.tolist() == [
        ["A", "t", "v1", 2, 0.5, 0.5, 0.5, "seeds"],
        ["A", "t", "v2", 2, 1.0, 0.0, 0.0, "seeds"],
    ]
    one = within_version_deviation(two_versions().iloc[:3])  # v2 has a single episode: no spread
    assert one["n"].tolist() == [2, 1] and math.isnan(one["std"][1]) and math.isnan(one["mad"][1])
    assert within_version_deviation(two_versions(), min_n=3)["std"].isna().all()
    assert within_version_deviation(two_versions(), min_n=1)["std"].tolist() == [0.5, 0.0]


def test_within_version_over_trials_is_the_mean_over_instances():
    """Seed 0: trials 1, 0 (std 0.5, mad 0.5); seed 1: trials 1, 1 (0, 0); seed 2 one trial (NaN,
    left out of the mean). Over the seeds the five rewards pooled give another number."""
    df = pd.DataFrame(
        [
            ep(seed=0, trial=0, reward=1.0),
            ep(seed=0, trial=1),
            ep(seed=1, trial=0, reward=1.0),
            ep(seed=1, trial=1, reward=1.0),
            ep(seed=2, trial=0, reward=1.0),
        ]
    )
    assert has_trials(df)
    auto = within_version_deviation(df)
    trials = within_version_deviation(df, over="trials")
    for got in (auto, trials):
        assert got[["n", "mean", "std", "mad", "within_over"]].values.tolist() == [[5, 0.8, 0.25, 0.25, "trials"]]
    seeds = within_version_deviation(df, over="seeds").iloc[0]
    assert (seeds["std"], seeds["mad"], seeds["within_over"]) == (pytest.approx(0.4), pytest.approx(0.32), "seeds")
    with pytest.raises(ValueError, match=r"^over must be auto, seeds or trials, not 'runs'$"):
        within_version_deviation(df, over="runs")


def test_instances_and_trials():
    df = pd.DataFrame([ep(backend="text", language="de", viewport="1x1", custom=1, trial=0)])
    assert instance_keys(df) == ["agent", "task", "variation", "viewport", "language", "backend", "seed"]
    assert instance_keys(df, ["agent", "language"]) == ["agent", "language", "variation", "viewport", "backend", "seed"]
    one_each = pd.DataFrame([ep(trial=0), ep(seed=1, trial=1)])  # two instances, one trial each
    assert not has_trials(one_each)
    assert not has_trials(pd.DataFrame([ep(), ep(seed=0)]))  # no trial column
    assert not has_trials(pd.DataFrame([ep(trial=0, error="x"), ep(trial=1, error="x")]))  # no valid episode
    other_language = pd.DataFrame([ep(trial=0, language="en"), ep(trial=1, language="de")])
    assert not has_trials(other_language)  # another language is another instance
    assert has_trials(pd.DataFrame([ep(trial=0, language="en"), ep(trial=1, language="en")]))


def test_across_versions_pools_every_reward_of_a_unit():
    got = across_version_deviation(two_versions())
    assert list(got.columns) == ["agent", "task", "n", "n_versions", "mean", "std", "mad"]
    assert got.values.tolist() == [["A", "t", 4, 2, 0.75, SQRT_3_16, 0.375]]
    assert across_version_deviation(two_versions(), version=())["n_versions"].tolist() == [1]
    single = across_version_deviation(two_versions().iloc[:1])
    assert single["n"].tolist() == [1] and math.isnan(single["std"][0]) and math.isnan(single["mad"][0])
    assert across_version_deviation(two_versions(), min_n=5)["std"].isna().all()
    assert across_version_deviation(two_versions(), min_n=4)["std"].tolist() == [SQRT_3_16]


@pytest.mark.parametrize(
    "num, den, want",
    [(1.0, 2.0, 0.5), (3, 4, 0.75), (1.0, 0.0, math.inf), (0.0, 0.0, None), (math.nan, 1.0, None), (1.0, None, None)],
)
def test_safe_ratio(num, den, want):
    got = safe_ratio(num, den)
    assert math.isnan(got) if want is None else got == want
    assert isinstance(got, float)


def test_deviation_summary_within_across_and_ratio():
    got = deviation_summary(two_versions())
    assert list(got.columns) == [
        "agent",
        "task",
        "within_over",
        "n",
        "n_versions",
        "mean",
        *DEVIATION_COLUMNS,
    ]
    assert got.values.tolist() == [
        ["A", "t", "seeds", 4, 2, 0.75, 0.25, SQRT_3_16, 1.7320508075688772, 0.25, 0.375, 1.5]
    ]
    assert got["n"].dtype.kind == "i"
    # an unequal split: mean is the mean over the episodes (2 at 0.5, 1 at 1.0), not over versions
    uneven = deviation_summary(two_versions().iloc[:3])
    assert uneven["mean"].tolist() == [pytest.approx(2 / 3)] and uneven["n"].tolist() == [3]
    assert deviation_summary(two_versions().iloc[:0]).empty


def test_agent_deviation_is_a_ratio_of_means():
    """Task t: within 0.25, across sqrt(3/16); task u (every reward 1): within 0, across 0.
    Means over the two tasks: within 0.125, across sqrt(3/16)/2; std ratio sqrt(3), not inf."""
    df = pd.concat([two_versions(), two_versions().assign(task="u", reward=1.0)], ignore_index=True)
    got = agent_deviation(df)
    assert list(got.columns) == [
        "agent",
        "units",
        "within_over",
        *DEVIATION_COLUMNS,
    ]
    assert got.values.tolist() == [["A", 2, "seeds", 0.125, SQRT_3_16 / 2, 1.7320508075688772, 0.125, 0.1875, 1.5]]
    trials = pd.DataFrame(
        [ep(trial=0, reward=1.0), ep(trial=1), ep(variation="v2", trial=0), ep(variation="v2", trial=1)]
    )
    assert agent_deviation(trials)["within_over"].tolist() == ["trials"]


def test_version_label_joins_axis_values():
    assert version_label(["german", 0.5, None]) == "german \u00b7 0.5 \u00b7 unset"
    assert version_label(["default"]) == "default"


def sr_rows(agent: str, task: str, variation: str, outcomes: list[bool]) -> list[dict]:
    return [ep(agent, task, variation, seed=i, reward=float(ok)) for i, ok in enumerate(outcomes)]


def test_fluctuation_names_ties_and_sorts_largest_first():
    rows = (
        sr_rows("A", "t2", "v1", [True])
        + sr_rows("B", "t", "a", [False])
        + [r for v in "bcde" for r in sr_rows("B", "t", v, [False])]
        + sr_rows("A", "t", "v1", [True, False])
        + sr_rows("A", "t", "v2", [True])
        + sr_rows("A", "t", "v3", [True, True])
    )
    got = fluctuation(pd.DataFrame(rows))
    assert list(got.columns) == [
        "agent",
        "task",
        "n_versions",
        "max_success",
        "best_version",
        "min_success",
        "worst_version",
        "fluctuation",
    ]
    assert got.iloc[:2].values.tolist() == [
        ["A", "t", 3, 1.0, "v2, v3", 0.5, "v1", 0.5],
        ["B", "t", 5, 0.0, "a, b, c +2 more", 0.0, "a, b, c +2 more", 0.0],
    ]
    assert got.iloc[2, :7].tolist() == ["A", "t2", 1, 1.0, "v1", 1.0, "v1"] and math.isnan(got.iloc[2, 7])
    four = fluctuation(pd.DataFrame([r for v in "abcd" for r in sr_rows("A", "t", v, [True])]))
    assert four["best_version"].tolist() == ["a, b, c +1 more"]
    three = fluctuation(pd.DataFrame([r for v in "abc" for r in sr_rows("A", "t", v, [True])]))
    assert three["best_version"].tolist() == ["a, b, c"]
    two_axes = pd.DataFrame([ep(language="de", reward=1.0), ep(variation="v2", language="en")])
    assert fluctuation(two_axes, version=["variation", "language"])["best_version"].tolist() == ["v1 \u00b7 de"]
    assert fluctuation(two_axes, version=[])["best_version"].tolist() == [""]
    assert fluctuation(two_axes.iloc[:0]).empty


def test_version_success_with_and_without_unsolved_tasks():
    """t1 solved in v1 only, t2 never: v1 averages 1 and 0, v2 0 and 0; without t2, 1 and 0."""
    df = pd.DataFrame(
        sr_rows("A", "t1", "v1", [True])
        + sr_rows("A", "t1", "v2", [False])
        + sr_rows("A", "t2", "v1", [False])
        + sr_rows("A", "t2", "v2", [False])
    )
    assert version_success(df).values.tolist() == [["A", "v1", 2, 0.5], ["A", "v2", 2, 0.0]]
    assert list(version_success(df).columns) == ["agent", "variation", "tasks", "success_rate"]
    assert version_success(df, drop_unsolved=True).values.tolist() == [["A", "v1", 1, 1.0], ["A", "v2", 1, 0.0]]
    assert version_success(df.iloc[:0], drop_unsolved=True).empty


def test_reliability_summary_columns_and_error_counts():
    df = pd.DataFrame(
        [
            ep(seed=0, reward=1.0, actions=["a", "a", "a"]),
            ep(seed=1, actions=["x"], step_changed=[True]),
            ep(seed=2, error="browser died"),
            ep(seed=3, error="rate limit", error_kind="model_service"),
            ep("B", seed=0, reward=1.0, agent_error=None, actions=["a"], step_changed=[True]),
            ep("B", seed=1, agent_error="ValueError: x", actions=["b"], step_changed=[False]),
        ]
    )
    got = reliability_summary(df, ci=False)
    assert list(got.columns) == [
        "agent",
        *SUCCESS_COLUMNS,
        "within_over",
        *DEVIATION_COLUMNS,
        "loops_per_episode",
        "episodes_with_loops",
        "stuck_per_episode",
        "invalid_per_episode",
        "invalid_per_step",
        "intent_rate",
        "mean_steps",
        "mean_duration_s",
        "mean_tokens",
        "total_tokens",
        "total_cost_usd",
        "errors",
        "infrastructure",
        "model_service",
        "agent_errors",
    ]
    a, b = got.to_dict("records")
    assert (a["n"], a["successes"], a["errors"], a["infrastructure"], a["model_service"], a["agent_errors"]) == (
        2,
        1,
        2,
        1,
        1,
        0,
    )
    assert (b["n"], b["successes"], b["errors"], b["infrastructure"], b["model_service"], b["agent_errors"]) == (
        2,
        1,
        0,
        0,
        0,
        1,
    )
    assert a["loops_per_episode"] == 0.5 and math.isnan(a["stuck_per_episode"])  # a loop without per-step changes
    assert b["stuck_per_episode"] == 0.0 and b["loops_per_episode"] == 0.0
    assert got["errors"].dtype.kind == "i"
    with_ci = reliability_summary(df, n_boot=50, seed=2)
    assert {"ci_low", "ci_high"} <= set(with_ci.columns)
    assert reliability_summary(pd.DataFrame([ep(error="x")])).empty


def test_apply_by_runs_over_valid_episodes_per_group():
    df = pd.DataFrame([ep("B"), ep("A"), ep("A", seed=1), ep("A", seed=2, error="crash")])
    got = apply_by(df, ["agent"], lambda g: {"n": len(g)})
    assert got.values.tolist() == [["A", 2], ["B", 1]]


def test_version_success_over_another_axis():
    """Versions by language: en 1 of 2 tasks solved, de none."""
    df = pd.DataFrame(
        [
            ep(task="t1", language="en", reward=1.0),
            ep(task="t2", language="en"),
            ep(task="t1", language="de", seed=1),
            ep(task="t2", language="de", seed=1),
        ]
    )
    got = version_success(df, version=["language"])
    assert got.values.tolist() == [["A", "de", 2, 0.0], ["A", "en", 2, 0.5]]


def test_fluctuation_ties_stay_in_unit_order_at_any_size():
    """40 tasks: the odd ones fluctuate by 1, the even ones by 0; within each the tasks stay in
    order (an unstable sort shuffles ties once there are more than 16)."""
    rows = [ep(task=f"t{i:02d}", variation="v1", reward=float(i % 2)) for i in range(40)]
    rows += [ep(task=f"t{i:02d}", variation="v2") for i in range(40)]
    got = fluctuation(pd.DataFrame(rows))
    assert got["task"].tolist() == [f"t{i:02d}" for i in range(1, 40, 2)] + [f"t{i:02d}" for i in range(0, 40, 2)]
    assert got["fluctuation"].tolist() == [1.0] * 20 + [0.0] * 20


def test_reliability_summary_default_interval_and_group_order():
    """Agent A, 11 of 15: the default 2000 resamples seeded by (0, A) give (0.53167, 14/15) (2001
    give 8/15). Groups keep the metrics' order: viewports by area, not as text."""
    rows = [ep(seed=i, reward=float(i < 11)) for i in range(15)]
    got = reliability_summary(pd.DataFrame(rows)).iloc[0]
    assert abs(got["ci_low"] - 0.5316666666666696) < 1e-9 and abs(got["ci_high"] - 14 / 15) < 1e-12
    seeded = reliability_summary(pd.DataFrame(rows), seed=1).iloc[0]  # seed 1: (7/15, 14/15)
    assert abs(seeded["ci_low"] - 7 / 15) < 1e-12 and abs(seeded["ci_high"] - 14 / 15) < 1e-12
    views = pd.DataFrame([ep(viewport="1280x720"), ep(seed=1, viewport="480x320", reward=1.0)])
    by_view = reliability_summary(views, by=["viewport"], ci=False)
    assert by_view["viewport"].tolist() == ["480x320", "1280x720"]
    assert by_view["successes"].tolist() == [1, 0] and by_view["errors"].tolist() == [0, 0]


def test_reliability_summary_deviation_is_per_task_then_averaged():
    """Task t: within 0.25; task u (every reward 1): 0. The mean over tasks is 0.125 (pooling both
    tasks per version would give 0.2165)."""
    df = pd.concat([two_versions(), two_versions().assign(task="u", reward=1.0)], ignore_index=True)
    got = reliability_summary(df, ci=False).iloc[0]
    assert got["within_std"] == 0.125 and got["within_mad"] == 0.125


def test_a_unit_without_version_columns_counts_one_version_as_an_integer():
    got = across_version_deviation(two_versions(), version=())
    assert [type(n) for n in got["n_versions"].tolist()] == [int]
    assert str(got["n_versions"].dtype) == "int64"


def test_deviations_of_another_value_than_the_reward():
    """Rewards v1 1, 0 and v2 1, 1 (across: sqrt(3/16)); successes v1 1, 1 and v2 0, 0: within
    each version no spread, across the four 1, 1, 0, 0: std 0.5, mad 0.5."""
    df = two_versions().assign(success=[1.0, 1.0, 0.0, 0.0])
    got = deviation_summary(df, value="success").iloc[0]
    assert (got["n"], got["mean"], got["within_std"], got["across_std"]) == (4, 0.5, 0.0, 0.5)
    assert (got["within_mad"], got["across_mad"]) == (0.0, 0.5)
    agent = agent_deviation(df, value="success").iloc[0]
    assert (agent["within_std"], agent["across_std"], agent["across_mad"]) == (0.0, 0.5, 0.5)


def test_deviation_summary_takes_trials_when_the_run_has_them():
    """Seed 0 ran trials 1, 0 in v1 (std 0.5) and 1, 1 in v2 (0): within, over trials, 0.25."""
    df = pd.DataFrame(
        [
            ep(seed=0, trial=0, reward=1.0),
            ep(seed=0, trial=1),
            ep(variation="v2", seed=0, trial=0, reward=1.0),
            ep(variation="v2", seed=0, trial=1, reward=1.0),
        ]
    )
    got = deviation_summary(df).iloc[0]
    assert (got["within_over"], got["within_std"], got["across_std"]) == ("trials", 0.25, SQRT_3_16)


def test_trials_of_an_instance_with_an_unset_axis_are_trials():
    df = pd.DataFrame([ep(trial=0, temperature=None), ep(trial=1, temperature=None)])
    assert has_trials(df)


def test_instances_over_trials_follow_the_cell_given():
    """Per agent only: an instance is the agent and the seed (every task of it together), so
    t1's trials 0, 0 and t2's 1, 1 pool to a spread of 0.5 (per task, 0 each)."""
    df = pd.DataFrame(
        [
            ep(task="t1", trial=0),
            ep(task="t1", trial=1),
            ep(task="t2", trial=0, reward=1.0),
            ep(task="t2", trial=1, reward=1.0),
        ]
    )
    got = within_version_deviation(df, ("agent",), over="trials")
    assert got[["agent", "n", "mean", "std", "mad"]].values.tolist() == [["A", 4, 0.5, 0.5, 0.5]]
