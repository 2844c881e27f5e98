"""The BrowserGym environment: a warm browser, a chat without a browser, observation modes.

:class:`OpenAppsEnv` is a ``BrowserEnv`` that

* owns one isolated world (:class:`~openapps_sim.web.world.World`: variation, state, event
  log, origin), served by the process's app server, so envs of one process share no state;
* shares one warm Chromium with the other envs of its process and gives each episode a fresh
  browser context (no cookie, storage or history leaks), not two new browsers per episode;
* keeps the browser inside the world's origin (:mod:`openapps_sim.envs.guard`) and takes
  screenshots that leave the viewport alone (:mod:`openapps_sim.envs.extract`);
* replaces BrowserGym's chat window (a second Chromium) with an in-memory message list that
  behaves like BrowserGym's (greeting first, ``info`` messages not kept);
* extracts only what the agent reads (``obs_mode``: ``axtree``, ``screenshot`` or ``both``);
* defaults to ``slow_mo=0`` and ``pre_observation_delay=0`` (plain HTML pages, waited for).
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import gymnasium as gym
import numpy as np
import playwright.sync_api
from browsergym.core import _get_global_playwright
from browsergym.core.constants import BROWSERGYM_ID_ATTRIBUTE
from browsergym.core.env import BrowserEnv

from openapps_sim.config.limits import MAX_STEPS, check_count, check_seed
from openapps_sim.config.world import KEYS, WorldSpec, split_kwargs
from openapps_sim.envs import spaces
from openapps_sim.envs.actions import action_problem, shown_action
from openapps_sim.envs.apptools import check_interface, parse_tool_call, refusal
from openapps_sim.envs.browser import acquire_browser, release_browser
from openapps_sim.envs.callscan import fast_mapping
from openapps_sim.envs.chat import CHAT_ROLES, GREETING, LightChat  # noqa: F401 - re-exported
from openapps_sim.envs.extract import page_facts, thumbnail_jpeg
from openapps_sim.envs.guard import OriginGuard, raise_action_timeouts
from openapps_sim.envs.pageread import read_page
from openapps_sim.envs.settle import ACTIVE_PAGE_SCRIPT, LEAVING_SCRIPT, after_action, count_wheels
from openapps_sim.envs.spaces import ActionStrings, action_mapping, action_set, action_timeout_ms  # noqa: F401 - re-exported
from openapps_sim.envs.task import check_task_kwargs, checked_kwargs
from openapps_sim.errors import ConfigError
from openapps_sim.protocol import BIDS_HEADER
from openapps_sim.taskkit.language import goal_languages
from openapps_sim.web.bounded import AppFault
from openapps_sim.web.server import app_server
from openapps_sim.web.world import World

OBS_MODES = ("both", "axtree", "screenshot")
NO_EPISODE = "step() before a successful reset(): the last reset failed or none was made; call reset()"

# BrowserEnv options this environment cannot honour: refused when set, never ignored.
_REFUSED = {
    "wait_for_user_message": "OpenAppsEnv has no interactive chat window; the goal is the only user message",
    "record_video_dir": "OpenAppsEnv records no video (it needs Playwright's ffmpeg download); "
    "record per-step screenshots with the sweep's record_screenshots option",
}


class OpenAppsEnv(BrowserEnv):
    backend = "chromium"
    # no render modes: the screenshot is in the observation (BrowserGym's None fails check_env)
    metadata = {**BrowserEnv.metadata, "render_modes": []}

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
        interface: str = "gui",
        sealed: bool = False,
        **kwargs: Any,
    ):
        if obs_mode not in OBS_MODES:
            raise ValueError(f"unknown obs_mode {obs_mode!r}; allowed: {', '.join(OBS_MODES)}")
        for key, why in _REFUSED.items():
            if kwargs.get(key):
                raise ConfigError("OpenAppsEnv", key, f"{key}={kwargs[key]!r} is not supported: {why}", ["unset"])
        kwargs.update({} if "action_mapping" in kwargs else {"action_mapping": action_mapping(action_space)})
        # the world the env's episodes run in (its seed None: drawn at each reset), checked once here
        self.world_spec, task_kwargs = checked_kwargs(task_kwargs or {}, "task_kwargs", WorldSpec())
        super().__init__(
            task_entrypoint,
            task_kwargs=task_kwargs,
            viewport=viewport,
            slow_mo=slow_mo,
            timeout=timeout,
            headless=headless,
            pre_observation_delay=pre_observation_delay,
            **kwargs,
        )
        self.obs_mode = obs_mode
        self.sealed = bool(sealed)  # its world answers its own browser only (World.seal; MCP sessions)
        self.page_headers: dict[str, str] = {}  # sent by its browser with every request (World.seal)
        self.interface = check_interface(interface, "OpenAppsEnv")
        self.tool_result = ""  # what an app tool returned (JSON; "" after a page action)
        self.answer_schema = ""  # the episode's answer type and JSON Schema, as JSON ("": no answer)
        self.observation_space = spaces.observation_space(self.observation_space)
        self.action_space_name = action_space
        self.action_space = ActionStrings(action_space)  # sampleable: gymnasium's check_env passes
        self.action_timeout_ms = action_timeout_ms()
        self.episodes = 0
        self.world: World | None = None
        self.instance_seed: int | None = None
        self.step_budget: int | None = None  # actions this episode may take (see ``step``)
        self.steps_taken = 0
        self.ready = False  # a reset succeeded (and no reset failed since): step() may run
        self.thumbnail: tuple[int, int] | None = None  # see reset's options["thumbnail"]
        self.last_thumbnail: bytes | None = None

    # -- episode lifecycle -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start an episode in the world of :meth:`_episode_world` (its seed: see there)."""
        options = self._seed_reset(seed, options)
        self._close_episode()
        if "obs_mode" in options:
            self.obs_mode = options["obs_mode"]
        thumb = options.get("thumbnail")  # (width, JPEG quality): taken with every observation
        self.thumbnail = (int(thumb[0]), int(thumb[1])) if thumb else None
        self.task = self._new_task(seed, options)
        self._open_context(options.get("viewport") or self.viewport or self.task.viewport)
        self.chat = LightChat()
        self.chat.add_message("assistant", GREETING)
        self.page_history = {}
        self.page = self.context.new_page()
        goal, task_info = self.task.setup(page=self.page)
        self._set_goal(goal)
        self._wait_dom_loaded()
        self._active_page_check()
        return self._begin(options, task_info)

    def _close_episode(self) -> None:
        """The last episode's task torn down and its browser context closed."""
        if self.task:
            self.task.teardown()
            self.task = None
        if self.context:
            try:
                self.context.close()
            except playwright.sync_api.Error:
                pass
            self.context = None

    def _open_context(self, viewport: dict) -> None:
        """A fresh context on the warm browser (relaunched if it died): the world's origin only."""
        if self.browser is None or not self.browser.is_connected():
            if self.browser is not None:
                release_browser(self.browser)
            self.browser = acquire_browser(headless=self.headless, slow_mo=self.slow_mo or 0)
        self.context = self.browser.new_context(
            viewport=viewport,
            locale=self.locale or self.task.locale,
            timezone_id=self.timezone_id or self.task.timezone_id,
            extra_http_headers={
                **self.pw_context_kwargs.get("extra_http_headers", {}),
                BIDS_HEADER: "1",
                **self.page_headers,
            },
            **{k: v for k, v in self.pw_context_kwargs.items() if k != "extra_http_headers"},
        )
        self.context.set_default_timeout(self.timeout or self.task.timeout)
        self.context.expose_binding(
            "browsergym_page_activated", lambda source: self._activate_page_from_js(source["page"])
        )
        self.context.add_init_script(ACTIVE_PAGE_SCRIPT)
        self.context.add_init_script(LEAVING_SCRIPT)
        self.guard = OriginGuard(self.task.live.url)
        self.guard.install(self.context)
        _get_global_playwright().selectors.set_test_id_attribute(BROWSERGYM_ID_ATTRIBUTE)

    def _new_task(self, seed: int | None, options: dict):
        """The episode's task: the env's task kwargs, then the reset's, in the episode's world."""
        world = self._episode_world(seed, options)
        self.instance_seed = world.seed
        given = split_kwargs(options.get("task_kwargs") or {})[1]
        check_task_kwargs(given, "reset options.task_kwargs", KEYS)
        task_kwargs = {**self.task_kwargs, **given}
        if "live" not in task_kwargs:
            task_kwargs["live"] = self._own_world()
        return self.task_entrypoint(seed=world.seed, world=world, **task_kwargs)

    def _episode_world(self, seed: int | None, options: dict) -> WorldSpec:
        """The episode's world: ``options["world"]`` (a ``WorldSpec``) or the env's, with what
        ``options["task_kwargs"]`` gives of it. Its seed: the reset's world's, ``seed``, the env's
        world's, else a draw from ``self.np_random`` (seeded by the last ``reset(seed=...)``)."""
        world = options.get("world")
        if world is not None and not isinstance(world, WorldSpec):
            raise ConfigError("reset", "options.world", f"expected a WorldSpec, got {world!r}", "WorldSpec.make(...)")
        world = world if world is not None else dataclasses.replace(self.world_spec, seed=None)
        given = split_kwargs(options.get("task_kwargs") or {})[0]
        if given:
            world = world.updated("reset options.task_kwargs", given, goal_languages())
        if world.seed is not None:
            return world
        if seed is not None:
            return world.seeded(seed)  # checked by _seed_reset
        if self.world_spec.seed is not None:
            return world.seeded(self.world_spec.seed)
        return world.seeded(int(self.np_random.integers(0, 2**31 - 1)))

    def _seed_reset(self, seed: int | None, options: dict | None) -> dict:
        """Gymnasium's reset of the env's RNG, ``seed`` and ``options["max_steps"]`` checked first."""
        if seed is not None:
            check_seed(seed, "reset")
        options = options or {}
        if options.get("max_steps") is not None:
            check_count(options["max_steps"], "reset", "options.max_steps", MAX_STEPS)
        gym.Env.reset(self, seed=seed)
        self.ready = False
        return options

    def _begin(self, options: dict, task_info: dict):
        """The episode starts: clocks, the step budget (``options["max_steps"]`` or the task's), the first obs."""
        self.start_time = time.time()
        self.last_action = self.last_action_error = self.tool_result = ""
        self.answer_schema = spaces.answer_schema_text(task_info)
        self.infeasible_message_received = False
        self.episodes += 1
        budget = options.get("max_steps") or (task_info or {}).get("max_steps")
        self.step_budget = int(budget) if budget else None
        self.steps_taken = 0
        obs = self._get_obs()
        self.ready = True
        return obs, {"task_info": task_info, "seed": self.instance_seed}

    def _set_goal(self, goal) -> None:
        """The goal as BrowserGym's goal object, its text messages in the chat."""
        if goal is None:
            self.goal_object = []
        elif isinstance(goal, str):
            self.goal_object = [{"type": "text", "text": goal}]
        else:
            self.goal_object = list(goal)
        for message in self.goal_object:
            if message["type"] == "text":
                self.chat.add_message("user", message["text"])

    def _own_world(self) -> World:
        """This env's world (made once), served by the process's app server to its browser."""
        if self.world is None:
            self.world = app_server().add(served=self.backend == "chromium")
            if self.sealed:
                self.page_headers = self.world.seal()
        return self.world

    def step(self, action: str):
        """One action, counted against the step budget (the task's ``max_steps`` plus what its
        interruptions may cost: it depends on the world, so no ``TimeLimit``). The step that
        spends it returns ``truncated=True``; an action after that, or what is no action
        (``actions.action_problem``), runs nothing and says why in ``last_action_error``; no step
        before a successful reset (``ResetNeeded``). An app handler or tool that raised or ran
        past ``web.bounded``'s time is the step's ``AppError``; the env goes on."""
        if not self.ready:
            raise gym.error.ResetNeeded(NO_EPISODE)
        if self.step_budget is not None and self.steps_taken >= self.step_budget:
            self.last_action = shown_action(action)
            self.last_action_error = f"BudgetSpent: the episode's {self.step_budget} steps are spent; call reset()"
            last = self.task.last_evaluation if self.task is not None else None
            reward = last.reward if last is not None else 0.0
            return self._get_obs(), reward, False, True, {"budget_spent": True}
        self.steps_taken += 1
        faults = (live := self.task.live).server_errors  # the episode's world (its own or task_kwargs' live)
        if problem := action_problem(action):
            self.tool_result = ""
            obs, reward, terminated, truncated, info = self._tool_step(shown_action(action), None, problem)
        else:
            obs, reward, terminated, truncated, info = self._act(action)
        if live.server_errors != faults:  # a handler raised or hung (web.bounded)
            self.last_action_error = obs["last_action_error"] = f"AppError: {live.fault}"
        truncated = bool(truncated) or (self.step_budget is not None and self.steps_taken >= self.step_budget)
        return obs, reward, terminated, truncated, info

    def _act(self, action: str):
        """BrowserGym's step, with the machine-sized action timeout applied to the code of
        whichever action mapping is set (ours or a harness's); app-tool actions
        (:mod:`openapps_sim.envs.apptools`) run on the world, as the ``interface`` allows."""
        tool = self._app_tool_step(action)
        if tool is not None:
            return tool
        mapping = self.action_mapping
        for page in self.context.pages:
            self.guard.guard_page(page)
            count_wheels(page)
        if mapping is not None:
            self.action_mapping = lambda a: raise_action_timeouts(fast_mapping(mapping, a), self.action_timeout_ms)
        try:
            return super().step(action)
        finally:
            self.action_mapping = mapping

    def _app_tool_step(self, action: str):
        """The step of an app tool (or of a refused action); None for a page action."""
        self.tool_result = ""
        try:
            call = parse_tool_call(action) if isinstance(action, str) else None
            refused = refusal(self.interface, action, call) if isinstance(action, str) else ""
        except ValueError as e:
            call, refused = None, f"malformed app tool call: {e}"
        if call is not None or refused:
            return self._tool_step(action, call, refused)
        return None

    def _tool_step(self, action: str, call, refused: str):
        """One step that runs an app tool on the world (or refuses an action), scored and
        observed as every step is. The page is reloaded after a tool changed the state, so that
        what the agent sees stays true."""
        self.last_action = action
        info, _, _ = self.pre_step()
        self.last_action_error = f"ValueError: {refused}" if refused else ""
        if not refused:
            try:
                live, before = self.task.live, len(self.task.live.events)
                result = live.call_tool(call.app, call.tool, call.args)
                self.tool_result = json.dumps(result, ensure_ascii=False)
                if len(live.events) != before and self.page.url.startswith(live.url):
                    self.page.reload()
            except (ConfigError, AppFault) as e:  # refused, or the tool raised or hung (web.bounded)
                self.last_action_error = f"{'AppError' if isinstance(e, AppFault) else 'ToolError'}: {e}"
        return self.post_step(info)

    def _wait_dom_loaded(self) -> None:
        """Every wait after an action (:func:`openapps_sim.envs.settle.after_action`)."""
        after_action(self.context, self.guard.allowed, self.action_timeout_ms)

    def close(self) -> None:
        browser, self.browser = self.browser, None
        super().close()
        if browser is not None:
            release_browser(browser)
        if self.world is not None:
            app_server().drop(self.world)
            self.world = None

    # -- observation -------------------------------------------------------------------------
    def thumbnail_jpeg(self, width: int, quality: int = 70) -> bytes | None:
        """The page now, as a JPEG at most ``width`` pixels wide (what a sweep's step log keeps
        when the agent reads no screenshot): the one taken with the last observation when the
        reset's ``options["thumbnail"]`` asked for this size (a harness that changes the page
        itself between steps gets that picture still); None if the page cannot be captured."""
        if self.last_thumbnail is not None and self.thumbnail == (width, quality):
            return self.last_thumbnail
        try:
            return thumbnail_jpeg(self.page, width, quality)
        except playwright.sync_api.Error:
            return None

    def _get_obs(self) -> dict:
        self.last_thumbnail = None  # a kept thumbnail is only ever this observation's
        if self.use_raw_page_output:
            return self._raw_obs()
        facts = page_facts(self.page)
        want_tree, want_shot = self.obs_mode in ("both", "axtree"), self.obs_mode in ("both", "screenshot")
        read = read_page(self.page, facts, want_tree, want_shot, self.thumbnail, self.tags_to_mark)
        self.last_thumbnail = read.thumbnail
        obs = self._raw_obs(facts["title"] if facts is not None else None)
        del obs["page"]
        obs.update(
            screenshot=read.screenshot,
            dom_object=read.dom,
            axtree_object=read.axtree,
            extra_element_properties=read.extra,
            focused_element_bid=read.focused,
        )
        return obs

    def _raw_obs(self, title: str | None = None, pages: list | None = None) -> dict:
        """The keys that need no extraction (all with ``use_raw_page_output``, plus the live ``page``, as
        in BrowserGym); ``title``: the active page's, when known; ``pages``: the tabs, else the context's."""
        pages = self.context.pages if pages is None else pages
        return {
            "page": self.page,
            "chat_messages": tuple(dict(m) for m in self.chat.messages),
            "goal": self.goal_object[0]["text"] if self.goal_object and self.goal_object[0]["type"] == "text" else "",
            "goal_object": tuple(dict(m) for m in self.goal_object),
            "open_pages_urls": tuple(p.url for p in pages),
            "open_pages_titles": tuple(title if p is self.page and title else p.title() for p in pages),
            "active_page_index": np.asarray([pages.index(self.page)]),
            "url": self.page.url,
            "last_action": self.last_action,
            "last_action_error": self.last_action_error,
            "tool_result": self.tool_result,
            "answer_schema": self.answer_schema,
            "elapsed_time": np.asarray([time.time() - self.start_time]),
        }
