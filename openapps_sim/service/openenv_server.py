"""OpenApps-Sim as an OpenEnv environment server (``openapps openenv``).

Built on ``openenv-core`` (the ``openenv`` extra): its ``create_app`` serves
:class:`OpenAppsEnvironment` over OpenEnv's protocol, a WebSocket session at ``/ws`` per client
(OpenEnv's ``EnvClient``, ``GenericEnvClient``, or :class:`~.openenv_models.OpenAppsEnvClient`).
Every session makes its own environment, so its own world: two sessions never share state. A
reset takes ``task``, ``variation``, ``seed`` (and ``backend``, default ``text``, ``interface``,
``termination``, ``language``, ``action_space``, ``viewport``, ``screenshot``); a step takes
``{"action": "<a BrowserGym action>"}``. Reward and done are the environment's own verdict after
each step, as ``gym.make``'s step returns it and a sweep records it (:class:`EnvSession`, shared
with the MCP server, in evaluator mode: a session may run an instance again, as grouped rollouts
need). A session closed by its client, dropped by it (its connection lost) or idle past the
server's ``--idle-timeout`` is closed, its world dropped from the app server.

Where calls run: a Chromium episode's calls run on the process's browser thread (Playwright's
sync API is bound to one thread; :class:`EnvSession`), a text episode's on the text backend's
pool, so text sessions never wait behind a browser. Both live as long as the process: the app
server a call may start dies with the thread that started it (:mod:`openapps_sim.lifecycle`).
"""

from __future__ import annotations

import asyncio
import base64
import threading
import uuid
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import ConcurrencyConfig, EnvironmentMetadata

from openapps_sim.envs.apptools import DEFAULT_INTERFACE
from openapps_sim.errors import ConfigError
from openapps_sim.service.mcp_server import bind_port
from openapps_sim.service.openenv_models import OpenAppsAction, OpenAppsObservation, OpenAppsState
from openapps_sim.service.session import EnvSession
from openapps_sim.sweeps.record import parse_viewport
from openapps_sim.web.server import app_server

DEFAULT_BACKEND = "text"
RESET_DEFAULTS: dict[str, Any] = {
    "variation": "default",
    "language": "auto",
    "backend": DEFAULT_BACKEND,
    "interface": DEFAULT_INTERFACE,
    "termination": "auto",
    "action_space": "bid",
    "viewport": "1280x720",
    "screenshot": False,
}
RESET_KEYS = ("task", "seed", "episode_id", *RESET_DEFAULTS)
CLOSE_TIMEOUT_S = 60.0
TEXT_THREADS = 8  # steps overlap with the app server's work; the GIL allows no more than that

_TEXT_POOL: ThreadPoolExecutor | None = None
_TEXT_POOL_LOCK = threading.Lock()


def text_pool() -> ThreadPoolExecutor:
    """The threads every text session's calls run on, kept for the life of the process (never
    shut down: an app server started from one of them dies with its thread)."""
    global _TEXT_POOL
    with _TEXT_POOL_LOCK:
        if _TEXT_POOL is None:
            _TEXT_POOL = ThreadPoolExecutor(max_workers=TEXT_THREADS, thread_name_prefix="openapps-openenv")
        return _TEXT_POOL


def reset_arguments(seed: Any, episode_id: Any, given: dict[str, Any]) -> dict[str, Any]:
    """A reset's arguments, checked here where no other check does (unknown keys, the task's
    presence, viewport, screenshot, episode id); the task, pack, seed, language, backend,
    interface, termination and action space are checked by :meth:`EnvSession.reset`."""
    unknown = sorted(set(given) - set(RESET_KEYS))
    if unknown:
        raise ConfigError("reset", unknown[0], "unknown argument", ", ".join(RESET_KEYS))
    args = {**RESET_DEFAULTS, **given, "seed": seed, "episode_id": episode_id}
    if not isinstance(args.get("task"), str) or not args["task"]:
        got = "nothing" if "task" not in given else repr(given["task"])
        raise ConfigError(
            "reset", "task", f"expected a task family id, got {got}", "todo.add_item, ... (openapps tasks)"
        )
    if episode_id is not None and not isinstance(episode_id, str):
        raise ConfigError("reset", "episode_id", f"expected text, got {episode_id!r}", "any text, or leave it out")
    if not isinstance(args["screenshot"], bool):
        raise ConfigError("reset", "screenshot", f"expected true or false, got {args['screenshot']!r}", "true, false")
    if args["screenshot"] and args["backend"] == "text":
        raise ConfigError("reset", "screenshot", "the text backend renders no pixels", "false, or backend='chromium'")
    args["viewport"] = parse_viewport(args["viewport"], "reset")
    return args


class Registry:
    """The environments of one server: what ``GET /openapps/sessions`` counts, and what is
    closed when the server stops."""

    def __init__(self, headless: bool = True, idle_timeout: float | None = None) -> None:
        self.headless = headless
        self.idle_timeout = idle_timeout
        self.envs: weakref.WeakSet[OpenAppsEnvironment] = weakref.WeakSet()

    def make(self) -> OpenAppsEnvironment:
        """A new session's environment (OpenEnv's environment factory)."""
        env = OpenAppsEnvironment(self)
        self.envs.add(env)
        return env

    def report(self) -> dict[str, int | None]:
        """``episodes``: sessions holding a world now; ``worlds``: the worlds alive in this
        process (the sessions' own; one left behind by a closed session would show here)."""
        held = sum(1 for env in list(self.envs) if env.holds_world())
        return {"episodes": held, "worlds": len(app_server().worlds)}

    def close_all(self) -> None:
        for env in list(self.envs):
            env.close()


class OpenAppsEnvironment(Environment[OpenAppsAction, OpenAppsObservation, OpenAppsState]):
    """One OpenEnv session: one :class:`EnvSession` (its world, episode and, under Chromium, its
    browser context)."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, registry: Registry | None = None) -> None:
        super().__init__()
        self.registry = registry or Registry()
        self.session = EnvSession(headless=self.registry.headless, evaluator=True)
        self.episode_id: str | None = None
        self.screenshots = False  # every observation of the episode carries a screenshot
        self.closed = False
        self.busy = threading.Lock()  # one call at a time: a close waits for a step under way

    # -- where calls run ---------------------------------------------------------------------
    def on_browser_thread(self, backend: str | None = None) -> bool:
        """Whether a call must run on the browser thread: it resets to Chromium, or the session
        holds a Chromium env."""
        held = self.session.env is not None and self.session.backend == "chromium"
        return held or backend == "chromium"

    async def run(self, fn: Callable[..., Any], *args: Any, backend: str | None = None) -> Any:
        if self.on_browser_thread(backend):
            return await self.session.call(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(text_pool(), fn, *args)

    def holds_world(self) -> bool:
        return self.session.env is not None

    # -- OpenEnv's interface -------------------------------------------------------------------
    async def reset_async(self, seed: Any = None, episode_id: Any = None, **kwargs: Any) -> OpenAppsObservation:
        args = reset_arguments(seed, episode_id, kwargs)
        return await self.run(self.reset_with, args, backend=args["backend"])

    def reset(self, seed: Any = None, episode_id: Any = None, **kwargs: Any) -> OpenAppsObservation:
        return self.reset_with(reset_arguments(seed, episode_id, kwargs))

    def reset_with(self, args: dict[str, Any]) -> OpenAppsObservation:
        """A reset with checked arguments (:func:`reset_arguments`), on the thread it needs."""
        with self.busy:
            return self.reset_locked(args)

    def reset_locked(self, args: dict[str, Any]) -> OpenAppsObservation:
        self.check_open("reset")
        keys = ("task", "variation", "seed", "language", "action_space", "viewport", "interface", "backend")
        self.session.reset(*(args[k] for k in keys), termination=args["termination"])
        self.episode_id = args["episode_id"] or uuid.uuid4().hex
        self.screenshots = args["screenshot"]
        return self.observation(None, self.screenshots)

    async def step_async(self, action: OpenAppsAction, timeout_s: float | None = None, **kwargs: Any):
        return await self.run(self.step, action)

    def step(self, action: OpenAppsAction, timeout_s: float | None = None, **kwargs: Any) -> OpenAppsObservation:
        with self.busy:
            return self.step_locked(action)

    def step_locked(self, action: OpenAppsAction) -> OpenAppsObservation:
        self.check_open("step")
        s = self.session
        if s.env is None or s.obs is None:
            raise ConfigError("step", "episode", "no episode yet", "reset(task=..., variation=..., seed=...) first")
        if s.done:
            why = "its step budget is spent" if s.truncated else "the task ended it"
            raise ConfigError("step", "episode", f"the episode has ended after {s.steps} steps ({why})", "reset")
        if action.screenshot and s.backend == "text":
            raise ConfigError(
                "step", "screenshot", "the text backend renders no pixels", "false, or backend='chromium'"
            )
        result = s.act(action.action)
        return self.observation(result, action.screenshot or self.screenshots)

    def observation(self, step: dict | None, screenshot: bool) -> OpenAppsObservation:
        """The observation after a reset (``step`` None) or a step (what :meth:`EnvSession.act`
        returned)."""
        s, obs = self.session, self.session.obs
        episode = s.episode or {}
        picture = base64.b64encode(s.screenshot_png()).decode("ascii") if screenshot else None
        return OpenAppsObservation(
            goal=str(obs.get("goal") or ""),
            axtree_txt=s.observe_text(),
            url=str(obs.get("url") or ""),
            last_action=str(obs.get("last_action") or ""),
            last_action_error=str(obs.get("last_action_error") or ""),
            category=step["category"] if step else "",
            tool_result=step.get("tool_result") if step else None,
            screenshot=picture,
            answer_schema=(s.info.get("task_info") or {}).get("answer_schema"),
            **{k: episode.get(k, "") for k in ("task", "variation", "backend", "interface", "termination")},
            seed=s.info.get("seed", episode.get("seed")),
            step=s.steps,
            max_steps=s.max_steps,
            truncated=s.truncated,
            done=s.done,
            reward=step["reward"] if step else None,
        )

    @property
    def state(self) -> OpenAppsState:
        s = self.session
        episode = s.episode or {}
        task = getattr(s.env.unwrapped, "task", None) if s.env is not None else None
        ev = getattr(task, "last_evaluation", None)
        return OpenAppsState(
            episode_id=self.episode_id,
            step_count=s.steps,
            **{k: episode.get(k) for k in ("task", "variation", "backend", "interface", "termination")},
            seed=s.info.get("seed", episode.get("seed")) if episode else None,
            max_steps=s.max_steps,
            done=s.done,
            truncated=s.truncated,
            reward=float(ev.reward) if ev is not None else 0.0,
            success=bool(ev is not None and ev.success),
        )

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name="openapps-sim",
            description="Six offline web apps as BrowserGym tasks with full-state rewards; one world per session.",
        )

    def check_open(self, verb: str) -> None:
        if self.closed:
            idle = f"more than {self.registry.idle_timeout:g} s idle, " if self.registry.idle_timeout else ""
            raise ConfigError(
                verb, "session", f"this session is closed ({idle}or the server is stopping)", "a new session"
            )

    def close(self) -> None:
        """Close the episode and drop its world, on the thread its env runs on (OpenEnv calls
        this when the session ends: closed, disconnected or idle past the timeout)."""
        with self.busy:
            if self.closed:
                return
            self.closed = True
            if self.on_browser_thread():
                self.session.close_on_its_thread().result(timeout=CLOSE_TIMEOUT_S)
            else:
                text_pool().submit(self.session.close).result(timeout=CLOSE_TIMEOUT_S)


class ClientGone:
    """ASGI middleware: a WebSocket client that left before OpenEnv's handler closed the socket
    is not an error (OpenEnv's ``/ws`` handler raises ``WebSocketDisconnect`` from its final
    ``close()`` then, and the server would print a traceback for every client that leaves)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope.get("type") != "websocket":
            return await self.app(scope, receive, send)
        from starlette.websockets import WebSocketDisconnect

        try:
            await self.app(scope, receive, send)
        except WebSocketDisconnect:
            pass


def build_app(headless: bool = True, max_sessions: int = 64, idle_timeout: float | None = 600.0):
    """The OpenEnv FastAPI app (OpenEnv's ``create_app``): ``/ws`` sessions, ``/health``,
    ``/schema``, ``/metadata``, and ``GET /openapps/sessions`` (what :meth:`Registry.report`
    says). ``idle_timeout``: seconds without a reset or step after which a session is closed
    (None: never)."""
    registry = Registry(headless=headless, idle_timeout=idle_timeout)
    config = ConcurrencyConfig(max_concurrent_envs=max_sessions, session_timeout=idle_timeout or None)
    app = create_app(registry.make, OpenAppsAction, OpenAppsObservation, env_name="openapps", concurrency_config=config)
    app.state.openapps = registry
    app.add_middleware(ClientGone)

    @app.get("/openapps/sessions", tags=["Environment Info"])
    async def sessions() -> dict:
        return await asyncio.to_thread(registry.report)

    return app


def serve_openenv(
    host: str = "127.0.0.1",
    port: int = 8000,
    headless: bool = True,
    max_sessions: int = 64,
    idle_timeout: float | None = 600.0,
    announce: Callable[[str], None] | None = None,
) -> None:
    """Serve until the process is stopped: the port is bound first (a port in use is a
    :class:`ConfigError`; 0 picks a free one), ``announce`` gets the server's URL, and every
    session's world is dropped at the end."""
    import uvicorn  # only a served app needs it

    sock = bind_port(host, port)
    app = build_app(headless=headless, max_sessions=max_sessions, idle_timeout=idle_timeout)
    shown = f"[{host}]" if ":" in host else host
    if announce:
        announce(f"http://{shown}:{sock.getsockname()[1]}")
    # a client that vanishes without closing its connection is found by the pings (40 s at most)
    config = uvicorn.Config(app, log_level="warning", access_log=False, ws_ping_interval=20, ws_ping_timeout=20)
    try:
        asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))
    finally:
        app.state.openapps.close_all()
