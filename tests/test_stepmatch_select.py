"""Offline exact match compares what the agent could see (issue 42, point 6): a ``select_option``
that names the option by its visible label is the gold step that named it by its hidden value,
and the other way round; a wrong option still fails. Observations are the real ones the gold
records (the oracle's steps on the text backend, as ``sweeps/gold.py`` replays them)."""

from __future__ import annotations

import ast

import pytest
from openapps_sim.agents.oracle import OracleAgent

from openapps_sim.envs.registration import make_env
from openapps_sim.sweeps.stepmatch import score_step
from openapps_sim.taskkit.observation import select_options


def _select_steps(pack: str, seeds: range) -> list[tuple[dict, str]]:
    """(observation, gold action) of every select_option the oracle takes."""
    env = make_env("shop.add_to_cart", backend="text", obs_mode="axtree")
    out = []
    try:
        for seed in seeds:
            obs, info = env.reset(seed=seed, options={"task_kwargs": {"family": "shop.add_to_cart", "variation": pack}})
            agent = OracleAgent()
            agent.reset(obs["goal"], info["task_info"])
            for _ in range(info["task_info"]["max_steps"]):
                action = agent.act(obs)
                if action.startswith("select_option"):
                    out.append((obs, action))
                obs, _, terminated, _, _ = env.step(action)
                if terminated:
                    break
    finally:
        env.close()
    return out


@pytest.fixture(scope="module")
def steps():
    return {"default": _select_steps("default", range(4)), "german": _select_steps("german", range(2))}


def _call(action: str) -> tuple[str, str]:
    node = ast.parse(action, mode="eval").body
    return ast.literal_eval(node.args[0]), ast.literal_eval(node.args[1])


def test_the_gold_names_the_options_by_their_hidden_values(steps):
    obs, gold = steps["default"][0]
    bid, value = _call(gold)
    assert gold == f"select_option('{bid}', 'purple')"
    assert select_options(obs, bid) == [
        ("blue", "Blue"),
        ("green", "Green"),
        ("yellow", "Yellow"),
        ("purple", "Purple"),
    ]


@pytest.mark.parametrize("pack", ["default", "german"])
def test_label_value_and_whitespace_variants_match_and_a_wrong_option_fails(steps, pack):
    assert len(steps[pack]) >= 2
    for obs, gold in steps[pack]:
        bid, value = _call(gold)
        options = select_options(obs, bid)
        label = next(lb for v, lb in options if v == value)
        other_value, other_label = next((v, lb) for v, lb in options if v != value)
        same = [
            f"select_option('{bid}', {value!r})",
            f"select_option('{bid}', {label!r})",
            f'select_option("{bid}", "  {label} ")',
            f"select_option('{bid}', [{label!r}])",
            f"select_option('{bid}', {label!r})\nclick('1')",  # the first action of several
        ]
        for predicted in same:
            assert score_step(predicted, gold, obs).exact is True, (predicted, gold, options)
        wrong = [
            f"select_option('{bid}', {other_value!r})",
            f"select_option('{bid}', {other_label!r})",
            f"select_option('{bid}', {label.upper() + 'X'!r})",
            f"select_option('{bid}', [{label!r}, {other_label!r}])",
            f"select_option('{bid}', 'no such option')",
        ]
        for predicted in wrong:
            assert score_step(predicted, gold, obs).exact is False, (predicted, gold, options)


def test_the_german_labels_are_translated_and_still_match(steps):
    obs, gold = steps["german"][0]
    bid, value = _call(gold)
    label = next(lb for v, lb in select_options(obs, bid) if v == value)
    assert label != value and label.lower() != value  # a translated label: only the page says so
    assert score_step(f"select_option('{bid}', {label!r})", gold, obs).exact is True


def test_a_case_variant_names_no_option_on_the_page(steps):
    """Online, ``select_option`` picks by exact value or label; ``PURPLE`` picks nothing."""
    obs, gold = steps["default"][0]
    bid, _ = _call(gold)
    assert score_step(f"select_option('{bid}', 'PURPLE')", gold, obs).exact is False
