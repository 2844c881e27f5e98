"""Registers every task family as ``browsergym/openapps.<family id>`` with Gymnasium.

``gym.make("browsergym/openapps.todo.add_item", task_kwargs={"variation": "dark_theme",
"seed": 3})`` returns an :class:`~openapps_sim.envs.env.OpenAppsEnv`; ``seed`` may also be given to
``env.reset(seed=...)``.
"""

from __future__ import annotations

from functools import partial

import gymnasium as gym

ENV_PREFIX = "browsergym/openapps."


def make_env(family: str, task_kwargs: dict | None = None, **env_kwargs):
    from openapps_sim.envs.env import OpenAppsEnv
    from openapps_sim.envs.task import OpenAppsTask

    task_kwargs = dict(task_kwargs or {})
    seed = task_kwargs.pop("seed", None)
    env = OpenAppsEnv(partial(_make_task, OpenAppsTask, family, seed), task_kwargs=task_kwargs, **env_kwargs)
    return env


def _make_task(task_cls, default_family: str, default_seed, seed=None, **kwargs):
    kwargs.setdefault("family", default_family)
    return task_cls(seed=default_seed if seed is None else seed, **kwargs)


def register_all() -> None:
    from openapps_sim.taskkit import all_families

    for family_id in all_families():
        env_id = ENV_PREFIX + family_id
        if env_id in gym.registry:
            continue
        gym.register(id=env_id, entry_point=partial(make_env, family_id), nondeterministic=False)
