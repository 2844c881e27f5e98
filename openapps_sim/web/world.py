"""The world: every app's configuration and state, the event log, and in-memory reset."""

from __future__ import annotations

import copy
import hmac
import json
import time

from openapps_sim.config.catalog import composed_json, discover_apps, initial_state_json
from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError
from openapps_sim.web.interruptions import DEVICE, Interruptions, device_state
from openapps_sim.web.theme import theme_css


class World:
    """All apps' state plus the log of every change. Reset happens in memory.

    ``revision`` counts what may have changed what a task checks (the state, the event log,
    what arrived during an interruption): it moves on every reset, ``set_state``, logged event,
    interruption shown, and every request that may change something (any POST to a page, an app
    tool). Clients compare it to skip work when nothing moved (``GET /_admin/state?unless=N``),
    and the server reuses a page it rendered at the same revision."""

    def __init__(self) -> None:
        self.revision = 0
        self.pages: dict[tuple, tuple[int, bytes]] = {}  # GET pages rendered at this revision
        self.apps = discover_apps()
        self.variation = "default"
        self.overrides: tuple[str, ...] = ()
        self.seed = 0
        self.config: dict = {}
        self.state: dict[str, dict] = {}
        self.events: list[dict] = []
        self._css_cache: dict[str, str] | None = None
        self.interrupts = Interruptions()
        self.server_errors = 0
        self.page_key = ""  # sealed: only page requests carrying this key are answered (kept by reset)
        self.reset()

    def admits(self, key: str | None) -> bool:
        """Whether a page request carrying ``key`` (its page-key header) is answered: always,
        unless the world is sealed; then only with the world's key."""
        return not self.page_key or hmac.compare_digest(str(key or ""), self.page_key)

    def reset(
        self, world: WorldSpec | str | None = "default", seed: int = 0, overrides: list[str] | tuple = ()
    ) -> float:
        """Restore the world to ``world`` (a :class:`WorldSpec`; or a variation expression with
        ``seed`` and ``overrides``, checked here). Returns the time taken in ms."""
        t0 = time.perf_counter()
        if not isinstance(world, WorldSpec):
            world = WorldSpec.make("reset", world, seed, overrides=overrides)
        expression, seed, overrides = world.variation, world.seed or 0, world.overrides
        self.config = json.loads(composed_json(expression, overrides))
        self.state = json.loads(initial_state_json(expression, overrides, seed))
        self.variation, self.seed, self.overrides = expression, seed, overrides
        self.events = []
        self.touch()
        self._css_cache = None
        self.interrupts.reset(self.config.get("interruptions", {}), seed)
        if self.interrupts.rules:
            self.state[DEVICE] = device_state()  # what the agent accepted, compared by rewards
        return (time.perf_counter() - t0) * 1000

    def set_state(self, state: dict) -> None:
        """Replace the state (used by tasks to prepare an instance). Clears the event log."""
        missing = set(self.apps) - set(state)
        if missing:
            raise ConfigError("set_state", ",".join(sorted(missing)), "missing app state")
        self.state = copy.deepcopy(state)
        self.events = []
        self.touch()

    def log(self, app: str, op: str, args: dict, by: str = "agent") -> None:
        """Record a state change; ``by="world"`` marks one the world made on its own (a message
        arriving during an interruption), which is no operation of the agent's."""
        event = {"i": len(self.events), "app": app, "op": op, "args": args, "t": time.time()}
        if by != "agent":
            event["by"] = by
        self.events.append(event)
        self.touch()

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
