"""Maps' handlers: parse the request, change the state through :mod:`.model`, log, redirect or render."""

from __future__ import annotations

from urllib.parse import urlencode

from openapps_sim.apps.maps import model, operations
from openapps_sim.apps.maps.geo import MAX_ZOOM, MIN_ZOOM, View, clamp
from openapps_sim.apps.maps.lookup import browse_params, float_param, map_size, parse_pin, place_by_id, view_params
from openapps_sim.apps.maps.model import PIN_DIGITS
from openapps_sim.apps.maps.views import index_page
from starlette.responses import Response

from openapps_sim.appkit import AppContext, AppRoutes

routes = AppRoutes()  # the handlers below, registered in the order they are matched


@routes.get("/")
def index(ctx: AppContext, params: dict):
    return index_page(ctx, params)


@routes.get("/canvas.svg")
def canvas(ctx: AppContext, params: dict):
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'
    return Response(svg, media_type="image/svg+xml", headers={"cache-control": "max-age=86400"})


@routes.get("/pin")
def drop(ctx: AppContext, params: dict):
    """Where a click on the map lands: turn the click's pixel into a pin in the URL."""
    width, height, _ = map_size(ctx)
    w = float_param(params.get("w"), 100, 4000) or width
    h = float_param(params.get("h"), 100, 4000) or height
    lat = float_param(params.get("lat"), -90.0, 90.0)
    lon = float_param(params.get("lon"), -540.0, 540.0)
    zoom = float_param(params.get("z"), MIN_ZOOM, MAX_ZOOM)
    x = float_param(params.get("c.x"), -10, 10000)
    y = float_param(params.get("c.y"), -10, 10000)
    keep = {k: v for k, v in browse_params(params).items() if k in ("q", "kind", "place", "saved")}
    if None in (lat, lon, zoom, x, y):
        return ctx.redirect("/?" + urlencode(keep) if keep else "/")
    view = View.make(lat, lon, int(zoom), int(w), int(h))
    plat, plon = view.unproject(clamp(x, 0, w), clamp(y, 0, h))
    query = {**keep, **view_params(view), "pin": f"{plat:.{PIN_DIGITS}f},{plon:.{PIN_DIGITS}f}"}
    return ctx.redirect("/?" + urlencode(query))


@routes.post("/pin/save")
def save_pin(ctx: AppContext, params: dict):
    pin = parse_pin(params.get("pin"))
    keep = {k: v for k, v in browse_params(params).items() if k in ("lat", "lon", "z")}
    if not pin:
        return ctx.redirect("/?" + urlencode(keep))
    name = " ".join(str(params.get("name", "")).split())[:200] or ctx.t("dropped_pin")
    entry = operations.drop_pin(ctx, pin[0], pin[1], name)
    return ctx.redirect("/?" + urlencode({**keep, "saved": entry["id"], "done": "pin"}))


@routes.post("/save/{place_id}")
def save(ctx: AppContext, params: dict):
    place = place_by_id(ctx, params["place_id"])
    keep = {k: v for k, v in browse_params(params).items() if k in ("q", "kind", "lat", "lon", "z")}
    if place is None:
        return ctx.redirect("/?" + urlencode(keep))
    done = {}
    if not model.saved_for_place(ctx.state, place["id"]):
        operations.save_place(ctx, place["id"])
        done = {"done": "saved"}
    return ctx.redirect("/?" + urlencode({**keep, "place": place["id"], **done}))


@routes.post("/remove/{saved_id}")
def remove(ctx: AppContext, params: dict):
    entry = model.saved_entry(ctx.state, params["saved_id"])
    keep = {k: v for k, v in browse_params(params).items() if k in ("q", "kind", "place", "lat", "lon", "z")}
    if entry:
        operations.remove_saved(ctx, entry["id"])
        keep["done"] = "removed"
    return ctx.redirect("/?" + urlencode(keep) if keep else "/")


@routes.post("/note/{saved_id}")
def note(ctx: AppContext, params: dict):
    entry = model.saved_entry(ctx.state, params["saved_id"])
    keep = {k: v for k, v in browse_params(params).items() if k in ("lat", "lon", "z")}
    if entry is None:
        return ctx.redirect("/?" + urlencode(keep) if keep else "/")
    text = " ".join(str(params.get("note", "")).split())[:500]
    operations.set_note(ctx, entry["id"], text)
    return ctx.redirect("/?" + urlencode({**keep, "saved": entry["id"], "done": "note"}))
