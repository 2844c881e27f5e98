"""The world: every app's configuration and state, the event log, and in-memory reset.

A world is an object of the process that uses it: an environment, a task, an MCP session or the
explore page holds it and calls it. The process's app server (:mod:`openapps_sim.web.server`)
serves it to a browser from a thread, and the text backend calls its pages in memory."""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from collections.abc import Iterable
from typing import Any

from openapps_sim.appkit import WorldView
from openapps_sim.config.catalog import composed_json, discover_apps, fresh_config, lazy_state
from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError
from openapps_sim.protocol import PAGE_KEY_HEADER
from openapps_sim.taskkit.statecopy import KeptCopies, copy_state
from openapps_sim.web.interruptions import DEVICE, Interruptions, device_state
from openapps_sim.web.theme import theme_css
from openapps_sim.web.tools import run_tool

WORLD_SCOPE_KEY = "openapps.world"  # an in-memory call's world, in its ASGI scope (web.server)


class World(WorldView):
    """All apps' state plus the log of every change. Reset happens in memory.

    ``revision`` counts what may have changed what a task checks (the state, the event log,
    what arrived during an interruption): it moves on every reset, ``set_state``, logged event,
    interruption shown, and every request that may change something (any POST to a page, an app
    tool). The task skips its check when nothing moved, and the server reuses a page it
    rendered at the same revision.

    ``id`` and ``url`` are given by the app server the world is added to (its origin
    ``http://<id>.localhost[:port]``); ``lock`` is held by whoever reads or changes the world
    while the server's thread may serve it."""

    def __init__(self) -> None:
        super().__init__()
        self.revision = 0
        self.pages: dict[tuple, tuple[int, bytes]] = {}  # GET pages rendered at this revision
        self.apps = discover_apps()
        self.variation = "default"
        self.overrides: tuple[str, ...] = ()
        self._css_cache: dict[str, str] | None = None
        self.interrupts = Interruptions()
        self.server_errors = 0
        self.fault = ""  # what the last server error was (web.bounded: a handler that raised or hung)
        self.page_key = ""  # sealed: only page requests carrying this key are answered (kept by reset)
        self.id = ""
        self.url = ""
        self.lock = threading.RLock()
        self._copies = KeptCopies()
        self.reset(WorldSpec(seed=0))  # the default world, as a value (a text would be checked)

    def admits(self, request: Any) -> bool:
        """Whether a page request is answered: always in memory (its environment's own call) or
        while the world is not sealed; over HTTP to a sealed world, only with the world's key
        in its page-key header (which only its environment's browser sends)."""
        if not self.page_key or WORLD_SCOPE_KEY in request.scope:
            return True
        return hmac.compare_digest(request.headers.get(PAGE_KEY_HEADER, ""), self.page_key)

    def seal(self) -> dict[str, str]:
        """From now on (resets included) the world answers a browser's page requests only when
        they carry the headers returned (a fresh key): nothing else that learns its URL can read
        or change it but through its environment's steps."""
        self.page_key = secrets.token_hex(16)
        return {PAGE_KEY_HEADER: self.page_key}

    def reset(
        self, world: WorldSpec | str | None = "default", seed: int = 0, overrides: list[str] | tuple = ()
    ) -> float:
        """Restore the world to ``world`` (a :class:`WorldSpec`; or a variation expression with
        ``seed`` and ``overrides``, checked here). Returns the time taken in ms."""
        t0 = time.perf_counter()
        if not isinstance(world, WorldSpec):
            world = WorldSpec.make("reset", world, seed, overrides=overrides)
        expression, seed, overrides = world.variation, world.seed or 0, world.overrides
        config_text = composed_json(expression, overrides)
        self.config = fresh_config(config_text)
        self.state = lazy_state(config_text, seed)  # each app drawn when first read
        self.variation, self.seed, self.overrides = expression, seed, overrides
        self.events = []
        self.touch()
        self._css_cache = None
        self.interrupts.reset(self.config.get("interruptions", {}), seed)
        if self.interrupts.rules:
            self.state[DEVICE] = device_state()  # what the agent accepted, compared by rewards
        return (time.perf_counter() - t0) * 1000

    def set_state(self, state: dict, only: Iterable[str] | None = None) -> None:
        """Replace the state (used by tasks to prepare an instance), or with ``only`` the states
        of those apps (the rest stays). Clears the event log."""
        missing = set(self.apps) - set(state)
        if missing:
            raise ConfigError("set_state", ",".join(sorted(missing)), "missing app state")
        if only is None:
            self.state = copy_state(state)
        else:
            self.state = {**self.state, **{app: copy_state(state[app]) for app in only}}
        self.events = []
        self.touch()

    def draw_all(self) -> dict:
        """The state with every app drawn, for a reader of the whole world (a gallery, questions)."""
        for app in list(self.state):
            self.app_state(app)
        return self.state

    def log(self, app: str, op: str, args: dict, by: str = "agent") -> None:
        event = {"i": len(self.events), "app": app, "op": op, "args": args, "t": time.time()}
        if by != "agent":
            event["by"] = by
        self.events.append(event)
        self.touch()

    def call_tool(self, app: str, tool: str, args: dict | None = None) -> Any:
        """Run the app tool ``<app>.<tool>(**args)`` (the app's own operation, logged as its
        pages log it); returns its JSON-ready result. A refused call is a :class:`ConfigError`."""
        with self.lock:
            self.touch()
            return run_tool(self, app, tool, {} if args is None else args)

    def snapshot(self) -> tuple[int, dict]:
        """``(revision, a copy of the state)``, taken together. The copy is to be read, never
        changed: an app unchanged since the last snapshot is that snapshot's object."""
        with self.lock:
            return self.revision, self._copies.copy(self.state)

    def touch(self) -> None:
        """Something a task checks may have changed: move the revision on."""
        self.revision += 1
        self.pages.clear()

    def theme_css(self, theme: dict | None = None) -> str:
        """The CSS of ``theme`` (default: the global theme), cached per distinct theme."""
        theme = self.config["theme"] if theme is None else theme
        key = json.dumps(theme, sort_keys=True)
        if self._css_cache is None or key not in self._css_cache:
            if self._css_cache is None or len(self._css_cache) > 16:
                self._css_cache = {}
            self._css_cache[key] = theme_css(theme)
        return self._css_cache[key]
