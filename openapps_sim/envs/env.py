"""The BrowserGym environment: a warm browser, a chat without a browser, observation modes.

:class:`OpenAppsEnv` is a ``BrowserEnv`` that

* keeps its Chromium alive across ``reset()`` calls and gives each episode a fresh browser
  context (no cookie, storage or history leaks between episodes), instead of relaunching two
  browsers per episode;
* replaces BrowserGym's chat window (a second Chromium) with an in-memory message list;
* extracts only what the agent reads: ``obs_mode="axtree"`` skips the screenshot,
  ``"screenshot"`` skips the DOM and accessibility tree, ``"both"`` takes everything;
* defaults to ``slow_mo=0`` and ``pre_observation_delay=0``: pages are plain HTML whose
  actions end in a page load that the environment already waits for.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np
import playwright.sync_api
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.core.constants import BROWSERGYM_ID_ATTRIBUTE
from browsergym.core.env import BrowserEnv
from browsergym.core.observation import (
    MarkingError,
    _post_extract,
    _pre_extract,
    extract_dom_extra_properties,
    extract_dom_snapshot,
    extract_focused_element_bid,
    extract_merged_axtree,
    extract_screenshot,
)

from openapps_sim.envs.actions import ACTION_SPACES
from openapps_sim.envs.browser import launch_browser

OBS_MODES = ("both", "axtree", "screenshot")
_TRANSIENT = (
    "Frame was detached",
    "Frame with the given frameId is not found",
    "Execution context was destroyed",
    "Frame has been detached",
    "Cannot mark a child frame without a bid",
    "Cannot read properties of undefined",
)
# Tells the environment which page is active; events that mean "the user is here".
_ACTIVE_PAGE_SCRIPT = """
(() => {
  const ping = () => window.browsergym_page_activated();
  ping();
  for (const ev of ["focus", "focusin", "load", "pageshow", "mousedown", "mouseup", "wheel", "keydown", "input"]) {
    window.addEventListener(ev, ping, {capture: true});
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") ping(); });
})();
"""


# The focused element's bid in one round trip (through shadow roots); an iframe answers
# {frame: true} and the caller falls back to BrowserGym's frame-by-frame walk.
_FOCUSED_BID_SCRIPT = """
(attr) => {
  let el = document.activeElement;
  while (el && el.shadowRoot) el = el.shadowRoot.activeElement;
  if (!el) return {frame: false, bid: ""};
  if (el.tagName === "IFRAME" || el.tagName === "FRAME") return {frame: true, bid: ""};
  return {frame: false, bid: el.getAttribute(attr) || ""};
}
"""


def focused_element_bid(page: playwright.sync_api.Page) -> str:
    """BrowserGym's ``extract_focused_element_bid`` with one call instead of four per step."""
    found = page.evaluate(_FOCUSED_BID_SCRIPT, BROWSERGYM_ID_ATTRIBUTE)
    if found["frame"]:
        return extract_focused_element_bid(page)
    return found["bid"]


class LightChat:
    """BrowserGym's chat, without the browser window that shows it."""

    def __init__(self) -> None:
        self.messages: list[dict] = []

    def add_message(self, role: str, msg: str) -> None:
        self.messages.append({"role": role, "timestamp": time.time(), "message": msg})

    def wait_for_user_message(self) -> None:
        raise RuntimeError("OpenAppsEnv has no interactive chat; use wait_for_user_message=False")

    def close(self) -> None:
        pass


def action_set(space: str = "bid") -> HighLevelActionSet:
    if space not in ACTION_SPACES:
        raise ValueError(f"unknown action space {space!r}; allowed: {', '.join(ACTION_SPACES)}")
    return HighLevelActionSet(subsets=ACTION_SPACES[space], multiaction=False, strict=False)


DEFAULT_ACTION_TIMEOUT_MS = 3000


def action_mapping(space: str = "bid", timeout_ms: int = DEFAULT_ACTION_TIMEOUT_MS):
    """BrowserGym's action-to-code mapping with a longer element timeout.

    BrowserGym's action functions wait at most 500 ms for an element and for the navigation a
    click starts; on a busy 2-core machine a click that worked then reports a TimeoutError,
    which would be counted against the agent. The timeout is a property of the machine, not of
    the agent, so it is raised here (``OPENAPPS_ACTION_TIMEOUT_MS`` overrides it).
    """
    import os

    timeout_ms = int(os.environ.get("OPENAPPS_ACTION_TIMEOUT_MS", timeout_ms))
    to_code = action_set(space).to_python_code

    def mapping(action: str) -> str:
        return to_code(action).replace("timeout=500)", f"timeout={timeout_ms})")

    return mapping


class OpenAppsEnv(BrowserEnv):
    def __init__(
        self,
        task_entrypoint,
        task_kwargs: dict | None = None,
        obs_mode: str = "both",
        action_space: str = "all",
        viewport: dict | None = None,
        slow_mo: int = 0,
        timeout: int = 5000,
        headless: bool = True,
        pre_observation_delay: float = 0.0,
        **kwargs: Any,
    ):
        if obs_mode not in OBS_MODES:
            raise ValueError(f"unknown obs_mode {obs_mode!r}; allowed: {', '.join(OBS_MODES)}")
        kwargs.setdefault("action_mapping", action_mapping(action_space))
        super().__init__(
            task_entrypoint,
            task_kwargs=task_kwargs or {},
            viewport=viewport,
            slow_mo=slow_mo,
            timeout=timeout,
            headless=headless,
            pre_observation_delay=pre_observation_delay,
            **kwargs,
        )
        self.obs_mode = obs_mode
        self.action_space_name = action_space
        self.episodes = 0

    # -- episode lifecycle -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None):
        gym.Env.reset(self, seed=seed)
        self.np_random = None
        options = options or {}
        if self.task:
            self.task.teardown()
            self.task = None
        if self.context:
            try:
                self.context.close()
            except playwright.sync_api.Error:
                pass
            self.context = None
        if "obs_mode" in options:
            self.obs_mode = options["obs_mode"]
        task_kwargs = dict(self.task_kwargs)
        task_kwargs.update(options.get("task_kwargs", {}))
        self.task = self.task_entrypoint(seed=seed, **task_kwargs)

        viewport = options.get("viewport") or self.viewport or self.task.viewport
        timeout = self.timeout or self.task.timeout
        if self.browser is None or not self.browser.is_connected():
            self.browser = launch_browser(headless=self.headless, slow_mo=self.slow_mo or 0)
        self.context = self.browser.new_context(
            viewport=viewport,
            locale=self.locale or self.task.locale,
            timezone_id=self.timezone_id or self.task.timezone_id,
            **self.pw_context_kwargs,
        )
        self.context.set_default_timeout(timeout)
        self.context.expose_binding(
            "browsergym_page_activated", lambda source: self._activate_page_from_js(source["page"])
        )
        self.context.add_init_script(_ACTIVE_PAGE_SCRIPT)
        from browsergym.core import _get_global_playwright

        _get_global_playwright().selectors.set_test_id_attribute(BROWSERGYM_ID_ATTRIBUTE)

        self.chat = LightChat()
        self.page_history = {}
        self.page = self.context.new_page()
        goal, task_info = self.task.setup(page=self.page)
        if goal is None:
            self.goal_object = []
        elif isinstance(goal, str):
            self.goal_object = [{"type": "text", "text": goal}]
        else:
            self.goal_object = list(goal)
        for message in self.goal_object:
            if message["type"] == "text":
                self.chat.add_message("user", message["text"])
        self._wait_dom_loaded()
        self._active_page_check()
        self.start_time = time.time()
        self.last_action = ""
        self.last_action_error = ""
        self.infeasible_message_received = False
        self.episodes += 1
        obs = self._get_obs()
        return obs, {"task_info": task_info}

    def close(self) -> None:
        super().close()

    # -- observation -------------------------------------------------------------------------
    def _get_obs(self) -> dict:
        want_tree = self.obs_mode in ("both", "axtree")
        want_shot = self.obs_mode in ("both", "screenshot")
        dom: dict = {}
        axtree: dict = {"nodes": []}
        extra: dict = {}
        focused = ""
        if want_tree:
            for retries_left in reversed(range(5)):
                try:
                    _pre_extract(self.page, tags_to_mark=self.tags_to_mark, lenient=(retries_left == 0))
                    dom = extract_dom_snapshot(self.page)
                    axtree = extract_merged_axtree(self.page)
                    focused = focused_element_bid(self.page)
                    extra = extract_dom_extra_properties(
                        dom, scale_factor=getattr(self.page, "_bgym_scale_factor", 1.0)
                    )
                except (playwright.sync_api.Error, MarkingError) as e:
                    if retries_left > 0 and any(t in str(e) for t in _TRANSIENT):
                        _post_extract(self.page)
                        time.sleep(0.1)
                        continue
                    raise
                break
            _post_extract(self.page)
        screenshot = extract_screenshot(self.page) if want_shot else np.zeros((0, 0, 3), dtype=np.uint8)
        return {
            "chat_messages": tuple(dict(m) for m in self.chat.messages),
            "goal": self.goal_object[0]["text"] if self.goal_object and self.goal_object[0]["type"] == "text" else "",
            "goal_object": tuple(dict(m) for m in self.goal_object),
            "open_pages_urls": tuple(p.url for p in self.context.pages),
            "open_pages_titles": tuple(p.title() for p in self.context.pages),
            "active_page_index": np.asarray([self.context.pages.index(self.page)]),
            "url": self.page.url,
            "screenshot": screenshot,
            "dom_object": dom,
            "axtree_object": axtree,
            "extra_element_properties": extra,
            "focused_element_bid": focused,
            "last_action": self.last_action,
            "last_action_error": self.last_action_error,
            "elapsed_time": np.asarray([time.time() - self.start_time]),
        }
