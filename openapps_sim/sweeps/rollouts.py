"""Grouped rollouts: k rollouts of one task instance, run concurrently, rewards together.

GRPO and its kin score each rollout against the others of its group: the same task instance
(same family, same version of the apps, same seed, so the same goal text and starting state),
k times. :func:`group` (or :func:`agroup` from asyncio) gives each rollout its own world on the
process's app server, plays them side by side on the text backend (:mod:`openapps_sim.envs.asyncenv`:
the event loop keeps running while pages are read) and returns a :class:`Group`: the goal, each
rollout's reward, success, actions and steps, and the group-relative advantages.

``policy`` is an agent name (``"oracle"``, ``"lexical"``; one agent made per rollout), an
:class:`~openapps_sim.agent.Agent` class (one instance per rollout), or a callable
``policy(obs) -> action`` (a coroutine function is awaited: a model client that awaits its
replies lets the k rollouts wait on the model together). The reward is the full-state reward
the environment gives, 1 only when the whole world is as the task expects.
"""

from __future__ import annotations

import asyncio
import inspect
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

from openapps_sim.agent import Agent, task_info_for
from openapps_sim.envs.asyncenv import make_async_env, run_coroutine
from openapps_sim.errors import ConfigError


@dataclass
class Rollout:
    reward: float
    success: bool
    steps: int
    actions: list[str] = field(default_factory=list)
    truncated: bool = False  # the step budget ran out before the episode ended


@dataclass
class Group:
    task: str
    variation: str
    seed: int
    goal: str
    rollouts: list[Rollout]

    @property
    def rewards(self) -> list[float]:
        return [r.reward for r in self.rollouts]

    def advantages(self) -> list[float]:
        """Each reward minus the group's mean, over the group's standard deviation (GRPO's);
        all 0.0 when every rollout earned the same."""
        mean = statistics.fmean(self.rewards)
        sd = statistics.pstdev(self.rewards)
        return [0.0 if sd == 0 else (r - mean) / sd for r in self.rewards]


Policy = str | type | Callable


def _agent(policy: Policy) -> Agent | None:
    """The agent of one rollout (None: ``policy`` is a plain callable)."""
    if isinstance(policy, str):
        from openapps_sim.agents import make_agent  # the agents package owns the registry

        return make_agent(policy, None, {})
    if isinstance(policy, type) and issubclass(policy, Agent):
        return policy()
    if isinstance(policy, Agent):
        raise ConfigError(
            "rollouts.group", "policy", "an Agent instance would be shared by the k rollouts", "its class or name"
        )
    if not callable(policy):
        raise ConfigError(
            "rollouts.group", "policy", f"{policy!r} cannot act", "an agent name or class, or obs -> action"
        )
    return None


async def _rollout(task: str, variation: str, seed: int, policy: Policy, backend: str, env_kwargs: dict):
    agent = _agent(policy)
    kwargs = dict(env_kwargs, task_kwargs={"variation": variation, **env_kwargs.get("task_kwargs", {})})
    if agent is not None:
        kwargs.setdefault("action_space", agent.action_space)
    async with await make_async_env(task, backend=backend, **kwargs) as env:
        obs, info = await env.reset(seed=seed)
        act = policy
        if agent is not None:
            agent.reset(obs["goal"], task_info_for(agent, info.get("task_info")), seed=seed)
            act = agent.act
        actions, reward, done, truncated = [], 0.0, False, False
        while not (done or truncated):
            action = act(obs)
            if inspect.isawaitable(action):
                action = await action
            actions.append(action)
            obs, reward, done, truncated, info = await env.step(action)
        return obs["goal"], Rollout(float(reward), float(reward) == 1.0, len(actions), actions, truncated and not done)


async def agroup(
    task: str,
    variation: str = "default",
    seed: int = 0,
    policy: Policy = "oracle",
    k: int = 8,
    backend: str = "text",
    **env_kwargs,
) -> Group:
    """:func:`group` from a running event loop."""
    if not isinstance(k, int) or k < 1:
        raise ConfigError("rollouts.group", "k", f"{k!r} is not a number of rollouts", "an integer of 1 or more")
    done = await asyncio.gather(*(_rollout(task, variation, seed, policy, backend, env_kwargs) for _ in range(k)))
    goals = {goal for goal, _ in done}
    assert len(goals) == 1, f"one instance, several goals: {goals}"  # the same seed is the same instance
    return Group(task, variation, seed, goals.pop(), [r for _, r in done])


def group(
    task: str,
    variation: str = "default",
    seed: int = 0,
    policy: Policy = "oracle",
    k: int = 8,
    backend: str = "text",
    **env_kwargs,
) -> Group:
    """k rollouts of one instance (``task``, ``variation``, ``seed``) by ``policy``, concurrently;
    ``env_kwargs`` go to ``make_env`` (``action_space``, ``termination`` ...)."""
    return run_coroutine(lambda: agroup(task, variation, seed, policy, k, backend, **env_kwargs))
