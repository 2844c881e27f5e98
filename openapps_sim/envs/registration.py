"""Registers every task family as ``browsergym/openapps.<family id>`` with Gymnasium.

``gym.make("browsergym/openapps.todo.add_item", task_kwargs={"variation": "dark_theme"})``
returns an :class:`~openapps_sim.envs.env.OpenAppsEnv`. Importing ``openapps_sim`` registers
the ids; a process that has not imported it (a fresh joblib, Ray or ``multiprocessing`` worker)
resolves them with Gymnasium's ``module:id`` form,
``gym.make("openapps_sim:browsergym/openapps.todo.add_item")``, and AgentLab / BrowserGym
experiments get the same through :mod:`openapps_sim.envs.agentlab`.

Seeds follow Gymnasium: ``reset(seed=N)`` gives instance ``N``; ``reset()`` draws a new
instance from the env's RNG; a ``seed`` in ``task_kwargs`` (at ``make`` or in
``reset(options={"task_kwargs": {...}})``) fixes the instance. The ids are registered
``nondeterministic=True``: observations carry wall-clock time. The ``variation``, ``seed``,
``language`` (default ``auto``: the world's) and ``overrides`` of ``task_kwargs`` are the env's
:class:`~openapps_sim.config.world.WorldSpec`, checked when the env is made.
"""

from __future__ import annotations

from functools import partial

import gymnasium as gym

ENV_PREFIX = "browsergym/openapps."


BACKENDS = ("chromium", "text")


def make_env(
    family: str,
    task_kwargs: dict | None = None,
    backend: str = "chromium",
    termination: str | None = None,
    **env_kwargs,
):
    """The env of one task family: ``backend="chromium"`` (a real browser) or ``"text"`` (no
    browser: :mod:`openapps_sim.envs.text`). ``termination="agent"``: episodes end only when the
    agent declares it is done (docs/tasks.md); default ``"auto"``, or ``task_kwargs["termination"]``."""
    from openapps_sim.envs.task import OpenAppsTask
    from openapps_sim.errors import unknown_name
    from openapps_sim.taskkit import TERMINATIONS

    task_kwargs = dict(task_kwargs or {})
    if termination is not None:  # task_kwargs' own keys are checked by the env
        if termination not in TERMINATIONS:
            raise unknown_name(
                "make_env", "termination", termination, TERMINATIONS, what="termination", keep_order=True
            )
        task_kwargs["termination"] = termination

    if backend == "chromium":
        from openapps_sim.envs.env import OpenAppsEnv as env_cls
    elif backend == "text":
        from openapps_sim.envs.text.env import OpenAppsTextEnv as env_cls
    else:
        raise unknown_name("make_env", "backend", backend, BACKENDS, what="backend", keep_order=True)
    return env_cls(partial(_make_task, OpenAppsTask, family), task_kwargs=task_kwargs, **env_kwargs)


def _make_task(task_cls, default_family: str, seed=None, **kwargs):
    kwargs.setdefault("family", default_family)
    return task_cls(seed=seed, **kwargs)


def register_all() -> None:
    from openapps_sim.taskkit import all_families

    for family_id in all_families():
        env_id = ENV_PREFIX + family_id
        if env_id in gym.registry:
            continue
        # Gymnasium's passive checker (gym.make's default) breaks an env whose first reset raised:
        # it marks the reset checked without keeping its result, and every later step then fails
        # in the checker with a TypeError, even after a good reset. These envs pass Gymnasium's
        # full check_env (tests/test_env_checker.py) and raise ResetNeeded themselves on a step
        # before a successful reset, so gym.make leaves the checker out.
        gym.register(
            id=env_id, entry_point=partial(make_env, family_id), nondeterministic=True, disable_env_checker=True
        )
