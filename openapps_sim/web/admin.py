"""The admin API (``/_admin/...``): reads and resets the worlds of one server.

It answers only requests that carry the per-server secret in the ``X-OpenApps-Secret`` header;
pages never receive the secret. The world is named by ``?world=`` (default ``w0``). Each handler
is ``fn(world, req, body) -> dict`` (the JSON answer); the server-wide ones (creating a world)
take ``(req, body)``. The server keeps its worlds and secret in ``app.state``.
"""

from __future__ import annotations

import hmac
import json
import os
import sys
import traceback
from collections.abc import Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError, OpenAppsError
from openapps_sim.protocol import DEFAULT_WORLD, REVISION_HEADER, SECRET_HEADER
from openapps_sim.web.tools import run_tool
from openapps_sim.web.world import World


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()  # "²".isdigit() too, which int() refuses


def whole_number(value, source: str, key: str) -> int:
    """``value`` as an int (JSON numbers and digit strings), else a ConfigError (HTTP 400)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not _digits(str(value).lstrip("-")):
        raise ConfigError(source, key, f"expected a whole number, got {value!r}")
    return int(value)


def get_state(world: World, req: Request, body: dict) -> dict:
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


def put_state(world: World, req: Request, body: dict) -> dict:
    state = body.get("state")
    if not isinstance(state, dict):
        raise ConfigError("PUT /_admin/state", "state", "missing or not an object", "{'state': {<app>: {...}}}")
    world.set_state(state)
    return {"ok": True}


def create_world(req: Request, body: dict) -> dict:
    worlds = req.app.state.worlds
    return {"world": worlds.create(), "count": len(worlds.by_id)}


def drop_world(world: World, req: Request, body: dict) -> dict:
    worlds = req.app.state.worlds
    return {"dropped": worlds.drop(req.query_params.get("world", "")), "count": len(worlds.by_id)}


def reset(world: World, req: Request, body: dict) -> dict:
    ms = world.reset(WorldSpec.from_wire(body, "POST /_admin/reset"))
    out = {"ok": True, "reset_ms": ms, "variation": world.variation, "seed": world.seed}
    if body.get("return_state"):
        out["state"] = world.state
    return out


def events(world: World, req: Request, body: dict) -> dict:
    since = whole_number(req.query_params.get("since", 0), "GET /_admin/events", "since")
    return {"events": world.events[since:], "count": len(world.events), "revision": world.revision}


def config(world: World, req: Request, body: dict) -> dict:
    return {"config": world.config}


def interruptions_report(world: World, req: Request, body: dict) -> dict:
    return world.interrupts.report()


def refer_task(world: World, req: Request, body: dict) -> dict:
    lists = {k: body.get(k, []) for k in ("apps", "keys")}
    for key, value in lists.items():
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError("PUT /_admin/interruptions", key, f"expected a list of strings, got {value!r}")
    world.interrupts.refer_task(lists["apps"], lists["keys"])
    return {"ok": True}


def set_step(world: World, req: Request, body: dict) -> dict:
    world.interrupts.set_step(whole_number(body.get("step", 0), "POST /_admin/step", "step"))
    return {"ok": True}


def seal(world: World, req: Request, body: dict) -> dict:
    """From now on the world answers only page requests that carry ``key`` (``PAGE_KEY_HEADER``)."""
    key = body.get("key")
    if not isinstance(key, str) or len(key) < 16:
        raise ConfigError(
            "PUT /_admin/seal", "key", f"expected a string of 16 or more characters, got {key!r}", "a random token"
        )
    world.page_key = key
    return {"ok": True}


def tool(world: World, req: Request, body: dict) -> dict:
    return {"result": run_tool(world, body.get("app"), body.get("tool"), body.get("args", {}))}


def health(world: World, req: Request, body: dict) -> dict:
    worlds = req.app.state.worlds
    return {"ok": True, "pid": os.getpid(), "server_errors": world.server_errors, "worlds": len(worlds.by_id)}


# path below /_admin/ -> {method: handler}; a handler not marked below reads or changes one world
ROUTES: dict[str, dict[str, Callable]] = {
    "state": {"GET": get_state, "PUT": put_state},
    "reset": {"POST": reset},
    "events": {"GET": events},
    "config": {"GET": config},
    "health": {"GET": health},
    "interruptions": {"GET": interruptions_report, "PUT": refer_task},
    "step": {"POST": set_step},
    "tool": {"POST": tool},
    "seal": {"PUT": seal},
    "worlds": {"POST": create_world, "DELETE": drop_world},
}
SERVER_WIDE = {create_world}  # called without a world
KEEPS_REVISION = {set_step, seal}  # a non-GET that changes nothing a task checks


async def _json_body(req: Request) -> dict | JSONResponse:
    """The request's JSON object (``{}`` for a GET or an empty body), or the 400 answer."""
    if req.method not in ("POST", "PUT"):
        return {}
    raw = await req.body()
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        return JSONResponse({"error": f"{req.url.path}: the body is not JSON ({e})"}, status_code=400)
    if not isinstance(body, dict):
        msg = f"{req.url.path}: the body must be a JSON object, got {type(body).__name__}"
        return JSONResponse({"error": msg}, status_code=400)
    return body


def _answer(fn: Callable, req: Request, body: dict) -> JSONResponse:
    if fn in SERVER_WIDE:
        return JSONResponse(fn(req, body))
    world = req.app.state.worlds.get(req.query_params.get("world", DEFAULT_WORLD))
    if req.method != "GET" and fn not in KEEPS_REVISION:
        world.touch()
    response = JSONResponse(fn(world, req, body))
    response.headers[REVISION_HEADER] = str(world.revision)
    return response


def endpoint(fn: Callable):
    """The HTTP endpoint of one admin handler: the secret checked, the body read, errors as JSON."""

    async def admin_endpoint(req: Request):
        if not hmac.compare_digest(req.headers.get(SECRET_HEADER, ""), req.app.state.secret):
            return JSONResponse({"error": "forbidden"}, status_code=403)
        body = await _json_body(req)
        if isinstance(body, JSONResponse):
            return body
        try:
            return _answer(fn, req, body)
        except OpenAppsError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        except Exception as e:  # a bug, not the caller's mistake: say so, keep serving
            traceback.print_exc(file=sys.stderr)
            return JSONResponse({"error": f"internal error: {type(e).__name__}: {e}"}, status_code=500)

    return admin_endpoint


async def http_error(req: Request, exc: HTTPException):
    """FastHTML refuses a bad JSON body before the endpoint runs: say it in the admin API's words."""
    if req.url.path.startswith("/_admin/"):
        return JSONResponse({"error": f"{req.url.path}: {exc.detail}"}, status_code=exc.status_code)
    return Response(str(exc.detail), status_code=exc.status_code)
