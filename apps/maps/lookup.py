"""What maps' pages look up: gazetteer places (by id, by search, nearby), names of countries and kinds,
coordinates as text, and the browsing parameters of the URL."""

from __future__ import annotations

from urllib.parse import urlencode

from openapps_sim.apps.maps.geo import (
    View,
    fold,
    format_coord,
    match_score,
)

from openapps_sim.appkit import AppContext
from openapps_sim.config.normalise import distance_km


def all_places(ctx: AppContext) -> list[dict]:
    return ctx.config["places"]


def place_by_id(ctx: AppContext, place_id: str | None) -> dict | None:
    if not place_id:
        return None
    return next((p for p in all_places(ctx) if p["id"] == place_id), None)


def country_name(ctx: AppContext, code: str) -> str:
    return ctx.config["countries"].get(code, code)


def kind_label(ctx: AppContext, kind: str) -> str:
    return ctx.config["kinds"].get(kind, kind)


def coords_text(ctx: AppContext, lat: float, lon: float, digits: int = 4) -> str:
    """``48.86° N, 2.35° E``; on a right-to-left page each ``48.86°`` is a left-to-right isolate
    (U+2066 ... U+2069), so the degree sign stays after its number (not "°48.86 شمال")."""
    rtl = ctx.world.config.get("shell", {}).get("dir") == "rtl"
    parts = []
    for value, pos, neg in ((lat, "north", "south"), (lon, "east", "west")):
        text = format_coord(value, ctx.t(pos), ctx.t(neg), digits)
        if rtl:
            number, _, word = text.partition(" ")
            text = f"\u2066{number}\u2069 {word}"
        parts.append(text)
    return ", ".join(parts)


def float_param(value, lo: float, hi: float) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if number != number or not lo <= number <= hi:  # NaN or out of range
        return None
    return number


def parse_pin(text) -> tuple[float, float] | None:
    if not text or "," not in str(text):
        return None
    a, b = str(text).split(",", 1)
    lat, lon = float_param(a, -85.06, 85.06), float_param(b, -180.0, 180.0)
    return (lat, lon) if lat is not None and lon is not None else None


BROWSE_KEYS = ("q", "kind", "place", "saved", "pin", "lat", "lon", "z")


def browse_params(params: dict) -> dict:
    """The browsing parameters of the current page (what links and forms carry along)."""
    out = {}
    for key in BROWSE_KEYS:
        value = params.get(key)
        if isinstance(value, str) and value.strip():
            out[key] = value.strip()[:200]
    return out


def page_href(ctx: AppContext, **query) -> str:
    clean = {k: v for k, v in query.items() if v is not None and v != ""}
    return ctx.url("/" + ("?" + urlencode(clean) if clean else ""))


def view_params(view: View) -> dict:
    return {"lat": f"{view.lat:.5f}", "lon": f"{view.lon:.5f}", "z": str(view.zoom)}


PHONE_WIDTH = 375


def map_size(ctx: AppContext) -> tuple[int, int, bool]:
    """Map width and height in pixels, and whether the side panel goes under the map. Both are
    even: a click in the middle of the map (where Playwright clicks) is then the same pixel
    whether the map starts on a whole or a half pixel, so the pin an agent drops does not depend
    on sub-pixel layout (and the text backend, which has no layout, drops it where Chromium does)."""
    theme = ctx.theme
    width, height = ctx.config["map_width"], ctx.config["map_height"]
    pad = 12 * theme["spacing"]
    if theme["layout"] == "mobile":
        # a 390 px phone less a desktop browser's 15 px scrollbar, main's padding and the frame
        avail = PHONE_WIDTH - 1.5 * pad - 2 * theme["border_width"]
        return _even(max(260, min(width, avail))), _even(min(height, 380)), True
    avail = theme["content_width"] - 2 * pad
    if avail - width - pad >= 300:
        return _even(width), _even(height), False
    return _even(max(260, min(width, avail - 4))), _even(height), True


def _even(px: float) -> int:
    return int(px) // 2 * 2


def search_places(ctx: AppContext, query: str, kind: str | None) -> list[dict]:
    q = fold(query)
    scored = []
    for p in all_places(ctx):
        if kind and p["kind"] != kind:
            continue
        if q:
            extra = f"{country_name(ctx, p['country'])} {kind_label(ctx, p['kind'])}"
            score = match_score(q, p["name"], extra, p["description"])
            if score is None:
                continue
        else:
            score = 0
        scored.append((score, fold(p["name"]), p["id"], p))
    scored.sort(key=lambda t: t[:3])
    return [t[3] for t in scored]


def nearby_places(ctx: AppContext, lat: float, lon: float, radius_km: float, exclude: str = "", limit: int = 5):
    found = []
    for p in all_places(ctx):
        if p["id"] == exclude:
            continue
        d = distance_km(lat, lon, p["lat"], p["lon"])
        if d <= radius_km:
            found.append((d, p["id"], p))
    found.sort(key=lambda t: t[:2])
    return [(p, d) for d, _, p in found[:limit]]


def nearest_place(ctx: AppContext, lat: float, lon: float) -> tuple[dict, float] | None:
    best = min(((distance_km(lat, lon, p["lat"], p["lon"]), p["id"], p) for p in all_places(ctx)), default=None)
    return (best[2], best[0]) if best else None
