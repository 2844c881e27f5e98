"""One environment for one client: the world, browser and episode an MCP session drives.

Playwright's sync API is bound to the thread that started it (BrowserGym keeps one Playwright
per process) and refuses to run inside an asyncio loop, so every environment call of every
session runs on one browser thread of the process, and the MCP server awaits them. Each session
makes its own environment, so two clients never share a world, a browser context or an episode;
their calls take turns on the browser thread.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from openapps_sim.config.world import WorldSpec
from openapps_sim.envs.actions import ACTION_SPACES, ActionCheck, classify_execution_error
from openapps_sim.envs.apptools import (
    DEFAULT_INTERFACE,
    check_action,
    check_interface,
    parse_tool_call,
    refusal,
    task_tool_apps,
)
from openapps_sim.envs.observe import axtree_text
from openapps_sim.envs.registration import BACKENDS, make_env
from openapps_sim.errors import ConfigError, Problems, unknown_name
from openapps_sim.taskkit import TERMINATIONS, Evaluation, get_family
from openapps_sim.taskkit.language import goal_languages

T = TypeVar("T")
_GOTO_PATH = re.compile(r"goto\((['\"])(/[^'\"]*)\1\)")
OBSERVE_MODES = ("text", "screenshot", "both")


_POOL: ThreadPoolExecutor | None = None


def _browser_thread() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="openapps-browser")
    return _POOL


EXPLANATION_LINE_CHARS = 300
EXPLANATION_LINES = 40


def shorten_explanation(text: str) -> str:
    """A reward explanation fit to send: each line at most :data:`EXPLANATION_LINE_CHARS`
    characters (a 50 KB title typed into a form is not echoed back whole), at most
    :data:`EXPLANATION_LINES` lines."""
    lines = []
    for line in str(text or "").splitlines():
        if len(line) > EXPLANATION_LINE_CHARS:
            line = f"{line[:EXPLANATION_LINE_CHARS]}… ({len(line)} characters in all)"
        lines.append(line)
    if len(lines) > EXPLANATION_LINES:
        lines = [*lines[:EXPLANATION_LINES], f"… and {len(lines) - EXPLANATION_LINES} more lines"]
    return "\n".join(lines)


class EnvSession:
    """The environment of one client, driven from its own thread.

    The reward is the environment's own verdict after the episode's last step (answers,
    infeasibility reports and declarations included: what ``env.step`` returned and what a
    sweep records). ``evaluator`` sessions (``openapps mcp --evaluator``) see it at any time,
    with its partial reward and explanation (which names the expected values). An agent's
    session sees nothing of the goal before the episode ends (reward 0, no partial reward), and
    may attempt each instance (a task and seed, in any app version or language) once: every
    episode it started is kept in :attr:`attempts` with its result.
    """

    def __init__(self, headless: bool = True, evaluator: bool = False) -> None:
        self.headless = headless
        self.evaluator = evaluator
        self.max_steps = 0
        self._pool = _browser_thread()
        self.env = None
        self.task_id: str | None = None
        self.obs: dict | None = None
        self.info: dict = {}
        self.last: dict = {}
        self.steps = 0
        self.done = False
        self.truncated = False
        self.episode: dict | None = None  # the episode under way: its instance and settings
        self.attempts: list[dict] = []  # every episode this session ended, with its result
        self.action_space = "bid"
        self.interface = DEFAULT_INTERFACE  # until a reset chooses another
        self.backend = "chromium"

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close_on_its_thread(self) -> Future:
        """Close the episode on the session's browser thread (where its browser lives); the
        future is done once it is closed."""
        return self._pool.submit(self.close)

    # -- run in the session's thread ---------------------------------------------------------

    def reset(
        self,
        task: str,
        variation: str,
        seed: int,
        language: str,
        action_space: str,
        viewport: dict[str, int],
        interface: str = DEFAULT_INTERFACE,
        backend: str = "chromium",
        termination: str = "auto",
    ) -> dict:
        world = self._check_reset(task, variation, seed, language, action_space, interface, backend, termination)
        self._check_attempt(task, world.seed)
        self.end_episode()
        if self.env is not None and (self.task_id, self.action_space, self.interface, self.backend) != (
            task,
            action_space,
            interface,
            backend,
        ):
            self.env.close()  # an env is one task with one action space (BrowserGym's contract)
            self.env = None
        if self.env is None:
            kwargs = {"headless": self.headless} if backend == "chromium" else {"obs_mode": "axtree"}
            # sealed: the world answers only this env's own pages, so it changes through steps only
            self.env = make_env(
                task, backend=backend, action_space=action_space, interface=interface, sealed=True, **kwargs
            )
            self.task_id, self.action_space, self.interface, self.backend = task, action_space, interface, backend
        self.obs, self.info = self.env.reset(  # the seed: in the world
            options={"world": world, "task_kwargs": {"termination": termination}, "viewport": viewport},
        )
        self.steps, self.done, self.truncated, self.last = 0, False, False, {}
        self.max_steps = int(self.info["task_info"]["max_steps"])  # the interruptions' allowance included
        self.episode = {"task": task, "variation": world.variation, "seed": world.seed, "language": language}
        self.episode.update(interface=interface, backend=backend, termination=termination)
        return {
            "goal": self.obs["goal"],
            "url": self.obs["url"],
            **{k: v for k, v in self.episode.items() if k != "language"},
            "max_steps": self.info["task_info"]["max_steps"],
            "answer_schema": self.info["task_info"].get("answer_schema"),
        }

    @staticmethod
    def _check_reset(task, variation, seed, language, action_space, interface, backend, termination) -> WorldSpec:
        """The world a ``reset`` asks for, every argument checked (all problems in one error)."""
        problems = Problems()
        problems.check(get_family, task, "reset")
        world = problems.check(WorldSpec.make, "reset", variation, seed, language, languages=goal_languages())
        problems.check(check_interface, interface, "reset")
        for key, value, allowed in (
            ("backend", backend, BACKENDS),
            ("termination", termination, TERMINATIONS),
            ("action_space", action_space, ACTION_SPACES),
        ):
            if value not in allowed:
                what = key.replace("_", " ")
                problems.add(unknown_name("reset", key, value, allowed, what=what, keep_order=True))
        problems.raise_any()
        return world

    def _check_attempt(self, task: str, seed: int) -> None:
        """An agent's session attempts an instance once: the result of an attempt cannot be
        replaced by a second one (an evaluator's session may run an instance again; every
        attempt stays in :attr:`attempts`)."""
        if self.evaluator:
            return
        tried = [*self.attempts, *([self.episode] if self.episode else [])]
        if any((a["task"], a["seed"]) == (task, seed) for a in tried):
            raise ConfigError(
                "reset",
                "seed",
                f"this session has attempted {task} with seed {seed} already (an attempt cannot be "
                "repeated, in any app version or language)",
                "another seed or task; a new session for a new run",
            )

    def end_episode(self) -> None:
        """The episode under way, if any, goes to :attr:`attempts` with its result (one left
        before it ended is ``abandoned``, with the environment's verdict after its last step)."""
        if self.episode is None:
            return
        ev = self.env.unwrapped.task.last_evaluation if self.env is not None else None
        ended = "budget" if self.truncated else ("task" if self.done else "abandoned")
        result = {"reward": ev.reward if ev else 0.0, "success": bool(ev and ev.success), "steps": self.steps}
        self.attempts.append({**self.episode, **result, "ended": ended})
        self.episode = None

    def app_tools_allowed(self) -> bool:
        """Whether this session's interface has the apps' own tools (api, mixed): only then are
        they listed and callable."""
        return self.interface != "gui"

    def listed_tool_apps(self) -> frozenset[str] | None:
        """The apps whose tools this session lists: none in the gui interface, else the episode's
        task's apps (:func:`~openapps_sim.envs.apptools.task_tool_apps`); None (every app's)
        before an episode."""
        if not self.app_tools_allowed():
            return frozenset()
        apps = task_tool_apps((self.info or {}).get("task_info")) if self.env is not None else None
        return None if apps is None else frozenset(apps)

    def _require(self) -> None:
        if self.env is None or self.obs is None:
            raise ConfigError("mcp", "episode", "no episode yet", "call reset(task, variation, seed) first")

    def act(self, action: str) -> dict:
        """One step: the action checked as the sweep's runner checks it (an invalid one is a
        step that runs nothing, its category and reason in ``last_action_error``), then run.
        The episode ends when the task ends it or the step budget is spent (``truncated``)."""
        self._require()
        if self.done:
            why = "its step budget is spent" if self.steps >= self.max_steps else "the task ended it"
            raise ConfigError(
                "act", "episode", f"the episode has ended after {self.steps} steps ({why})", "reset to start another"
            )
        check = self._check(action)
        terminated = truncated = False
        if check.category != "valid":
            self.obs = dict(
                self.obs,
                last_action=action,
                last_action_error=f"invalid action ({check.category}): {check.message}",
                tool_result=None,
            )
            reward, category = float(self.last.get("reward", 0.0)), check.category
        else:
            self.obs, reward, terminated, truncated, info = self.env.step(self._absolute(action))
            ti = info.get("task_info", {})
            self.last = {"reward": float(reward), "success": bool(ti.get("success"))}
            category = classify_execution_error(self.obs.get("last_action_error") or "")
        self.steps += 1
        truncated = bool(truncated) or (not terminated and self.steps >= self.max_steps)
        self.done, self.truncated = bool(terminated or truncated), truncated
        return {
            # an agent's server says nothing of the goal before the episode ends
            "reward": float(reward) if self.done or self.evaluator else 0.0,
            "done": self.done,
            "truncated": truncated,
            "category": category,
            "last_action_error": self.obs.get("last_action_error") or "",
            **({"tool_result": json.loads(self.obs["tool_result"])} if self.obs.get("tool_result") else {}),
            "url": self.obs["url"],
            "steps": self.steps,
            "max_steps": self.max_steps,
        }

    def _check(self, action: str) -> ActionCheck:
        """The runner's check, with the gui interface's own word for an app tool."""
        if self.interface == "gui" and isinstance(action, str):
            try:
                call = parse_tool_call(action)
            except ValueError:
                call = None
            refused = refusal(self.interface, action, call)
            if refused:
                return ActionCheck("unknown_action", refused)
        return check_action(action, self.obs, self.action_space, 1, self.interface)

    def _absolute(self, action: str) -> str:
        """``goto('/todo/')`` means this world's todo app: a path is resolved against its origin."""
        m = _GOTO_PATH.fullmatch(action.strip())
        if m:
            return f"goto({m.group(1)}{self.app_url().rstrip('/')}{m.group(2)}{m.group(1)})"
        return action

    def observe_text(self) -> str:
        self._require()
        return axtree_text(self.obs)

    def screenshot_png(self) -> bytes:
        self._require()
        if self.backend == "text":
            raise ConfigError(
                "observe", "mode", "the text backend renders no pixels (reset with backend='chromium')", "text"
            )
        from PIL import Image  # Pillow is loaded only when a screenshot is asked for

        page = self.env.unwrapped.page
        shot = self.obs.get("screenshot")
        if shot is None or not getattr(shot, "size", 0):
            return page.screenshot(type="png")
        buf = io.BytesIO()
        Image.fromarray(shot).save(buf, format="PNG")
        return buf.getvalue()

    def evaluation(self) -> Evaluation:
        """The environment's own evaluation after the episode's last step (what that step
        returned, and what a sweep records); before the first step, the state's now."""
        self._require()
        task = self.env.unwrapped.task
        if task.last_evaluation is not None:
            return task.last_evaluation
        return task.evaluate_now(None, self.env.unwrapped.page.url)

    def reward(self) -> dict:
        """The episode's reward: on an agent's server reward 0 and nothing more until the
        episode ends; on an evaluator's, the evaluation with its partial reward and explanation
        at any time. ``attempts``: the episodes this session ended before."""
        out = {**self.episode} if self.episode else {}
        if self.done or self.evaluator:
            ev = self.evaluation()
            out.update(reward=ev.reward, success=ev.success, partial_reward=ev.partial)
        else:
            self._require()
            out.update(reward=0.0, success=False)
        if self.evaluator:  # the explanation names the expected values: the answer key
            out["explanation"] = shorten_explanation(ev.explain())
        out.update(steps=self.steps, max_steps=self.max_steps, done=self.done, attempts=list(self.attempts))
        return out

    def app_url(self) -> str:
        self._require()
        return self.env.unwrapped.task.live.url

    def close(self) -> None:
        self.end_episode()
        if self.env is not None:
            try:
                self.env.close()
            finally:
                self.env = None
                self.obs = None

    async def aclose(self) -> None:
        await self.call(self.close)
