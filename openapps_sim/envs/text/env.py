"""The text environment: :class:`OpenAppsEnv`'s episodes, rewards and observation keys, with
no browser process.

``gym.make(id, backend="text")`` (or ``OpenAppsTextEnv`` directly) runs the same task in the
same kind of world with the same app routes; each page is asked of the world in memory (no
socket: :meth:`~openapps_sim.web.server.AppServer.call`) and read by :mod:`openapps_sim.envs.text`. What an agent gets is what the Chromium backend gives: the
accessibility tree (same roles, names, states, order and ``bid``s), a DOM snapshot of the
elements and their attributes (without layout), the focused element, the chat, the URLs and
titles of the open tabs. What needs pixels is refused with one sentence naming the backend:
``obs_mode="screenshot"`` or ``"both"``, and every coordinate action. ``extra_element_properties``
is empty (visibility and boxes need a layout engine).

Everything the task does is the task's own code (:class:`~openapps_sim.envs.task.OpenAppsTask`):
step budgets, interruptions, milestones, the event log and the reward behave as under
Chromium, and app tools (``todo.add_item(...)``) run as they do there. Nothing here blocks on
an event loop, so the env also works inside a running asyncio loop.
"""

from __future__ import annotations

import functools
import pickle
import time
from functools import lru_cache
from typing import Any

import numpy as np
from browsergym.core.action.highlevel import HighLevelActionSet

from openapps_sim.envs.env import GREETING, LightChat, OpenAppsEnv
from openapps_sim.envs.text.actions import TextBrowser
from openapps_sim.envs.text.axtree import build
from openapps_sim.envs.text.dom import Document
from openapps_sim.envs.text.kept import OBSERVATIONS
from openapps_sim.envs.text.snapshot import dom_snapshot
from openapps_sim.errors import ConfigError
from openapps_sim.gcsettings import raise_thresholds
from openapps_sim.web.server import app_server

TEXT_OBS_MODES = ("axtree",)


class OpenAppsTextEnv(OpenAppsEnv):
    backend = "text"

    def __init__(self, task_entrypoint, task_kwargs: dict | None = None, obs_mode: str = "axtree", **kwargs: Any):
        _check_obs_mode(obs_mode)
        for ignored in ("headless", "slow_mo", "pre_observation_delay", "pw_chromium_kwargs", "pw_context_kwargs"):
            kwargs.pop(ignored, None)
        super().__init__(task_entrypoint, task_kwargs=task_kwargs, obs_mode="axtree", **kwargs)
        self.browser_tabs: TextBrowser | None = None
        raise_thresholds()  # pages are made and dropped by the thousand (openapps_sim/gcsettings.py)

    # -- episode lifecycle -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None):
        options = self._seed_reset(seed, options)
        if "obs_mode" in options:
            _check_obs_mode(options["obs_mode"])
        self._close_episode()
        self.task = self._new_task(seed, options)
        viewport = options.get("viewport") or self.viewport or self.task.viewport
        world = self.task.live
        fetch = functools.partial(app_server().call, world)
        self.browser_tabs = TextBrowser(world.url, viewport, self.action_timeout_ms, fetch)
        self.browser_tabs.send_message = lambda text: self._chat_add("assistant", text)
        self.browser_tabs.report_infeasible = self._report_infeasible
        self.chat = LightChat()
        self.chat.add_message("assistant", GREETING)
        goal, task_info = self.task.setup(page=self.browser_tabs.page)
        self._set_goal(goal)
        return self._begin(options, task_info)

    @property
    def page(self):
        return self.browser_tabs.page if self.browser_tabs is not None else None

    @page.setter
    def page(self, value) -> None:  # BrowserEnv.__init__ sets it to None
        pass

    def _chat_add(self, role: str, text: str) -> None:
        if not isinstance(text, str):
            raise ValueError(f"Forbidden value: {text} is not a string")
        self.chat.add_message(role, text)

    def _report_infeasible(self, reason: str) -> None:
        self._chat_add("infeasible", reason)
        self.infeasible_message_received = True

    def _act(self, action: str):
        """One action on the text tabs (``OpenAppsEnv.step`` counts it against the budget)."""
        tool = self._app_tool_step(action)
        if tool is not None:
            return tool
        self.last_action = action
        info = {"action_exec_start": time.time(), "action_exec_timeout": 0}
        try:
            self.browser_tabs.run(action, self._action_set())
            self.last_action_error = ""
        except Exception as e:  # as BrowserGym: the action's error is the agent's observation
            self.last_action_error = f"{type(e).__name__}: {e}"
        return self.post_step(info)

    def _action_set(self) -> HighLevelActionSet:
        """The action set behind the env's action mapping (ours, or one a harness set up)."""
        owner = getattr(self.action_mapping, "__self__", None)
        if isinstance(owner, HighLevelActionSet):
            return owner
        return _cached_action_set(self.action_space_name)

    def pre_step(self):
        info = {"action_exec_start": time.time(), "action_exec_timeout": 0}
        return info, (lambda t: self._chat_add("assistant", t)), self._report_infeasible

    def post_step(self, info: dict, validate: bool = True):
        info["action_exec_stop"] = time.time()
        if validate:
            reward, done, user_message, task_info = self.task.validate(self.page, self.chat.messages)
            info["task_info"] = task_info
        else:
            reward, done, user_message = 0, False, None
            info["task_info"] = {}
        if user_message:
            self.chat.add_message("user", user_message)
        obs = self._get_obs()
        terminated = done or (self.terminate_on_infeasible and self.infeasible_message_received)
        return obs, reward, terminated, False, info

    def _close_episode(self) -> None:
        """The last episode's task torn down (there is no browser context) and its tabs closed."""
        super()._close_episode()
        if self.browser_tabs is not None:
            self.browser_tabs.close()
            self.browser_tabs = None

    def close(self) -> None:
        self._close_episode()
        if self.world is not None:
            app_server().drop(self.world)
            self.world = None

    # -- observation -------------------------------------------------------------------------
    def thumbnail_jpeg(self, width: int, quality: int = 70) -> bytes | None:
        """No pixels on this backend: a step log records no thumbnail."""
        return None

    def _get_obs(self) -> dict:
        doc = self.browser_tabs.page.doc
        focused = doc.focused.bid if doc.focused is not None and doc.focused.bid is not None else ""
        axtree_object, dom_object = page_observation(doc)
        obs = self._raw_obs(pages=self.browser_tabs.pages)
        del obs["page"]
        obs.update(
            screenshot=np.zeros((0, 0, 3), dtype=np.uint8),
            dom_object=dom_object,
            axtree_object=axtree_object,
            extra_element_properties={},
            focused_element_bid=focused,
        )
        return obs


_KEPT_STATES = 2  # per page: the state it was loaded in, and the last one observed


def page_observation(doc: Document) -> tuple[dict, dict]:
    """``(axtree_object, dom_object)`` of the page in its current state, built once per state of
    a page (an action that changed nothing on it, a reload of the same HTML, gives the state
    observed before) and handed out as fresh objects every time, so an agent may change what it
    got without changing what the next step shows."""
    key = doc.live_state()
    if doc.source is not None:  # the same page in the same state in any tab of the process
        return OBSERVATIONS.get((*doc.source, key), lambda: (build(doc), dom_snapshot(doc)))
    blob = doc.observed.get(key)
    if blob is not None:
        return pickle.loads(blob)
    made = (build(doc), dom_snapshot(doc))
    if len(doc.observed) >= _KEPT_STATES:
        del doc.observed[list(doc.observed)[-1]]
    doc.observed[key] = pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL)  # before anyone changes it
    return made


def _check_obs_mode(obs_mode: str) -> None:
    if obs_mode not in TEXT_OBS_MODES:
        raise ConfigError(
            "backend=text",
            "obs_mode",
            f"{obs_mode!r} needs screenshots, and the text backend renders no pixels (use backend='chromium')",
            list(TEXT_OBS_MODES),
        )


@lru_cache(maxsize=8)
def _cached_action_set(space: str) -> HighLevelActionSet:
    from openapps_sim.envs.env import action_set

    return action_set(space)
