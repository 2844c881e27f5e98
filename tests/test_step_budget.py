"""The step budget ends an episode the same way through a plain gym loop and through the sweep
runner (issue 23, point 9): the task's ``max_steps`` plus its interruption allowance.

On 97af659 ``env.spec.max_episode_steps`` was None and the env never truncated: a gym loop got
unlimited steps; only the sweep runner stopped at the budget."""

from __future__ import annotations

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401  (registers the ids)
from openapps_sim.config.world import WorldSpec
from openapps_sim.sweeps.record import EpisodeSpec
from openapps_sim.sweeps.runner import Worker, run_with_retry

FAMILY = "start.navigate_to_app"  # the smallest budget: 5 steps
INTERRUPTING = "interrupt_battery"  # a modal or a banner: its allowance adds steps
# the budget of each (variation, seed), written out: 5 steps, plus 3 for the battery-saver modal
# (seeds 0 and 2 arm it) or 2 for the battery-warning banner (seed 1)
BUDGETS = {("default", 0): 5, ("default", 1): 5, (INTERRUPTING, 0): 8, (INTERRUPTING, 1): 7, (INTERRUPTING, 2): 8}
BACKENDS = ["text", pytest.param("chromium", marks=pytest.mark.browser)]


def _run_until_truncated(env, seed: int, limit: int) -> tuple[list[bool], dict]:
    obs, info = env.reset(seed=seed)
    flags = []
    for _ in range(limit):
        obs, reward, terminated, truncated, step_info = env.step("noop(0)")
        assert not terminated
        flags.append(truncated)
        if truncated:
            break
    return flags, info


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("variation", ["default", INTERRUPTING])
def test_a_gym_loop_is_truncated_when_the_budget_is_spent(variation, backend):
    env = gym.make(
        "browsergym/openapps." + FAMILY, obs_mode="axtree", backend=backend, task_kwargs={"variation": variation}
    )
    try:
        flags, info = _run_until_truncated(env, seed=0, limit=40)
        budget = BUDGETS[(variation, 0)]
        assert info["task_info"]["max_steps"] == budget
        assert flags == [False] * (budget - 1) + [True], f"truncated at {flags.index(True) + 1 if any(flags) else None}"
        assert env.unwrapped.step_budget == budget and env.unwrapped.steps_taken == budget
        # an action after the budget is not run: the page stays where it was
        url = env.unwrapped.page.url if backend == "chromium" else None
        obs, reward, terminated, truncated, info = env.step("goto('/todo/')")
        assert truncated and not terminated and info == {"budget_spent": True}
        assert "steps are spent" in obs["last_action_error"] and "/todo/" not in obs["url"]
        if backend == "chromium":
            assert env.unwrapped.page.url == url
        # a new episode has a new budget (another seed may arm another variant, another allowance)
        flags, info = _run_until_truncated(env, seed=1, limit=40)
        assert len(flags) == BUDGETS[(variation, 1)] == info["task_info"]["max_steps"] and flags[-1]
        # the budget can be set per episode (the sweep runner passes a spec's max_steps this way)
        env.reset(seed=2, options={"max_steps": 2})
        assert [env.step("noop(0)")[3] for _ in range(2)] == [False, True]
    finally:
        env.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_runner_ends_the_episode_at_the_same_step(backend):
    worker = Worker()
    try:
        for variation, seed, max_steps, budget in (
            ("default", 0, None, 5),
            (INTERRUPTING, 0, None, 8),
            (INTERRUPTING, 1, None, 7),
            (INTERRUPTING, 0, 3, 3),
        ):
            spec = EpisodeSpec(
                "tests.sweep_agents:WaitingAgent",
                FAMILY,
                WorldSpec(variation, seed),
                max_steps=max_steps,
                backend=backend,
            )
            result = run_with_retry(worker, spec, None, "r")
            env = worker.env.unwrapped
            assert result.record["error"] is None and result.record["steps"] == budget, (variation, max_steps)
            # the env counted every step and its last one was the truncated one
            assert env.step_budget == budget and env.steps_taken == budget
    finally:
        worker.close()
