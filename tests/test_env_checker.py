"""Gymnasium's own environment checker passes on the raw environment (issue 26, point 6)."""

from __future__ import annotations

import warnings

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401 - registers the environments
from openapps_sim.envs.actions import ACTION_SPACES, classify_action
from openapps_sim.envs.spaces import ActionStrings


@pytest.mark.parametrize("space", ACTION_SPACES)
def test_sampled_actions_are_valid_in_their_space_and_reproducible(space):
    one, two = ActionStrings(space, seed=3), ActionStrings(space, seed=3)
    samples = [one.sample() for _ in range(40)]
    assert samples == [two.sample() for _ in range(40)] and len(set(samples)) > 5
    for action in samples:
        assert one.contains(action)
        assert classify_action(action, None, space).category == "valid", action


@pytest.mark.browser
@pytest.mark.parametrize("space", ["bid", "coord"])
def test_gymnasium_check_env_passes(space):
    from gymnasium.utils.env_checker import check_env

    env = gym.make("browsergym/openapps.todo.add_item", action_space=space)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)
    finally:
        env.close()
    # the one warning left is BrowserGym's: its elapsed_time Box is unbounded above
    messages = {str(w.message) for w in caught}
    assert all("maximum value is infinity" in m for m in messages), messages
