"""Run in a fresh ``multiprocessing`` spawn worker (tests/test_env_gym.py): make an env by id
without importing ``openapps_sim`` first, as AgentLab's joblib and Ray workers do."""

from __future__ import annotations

import sys


def make_reset_step(env_id: str) -> dict:
    imported_before = "openapps_sim" in sys.modules
    import gymnasium as gym

    env = gym.make(env_id, obs_mode="axtree")
    try:
        obs, info = env.reset(seed=2)
        obs, reward, terminated, truncated, _ = env.step("noop(0)")
        return {
            "imported_before": imported_before,
            "url": obs["url"],
            "goal": obs["goal"],
            "error": obs["last_action_error"],
            "reward": float(reward),
        }
    finally:
        env.close()


def agentlab_env_args(payload: bytes, exp_dir: str) -> dict:
    """What an AgentLab worker does with the env args of one experiment: unpickle, make, run."""
    import pickle

    from browsergym.core.action.highlevel import HighLevelActionSet
    from browsergym.experiments.loop import EnvArgs

    imported_before = "openapps_sim" in sys.modules
    mapping = HighLevelActionSet(subsets=["chat", "bid"], strict=False).to_python_code
    plain = EnvArgs(task_name="openapps.todo.add_item", task_seed=2)
    try:
        plain.make_env(action_mapping=mapping, exp_dir=exp_dir).close()
        plain_error = ""
    except Exception as e:  # the failure AgentLab users saw
        plain_error = f"{type(e).__name__}: {e}"
    args = pickle.loads(payload)
    env = args.make_env(action_mapping=mapping, exp_dir=exp_dir)
    try:
        obs, info = env.reset(seed=args.task_seed)
        obs, reward, terminated, truncated, _ = env.step("noop(0)")
        return {
            "imported_before": imported_before,
            "plain_error": plain_error,
            "seed": info["seed"],
            "goal": obs["goal"],
            "error": obs["last_action_error"],
        }
    finally:
        env.close()
