"""The app server: the start page, every app and local assets, for the worlds of one process.

A world (:class:`~openapps_sim.web.world.World`) is an object of the process that uses it. The
process's :class:`AppServer` (:func:`app_server`, one per process) serves the worlds added to it
to a browser from a thread of its own (uvicorn on ``127.0.0.1``, started when a world is first
served), each at its own origin: ``http://w3.localhost:PORT/`` is world ``w3`` (Chromium resolves
every ``*.localhost`` name to the loopback address), so distinct origins also keep cookies and
storage apart. A request for any other host, or for a world no longer held by anyone, finds no
world. Nothing but the worlds' pages is served: there is no route that reads or resets a world.

The text backend calls a world's pages in memory (:meth:`AppServer.call`): the same routing,
handlers and page cache, with no socket. ``openapps serve`` (:func:`serve`) runs a server in the
foreground for people, with one default world answering every other host.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from typing import Any

from fasthtml.common import FastHTML
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response

import openapps_sim.web.fonts as fonts
import openapps_sim.web.interruptions as interruptions
from openapps_sim.appkit import AppContext, AppRoutes, AppSpec
from openapps_sim.config.catalog import discover_apps
from openapps_sim.errors import OpenAppsError
from openapps_sim.gcsettings import tune_gc
from openapps_sim.protocol import BIDS_HEADER, MAX_TEXT_CHARS, WORLD_HOST_SUFFIX, too_long
from openapps_sim.web.bounded import AppFault, fault_page, run_bounded
from openapps_sim.web.components import too_long_page
from openapps_sim.web.explore import add_routes as add_explore_routes
from openapps_sim.web.routing import RouteTable
from openapps_sim.web.shell import render_page
from openapps_sim.web.world import WORLD_SCOPE_KEY, World

_PAGES_KEPT = 4  # pages a world keeps per revision
# A request body longer than this is refused before it is read: room for every field of any form
# at MAX_TEXT_CHARS characters (each up to 4 UTF-8 bytes, percent-encoded: 12 bytes).
MAX_FORM_BYTES = 1_000_000
_START_TIMEOUT_S = 30.0


class ServerError(OpenAppsError):
    pass


class AppServer:
    """The worlds one process serves, by id, and the thread that serves them.

    ``add(world)`` gives a world its id and origin; the server keeps it (by a weak reference:
    while someone holds it) in :attr:`worlds` until ``drop``, and serves it to browsers
    (:attr:`by_id`) if asked to. ``default``, when given, answers every host that names no world
    (``openapps serve``); the process's server has none."""

    def __init__(self, default: World | None = None, explore: bool = False) -> None:
        self.worlds: weakref.WeakValueDictionary[str, World] = weakref.WeakValueDictionary()
        self.by_id: weakref.WeakValueDictionary[str, World] = weakref.WeakValueDictionary()
        self.default = default
        self.kept: list[World] = []  # worlds this server made for itself (the explore page's)
        self.pages = RouteTable()  # every route, for in-memory calls
        self._next = 1
        self._lock = threading.Lock()
        self.port: int | None = None
        self._thread: threading.Thread | None = None
        self._uvicorn: Any = None
        self.app = self._build(explore)

    # -- worlds ----------------------------------------------------------------------------------
    def add(self, world: World | None = None, served: bool = True) -> World:
        """``world`` (a new one by default) with an id and origin of this server: served to
        browsers when ``served`` (the server's thread is started then), else reachable only in
        memory (:meth:`call`; its origin has no port)."""
        world = world if world is not None else World()
        port = self.start() if served else None
        with self._lock:
            world.id = f"w{self._next}"
            self._next += 1
            world.url = f"http://{world.id}{WORLD_HOST_SUFFIX}" + (f":{port}" if port else "")
            self.worlds[world.id] = world
            if served:
                self.by_id[world.id] = world
        return world

    def drop(self, world: World) -> None:
        """``world`` is served no more."""
        with self._lock:
            for held in (self.worlds, self.by_id):
                if held.get(world.id) is world:
                    del held[world.id]

    def create(self) -> str:
        """A new world this server keeps (the explore page's two), by id."""
        world = World()
        self.kept.append(world)
        with self._lock:
            world.id = f"w{self._next}"
            self._next += 1
            self.by_id[world.id] = world
        return world.id

    def get(self, world_id: str) -> World:
        return self.by_id[world_id]

    def for_host(self, host: str) -> World | None:
        """The world a page request is for: ``w3.localhost[:port]`` names ``w3``; other hosts
        get the default world (None when there is none)."""
        name = host.rsplit(":", 1)[0].lower()
        if name.endswith(WORLD_HOST_SUFFIX):
            return self.by_id.get(name[: -len(WORLD_HOST_SUFFIX)])
        return self.default

    def world_of(self, req: Request) -> World | None:
        """The world a request is for: an in-memory call carries it, an HTTP request names it."""
        return req.scope.get(WORLD_SCOPE_KEY) or self.for_host(req.headers.get("host", ""))

    # -- serving ---------------------------------------------------------------------------------
    def start(self) -> int:
        """The port of the server's thread, started the first time (uvicorn on 127.0.0.1)."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive() and self.port:
                return self.port
            import uvicorn  # only a process that serves a browser needs it

            sock = bind_socket("127.0.0.1", 0)
            config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
            server = uvicorn.Server(config)
            self._thread = threading.Thread(
                target=server.run, kwargs={"sockets": [sock]}, name="openapps-app-server", daemon=True
            )
            self._thread.start()
            deadline = time.monotonic() + _START_TIMEOUT_S
            while not server.started:
                if not self._thread.is_alive() or time.monotonic() > deadline:
                    raise ServerError(f"the app server did not start within {_START_TIMEOUT_S:.0f} s")
                time.sleep(0.005)
            self.port, self._uvicorn = sock.getsockname()[1], server
            if self.default is not None:
                self.default.url = f"http://127.0.0.1:{self.port}"
            return self.port

    def stop(self) -> None:
        """The server's thread ends (a world added later starts it again)."""
        with self._lock:
            if self._uvicorn is not None:
                self._uvicorn.should_exit = True
                self._thread.join(10)
            self._uvicorn = self._thread = self.port = None

    def call(
        self, world: World, method: str, target: str, body: bytes | None = None, headers: dict | None = None
    ) -> tuple[int, str, str]:
        """``(status, location, html)`` of one page request to ``world``, answered in memory by
        the routes a browser reaches (no socket): a handler's crash is its 500 page."""
        path, _, query = target.partition("?")
        found = self.pages.find(method, path)
        if found is None or found == 405:
            return (404, "", "Not Found") if found is None else (405, "", "Method Not Allowed")
        if isinstance(found, str):  # the same path with(out) its trailing slash
            return 307, found + (f"?{query}" if query else ""), ""
        endpoint, params = found
        head = {"host": world.url.split("//", 1)[-1], BIDS_HEADER: "1", **(headers or {})}
        if body is not None:
            head.update({"content-type": "application/x-www-form-urlencoded", "content-length": str(len(body))})
        scope = {
            "type": "http",
            "method": method,
            "scheme": "http",
            "server": ("127.0.0.1", 80),
            "path": path,
            "root_path": "",
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "headers": [(k.lower().encode(), str(v).encode("latin-1")) for k, v in head.items()],
            "path_params": params,
            WORLD_SCOPE_KEY: world,
        }

        async def receive() -> dict:
            return {"type": "http.request", "body": body or b"", "more_body": False}

        try:
            response = run_now(endpoint(Request(scope, receive)))
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            world.server_errors += 1
            world.fault = f"the in-memory request {method} {path} failed: {type(e).__name__}: {e}"
            return 500, "", "<h1>Internal error</h1>"
        return response.status_code, response.headers.get("location", ""), response.body.decode("utf-8", "replace")

    def _build(self, explore: bool) -> FastHTML:
        app = FastHTML(default_hdrs=False)
        app.state.worlds = self
        for spec in discover_apps().values():
            self._add_app_routes(app, spec, reuse_pages=not explore)
        interruptions.add_routes(lambda path, methods, fn: self._route_to(app, path, methods, fn), self.world_of)
        if explore:  # the people's control page (openapps serve --explore), on explore.localhost only
            add_explore_routes(app, self)
        app.route("/_static/fonts/{name}")(font_file)
        app.route("/favicon.ico")(favicon)
        return app

    def _route_to(self, app: FastHTML, path: str, methods: list[str], endpoint: Callable) -> None:
        """``endpoint`` at ``path``, for browsers and for in-memory calls alike."""
        app.route(path, methods=methods)(endpoint)
        for method in methods:
            self.pages.add(method, path, endpoint)

    def _add_app_routes(self, app: FastHTML, spec: AppSpec, reuse_pages: bool) -> None:
        r = AppRoutes()
        spec.register_routes(r)
        prefix = spec.url_prefix
        for route in r.routes:
            path = prefix + route.path if route.path != "/" or not prefix else prefix + "/"
            self._route_to(app, path, [route.method], page_endpoint(self, spec, route.handler, reuse_pages))
        if prefix:
            self._route_to(app, prefix, ["GET"], _redirect_to(prefix + "/"))


def run_now(coro) -> Any:
    """The result of an endpoint coroutine run to its end at once: an in-memory request waits on
    nothing (its body is there), so no event loop is needed (and one may be running already)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("an endpoint waited on I/O during an in-memory call")


_process_server: AppServer | None = None
_process_lock = threading.Lock()


def app_server() -> AppServer:
    """This process's app server (made once; its thread starts when a world is first served)."""
    global _process_server
    with _process_lock:
        if _process_server is None:
            _process_server = AppServer()
        return _process_server


def _params(request: Request, form) -> dict:
    params = dict(request.query_params)
    params.update(request.path_params)
    if form is not None:
        for key in form.keys():
            values = form.getlist(key)
            params[key] = values[-1] if len(values) == 1 else values
    return params


def page_endpoint(server: AppServer, app: AppSpec, handler, reuse_pages: bool = True):
    """The endpoint of one app route: the request's world found, its seal and size limits
    checked, a page rendered at the same revision reused, a handler's crash its 500 page."""

    async def endpoint(req: Request):
        world = server.world_of(req)
        if world is None:
            return HTMLResponse("<h1>No such world</h1>", status_code=404)
        if not world.admits(req):
            return HTMLResponse(interruptions.SEALED_PAGE, status_code=403)
        size = req.headers.get("content-length", "")
        if size.isdigit() and int(size) > MAX_FORM_BYTES:  # refused unread
            text = f"The form is {size} bytes long; at most {MAX_FORM_BYTES} are accepted. Nothing was changed."
            return HTMLResponse(f"<h1>Form too large</h1><p data-testid='input-too-long'>{text}</p>", status_code=413)
        form = await req.form() if req.method == "POST" else None
        with world.lock:
            return respond(world, req, form)

    def respond(world: World, req: Request, form) -> Response:
        if req.method != "GET":
            world.touch()  # a POST may change the state: whatever was checked or rendered is stale
        # A GET reads the world only (apps keep browsing state in the URL), so at the same
        # revision the same request renders the same page; not with interruptions armed (a page
        # view may fire one) nor on the explore server (its controls reconfigure worlds).
        key = (app.name, req.url.path, req.url.query, bool(req.headers.get(BIDS_HEADER)))
        reuse = reuse_pages and req.method == "GET" and not world.interrupts.rules
        if reuse and key in world.pages:
            status, body = world.pages[key]
            return HTMLResponse(body, status_code=status)
        ctx = AppContext(world, app, req, render_page)
        ctx.form = form
        revision = world.revision
        params = _params(req, form)
        long = too_long(params)  # the one cap of every field any app takes (protocol.MAX_TEXT_CHARS)
        if long:
            return too_long_page(ctx, *long, MAX_TEXT_CHARS)
        try:  # a handler that raises or runs too long is this request's error page (web.bounded)
            response = run_bounded(
                f"the {app.name} app's handler of {req.method} {req.url.path}", answer, ctx, params, passes=()
            )
        except AppFault as fault:
            return fault_page(world, fault)
        if reuse and world.revision == revision and isinstance(response, HTMLResponse):
            if len(world.pages) >= _PAGES_KEPT:
                world.pages.pop(next(iter(world.pages)))
            world.pages[key] = (response.status_code, response.body)
        return response

    def answer(ctx: AppContext, params: dict) -> Response:
        result = handler(ctx, params)
        if isinstance(result, Response):
            return result
        return ctx.page(*(result if isinstance(result, tuple) else (result,)))

    return endpoint


def build_app(world: World | None = None, explore: bool = False) -> FastHTML:
    """The ASGI app of a server whose default world is ``world`` (a new one by default)."""
    return AppServer(world or World(), explore=explore).app


def font_file(name: str):
    path = fonts.font_dir() / os.path.basename(name)
    if not path.is_file():
        return Response("not found", status_code=404)
    return FileResponse(path, headers={"cache-control": "max-age=86400"})


def favicon():
    svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='4' fill='#2f6fde'/></svg>"
    return Response(svg, media_type="image/svg+xml")


def _redirect_to(target: str):
    async def endpoint(req: Request):
        return RedirectResponse(target, status_code=307)

    return endpoint


def bind_socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 0,
    variation: str = "default",
    seed: int = 0,
    overrides: list[str] = (),
    announce=None,
    explore: bool = False,
) -> None:
    """Run a server for people in this process until interrupted: one default world answering
    every host (and, with ``explore``, the control page and its two worlds)."""
    import uvicorn  # only a served process needs it, not an app built in-process (tests, tools)

    t0 = time.perf_counter()
    world = World()
    world.reset(variation, seed, overrides)
    app = AppServer(world, explore=explore).app
    tune_gc()  # a serving process keeps its world and packs: the collector need not walk them
    sock = bind_socket(host, port)
    url = f"http://{host}:{sock.getsockname()[1]}"
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    if announce:
        announce(url, (time.perf_counter() - t0) * 1000)
    server.run(sockets=[sock])
