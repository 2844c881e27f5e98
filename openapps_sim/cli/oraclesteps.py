"""``openapps tasks --oracle-steps``: how many steps the oracle takes on each family, run once per
family on the text backend (page actions, seed 0 of the listing's pack): the length of the
reference solution that the step budgets and the long-horizon counts of docs/tasks.md refer to."""

from __future__ import annotations

from fnmatch import fnmatch

from openapps_sim.agent import load_agent_class
from openapps_sim.envs.registration import make_env


def oracle_steps(family: str, variation: str = "default", seed: int = 0) -> str:
    """The oracle's steps on one instance of ``family`` (``"fail N"`` when it did not score 1)."""
    env = make_env(family, backend="text", task_kwargs={"variation": variation, "seed": seed})
    try:
        obs, info = env.reset()
        agent = load_agent_class("oracle")()
        agent.interface = "gui"
        agent.reset(obs["goal"], info["task_info"])
        reward = 0.0
        for _ in range(env.unwrapped.step_budget or info["task_info"]["max_steps"]):
            obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
            if terminated or truncated:
                break
        steps = env.unwrapped.steps_taken
        return str(steps) if reward == 1.0 else f"fail {steps}"
    finally:
        env.close()


def matching(ids: list[str], patterns: list[str]) -> list[str]:
    """The family ids that match any of the shell patterns (``*then*``, ``shop.*``); all without."""
    return [f for f in ids if not patterns or any(fnmatch(f, p) for p in patterns)]
