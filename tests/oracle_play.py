"""What oracle tests share: one oracle episode played from a reset with the task info the test
chooses (poisoned parameters, a foreign language, ...)."""

from __future__ import annotations

from openapps_sim.agents.oracle import OracleAgent


def play_oracle(env, obs: dict, task_info: dict) -> tuple[float, dict]:
    """The oracle from ``obs`` (the reset's) with ``task_info`` until the episode ends or its step
    budget is spent: the last reward and the last step's info."""
    agent = OracleAgent()
    agent.interface = env.unwrapped.interface  # as the runner sets it
    agent.reset(obs["goal"], task_info)
    reward, last = 0.0, {}
    for _ in range(task_info["max_steps"]):
        obs, reward, terminated, truncated, last = env.step(agent.act(obs))
        if terminated or truncated:
            break
    return reward, last
