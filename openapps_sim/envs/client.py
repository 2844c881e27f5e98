"""Start, reuse and talk to an app server process and the worlds it hosts.

A :class:`ServerHandle` owns one ``python -m openapps_sim.web.server`` child process (or attaches
to a running server given by ``OPENAPPS_SERVER_URL`` and ``OPENAPPS_ADMIN_SECRET``) and speaks
the admin API over one kept-alive HTTP connection. Its own methods (``reset``, ``state`` ...)
act on the server's default world.

A :class:`WorldHandle` is one isolated world on that server (``ServerHandle.new_world()``),
with its own origin ``http://<id>.localhost:<port>``; every environment owns one, so envs of
one process never share state. One server process hosts the worlds of all envs of a process.
"""

from __future__ import annotations

import atexit
import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import weakref
from urllib.parse import urlparse

from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError, ConfigErrors, OpenAppsError
from openapps_sim.lifecycle import die_with_parent
from openapps_sim.protocol import (
    DEFAULT_WORLD,
    PAGE_KEY_HEADER,
    REVISION_HEADER,
    SECRET_ENV,
    SECRET_HEADER,
    WORLD_HOST_SUFFIX,
    WORLD_PARAM,
)


class ServerError(OpenAppsError):
    pass


class KeepAlive:
    """One kept-alive HTTP connection to ``host:port``; a request that finds it closed by the
    server (or never opened) is sent once more on a new one."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._conn: http.client.HTTPConnection | None = None

    def request(self, method: str, target: str, body: bytes | None, headers: dict):
        """(response, body bytes) of one request."""
        for attempt in (0, 1):
            if self._conn is None:
                self._conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self._conn.request(method, target, body=body, headers=headers)
                resp = self._conn.getresponse()
                return resp, resp.read()
            except (http.client.HTTPException, ConnectionError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def revision_of(resp: http.client.HTTPResponse) -> int | None:
    """The world revision a response carries (None: it carries none)."""
    value = resp.getheader(REVISION_HEADER)
    return int(value) if value is not None and value.isdigit() else None


class ServerHandle:
    def __init__(self, url: str | None = None, secret: str | None = None):
        self.url = url
        self.secret = secret
        self.proc: subprocess.Popen | None = None
        self.startup_ms: float | None = None
        self._conn: KeepAlive | None = None
        self._lock = threading.Lock()
        self._default_world: WorldHandle | None = None
        self.abandoned: list[str] = []  # worlds whose handle was dropped unclosed: dropped by new_world

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self, variation: str = "default", seed: int = 0, timeout: float = 30.0) -> ServerHandle:
        if self.url:
            return self
        self.secret = secrets.token_hex(16)
        env = dict(os.environ, **{SECRET_ENV: self.secret}, PYTHONUNBUFFERED="1")
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "openapps_sim.web.server",
                "--port",
                "0",
                "--variation",
                variation,
                "--seed",
                str(seed),
            ],
            stdout=subprocess.PIPE,
            stderr=None,
            env=env,
            text=True,
            preexec_fn=die_with_parent(signal.SIGTERM),  # never outlives this process, even a SIGKILLed one
        )
        deadline = time.time() + timeout
        line = ""
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith("OPENAPPS_READY"):
                self.url = line.split()[1]
                break
            if line.startswith("OPENAPPS_ERROR"):
                self.stop()
                raise ServerError(line[len("OPENAPPS_ERROR ") :].strip())
        if not self.url:
            self.stop()
            raise ServerError(f"the app server did not start within {timeout:.0f} s (last output: {line!r})")
        # Keep draining stdout so that the child never blocks on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()
        self._wait_healthy(deadline)
        self.startup_ms = (time.perf_counter() - t0) * 1000
        atexit.register(self.stop)
        return self

    def _drain(self) -> None:
        proc = self.proc
        if proc and proc.stdout:
            for _ in proc.stdout:
                pass

    def _wait_healthy(self, deadline: float) -> None:
        while True:
            try:
                self.admin("GET", "/_admin/health")
                return
            except (OSError, ServerError):
                if time.time() > deadline:
                    raise
                time.sleep(0.02)

    def alive(self) -> bool:
        if self.proc is not None and self.proc.poll() is not None:
            return False
        try:
            self.admin("GET", "/_admin/health")
            return True
        except (OSError, ServerError):
            return False

    def stop(self) -> None:
        if self._conn:
            self._conn.close()
            self._conn = None
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.proc:
            self.url = None
        self.proc = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    # -- admin API ---------------------------------------------------------------------------
    def admin(self, method: str, path: str, body: dict | None = None) -> dict:
        return self.admin_call(method, path, body)[0]

    def admin_call(self, method: str, path: str, body: dict | None = None) -> tuple[dict, int | None]:
        """The answer of one admin request, and the world's revision its response carried."""
        if not self.url:
            raise ServerError("the app server is not running")
        payload = json.dumps(body).encode() if body is not None else None
        headers = {SECRET_HEADER: self.secret or "", "content-type": "application/json"}
        with self._lock:
            if self._conn is None:
                u = urlparse(self.url)
                self._conn = KeepAlive(u.hostname, u.port)
            resp, data = self._conn.request(method, path, payload, headers)
        result = json.loads(data or b"{}")
        if resp.status == 400:  # one problem a line
            lines = str(result.get("error") or "bad request").splitlines()
            raise ConfigErrors([ConfigError("server", "", line) for line in lines])
        if resp.status != 200:
            raise ServerError(f"{method} {path} answered {resp.status}: {result.get('error', data[:200])}")
        return result, revision_of(resp)

    def reset(
        self, world: WorldSpec | str = "default", seed: int = 0, overrides: list[str] = (), return_state: bool = False
    ) -> dict:
        return self.default_world().reset(world, seed, overrides, return_state)

    def state(self) -> dict:
        return self.default_world().state()

    def state_unless(self, revision: int | None) -> tuple[int, dict | None]:
        return self.default_world().state_unless(revision)

    def set_state(self, state: dict) -> None:
        self.default_world().set_state(state)

    def events(self, since: int = 0) -> list[dict]:
        return self.default_world().events(since)

    def config(self) -> dict:
        return self.default_world().config()

    def health(self) -> dict:
        return self.admin("GET", "/_admin/health")

    def interruptions(self) -> dict:
        return self.default_world().interruptions()

    def set_step(self, step: int) -> None:
        self.default_world().set_step(step)

    def refer_task(self, apps: list[str], keys: list[str]) -> None:
        self.default_world().refer_task(apps, keys)

    # -- worlds ------------------------------------------------------------------------------
    def default_world(self) -> WorldHandle:
        if self._default_world is None or self._default_world._base != self.url:
            self._default_world = WorldHandle(self, DEFAULT_WORLD)
        return self._default_world

    def new_world(self) -> WorldHandle:
        """A new isolated world on this server; drop it with :meth:`WorldHandle.close`."""
        if urlparse(self.url or "").hostname not in ("127.0.0.1", "localhost", "::1"):
            raise ServerError(
                f"worlds other than the default need a server on the loopback address (their "
                f"origins are <id>{WORLD_HOST_SUFFIX}); {self.url} is not one"
            )
        while True:  # here, never in the finalizer: that may run inside a request of this thread
            try:
                WorldHandle(self, self.abandoned.pop()).close()
            except IndexError:  # none left (another thread may have taken the last)
                break
        world = WorldHandle(self, self.admin("POST", "/_admin/worlds")["world"])
        world.guard = weakref.finalize(world, self.abandoned.append, world.world_id)
        world.guard.atexit = False  # at exit the server goes too
        return world


class WorldHandle:
    """One world of a server: its origin and the admin API calls that act on it."""

    def __init__(self, server: ServerHandle, world_id: str):
        self.server = server
        self.world_id = world_id
        # Set by a client through which every request to this world passes (the text backend's
        # env: its tabs report each page response with note_revision): then the revision of the
        # last response is the world's revision now, and a state check at it needs no request.
        self.sole_client = False
        self.seen_revision: int | None = None
        self.page_headers: dict[str, str] = {}  # what every page request must carry (see seal)
        self._base = server.url
        u = urlparse(server.url or "")
        if world_id == DEFAULT_WORLD:
            self.url = server.url
        else:
            self.url = f"{u.scheme}://{world_id}{WORLD_HOST_SUFFIX}:{u.port}"
        self.guard: weakref.finalize | None = None  # set by new_world: the world is freed if dropped unclosed

    @property
    def secret(self) -> str | None:
        return self.server.secret

    def _admin(self, method: str, path: str, body: dict | None = None) -> dict:
        sep = "&" if "?" in path else "?"
        try:
            result, revision = self.server.admin_call(method, f"{path}{sep}{WORLD_PARAM}={self.world_id}", body)
        except Exception:
            self.seen_revision = None  # a failed request may still have changed the world
            raise
        self.note_revision(revision)
        return result

    def note_revision(self, revision: int | None) -> None:
        """A response from this world carried ``revision`` (None: none, so it is unknown now)."""
        self.seen_revision = revision

    def reset(
        self, world: WorldSpec | str = "default", seed: int = 0, overrides: list[str] = (), return_state: bool = False
    ) -> dict:
        """Reset the world to ``world`` (a :class:`~openapps_sim.config.world.WorldSpec`; or, for a
        quick call, a variation expression with ``seed`` and ``overrides``, checked here)."""
        if not isinstance(world, WorldSpec):
            world = WorldSpec.make("reset", world, seed, overrides=overrides)
        return self._admin("POST", "/_admin/reset", {**world.wire(), "return_state": return_state})

    def state(self) -> dict:
        return self._admin("GET", "/_admin/state")["state"]

    def state_unless(self, revision: int | None) -> tuple[int, dict | None]:
        """``(revision, state)`` of the world now; the state is None when the world is still at
        ``revision`` (nothing a task checks has changed since: the caller has that state)."""
        if self.sole_client and revision is not None and self.seen_revision == revision:
            return revision, None  # nothing reached the world since that revision but through us
        out = self._admin("GET", "/_admin/state" + ("" if revision is None else f"?unless={int(revision)}"))
        return int(out["revision"]), (None if out.get("unchanged") else out["state"])

    def set_state(self, state: dict) -> None:
        self._admin("PUT", "/_admin/state", {"state": state})

    def events(self, since: int = 0) -> list[dict]:
        return self._admin("GET", f"/_admin/events?since={since}")["events"]

    def config(self) -> dict:
        return self._admin("GET", "/_admin/config")["config"]

    def health(self) -> dict:
        return self._admin("GET", "/_admin/health")

    def alive(self) -> bool:
        return self.server.url == self._base and self.server.alive()

    def close(self) -> None:
        """Drop this world from the server (a no-op for the default world or a dead server)."""
        if self.guard is not None:
            self.guard.detach()
        if self.world_id == DEFAULT_WORLD or self.server.url != self._base:
            return
        try:
            self._admin("DELETE", "/_admin/worlds")
        except (OSError, ServerError, ConfigError):
            pass

    def interruptions(self) -> dict:
        """The episode's interruptions: ``shown`` (kind, step, page, button, ...) and ``arrivals``."""
        return self._admin("GET", "/_admin/interruptions")

    def refer_task(self, apps: list[str], keys: list[str]) -> None:
        """Tell the server what the episode's task refers to (its apps, the keys of the
        collections arrivals land in), so that no arrival lands there."""
        self._admin("PUT", "/_admin/interruptions", {"apps": list(apps), "keys": list(keys)})

    def set_step(self, step: int) -> None:
        """Tell the server how many actions the agent has taken (interruption triggers read it)."""
        self._admin("POST", "/_admin/step", {"step": int(step)})

    def seal(self) -> None:
        """From now on the world answers only page requests carrying :attr:`page_headers` (a
        fresh key), which only this handle's environment sends: nothing else can read or change
        the world but through that environment's steps."""
        key = secrets.token_hex(16)
        self._admin("PUT", "/_admin/seal", {"key": key})
        self.page_headers = {PAGE_KEY_HEADER: key}

    def call_tool(self, app: str, tool: str, args: dict | None = None):
        """Run the app tool ``<app>.<tool>(**args)`` on this world (the app's own operation, logged
        as its pages log it); returns its result. A refused call is a :class:`ConfigError`."""
        return self._admin("POST", "/_admin/tool", {"app": app, "tool": tool, "args": dict(args or {})})["result"]


_shared: ServerHandle | None = None
_shared_lock = threading.Lock()


def forget_dead_server() -> None:
    """Drop the process's server if it died, so that the next :func:`shared_server` starts a
    new one (a worker calls this after a crash)."""
    global _shared
    with _shared_lock:
        if _shared is not None and not _shared.alive():
            _shared.stop()
            _shared = None


def shared_server() -> ServerHandle:
    """The server of this process: attached from the environment, or started once and reused."""
    global _shared
    with _shared_lock:
        if _shared is not None and _shared.alive():
            return _shared
        if _shared is not None:
            _shared.stop()
        url = os.environ.get("OPENAPPS_SERVER_URL")
        if url:
            _shared = ServerHandle(url, os.environ.get(SECRET_ENV, ""))
        else:
            _shared = ServerHandle().start()
        return _shared
