"""The app server: one ASGI process serving the start page, every app, local assets and the
admin API, for one or more isolated worlds.

Each world (its own variation, seed, state and event log) has its own origin: a request for
``http://w3.localhost:PORT/`` is served from world ``w3`` (Chromium resolves every
``*.localhost`` name to the loopback address), any other host name (``127.0.0.1``,
``localhost``) from the default world ``w0``. Distinct origins also keep cookies and storage
apart. The admin API takes the world id as ``?world=`` (default ``w0``); ``POST /_admin/worlds``
creates a world and ``DELETE /_admin/worlds?world=ID`` drops it.

The admin API (``/_admin/...``, :mod:`openapps_sim.web.admin`) reads and resets the world. It
answers only requests that carry the per-server secret in the ``X-OpenApps-Secret`` header;
pages never receive the secret, so an agent that browses to ``/_admin/state`` learns nothing.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
import time
import traceback

from fasthtml.common import FastHTML
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response

import openapps_sim.web.admin as admin
import openapps_sim.web.fonts as fonts
import openapps_sim.web.interruptions as interruptions
from openapps_sim.appkit import AppContext, AppRoutes, AppSpec
from openapps_sim.errors import ConfigError
from openapps_sim.gcsettings import tune_gc
from openapps_sim.protocol import (
    BIDS_HEADER,
    DEFAULT_WORLD,
    MAX_TEXT_CHARS,
    PAGE_KEY_HEADER,
    REVISION_HEADER,
    SECRET_ENV,
    WORLD_HOST_SUFFIX,
    too_long,
)
from openapps_sim.web.components import too_long_page
from openapps_sim.web.explore import add_routes as add_explore_routes
from openapps_sim.web.shell import render_page
from openapps_sim.web.world import World


class Worlds:
    """The worlds one server process hosts, by id; ``w0`` always exists."""

    def __init__(self, default: World) -> None:
        self.by_id: dict[str, World] = {DEFAULT_WORLD: default}
        self._next = 1

    @property
    def default(self) -> World:
        return self.by_id[DEFAULT_WORLD]

    def create(self) -> str:
        world_id = f"w{self._next}"
        self._next += 1
        self.by_id[world_id] = World()
        return world_id

    def drop(self, world_id: str) -> bool:
        if world_id == DEFAULT_WORLD:
            return False
        return self.by_id.pop(world_id, None) is not None

    def get(self, world_id: str) -> World:
        world = self.by_id.get(world_id or DEFAULT_WORLD)
        if world is None:
            raise ConfigError("admin", "world", f"no world {world_id!r} on this server", sorted(self.by_id))
        return world

    def for_host(self, host: str) -> World | None:
        """The world a page request is for: ``w3.localhost[:port]`` names ``w3``; other hosts
        get the default world; an unknown ``*.localhost`` label gets ``None``."""
        name = host.rsplit(":", 1)[0].lower()
        if name.endswith(WORLD_HOST_SUFFIX):
            return self.by_id.get(name[: -len(WORLD_HOST_SUFFIX)])
        return self.default


def _params(request: Request, form) -> dict:
    params = dict(request.query_params)
    params.update(request.path_params)
    if form is not None:
        for key in form.keys():
            values = form.getlist(key)
            params[key] = values[-1] if len(values) == 1 else values
    return params


_PAGES_KEPT = 4  # pages a world keeps per revision
# A request body longer than this is refused before it is read: room for every field of any form
# at MAX_TEXT_CHARS characters (each up to 4 UTF-8 bytes, percent-encoded: 12 bytes).
MAX_FORM_BYTES = 1_000_000


def _make_endpoint(worlds: Worlds, app: AppSpec, handler, reuse_pages: bool = True):
    async def endpoint(req: Request):
        response = await respond(req)
        world = worlds.for_host(req.headers.get("host", ""))
        if world is not None:
            response.headers[REVISION_HEADER] = str(world.revision)
        return response

    async def respond(req: Request):
        world = worlds.for_host(req.headers.get("host", ""))
        if world is None:
            return HTMLResponse("<h1>No such world</h1>", status_code=404)
        if not world.admits(req.headers.get(PAGE_KEY_HEADER)):
            return HTMLResponse(interruptions.SEALED_PAGE, status_code=403)
        size = req.headers.get("content-length", "")
        if size.isdigit() and int(size) > MAX_FORM_BYTES:  # refused unread
            text = f"The form is {size} bytes long; at most {MAX_FORM_BYTES} are accepted. Nothing was changed."
            return HTMLResponse(f"<h1>Form too large</h1><p data-testid='input-too-long'>{text}</p>", status_code=413)
        form = await req.form() if req.method == "POST" else None
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
        try:
            result = handler(ctx, params)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            world.server_errors += 1
            return HTMLResponse("<h1>Internal error</h1>", status_code=500)
        if isinstance(result, Response):
            response = result
        else:
            response = ctx.page(*(result if isinstance(result, tuple) else (result,)))
        if reuse and world.revision == revision and isinstance(response, HTMLResponse):
            if len(world.pages) >= _PAGES_KEPT:
                world.pages.pop(next(iter(world.pages)))
            world.pages[key] = (response.status_code, response.body)
        return response

    return endpoint


def build_app(world: World | None = None, secret: str | None = None, explore: bool = False) -> FastHTML:
    """The ASGI app serving ``world`` (and the worlds created later through the admin API)."""
    world = world or World()
    worlds = Worlds(world)
    app = FastHTML(default_hdrs=False)
    app.state.worlds = worlds
    app.state.secret = secret or secrets.token_hex(16)
    for spec in world.apps.values():
        _add_app_routes(app, worlds, spec, reuse_pages=not explore)
    interruptions.add_routes(app, lambda req: worlds.for_host(req.headers.get("host", "")))
    if explore:  # the people's control page (openapps serve --explore), on explore.localhost only
        add_explore_routes(app, worlds)
    app.route("/_static/fonts/{name}")(font_file)
    app.route("/favicon.ico")(favicon)
    app.add_exception_handler(HTTPException, admin.http_error)
    for name, handlers in admin.ROUTES.items():
        for method, fn in handlers.items():
            app.route(f"/_admin/{name}", methods=[method])(admin.endpoint(fn))
    return app


def _add_app_routes(app: FastHTML, worlds: Worlds, spec: AppSpec, reuse_pages: bool) -> None:
    r = AppRoutes()
    spec.register_routes(r)
    prefix = spec.url_prefix
    for route in r.routes:
        path = prefix + route.path if route.path != "/" or not prefix else prefix + "/"
        endpoint = _make_endpoint(worlds, spec, route.handler, reuse_pages=reuse_pages)
        app.route(path, methods=[route.method])(endpoint)
    if prefix:
        app.route(prefix, methods=["GET"])(_redirect_to(prefix + "/"))


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
    secret: str | None = None,
    announce=None,
    explore: bool = False,
) -> None:
    """Run the server in this process until interrupted."""
    import uvicorn  # only a served process needs it, not an app built in-process (tests, tools)

    t0 = time.perf_counter()
    world = World()
    world.reset(variation, seed, overrides)
    secret = secret or os.environ.get(SECRET_ENV) or secrets.token_hex(16)
    app = build_app(world, secret, explore=explore)
    tune_gc()  # a serving process keeps its world and packs: the collector need not walk them
    sock = bind_socket(host, port)
    url = f"http://{host}:{sock.getsockname()[1]}"
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    if announce:
        announce(url, secret, (time.perf_counter() - t0) * 1000)
    server.run(sockets=[sock])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m openapps_sim.web.server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--variation", default="default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--set", action="append", default=[], dest="overrides")
    args = parser.parse_args(argv)

    def announce(url, secret, ms):
        print(f"OPENAPPS_READY {url} {ms:.0f}", flush=True)

    try:
        serve(args.host, args.port, args.variation, args.seed, args.overrides, announce=announce)
    except ConfigError as e:
        print(f"OPENAPPS_ERROR {e}", flush=True)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
