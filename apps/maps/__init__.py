"""Maps: a world map drawn locally as inline SVG, a gazetteer to search, saved locations and
dropped pins.

The map is a Web-Mercator view (see :mod:`.geo`) whose centre and zoom live in the URL
(``?lat=..&lon=..&z=..``), with pan and zoom links. Clicking the map submits an
``<input type=image>`` (the browser sends the click's pixel position), which the server turns
into a latitude and longitude: a *dropped pin* that can be named and saved. No script, no tiles,
nothing from another host.

The gazetteer (``places``) is configuration, so packs translate it, shorten it or rewrite its
descriptions; the built-in one is ``places.csv`` next to this file. The state holds only the
saved locations.
"""

from __future__ import annotations

import csv
import unicodedata
from pathlib import Path
from urllib.parse import urlencode

from fasthtml.common import H1, H2, A, Button, Div, Form, Input, Label, Li, P, Section, Span, Ul
from fasthtml.svg import Circle, G, Line, Rect, Svg, Text, Title
from fasthtml.svg import Path as SvgPath
from starlette.responses import Response

from openapps_sim.appkit import AppContext, AppRoutes, AppSpec, ItemKey
from openapps_sim.config.normalise import distance_km, norm_text
from openapps_sim.config.schema import Bool, Enum, Float, Int, ListOf, MapOf, Record, Str
from openapps_sim.errors import ConfigError

from . import land
from .geo import (
    MAX_ZOOM,
    MIN_ZOOM,
    View,
    clamp,
    fit_zoom,
    fold,
    format_coord,
    format_km,
    grid_step,
    match_score,
    nice_distance,
    unit_xy,
    wrap_lon,
)

HERE = Path(__file__).parent
KINDS = ("city", "landmark", "museum", "park", "nature", "airport", "university", "stadium", "station")
COORD_DIGITS = 2  # normalise() compares coordinates rounded to this many decimals
PIN_DIGITS = 5  # stored precision of dropped pins (about a metre)


def load_gazetteer(path: Path = HERE / "places.csv") -> list[dict]:
    """The built-in gazetteer: one dict per row of ``places.csv``."""
    with open(path, encoding="utf-8", newline="") as fh:
        return [
            {
                "id": row["id"],
                "name": row["name"],
                "kind": row["kind"],
                "country": row["country"],
                "lat": float(row["lat"]),
                "lon": float(row["lon"]),
                "description": row["description"],
            }
            for row in csv.DictReader(fh)
        ]


STRINGS = Record(
    search_label=Str("Search places"),
    search_placeholder=Str("Search for a city, landmark, museum…"),
    search_button=Str("Search"),
    clear_search=Str("Clear"),
    browse=Str("Browse:"),
    tip=Str("Search for a place or pick a category, then save it to your list. Click the map to drop a pin."),
    results_heading=Str("Results for “{q}”"),
    kind_heading=Str("Category: {kind}"),
    results_count=Str("{n} places"),
    results_more=Str("Showing the first {n}. Refine your search to see others."),
    no_results=Str("No places match “{q}”."),
    back_to_results=Str("Back to results"),
    save=Str("Save"),
    saved_badge=Str("Saved"),
    already_saved=Str("This place is in your saved locations."),
    nearby=Str("Nearby"),
    saved_heading=Str("Saved locations"),
    saved_empty=Str("Nothing saved yet. Search for a place and press Save, or click the map to drop a pin."),
    remove=Str("Remove"),
    dropped_pin=Str("Dropped pin", doc="the heading of a dropped pin and the default name it is saved under"),
    pin_name_label=Str("Name"),
    pin_save=Str("Save pin"),
    pin_discard=Str("Discard"),
    pin_hint=Str("Not quite right? Click the map again to move the pin."),
    nearest=Str("Nearest place: {name} · {distance}"),
    note_label=Str("Note"),
    note_save=Str("Save note"),
    open_place=Str("Show place details"),
    zoom_in=Str("Zoom in"),
    zoom_out=Str("Zoom out"),
    pan_n=Str("Pan north"),
    pan_s=Str("Pan south"),
    pan_e=Str("Pan east"),
    pan_w=Str("Pan west"),
    map_label=Str("World map"),
    canvas_alt=Str("Map: click anywhere to drop a pin"),
    map_hint=Str("Click anywhere on the map to drop a pin."),
    view_status=Str("Zoom {z} · centre {coords}"),
    outlines_hidden=Str("Coastlines are drawn only when zoomed out."),
    flash_saved=Str("Saved to your locations."),
    flash_removed=Str("Removed from your locations."),
    flash_pin=Str("Pin saved to your locations."),
    flash_note=Str("Note saved."),
    north=Str("N"),
    south=Str("S"),
    east=Str("E"),
    west=Str("W"),
)

KIND_LABELS = Record(
    city=Str("City"),
    landmark=Str("Landmark"),
    museum=Str("Museum"),
    park=Str("Park"),
    nature=Str("Nature"),
    airport=Str("Airport"),
    university=Str("University"),
    stadium=Str("Stadium"),
    station=Str("Station"),
)

PLACE = Record(
    id=Str(doc="stable identifier used in URLs and data-testids; keep it in translations"),
    name=Str(),
    kind=Enum(KINDS, "city"),
    country=Str("", doc="a key of `countries` (ISO code) or a country name"),
    lat=Float(lo=-85.0, hi=85.0),
    lon=Float(lo=-180.0, hi=180.0),
    description=Str(""),
)

SAVED = Record(
    place=Str("", doc="id of a gazetteer place (its name and coordinates are used)"),
    name=Str("", doc="name of a custom location (or a different name for a place)"),
    lat=Float(0.0, lo=-85.0, hi=85.0),
    lon=Float(0.0, lo=-180.0, hi=180.0),
    note=Str(""),
)

SCHEMA = Record(
    strings=STRINGS,
    kinds=KIND_LABELS,
    countries=MapOf(Str(), default={}, doc="country code to display name"),
    places=ListOf(PLACE, default=load_gazetteer(), doc="the gazetteer (built-in: places.csv)"),
    saved=ListOf(SAVED, default=[], doc="the saved locations the app starts with", unique="name"),
    start_view=Record(
        lat=Float(30.0, lo=-80.0, hi=80.0), lon=Float(10.0, lo=-180.0, hi=180.0), zoom=Int(2, lo=MIN_ZOOM, hi=MAX_ZOOM)
    ),
    place_zoom=Int(12, lo=MIN_ZOOM, hi=MAX_ZOOM, doc="zoom used when a place or pin is opened"),
    map_width=Int(620, lo=280, hi=1600, doc="map width in CSS pixels (narrowed to fit the layout)"),
    map_height=Int(440, lo=220, hi=1200, doc="map height in CSS pixels"),
    show_outlines=Bool(True, doc="draw the coarse hand-drawn coastlines"),
    outline_max_zoom=Int(5, lo=MIN_ZOOM, hi=MAX_ZOOM, doc="deepest zoom at which coastlines are drawn"),
    results_limit=Int(25, lo=1, hi=200),
    nearby_km=Int(25, lo=0, hi=2000, doc="radius of the 'Nearby' list of a place"),
)

CSS = """
.maps-layout{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:var(--pad);align-items:start}
.maps-layout.stacked{grid-template-columns:minmax(0,1fr)}
.maps-layout.stacked .maps-map-col{order:-1}
.maps-side h2{margin-bottom:4px}
.maps-search input[type=search]{flex:1 1 10em;min-width:0}
.maps-kinds{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin-top:var(--gap)}
.maps-kinds a{font-size:.85em;text-decoration:none;border:var(--bw) solid var(--border);border-radius:999px;padding:1px 8px}
.maps-kinds a.active{background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
.maps-list li{display:flex;flex-wrap:wrap;align-items:center;gap:var(--gap);padding:calc(var(--gap)*.6) 0;border-bottom:var(--bw) solid var(--border)}
.maps-list li:last-child{border-bottom:0}
.maps-list .grow a{font-weight:600;text-decoration:none;overflow-wrap:break-word;unicode-bidi:plaintext}
.maps-list .grow{flex-basis:10em}
.maps-list .sub{display:block;font-size:.82em;color:var(--muted);overflow-wrap:break-word}
.maps-list button{padding:2px 10px;font-size:.85em;white-space:nowrap}
.maps-panel form{margin:calc(var(--gap)*.75) 0}
.layout-mobile .maps-search input[type=search]{flex:0 0 auto}
.maps-dot{flex:none;width:10px;height:10px;border-radius:50%;background:var(--primary)}
.maps-dot.saved{background:var(--accent)}
.maps-panel p{margin:.4em 0;overflow-wrap:break-word}
.maps-panel .coords{font-variant-numeric:tabular-nums}
.maps-frame{position:relative;border:var(--bw) solid var(--border);border-radius:var(--radius);overflow:hidden;
 background:var(--surface);box-shadow:var(--shadow)}
.maps-frame form{margin:0;position:absolute;left:50%;top:0;margin-left:calc(var(--map-w) / -2)}
.maps-frame input.maps-canvas{display:block;padding:0;margin:0;border:0;border-radius:0;max-width:none;cursor:crosshair;
 background:transparent}
.maps-frame svg.maps-svg{position:absolute;left:50%;top:0;margin-left:calc(var(--map-w) / -2);pointer-events:none;display:block;max-width:none}
.layout-mobile .maps-layout{grid-template-columns:minmax(0,1fr)}
.layout-mobile .maps-layout .maps-map-col{order:-1}
.maps-svg a{pointer-events:auto;cursor:pointer}
.maps-svg .water{fill:color-mix(in srgb,var(--primary) 16%,var(--surface))}
.maps-svg .ground{fill:color-mix(in srgb,var(--success) 10%,var(--surface))}
.maps-svg .land{fill:color-mix(in srgb,var(--success) 14%,var(--surface));stroke:color-mix(in srgb,var(--success) 40%,var(--border));stroke-width:.8}
.maps-svg .lake{fill:color-mix(in srgb,var(--primary) 16%,var(--surface));stroke:color-mix(in srgb,var(--success) 40%,var(--border));stroke-width:.6}
.maps-svg .grid{stroke:var(--border);stroke-width:1;opacity:.8}
.maps-svg .grid-label{fill:var(--muted);font-size:10px}
.maps-svg .place circle{fill:var(--primary);stroke:var(--surface);stroke-width:1.5}
.maps-svg .place.minor circle{opacity:.7}
.maps-svg .place.saved circle,.maps-svg .saved-spot circle{fill:var(--accent)}
.maps-svg .place:hover circle,.maps-svg .saved-spot:hover circle{stroke:var(--text)}
.maps-svg .label{fill:var(--text);font-size:11px;paint-order:stroke;stroke:var(--surface);stroke-width:3px;stroke-linejoin:round}
.maps-svg .label.strong{font-weight:700;font-size:12px}
.maps-svg .selected path{fill:var(--primary);stroke:var(--surface);stroke-width:1.5}
.maps-svg .pin path{fill:var(--danger);stroke:var(--surface);stroke-width:1.5}
.maps-svg .selected circle.hole,.maps-svg .pin circle.hole{fill:var(--surface)}
.maps-svg .scale line{stroke:var(--text);stroke-width:2}
.maps-svg .scale text{fill:var(--text);font-size:10px;paint-order:stroke;stroke:var(--surface);stroke-width:3px}
.maps-controls{position:absolute;display:flex;flex-direction:column;gap:4px;z-index:2}
.maps-controls.zoom{right:8px;top:8px}
.maps-controls.pan{left:8px;top:8px;display:grid;grid-template-columns:repeat(3,28px);grid-template-rows:repeat(3,28px);gap:2px}
.maps-controls a{display:flex;align-items:center;justify-content:center;width:28px;height:28px;background:var(--surface);
 color:var(--text);border:var(--bw) solid var(--border);border-radius:calc(var(--radius)/2);text-decoration:none;
 font-weight:700;box-shadow:var(--shadow);line-height:1}
.maps-controls a:hover{color:var(--primary)}
.maps-controls.pan .n{grid-column:2;grid-row:1}.maps-controls.pan .w{grid-column:1;grid-row:2}
.maps-controls.pan .e{grid-column:3;grid-row:2}.maps-controls.pan .s{grid-column:2;grid-row:3}
.maps-layout:not(.stacked) .maps-map-col{position:sticky;top:var(--pad)}
.maps-caption{display:flex;justify-content:space-between;gap:var(--gap);flex-wrap:wrap;font-size:.85em;margin-top:4px}
.maps-note input{flex:1 1 8em;min-width:0}
"""

# ------------------------------------------------------------------------------------------
# State


def _round(value: float, digits: int) -> float:
    return round(float(value), digits) + 0.0  # + 0.0 turns -0.0 into 0.0


def initial_state(config: dict, rng) -> dict:
    places = {p["id"]: p for p in config["places"]}
    saved = []
    for i, entry in enumerate(config["saved"]):
        if entry["place"]:
            place = places.get(entry["place"])
            if place is None:
                raise ConfigError(
                    "maps.saved", f"[{i}].place", f"unknown place {entry['place']!r}", "an id in maps.places"
                )
            name, lat, lon = entry["name"] or place["name"], place["lat"], place["lon"]
        else:
            if not entry["name"]:
                raise ConfigError("maps.saved", f"[{i}]", "a saved location needs a place or a name")
            name, lat, lon = entry["name"], entry["lat"], entry["lon"]
        saved.append(
            {
                "id": f"s{i + 1}",
                "name": name,
                "lat": _round(lat, PIN_DIGITS),
                "lon": _round(lon, PIN_DIGITS),
                "note": entry["note"],
                "place": entry["place"],
            }
        )
    return {"saved": saved, "next_id": len(saved) + 1}


def normalise(state: dict) -> dict:
    """Saved locations as a sorted list of (folded name, lat, lon, folded note).

    Coordinates are wrapped and rounded to two decimals (0.01° is about 1.1 km north-south),
    so a pin dropped within 0.005° of a place's two-decimal coordinates equals the place.
    Ids, the order of the list and the link to a gazetteer place do not matter.
    """
    rows = sorted(
        (
            norm_text(s["name"]),
            _round(s["lat"], COORD_DIGITS),
            _round(wrap_lon(s["lon"]), COORD_DIGITS),
            norm_text(s.get("note", "")),
        )
        for s in state["saved"]
    )
    return {"saved": [{"name": n, "lat": la, "lon": lo, "note": no} for n, la, lo, no in rows]}


# ------------------------------------------------------------------------------------------
# Helpers


def _places(ctx: AppContext) -> list[dict]:
    return ctx.config["places"]


def _place(ctx: AppContext, place_id: str | None) -> dict | None:
    if not place_id:
        return None
    return next((p for p in _places(ctx) if p["id"] == place_id), None)


def _saved(ctx: AppContext, saved_id: str | None) -> dict | None:
    if not saved_id:
        return None
    return next((s for s in ctx.state["saved"] if s["id"] == saved_id), None)


def _saved_for_place(ctx: AppContext, place_id: str) -> dict | None:
    return next((s for s in ctx.state["saved"] if s.get("place") == place_id), None)


def _country(ctx: AppContext, code: str) -> str:
    return ctx.config["countries"].get(code, code)


def _kind(ctx: AppContext, kind: str) -> str:
    return ctx.config["kinds"].get(kind, kind)


def _coords(ctx: AppContext, lat: float, lon: float, digits: int = 4) -> str:
    return (
        f"{format_coord(lat, ctx.t('north'), ctx.t('south'), digits)}, "
        f"{format_coord(lon, ctx.t('east'), ctx.t('west'), digits)}"
    )


def _float(value, lo: float, hi: float) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if number != number or not lo <= number <= hi:  # NaN or out of range
        return None
    return number


def _parse_pin(text) -> tuple[float, float] | None:
    if not text or "," not in str(text):
        return None
    a, b = str(text).split(",", 1)
    lat, lon = _float(a, -85.06, 85.06), _float(b, -180.0, 180.0)
    return (lat, lon) if lat is not None and lon is not None else None


BROWSE_KEYS = ("q", "kind", "place", "saved", "pin", "lat", "lon", "z")


def _browse(params: dict) -> dict:
    """The browsing parameters of the current page (what links and forms carry along)."""
    out = {}
    for key in BROWSE_KEYS:
        value = params.get(key)
        if isinstance(value, str) and value.strip():
            out[key] = value.strip()[:200]
    return out


def _href(ctx: AppContext, **query) -> str:
    clean = {k: v for k, v in query.items() if v is not None and v != ""}
    return ctx.url("/" + ("?" + urlencode(clean) if clean else ""))


def _view_params(view: View) -> dict:
    return {"lat": f"{view.lat:.5f}", "lon": f"{view.lon:.5f}", "z": str(view.zoom)}


def _map_size(ctx: AppContext) -> tuple[int, int, bool]:
    """Map width and height in pixels, and whether the side panel goes under the map."""
    theme = ctx.theme
    width, height = ctx.config["map_width"], ctx.config["map_height"]
    pad = 12 * theme["spacing"]
    if theme["layout"] == "mobile":
        avail = 430 - 2 * pad
        return int(max(260, min(width, avail - 4))), int(min(height, 380)), True
    avail = theme["content_width"] - 2 * pad
    if avail - width - pad >= 300:
        return width, height, False
    return int(max(260, min(width, avail - 4))), height, True


def _search(ctx: AppContext, query: str, kind: str | None) -> list[dict]:
    q = fold(query)
    scored = []
    for p in _places(ctx):
        if kind and p["kind"] != kind:
            continue
        if q:
            extra = f"{_country(ctx, p['country'])} {_kind(ctx, p['kind'])}"
            score = match_score(q, p["name"], extra, p["description"])
            if score is None:
                continue
        else:
            score = 0
        scored.append((score, fold(p["name"]), p["id"], p))
    scored.sort(key=lambda t: t[:3])
    return [t[3] for t in scored]


def _nearby(ctx: AppContext, lat: float, lon: float, radius_km: float, exclude: str = "", limit: int = 5):
    found = []
    for p in _places(ctx):
        if p["id"] == exclude:
            continue
        d = distance_km(lat, lon, p["lat"], p["lon"])
        if d <= radius_km:
            found.append((d, p["id"], p))
    found.sort(key=lambda t: t[:2])
    return [(p, d) for d, _, p in found[:limit]]


def _nearest(ctx: AppContext, lat: float, lon: float) -> tuple[dict, float] | None:
    best = min(((distance_km(lat, lon, p["lat"], p["lon"]), p["id"], p) for p in _places(ctx)), default=None)
    return (best[2], best[0]) if best else None


# ------------------------------------------------------------------------------------------
# Map drawing


UNIT = 1000.0  # outlines are written once in a 1000 x 1000 world square and scaled per view


def _unit_path(rings) -> str:
    parts = []
    for ring in rings:
        pts = [unit_xy(lat, lon, UNIT) for lon, lat in ring]
        parts.append("M" + "L".join(f"{x:.2f} {y:.2f}" for x, y in pts) + "Z")
    return "".join(parts)


LAND_PATH = _unit_path(land.LAND)
WATER_PATH = _unit_path(land.WATER)


def _outline_paths(view: View) -> list:
    """Coastlines and lakes: one pre-built path, placed and scaled by a transform, in each copy
    of the world the view can show."""
    scale = view.size / UNIT
    ox, oy = view.origin()
    out = []
    for copy in (-1, 0, 1):
        left = ox + copy * view.size
        if left > view.width or left + view.size < 0:
            continue
        out.append(
            G(
                SvgPath(d=LAND_PATH, cls="land", vector_effect="non-scaling-stroke"),
                SvgPath(d=WATER_PATH, cls="lake", vector_effect="non-scaling-stroke"),
                transform=f"translate({left:.2f} {oy:.2f}) scale({scale:.6f})",
            )
        )
    return out


def _grid(ctx: AppContext, view: View) -> tuple[list, list]:
    """Graticule lines and their labels, plus the boxes the labels take (kept free of place names)."""
    step = grid_step(view)
    out = []
    labels = []
    north, west = view.unproject(0, 0)
    south, _ = view.unproject(0, view.height)
    left = view.lon - view.width / 2 / view.size * 360
    right = view.lon + view.width / 2 / view.size * 360
    digits = max(0, len(f"{step:g}".split(".")[1]) if "." in f"{step:g}" else 0)
    k = int(left // step) + 1
    while k * step < right:
        lon = k * step
        x, _ = view.project_raw(0, lon)
        out.append(Line(x1=f"{x:.1f}", y1="0", x2=f"{x:.1f}", y2=str(view.height), cls="grid"))
        shown = wrap_lon(lon) if abs(wrap_lon(lon)) < 179.9999 else 180.0
        labels.append(
            Text(
                format_coord(round(shown, digits), ctx.t("east"), ctx.t("west"), digits),
                x=f"{x + 3:.1f}",
                y=str(view.height - 6),
                cls="grid-label",
            )
        )
        k += 1
    lat_label_ys = []
    k = int(south // step) + 1 if south > -90 else 0
    while k * step < north:
        lat = k * step
        if abs(lat) <= 85 and view.project_raw(lat, view.lon)[1] > 90:
            _, y = view.project_raw(lat, view.lon)
            out.append(Line(x1="0", y1=f"{y:.1f}", x2=str(view.width), y2=f"{y:.1f}", cls="grid"))
            lat_label_ys.append(y)
            labels.append(
                Text(
                    format_coord(round(lat, digits), ctx.t("north"), ctx.t("south"), digits),
                    x=str(view.width - 4),
                    y=f"{y - 3:.1f}",
                    cls="grid-label",
                    text_anchor="end",
                )
            )
        k += 1
    boxes = [(view.width - 64, y - 13, view.width, y) for y in lat_label_ys]
    boxes.append((0, view.height - 16, view.width, view.height))
    return out + labels, boxes


def _teardrop(x: float, y: float, cls: str, testid: str, title: str):
    """A map pin whose tip touches (x, y)."""
    d = f"M{x:.1f} {y:.1f}c-4-6-10-11-10-17a10 10 0 0 1 20 0c0 6-6 11-10 17z"
    return G(
        Title(title),
        SvgPath(d=d),
        Circle(cx=f"{x:.1f}", cy=f"{y - 17:.1f}", r="3.6", cls="hole"),
        cls=cls,
        data_testid=testid,
    )


def _scale_bar(ctx: AppContext, view: View):
    km = nice_distance(view.km_per_px() * 110)
    if km <= 0:
        return None
    px = km / view.km_per_px()
    x0, y0 = 12, view.height - 26
    return G(
        Line(x1=str(x0), y1=str(y0), x2=f"{x0 + px:.1f}", y2=str(y0)),
        Line(x1=str(x0), y1=str(y0 - 4), x2=str(x0), y2=str(y0 + 1)),
        Line(x1=f"{x0 + px:.1f}", y1=str(y0 - 4), x2=f"{x0 + px:.1f}", y2=str(y0 + 1)),
        Text(format_km(km), x=str(x0), y=str(y0 - 6)),
        cls="scale",
        data_testid="maps-scale",
    )


def _text_width(text: str, size: float) -> float:
    """Rough rendered width of a label: wide (CJK) characters count as a full em."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else size * 0.57 for c in text)


def _place_labels(view: View, wanted: list[tuple[float, float, str, bool]], limit: int, taken: list) -> list:
    """Labels right (or else left) of their markers, skipping any that would overlap another."""
    boxes: list[tuple[float, float, float, float]] = [
        (0, 0, 100, 100),  # pan controls
        (view.width - 44, 0, view.width, 84),  # zoom controls
        (0, view.height - 46, 130, view.height),  # scale bar
        *taken,
    ]
    out = []
    for x, y, text, strong in wanted:
        if len(out) >= limit:
            break
        width = _text_width(text, 12 if strong else 11) + 4
        for anchor, x0 in (("start", x + 8), ("end", x - 8)):
            left = x0 if anchor == "start" else x0 - width
            box = (left, y - 10, left + width, y + 5)
            inside = box[0] >= 0 and box[2] <= view.width and box[1] >= 0 and box[3] <= view.height
            if inside and not any(b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3] for b in boxes):
                boxes.append(box)
                out.append(
                    Text(
                        text,
                        x=f"{x0:.1f}",
                        y=f"{y + 4:.1f}",
                        text_anchor=anchor,
                        cls="label strong" if strong else "label",
                    )
                )
                break
    return out


def _map_svg(ctx: AppContext, view: View, focus: dict) -> Svg:
    """The map picture: background, outlines, graticule, markers and labels."""
    cfg = ctx.config
    outlines = cfg["show_outlines"] and view.zoom <= cfg["outline_max_zoom"]
    layers: list = [
        Rect(x="0", y="0", width=str(view.width), height=str(view.height), cls="water" if outlines else "ground")
    ]
    if outlines:
        layers += _outline_paths(view)
    grid, grid_boxes = _grid(ctx, view)
    layers += grid

    selected_place = focus.get("place")
    selected_saved = focus.get("saved")
    results = focus.get("results") or []
    result_ids = {p["id"] for p in results}
    saved_by_place = {s["place"]: s for s in ctx.state["saved"] if s.get("place")}

    # gazetteer places in view: results, saved and (when zoomed in) everything else
    candidates = []
    others_zoom = 9 if results else 5  # with search results on the map, keep the rest quiet
    for index, p in enumerate(_places(ctx)):
        if selected_place and p["id"] == selected_place["id"]:
            continue
        if not view.contains(p["lat"], p["lon"], 8):
            continue
        if p["id"] in result_ids:
            rank = 0
        elif p["id"] in saved_by_place:
            rank = 1
        elif view.zoom >= others_zoom or (p["kind"] == "city" and not results):
            rank = 2
        else:
            continue
        candidates.append((rank, index, p))
    candidates.sort(key=lambda t: t[:2])
    candidates = candidates[: 120 if view.zoom >= 5 else 90]

    markers: list = []
    wanted: list[tuple[float, float, str, bool]] = []  # label requests, most important first
    tops: list = []
    # the open place or saved location, and the dropped pin (not links: clicks go to the map)
    if selected_place or selected_saved:
        item = selected_place or selected_saved
        x, y = view.project(item["lat"], item["lon"])
        tops.append(_teardrop(x, y, "selected", "maps-marker-selected", item["name"]))
        wanted.append((x + 5, y - 14, item["name"], True))
    pin = focus.get("pin")
    if pin:
        x, y = view.project(*pin)
        tops.append(_teardrop(x, y, "pin", "maps-marker-pin", ctx.t("dropped_pin")))

    keep = {k: v for k, v in (("q", focus.get("q")), ("kind", focus.get("kind"))) if v}
    for rank, _, p in candidates:
        x, y = view.project(p["lat"], p["lon"])
        is_saved = p["id"] in saved_by_place
        cls = "place" + (" saved" if is_saved else "") + (" minor" if rank == 2 else "")
        r = 6 if rank < 2 else (5 if is_saved else 4)
        markers.append(
            A(
                Title(p["name"]),
                Circle(cx=f"{x:.1f}", cy=f"{y:.1f}", r=str(r)),
                href=_href(ctx, **keep, place=p["id"]),
                cls=cls,
                aria_label=p["name"],
                data_testid=f"maps-marker-{p['id']}",
            )
        )
        wanted.append((x, y, p["name"], False))

    # saved locations that are not gazetteer places (custom places, saved pins)
    for s in ctx.state["saved"]:
        if s.get("place") and _place(ctx, s["place"]):
            continue
        if selected_saved and s["id"] == selected_saved["id"]:
            continue
        if not view.contains(s["lat"], s["lon"], 8):
            continue
        x, y = view.project(s["lat"], s["lon"])
        markers.append(
            A(
                Title(s["name"]),
                Circle(cx=f"{x:.1f}", cy=f"{y:.1f}", r="5"),
                href=_href(ctx, saved=s["id"]),
                cls="saved-spot",
                aria_label=s["name"],
                data_testid=f"maps-marker-saved-{s['id']}",
            )
        )
        wanted.insert(1 if tops else 0, (x, y, s["name"], False))

    labels = _place_labels(view, wanted, limit=40 if view.zoom >= 6 else 18, taken=grid_boxes)
    return Svg(
        *layers,
        *markers,
        G(*labels, aria_hidden="true"),
        *tops,
        _scale_bar(ctx, view),
        width=str(view.width),
        height=str(view.height),
        cls="maps-svg",
        role="group",
        aria_label=ctx.t("map_label"),
        data_testid="maps-svg",
    )


def _controls(ctx: AppContext, view: View, browse: dict) -> list:
    def link(v: View, label: str, text: str, testid: str, cls: str = ""):
        query = {**browse, **_view_params(v)}
        return A(text, href=_href(ctx, **query), title=label, aria_label=label, cls=cls or None, data_testid=testid)

    dx, dy = view.width / 2, view.height / 2
    return [
        Div(
            link(view.zoomed(1), ctx.t("zoom_in"), "+", "maps-zoom-in"),
            link(view.zoomed(-1), ctx.t("zoom_out"), "−", "maps-zoom-out"),
            cls="maps-controls zoom",
        ),
        Div(
            link(view.moved(0, -dy), ctx.t("pan_n"), "↑", "maps-pan-n", "n"),
            link(view.moved(-dx, 0), ctx.t("pan_w"), "←", "maps-pan-w", "w"),
            link(view.moved(dx, 0), ctx.t("pan_e"), "→", "maps-pan-e", "e"),
            link(view.moved(0, dy), ctx.t("pan_s"), "↓", "maps-pan-s", "s"),
            cls="maps-controls pan",
        ),
    ]


def _map_block(ctx: AppContext, view: View, focus: dict, browse: dict):
    hidden = {**{k: browse[k] for k in ("q", "kind", "place", "saved") if k in browse}, **_view_params(view)}
    hidden.update({"w": str(view.width), "h": str(view.height)})
    outlines = ctx.config["show_outlines"] and view.zoom <= ctx.config["outline_max_zoom"]
    return Div(
        Div(
            Form(
                *[Input(type="hidden", name=k, value=v) for k, v in hidden.items()],
                Input(
                    type="image",
                    name="c",
                    src=ctx.url("/canvas.svg"),
                    width=str(view.width),
                    height=str(view.height),
                    alt=ctx.t("canvas_alt"),
                    title=ctx.t("map_hint"),
                    cls="maps-canvas",
                    data_testid="maps-canvas",
                ),
                method="get",
                action=ctx.url("/pin"),
            ),
            _map_svg(ctx, view, focus),
            *_controls(ctx, view, browse),
            cls="maps-frame",
            dir="ltr",
            style=f"--map-w:{view.width}px;width:{view.width}px;max-width:100%;height:{view.height}px",
            data_testid="maps-map",
        ),
        Div(
            Span(ctx.t("map_hint")),
            Span(
                ctx.t("view_status", z=view.zoom, coords=_coords(ctx, view.lat, view.lon, 2)),
                data_testid="maps-view-status",
            ),
            cls="maps-caption muted",
        ),
        P(ctx.t("outlines_hidden"), cls="muted small") if ctx.config["show_outlines"] and not outlines else None,
        cls="maps-map-col",
        style=f"width:{view.width}px;max-width:100%",
    )


# ------------------------------------------------------------------------------------------
# Side panels


def _search_card(ctx: AppContext, browse: dict):
    q = browse.get("q", "")
    kind = browse.get("kind", "")
    chips = [
        A(
            _kind(ctx, k),
            href=_href(ctx, kind=k),
            cls="active" if k == kind else None,
            data_testid=f"maps-kind-{k}",
        )
        for k in KINDS
    ]
    return Section(
        Form(
            Input(
                type="search",
                name="q",
                value=q,
                placeholder=ctx.t("search_placeholder"),
                aria_label=ctx.t("search_label"),
                autocomplete="off",
                data_testid="maps-search",
            ),
            Button(ctx.t("search_button"), type="submit", data_testid="maps-search-submit"),
            A(ctx.t("clear_search"), href=_href(ctx), cls="button secondary", data_testid="maps-search-clear")
            if q or kind
            else None,
            method="get",
            action=ctx.url("/"),
            role="search",
            cls="row maps-search",
        ),
        Div(Span(ctx.t("browse"), cls="muted small"), *chips, cls="maps-kinds"),
        cls="card",
    )


def _results_panel(ctx: AppContext, browse: dict, results: list[dict], total: int):
    q, kind = browse.get("q", ""), browse.get("kind", "")
    heading = ctx.t("results_heading", q=q) if q else ctx.t("kind_heading", kind=_kind(ctx, kind))
    saved_places = {s["place"] for s in ctx.state["saved"] if s.get("place")}
    rows = [
        Li(
            Span(cls="maps-dot" + (" saved" if p["id"] in saved_places else "")),
            Span(
                A(p["name"], href=_href(ctx, q=q, kind=kind, place=p["id"]), data_testid=f"maps-result-{p['id']}"),
                Span(f"{_kind(ctx, p['kind'])} · {_country(ctx, p['country'])}", cls="sub"),
                cls="grow",
            ),
            Span(ctx.t("saved_badge"), cls="badge") if p["id"] in saved_places else None,
        )
        for p in results
    ]
    return Section(
        H2(heading),
        P(ctx.t("results_count", n=total), cls="muted small", data_testid="maps-results-count"),
        Ul(*rows, cls="plain maps-list", data_testid="maps-results")
        if rows
        else P(ctx.t("no_results", q=q), cls="muted", data_testid="maps-no-results"),
        P(ctx.t("results_more", n=len(results)), cls="muted small") if total > len(results) else None,
        cls="card maps-panel",
        data_testid="maps-results-panel",
    )


def _place_panel(ctx: AppContext, place: dict, browse: dict):
    pid = place["id"]
    saved = _saved_for_place(ctx, pid)
    keep = {k: browse[k] for k in ("q", "kind", "lat", "lon", "z") if k in browse}
    if saved:
        action = P(
            Span(ctx.t("saved_badge"), cls="badge", data_testid=f"maps-saved-badge-{pid}"),
            " ",
            Span(ctx.t("already_saved"), cls="muted"),
        )
    else:
        action = Form(
            *[Input(type="hidden", name=k, value=v) for k, v in keep.items()],
            Button(ctx.t("save"), type="submit", data_testid=f"maps-save-{pid}"),
            method="post",
            action=ctx.url(f"/save/{pid}"),
        )
    nearby = _nearby(ctx, place["lat"], place["lon"], ctx.config["nearby_km"], exclude=pid)
    back = None
    if browse.get("q") or browse.get("kind"):
        back = A(
            "← " + ctx.t("back_to_results"),
            href=_href(ctx, q=browse.get("q"), kind=browse.get("kind")),
            data_testid="maps-back",
        )
    return Section(
        back,
        H2(place["name"], data_testid="maps-place-name"),
        P(
            Span(_kind(ctx, place["kind"]), cls="badge"),
            " ",
            Span(_country(ctx, place["country"]), cls="muted"),
        ),
        P(place["description"], data_testid="maps-place-description") if place["description"] else None,
        P(_coords(ctx, place["lat"], place["lon"], 2), cls="muted small coords", data_testid="maps-place-coords"),
        action,
        Div(
            Span(ctx.t("nearby"), cls="muted small"),
            Ul(
                *[
                    Li(
                        A(p["name"], href=_href(ctx, place=p["id"]), data_testid=f"maps-nearby-{p['id']}"),
                        Span(f"{_kind(ctx, p['kind'])} · {format_km(d)}", cls="sub"),
                    )
                    for p, d in nearby
                ],
                cls="plain maps-list",
            ),
        )
        if nearby
        else None,
        cls="card maps-panel",
        data_testid=f"maps-place-{pid}",
    )


def _saved_panel(ctx: AppContext, saved: dict, browse: dict):
    sid = saved["id"]
    place = _place(ctx, saved.get("place"))
    nearest = None if place else _nearest(ctx, saved["lat"], saved["lon"])
    keep = {k: browse[k] for k in ("lat", "lon", "z") if k in browse}
    return Section(
        H2(saved["name"], data_testid="maps-saved-name"),
        P(Span(ctx.t("saved_badge"), cls="badge"), " ", Span(_kind(ctx, place["kind"]), cls="muted"))
        if place
        else None,
        P(place["description"]) if place and place["description"] else None,
        P(_coords(ctx, saved["lat"], saved["lon"]), cls="muted small coords", data_testid="maps-saved-coords"),
        P(
            A(
                ctx.t("nearest", name=nearest[0]["name"], distance=format_km(nearest[1])),
                href=_href(ctx, place=nearest[0]["id"]),
                data_testid="maps-nearest",
            ),
        )
        if nearest
        else None,
        A(ctx.t("open_place"), href=_href(ctx, place=place["id"]), data_testid="maps-open-place") if place else None,
        Form(
            *[Input(type="hidden", name=k, value=v) for k, v in keep.items()],
            Label(ctx.t("note_label"), fr=f"maps-note-{sid}"),
            Div(
                Input(
                    type="text",
                    name="note",
                    value=saved.get("note", ""),
                    id=f"maps-note-{sid}",
                    autocomplete="off",
                    data_testid="maps-note-input",
                ),
                Button(ctx.t("note_save"), type="submit", cls="secondary", data_testid="maps-note-save"),
                cls="row maps-note",
            ),
            method="post",
            action=ctx.url(f"/note/{sid}"),
        ),
        cls="card maps-panel",
        data_testid=f"maps-saved-panel-{sid}",
    )


def _pin_panel(ctx: AppContext, pin: tuple[float, float], browse: dict):
    lat, lon = pin
    nearest = _nearest(ctx, lat, lon)
    keep = {k: browse[k] for k in ("lat", "lon", "z") if k in browse}
    back = {k: v for k, v in browse.items() if k != "pin"}
    return Section(
        H2(ctx.t("dropped_pin")),
        P(_coords(ctx, lat, lon), cls="coords", data_testid="maps-pin-coords"),
        P(
            A(
                ctx.t("nearest", name=nearest[0]["name"], distance=format_km(nearest[1])),
                href=_href(ctx, place=nearest[0]["id"]),
                data_testid="maps-nearest",
            ),
            cls="small",
        )
        if nearest
        else None,
        Form(
            Input(type="hidden", name="pin", value=f"{lat:.{PIN_DIGITS}f},{lon:.{PIN_DIGITS}f}"),
            *[Input(type="hidden", name=k, value=v) for k, v in keep.items()],
            Label(ctx.t("pin_name_label"), fr="maps-pin-name"),
            Div(
                Input(
                    type="text",
                    name="name",
                    id="maps-pin-name",
                    value=ctx.t("dropped_pin"),
                    required=True,
                    autocomplete="off",
                    data_testid="maps-pin-name",
                ),
                cls="row",
            ),
            Div(
                Button(ctx.t("pin_save"), type="submit", data_testid="maps-pin-save"),
                A(
                    ctx.t("pin_discard"),
                    href=_href(ctx, **back),
                    cls="button secondary",
                    data_testid="maps-pin-discard",
                ),
                cls="row",
                style="margin-top:var(--gap)",
            ),
            method="post",
            action=ctx.url("/pin/save"),
        ),
        P(ctx.t("pin_hint"), cls="muted small"),
        cls="card maps-panel",
        data_testid="maps-pin-panel",
    )


def _saved_card(ctx: AppContext, browse: dict, open_id: str | None):
    keep = {k: browse[k] for k in ("q", "kind", "place", "lat", "lon", "z") if k in browse}
    rows = []
    for s in ctx.state["saved"]:
        sid = s["id"]
        sub = _coords(ctx, s["lat"], s["lon"], 2) + (f" · {s['note']}" if s.get("note") else "")
        rows.append(
            Li(
                Span(cls="maps-dot saved"),
                Span(
                    A(
                        s["name"],
                        href=_href(ctx, saved=sid),
                        aria_current="true" if sid == open_id else None,
                        data_testid=f"maps-saved-{sid}",
                    ),
                    Span(sub, cls="sub"),
                    cls="grow",
                ),
                Form(
                    *[Input(type="hidden", name=k, value=v) for k, v in keep.items()],
                    Button(
                        ctx.t("remove"),
                        type="submit",
                        cls="danger",
                        aria_label=f"{ctx.t('remove')}: {s['name']}",
                        data_testid=f"maps-remove-{sid}",
                    ),
                    method="post",
                    action=ctx.url(f"/remove/{sid}"),
                ),
                data_testid=f"maps-saved-item-{sid}",
            )
        )
    return Section(
        H2(ctx.t("saved_heading"), " ", Span(str(len(rows)), cls="badge", data_testid="maps-saved-count")),
        Ul(*rows, cls="plain maps-list", data_testid="maps-saved-list")
        if rows
        else P(ctx.t("saved_empty"), cls="muted", data_testid="maps-saved-empty"),
        cls="card",
        data_testid="maps-saved-card",
    )


FLASHES = {"saved": "flash_saved", "removed": "flash_removed", "pin": "flash_pin", "note": "flash_note"}


# ------------------------------------------------------------------------------------------
# Routes


def routes(r: AppRoutes) -> None:
    @r.get("/")
    def index(ctx: AppContext, params: dict):
        browse = _browse(params)
        width, height, stacked = _map_size(ctx)
        cfg = ctx.config
        kind = browse.get("kind") if browse.get("kind") in KINDS else None
        if "kind" in browse and not kind:
            browse.pop("kind")
        pin = _parse_pin(browse.get("pin"))
        place = _place(ctx, browse.get("place"))
        saved = _saved(ctx, browse.get("saved"))
        results, total = [], 0
        if browse.get("q") or kind:
            found = _search(ctx, browse.get("q", ""), kind)
            total = len(found)
            results = found[: cfg["results_limit"]]

        lat = _float(browse.get("lat"), -90.0, 90.0)
        lon = _float(browse.get("lon"), -540.0, 540.0)
        zoom = _float(browse.get("z"), MIN_ZOOM, MAX_ZOOM)
        if lat is not None and lon is not None and zoom is not None:
            view = View.make(lat, lon, int(zoom), width, height)
        elif pin:
            view = View.make(pin[0], pin[1], cfg["place_zoom"], width, height)
        elif place:
            view = View.make(place["lat"], place["lon"], cfg["place_zoom"], width, height)
        elif saved:
            view = View.make(saved["lat"], saved["lon"], cfg["place_zoom"], width, height)
        elif results:
            clat, clon, z = fit_zoom([(p["lat"], p["lon"]) for p in results], width, height, cfg["place_zoom"])
            view = View.make(clat, clon, z, width, height)
        else:
            sv = cfg["start_view"]
            view = View.make(sv["lat"], sv["lon"], sv["zoom"], width, height)

        if pin:
            panel = _pin_panel(ctx, pin, browse)
        elif place:
            panel = _place_panel(ctx, place, browse)
        elif saved:
            panel = _saved_panel(ctx, saved, browse)
        elif browse.get("q") or kind:
            panel = _results_panel(ctx, browse, results, total)
        else:
            panel = P(ctx.t("tip"), cls="muted", data_testid="maps-tip")

        flash_key = FLASHES.get(str(params.get("done", "")))
        focus = {
            "place": place,
            "saved": saved if not place else None,
            "pin": pin,
            "results": results,
            "q": browse.get("q"),
            "kind": kind,
        }
        return ctx.page(
            H1(cfg["title"], data_testid="maps-heading"),
            Div(ctx.t(flash_key), cls="flash", role="status", data_testid="maps-flash") if flash_key else None,
            Div(
                Div(
                    _search_card(ctx, browse),
                    panel,
                    _saved_card(ctx, browse, saved["id"] if saved else None),
                    cls="maps-side",
                ),
                _map_block(ctx, view, focus, browse),
                cls="maps-layout" + (" stacked" if stacked else ""),
            ),
            title=cfg["title"],
        )

    @r.get("/canvas.svg")
    def canvas(ctx: AppContext, params: dict):
        svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'
        return Response(svg, media_type="image/svg+xml", headers={"cache-control": "max-age=86400"})

    @r.get("/pin")
    def drop(ctx: AppContext, params: dict):
        """Where a click on the map lands: turn the click's pixel into a pin in the URL."""
        width, height, _ = _map_size(ctx)
        w = _float(params.get("w"), 100, 4000) or width
        h = _float(params.get("h"), 100, 4000) or height
        lat = _float(params.get("lat"), -90.0, 90.0)
        lon = _float(params.get("lon"), -540.0, 540.0)
        zoom = _float(params.get("z"), MIN_ZOOM, MAX_ZOOM)
        x = _float(params.get("c.x"), -10, 10000)
        y = _float(params.get("c.y"), -10, 10000)
        keep = {k: v for k, v in _browse(params).items() if k in ("q", "kind", "place", "saved")}
        if None in (lat, lon, zoom, x, y):
            return ctx.redirect("/?" + urlencode(keep) if keep else "/")
        view = View.make(lat, lon, int(zoom), int(w), int(h))
        plat, plon = view.unproject(clamp(x, 0, w), clamp(y, 0, h))
        query = {**keep, **_view_params(view), "pin": f"{plat:.{PIN_DIGITS}f},{plon:.{PIN_DIGITS}f}"}
        return ctx.redirect("/?" + urlencode(query))

    @r.post("/pin/save")
    def save_pin(ctx: AppContext, params: dict):
        pin = _parse_pin(params.get("pin"))
        keep = {k: v for k, v in _browse(params).items() if k in ("lat", "lon", "z")}
        if not pin:
            return ctx.redirect("/?" + urlencode(keep))
        name = " ".join(str(params.get("name", "")).split())[:200] or ctx.t("dropped_pin")
        entry = {
            "id": f"s{ctx.state['next_id']}",
            "name": name,
            "lat": _round(pin[0], PIN_DIGITS),
            "lon": _round(pin[1], PIN_DIGITS),
            "note": "",
            "place": "",
        }
        ctx.state["next_id"] += 1
        ctx.state["saved"].append(entry)
        ctx.log("drop_pin", id=entry["id"], name=name, lat=entry["lat"], lon=entry["lon"])
        return ctx.redirect("/?" + urlencode({**keep, "saved": entry["id"], "done": "pin"}))

    @r.post("/save/{place_id}")
    def save(ctx: AppContext, params: dict):
        place = _place(ctx, params["place_id"])
        keep = {k: v for k, v in _browse(params).items() if k in ("q", "kind", "lat", "lon", "z")}
        if place is None:
            return ctx.redirect("/?" + urlencode(keep))
        done = {}
        if not _saved_for_place(ctx, place["id"]):
            entry = {
                "id": f"s{ctx.state['next_id']}",
                "name": place["name"],
                "lat": _round(place["lat"], PIN_DIGITS),
                "lon": _round(place["lon"], PIN_DIGITS),
                "note": "",
                "place": place["id"],
            }
            ctx.state["next_id"] += 1
            ctx.state["saved"].append(entry)
            ctx.log("save", id=entry["id"], place=place["id"], name=entry["name"], lat=entry["lat"], lon=entry["lon"])
            done = {"done": "saved"}
        return ctx.redirect("/?" + urlencode({**keep, "place": place["id"], **done}))

    @r.post("/remove/{saved_id}")
    def remove(ctx: AppContext, params: dict):
        entry = _saved(ctx, params["saved_id"])
        keep = {k: v for k, v in _browse(params).items() if k in ("q", "kind", "place", "lat", "lon", "z")}
        if entry:
            ctx.state["saved"].remove(entry)
            ctx.log("remove", id=entry["id"], name=entry["name"])
            keep["done"] = "removed"
        return ctx.redirect("/?" + urlencode(keep) if keep else "/")

    @r.post("/note/{saved_id}")
    def note(ctx: AppContext, params: dict):
        entry = _saved(ctx, params["saved_id"])
        keep = {k: v for k, v in _browse(params).items() if k in ("lat", "lon", "z")}
        if entry is None:
            return ctx.redirect("/?" + urlencode(keep) if keep else "/")
        text = " ".join(str(params.get("note", "")).split())[:500]
        if text != entry.get("note", ""):
            old = entry.get("note", "")
            entry["note"] = text
            ctx.log("note", id=entry["id"], name=entry["name"], old=old, note=text)
        return ctx.redirect("/?" + urlencode({**keep, "saved": entry["id"], "done": "note"}))


APP = AppSpec(
    name="maps",
    schema=SCHEMA,
    content=HERE / "content.yaml",
    initial_state=initial_state,
    routes=routes,
    normalise=normalise,
    order=40,
    css=CSS,
    item_keys={"saved": ItemKey("name", "saved place")},
)
