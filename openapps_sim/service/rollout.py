"""Task instances and rollouts for reinforcement-learning frameworks (the verifiers environment
of ``environments/openapps``; docs/training.md).

An :class:`Instance` is one task family, app version (a pack expression), seed and goal language:
:func:`instances` expands the families (ids or globs), packs and seeds a user names into them,
checked as a sweep spec checks them. A :class:`ChatRollout` plays one instance turn by turn for
a driver that talks to a chat model (verifiers' environment is the world playing the user): its
own environment and world (:class:`~openapps_sim.service.session.EnvSession`, the MCP and
OpenEnv servers', so actions are checked as the sweep runner checks them), each observation as
text (the goal, the last action's error or app tool result, the page's URL and accessibility
tree), and at the end the environment's own evaluation after the last step (answers,
infeasibility reports and declarations included). Closing it frees its world.
(:mod:`openapps_sim.sweeps.rollouts` plays whole groups with an agent or a policy function.)
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from openapps_sim.config.limits import Seeds
from openapps_sim.config.world import AUTO, check_language, check_variation
from openapps_sim.envs.apptools import DEFAULT_INTERFACE
from openapps_sim.envs.asyncenv import env_pool
from openapps_sim.envs.observe import axtree_text
from openapps_sim.errors import ConfigError
from openapps_sim.service.session import EnvSession, shorten_explanation
from openapps_sim.taskkit import Evaluation, all_families
from openapps_sim.taskkit.language import goal_languages
from openapps_sim.taskkit.registry import unknown_task

T = TypeVar("T")
VIEWPORT = {"width": 1280, "height": 720}
ANSWER_FORM = "Answer with <think>your reasoning</think> then <action>one action</action>."
ERROR_CHARS = 500  # of the last action's error, as the LLM agents show it


@dataclass(frozen=True)
class Instance:
    """One task instance: a family, an app version, a seed and a goal language."""

    task: str
    variation: str = "default"
    seed: int = 0
    language: str = AUTO

    @property
    def name(self) -> str:
        lang = "" if self.language == AUTO else f"/{self.language}"
        return f"{self.task}/{self.variation}/{self.seed}{lang}"


def instances(
    tasks: list[str],
    variations: list[str] | None = None,
    seeds: int | list[int] = 1,
    language: str = AUTO,
    source: str = "instances",
) -> list[Instance]:
    """Every instance of ``tasks`` (family ids or globs such as ``todo.*``) x ``variations``
    (pack expressions; default ``default``) x ``seeds`` (a count n, meaning 0..n-1, or a list),
    in that order, each once."""
    families = all_families()
    names: list[str] = []
    if isinstance(tasks, str) or not tasks:
        raise ConfigError(source, "tasks", f"expected a list of family ids or globs, got {tasks!r}", "todo.*")
    for i, pattern in enumerate(tasks):
        matched = sorted(f for f in families if fnmatch.fnmatchcase(f, str(pattern)))
        if not matched:
            raise unknown_task(source, f"tasks[{i}]", str(pattern))
        names += [m for m in matched if m not in names]
    packs = list(dict.fromkeys(check_variation(v, source, f"variations[{i}]") for i, v in enumerate(variations or [])))
    chosen = Seeds().check(seeds, source, "seeds")  # the sweep spec's rule
    lang = check_language(language, source, goal_languages())
    return [Instance(t, v, s, lang) for t in names for v in packs or ["default"] for s in chosen]


@dataclass(frozen=True)
class Step:
    """What one action did: the next observation as text, whether the episode is over, and the
    action's category (``valid``, or why it ran nothing: ``malformed``, ``unknown_action``...)."""

    observation: str
    done: bool
    truncated: bool
    category: str
    error: str


class ChatRollout:
    """One instance played from asyncio, on its own environment and world.

    ``backend`` is ``text`` (no browser; the default) or ``chromium``; ``interface`` ``gui``,
    ``api`` or ``mixed``; ``termination`` ``auto`` or ``agent`` (docs/tasks.md). No call blocks
    the event loop: a text rollout's run in the process's env pool (:func:`env_pool`, as
    :class:`~openapps_sim.envs.asyncenv.AsyncEnv`'s), a Chromium one's on the session's browser
    thread (Playwright's sync API is bound to it), so Chromium rollouts take turns.
    """

    def __init__(
        self,
        instance: Instance,
        backend: str = "text",
        interface: str = DEFAULT_INTERFACE,
        termination: str = "auto",
    ) -> None:
        self.instance = instance
        self.backend, self.interface, self.termination = backend, interface, termination
        self.session = EnvSession()
        self.goal = ""
        self.started = False

    async def __aenter__(self) -> ChatRollout:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` where this rollout's environment lives (see the class)."""
        if self.backend == "chromium":
            return await self.session.call(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(env_pool(), fn, *args)

    async def start(self) -> str:
        """Reset the environment to the instance; the first observation."""
        inst = self.instance
        info = await self.call(
            self.session.reset,
            inst.task,
            inst.variation,
            inst.seed,
            inst.language,
            "bid",
            VIEWPORT,
            self.interface,
            self.backend,
            self.termination,
        )
        self.goal, self.started = info["goal"], True
        return self.observation()

    async def step(self, action: str) -> Step:
        """Run one action (checked first: an invalid one is a step that runs nothing)."""
        out = await self.call(self.session.act, action)
        error = out["last_action_error"]
        return Step(self.observation(error), out["done"], out["truncated"], out["category"], error)

    @property
    def steps(self) -> int:
        return self.session.steps

    @property
    def max_steps(self) -> int:
        return self.session.max_steps

    def observation(self, error: str = "") -> str:
        """The observation as the model reads it: the goal, the last action's error, the app
        tool's result (``api``, ``mixed``), then the page (not under ``api``)."""
        obs = self.session.obs or {}
        lines = [f"Task: {self.goal}", ""]
        if error:
            first = error.strip().splitlines()[0] if error.strip() else error
            lines += [f"Your last action failed: {first[:ERROR_CHARS]}", ""]
        if self.interface != "gui" and obs.get("tool_result"):
            lines += ["Result of your last app tool call:", str(obs["tool_result"]), ""]
        if self.interface != "api":
            tree = axtree_text(obs, ignored_roles=["LineBreak", "InlineTextBox"])
            lines += [f"Current page: {obs.get('url', '')}", "", "Accessibility tree of the page:", tree, ""]
        return "\n".join([*lines, ANSWER_FORM])

    async def evaluation(self) -> Evaluation:
        """The environment's own evaluation after the last step (before any step: the state's
        now), as the gym env and a sweep record it."""
        return await self.call(self.session.evaluation)

    async def result(self) -> dict:
        """The rollout's reward and what explains it: ``reward`` (the full-state reward),
        ``success``, ``partial_reward``, ``steps``, ``ended`` (``task``: the task ended it,
        ``budget``: its step budget was spent, ``open``: the agent stopped first) and the
        reward's ``explanation`` (it names the expected values: for logs, not for the model)."""
        ev = await self.evaluation()
        session = self.session
        ended = "budget" if session.truncated else ("task" if session.done else "open")
        return {
            "reward": float(ev.reward),
            "success": bool(ev.success),
            "partial_reward": float(ev.partial),
            "steps": session.steps,
            "ended": ended,
            "explanation": shorten_explanation(ev.explain()),
        }

    async def close(self) -> None:
        """Close the environment and free its world (idempotent)."""
        await self.call(self.session.close)
