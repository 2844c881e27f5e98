"""The app server: one ASGI process serving the start page, every app, local assets and the
admin API, for one or more isolated worlds.

Each world (its own variation, seed, state and event log) has its own origin: a request for
``http://w3.localhost:PORT/`` is served from world ``w3`` (Chromium resolves every
``*.localhost`` name to the loopback address), any other host name (``127.0.0.1``,
``localhost``) from the default world ``w0``. Distinct origins also keep cookies and storage
apart. The admin API takes the world id as ``?world=`` (default ``w0``); ``POST /_admin/worlds``
creates a world and ``DELETE /_admin/worlds?world=ID`` drops it.

The admin API (``/_admin/...``) reads and resets the world. It answers only requests that
carry the per-server secret in the ``X-OpenApps-Secret`` header; pages never receive the
secret, so an agent that browses to ``/_admin/state`` learns nothing.
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import secrets
import socket
import sys
import time
import traceback

from fasthtml.common import FastHTML
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

import openapps_sim.web.fonts as fonts
import openapps_sim.web.interruptions as interruptions
from openapps_sim.appkit import AppContext, AppRoutes, AppSpec
from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError, OpenAppsError
from openapps_sim.protocol import (
    BIDS_HEADER,
    DEFAULT_WORLD,
    REVISION_HEADER,
    SECRET_ENV,
    SECRET_HEADER,
    WORLD_HOST_SUFFIX,
)
from openapps_sim.web.shell import render_page
from openapps_sim.web.tools import run_tool
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
        try:
            result = handler(ctx, _params(req, form))
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
    world = world or World()
    worlds = Worlds(world)
    secret = secret or secrets.token_hex(16)
    app = FastHTML(default_hdrs=False)
    app.state.worlds = worlds

    for spec in world.apps.values():
        r = AppRoutes()
        spec.register_routes(r)
        prefix = spec.url_prefix
        for route in r.routes:
            path = prefix + route.path if route.path != "/" or not prefix else prefix + "/"
            endpoint = _make_endpoint(worlds, spec, route.handler, reuse_pages=not explore)
            app.route(path, methods=[route.method])(endpoint)
        if prefix:
            app.route(prefix, methods=["GET"])(_redirect_to(prefix + "/"))

    interruptions.add_routes(app, lambda req: worlds.for_host(req.headers.get("host", "")))
    if explore:  # the people's control page (openapps serve --explore), on explore.localhost only
        from openapps_sim.web.explore import add_routes as add_explore_routes

        add_explore_routes(app, worlds)

    @app.route("/_static/fonts/{name}")
    def font_file(name: str):
        path = fonts.font_dir() / os.path.basename(name)
        if not path.is_file():
            return Response("not found", status_code=404)
        return FileResponse(path, headers={"cache-control": "max-age=86400"})

    @app.route("/favicon.ico")
    def favicon():
        svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='4' fill='#2f6fde'/></svg>"
        return Response(svg, media_type="image/svg+xml")

    def authorised(req: Request) -> bool:
        return hmac.compare_digest(req.headers.get(SECRET_HEADER, ""), secret)

    def admin(fn):
        async def endpoint(req: Request):
            if not authorised(req):
                return JSONResponse({"error": "forbidden"}, status_code=403)
            body = {}
            if req.method in ("POST", "PUT"):
                raw = await req.body()
                if raw:
                    try:
                        body = json.loads(raw)
                    except (json.JSONDecodeError, UnicodeDecodeError) as e:
                        return JSONResponse({"error": f"{req.url.path}: the body is not JSON ({e})"}, status_code=400)
                    if not isinstance(body, dict):
                        msg = f"{req.url.path}: the body must be a JSON object, got {type(body).__name__}"
                        return JSONResponse({"error": msg}, status_code=400)
            try:
                if fn is create_world:
                    return JSONResponse(fn(req, body))
                world = worlds.get(req.query_params.get("world", DEFAULT_WORLD))
                if req.method != "GET" and fn is not set_step:
                    world.touch()
                response = JSONResponse(fn(world, req, body))
                response.headers[REVISION_HEADER] = str(world.revision)
                return response
            except OpenAppsError as e:
                return JSONResponse({"error": str(e)}, status_code=400)
            except Exception as e:  # a bug, not the caller's mistake: say so, keep serving
                traceback.print_exc(file=sys.stderr)
                return JSONResponse({"error": f"internal error: {type(e).__name__}: {e}"}, status_code=500)

        return endpoint

    def get_state(world, req, body):
        out = {
            "revision": world.revision,
            "variation": world.variation,
            "seed": world.seed,
            "events": len(world.events),
        }
        unless = req.query_params.get("unless")
        if unless is not None and whole_number(unless, "GET /_admin/state", "unless") == world.revision:
            return {**out, "unchanged": True}  # the caller has this revision's state already
        return {**out, "state": world.state}

    def put_state(world, req, body):
        state = body.get("state")
        if not isinstance(state, dict):
            raise ConfigError("PUT /_admin/state", "state", "missing or not an object", "{'state': {<app>: {...}}}")
        world.set_state(state)
        return {"ok": True}

    def create_world(req, body):
        return {"world": worlds.create(), "count": len(worlds.by_id)}

    def drop_world(world, req, body):
        return {"dropped": worlds.drop(req.query_params.get("world", "")), "count": len(worlds.by_id)}

    def reset(world, req, body):
        ms = world.reset(WorldSpec.from_wire(body, "POST /_admin/reset"))
        out = {"ok": True, "reset_ms": ms, "variation": world.variation, "seed": world.seed}
        if body.get("return_state"):
            out["state"] = world.state
        return out

    def events(world, req, body):
        since = whole_number(req.query_params.get("since", 0), "GET /_admin/events", "since")
        return {"events": world.events[since:], "count": len(world.events), "revision": world.revision}

    def config(world, req, body):
        return {"config": world.config}

    def interruptions_report(world, req, body):
        return world.interrupts.report()

    def refer_task(world, req, body):
        lists = {k: body.get(k, []) for k in ("apps", "keys")}
        for key, value in lists.items():
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError("PUT /_admin/interruptions", key, f"expected a list of strings, got {value!r}")
        world.interrupts.refer_task(lists["apps"], lists["keys"])
        return {"ok": True}

    def set_step(world, req, body):
        world.interrupts.set_step(whole_number(body.get("step", 0), "POST /_admin/step", "step"))
        return {"ok": True}

    def tool(world, req, body):
        return {"result": run_tool(world, body.get("app"), body.get("tool"), body.get("args", {}))}

    def health(world, req, body):
        return {"ok": True, "pid": os.getpid(), "server_errors": world.server_errors, "worlds": len(worlds.by_id)}

    async def admin_http_error(req: Request, exc: HTTPException):
        """FastHTML refuses a bad JSON body before the endpoint runs: say it in the admin API's words."""
        if req.url.path.startswith("/_admin/"):
            return JSONResponse({"error": f"{req.url.path}: {exc.detail}"}, status_code=exc.status_code)
        return Response(str(exc.detail), status_code=exc.status_code)

    app.add_exception_handler(HTTPException, admin_http_error)

    for path, methods, fn in [
        ("/_admin/state", ["GET"], get_state),
        ("/_admin/state", ["PUT"], put_state),
        ("/_admin/reset", ["POST"], reset),
        ("/_admin/events", ["GET"], events),
        ("/_admin/config", ["GET"], config),
        ("/_admin/health", ["GET"], health),
        ("/_admin/interruptions", ["GET"], interruptions_report),
        ("/_admin/interruptions", ["PUT"], refer_task),
        ("/_admin/step", ["POST"], set_step),
        ("/_admin/tool", ["POST"], tool),
        ("/_admin/worlds", ["POST"], create_world),
        ("/_admin/worlds", ["DELETE"], drop_world),
    ]:
        app.route(path, methods=methods)(admin(fn))

    return app


def whole_number(value, source: str, key: str) -> int:
    """``value`` as an int (JSON numbers and digit strings), else a ConfigError (HTTP 400)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).lstrip("-").isdigit():
        raise ConfigError(source, key, f"expected a whole number, got {value!r}")
    return int(value)


def _redirect_to(target: str):
    async def endpoint(req: Request):
        from starlette.responses import RedirectResponse

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
    import uvicorn

    t0 = time.perf_counter()
    world = World()
    world.reset(variation, seed, overrides)
    secret = secret or os.environ.get(SECRET_ENV) or secrets.token_hex(16)
    app = build_app(world, secret, explore=explore)
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
