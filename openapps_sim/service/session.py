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
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from openapps_sim.envs.actions import ACTION_SPACES
from openapps_sim.envs.apptools import check_interface
from openapps_sim.envs.observe import axtree_text
from openapps_sim.errors import ConfigError

T = TypeVar("T")
_GOTO_PATH = re.compile(r"goto\((['\"])(/[^'\"]*)\1\)")
OBSERVE_MODES = ("text", "screenshot", "both")


_POOL: ThreadPoolExecutor | None = None


def _browser_thread() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="openapps-browser")
    return _POOL


class EnvSession:
    """The environment of one client, driven from its own thread."""

    def __init__(self, headless: bool = True) -> None:
        self.headless = headless
        self._pool = _browser_thread()
        self.env = None
        self.task_id: str | None = None
        self.obs: dict | None = None
        self.info: dict = {}
        self.last: dict = {}
        self.steps = 0
        self.done = False
        self.action_space = "bid"
        self.interface = "mixed"

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    # -- run in the session's thread ---------------------------------------------------------

    def reset(
        self,
        task: str,
        variation: str,
        seed: int,
        language: str,
        action_space: str,
        viewport: dict,
        interface: str = "mixed",
    ) -> dict:
        from openapps_sim.envs.registration import make_env
        from openapps_sim.taskkit import get_family

        get_family(task, "task")
        check_interface(interface, "reset")
        if action_space not in ACTION_SPACES:
            raise ConfigError(
                "reset", "action_space", f"unknown action space {action_space!r}", ", ".join(ACTION_SPACES)
            )
        if self.env is not None and (self.task_id, self.action_space, self.interface) != (
            task,
            action_space,
            interface,
        ):
            self.env.close()  # an env is one task with one action space (BrowserGym's contract)
            self.env = None
        if self.env is None:
            self.env = make_env(task, headless=self.headless, action_space=action_space, interface=interface)
            self.task_id, self.action_space, self.interface = task, action_space, interface
        self.obs, self.info = self.env.reset(
            seed=seed,
            options={"task_kwargs": {"variation": variation, "language": language}, "viewport": viewport},
        )
        self.steps, self.done, self.last = 0, False, {}
        return {
            "goal": self.obs["goal"],
            "url": self.obs["url"],
            "task": task,
            "variation": variation,
            "seed": seed,
            "interface": interface,
            "max_steps": self.info["task_info"]["max_steps"],
        }

    def _require(self) -> None:
        if self.env is None or self.obs is None:
            raise ConfigError("mcp", "reset", "no episode yet", "call reset(task, variation, seed) first")

    def act(self, action: str) -> dict:
        self._require()
        if self.done:
            raise ConfigError("mcp", "act", "the episode has ended", "reset to start another")
        self.obs, reward, terminated, truncated, info = self.env.step(self._absolute(action))
        self.steps += 1
        self.done = bool(terminated or truncated)
        ti = info.get("task_info", {})
        self.last = {"reward": float(reward), "success": bool(ti.get("success")), "explanation": ti.get("explanation")}
        return {
            "reward": float(reward),
            "done": self.done,
            "last_action_error": self.obs.get("last_action_error") or "",
            **({"tool_result": json.loads(self.obs["tool_result"])} if self.obs.get("tool_result") else {}),
            "url": self.obs["url"],
            "steps": self.steps,
        }

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
        from PIL import Image

        page = self.env.unwrapped.page
        shot = self.obs.get("screenshot")
        if shot is None or not getattr(shot, "size", 0):
            return page.screenshot(type="png")
        buf = io.BytesIO()
        Image.fromarray(shot).save(buf, format="PNG")
        return buf.getvalue()

    def reward(self) -> dict:
        self._require()
        task = self.env.unwrapped.task
        ev = task.evaluate_now(None, self.env.unwrapped.page.url)
        return {
            "reward": ev.reward,
            "success": ev.success,
            "partial_reward": ev.partial,
            "explanation": ev.explain(),
            "steps": self.steps,
            "done": self.done,
        }

    def app_url(self) -> str:
        self._require()
        return self.env.unwrapped.task.server.url

    def close(self) -> None:
        if self.env is not None:
            try:
                self.env.close()
            finally:
                self.env = None
                self.obs = None

    async def aclose(self) -> None:
        await self.call(self.close)
