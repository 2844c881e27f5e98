"""Within-version deviation is over repeated trials of one instance, as in the OpenApps paper
(issue 42, point 9): the shipped ``paper`` spec runs each instance three times, and the metric
takes the spread over those trials (never over instances that differ by seed, language or
backend), with the numbers written out here by hand."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import pytest

from openapps_sim.analysis.metrics.reliability import agent_deviation, has_trials, within_version_deviation
from openapps_sim.analysis.metrics.table import prepare
from openapps_sim.sweeps.spec import load_spec


def test_the_paper_spec_repeats_each_instance_three_times():
    # the paper: "three random seeds per task", "the task prompt is explicit and fixed"
    spec = load_spec("paper")
    assert spec.trials == 3 and spec.seeds == [0]
    episodes = spec.episodes()
    assert len(episodes) == 3 * 15 * 8 * 3, "as many episodes as the three seeds it ran before"
    runs = Counter((e.agent, e.task, e.world.variation, e.world.seed, e.language, e.backend) for e in episodes)
    assert set(runs.values()) == {3}, "every instance three times"
    trials = {}
    for e in episodes:
        trials.setdefault((e.agent, e.task, e.world.variation, e.world.seed), set()).add((e.trial, e.agent_seed))
    assert all(len({t for t, _ in v}) == 3 and len({s for _, s in v}) == 3 for v in trials.values())


def _records(outcomes: dict[tuple, list[float]]) -> pd.DataFrame:
    """``(variation, seed, language) -> [reward of trial 0, 1, ...]`` for agent ``a`` on task ``t``."""
    rows = []
    for (variation, seed, language), rewards in outcomes.items():
        for trial, reward in enumerate(rewards):
            rows.append(
                {
                    "episode_id": f"{variation}-{seed}-{language}-{trial}",
                    "agent": "a",
                    "task": "t",
                    "variation": variation,
                    "seed": seed,
                    "language": language,
                    "trial": trial,
                    "reward": reward,
                    "success": reward == 1.0,
                    "error": None,
                }
            )
    return pd.DataFrame(rows)


KNOWN = {
    ("default", 0, "en"): [1.0, 1.0, 0.0],  # std sqrt(2/9) = 0.4714, MAD 4/9
    ("default", 1, "en"): [1.0, 1.0, 1.0],  # 0, 0
    ("dark_theme", 0, "en"): [0.0, 0.0, 0.0],  # 0, 0
    ("dark_theme", 1, "en"): [1.0, 0.0, 0.0],  # std sqrt(2/9), MAD 4/9
}


def test_within_is_the_spread_over_trials_of_one_instance_with_known_numbers():
    df = _records(KNOWN)
    w = within_version_deviation(df)
    assert w["within_over"].tolist() == ["trials", "trials"] and w["n"].tolist() == [6, 6]
    # per version: the mean over its two instances of the spread over their three trials
    assert w["std"].tolist() == pytest.approx([0.2357022604, 0.2357022604])
    assert w["mad"].tolist() == pytest.approx([0.2222222222, 0.2222222222])
    # over seeds it would have been the spread of six rewards: default 5 of 6, dark 1 of 6
    assert within_version_deviation(df, over="seeds")["std"].tolist() == pytest.approx([0.3726779962] * 2)
    head = agent_deviation(df)
    assert head["within_over"].tolist() == ["trials"]
    assert head["within_std"].tolist() == pytest.approx([0.2357022604])
    assert head["across_std"].tolist() == pytest.approx([0.5]), "6 of 12 solved"
    assert head["std_ratio"].tolist() == pytest.approx([2.1213203436])
    assert head["mad_ratio"].tolist() == pytest.approx([2.25])


def test_trials_in_another_language_are_another_instance():
    # the same seed run three times in English and three times in German: two instances, each
    # with its own spread, not one instance of six runs
    df = _records({("default", 0, "en"): [1.0, 1.0, 0.0], ("default", 0, "de"): [1.0, 1.0, 1.0]})
    w = within_version_deviation(df)
    assert w["within_over"].tolist() == ["trials"]
    assert w["std"].tolist() == pytest.approx([0.2357022604]), "(0.4714 + 0) / 2, not the std of 5 of 6"
    assert w["mad"].tolist() == pytest.approx([0.2222222222])


def test_one_run_per_language_is_not_a_repeat():
    # one trial in each of two languages: no instance ran twice, so within is over seeds
    df = _records({("default", 0, "en"): [1.0], ("default", 0, "de"): [0.0], ("default", 1, "en"): [1.0]})
    assert not has_trials(df)
    assert within_version_deviation(df)["within_over"].tolist() == ["seeds"]


def test_the_report_says_what_within_is_over():
    from openapps_sim.analysis.report.analysis import integrity_notes

    trials = " ".join(integrity_notes(prepare(_records(KNOWN))))
    assert "over the repeated trials of one instance" in trials
    one_each = _records({("default", 0, "en"): [1.0], ("default", 0, "de"): [0.0], ("default", 1, "en"): [1.0]})
    seeds = " ".join(integrity_notes(prepare(one_each)))
    assert "not over repeated trials of one instance; run the sweep with trials: k" in seeds
