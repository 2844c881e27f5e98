"""Maps' map: the Web-Mercator view drawn as inline SVG (coastlines, grid, markers, labels, scale bar) with its pan and zoom controls."""

from __future__ import annotations

import unicodedata

from openapps_sim.apps.maps import land
from openapps_sim.apps.maps.geo import (
    View,
    format_coord,
    format_km,
    grid_step,
    nice_distance,
    unit_xy,
    wrap_lon,
)
from openapps_sim.apps.maps.lookup import all_places, coords_text, page_href, place_by_id, view_params

from openapps_sim.appkit import AppContext
from openapps_sim.web.svgtags import Circle, G, Line, Rect, Svg, Text, Title
from openapps_sim.web.svgtags import Path as SvgPath
from openapps_sim.web.tags import A, Div, Form, Input, P, Span

UNIT = 1000.0  # outlines are written once in a 1000 x 1000 world square and scaled per view


def unit_path(rings) -> str:
    parts = []
    for ring in rings:
        pts = [unit_xy(lat, lon, UNIT) for lon, lat in ring]
        parts.append("M" + "L".join(f"{x:.2f} {y:.2f}" for x, y in pts) + "Z")
    return "".join(parts)


LAND_PATH = unit_path(land.LAND)
WATER_PATH = unit_path(land.WATER)


def outline_paths(view: View) -> list:
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


def grid_lines(ctx: AppContext, view: View) -> tuple[list, list]:
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


def teardrop(x: float, y: float, cls: str, testid: str, title: str):
    """A map pin whose tip touches (x, y)."""
    d = f"M{x:.1f} {y:.1f}c-4-6-10-11-10-17a10 10 0 0 1 20 0c0 6-6 11-10 17z"
    return G(
        Title(title),
        SvgPath(d=d),
        Circle(cx=f"{x:.1f}", cy=f"{y - 17:.1f}", r="3.6", cls="hole"),
        cls=cls,
        data_testid=testid,
    )


def scale_bar(ctx: AppContext, view: View):
    """The scale bar, a small SVG of its own pinned to the frame's bottom-left corner: the map
    is centred in its frame, so on a screen narrower than the map its edges are cut off, and
    the bar must stay in sight."""
    km = nice_distance(view.km_per_px() * 110)
    if km <= 0:
        return None
    px = km / view.km_per_px()
    x0, y0 = 4, 20
    return Svg(
        Line(x1=str(x0), y1=str(y0), x2=f"{x0 + px:.1f}", y2=str(y0)),
        Line(x1=str(x0), y1=str(y0 - 4), x2=str(x0), y2=str(y0 + 1)),
        Line(x1=f"{x0 + px:.1f}", y1=str(y0 - 4), x2=f"{x0 + px:.1f}", y2=str(y0 + 1)),
        Text(format_km(km), x=str(x0), y=str(y0 - 6)),
        width=f"{max(px, 60) + 8:.0f}",
        height="24",
        cls="scale",
        aria_hidden="true",
        data_testid="maps-scale",
    )


def hidden_margin(view: View) -> float:
    """How much of each side of the map a 320 px wide frame cuts off (the map is centred)."""
    return max(0.0, (view.width - 320) / 2)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Generous rendered width of a label: wide (CJK) characters count as a full em, others
    as about the widest average of the fonts a page may use (DejaVu Sans, bold wider still)."""
    narrow = size * (0.7 if bold else 0.64)
    return sum(size if unicodedata.east_asian_width(c) in "WF" else narrow for c in text)


def place_labels(view: View, wanted: list[tuple[float, float, str, bool]], limit: int, taken: list) -> list:
    """Labels right (or else left) of their markers, skipping any that would overlap another."""
    boxes: list[tuple[float, float, float, float]] = [
        (0, 0, 100, 100),  # pan controls
        (view.width - 44, 0, view.width, 84),  # zoom controls
        (0, view.height - 50, 150 + hidden_margin(view), view.height),  # scale bar
        *taken,
    ]
    out = []
    for x, y, text, strong in wanted:
        if len(out) >= limit:
            break
        width = text_width(text, 12 if strong else 11, strong)
        for anchor, x0 in (("start", x + 8), ("end", x - 8)):
            left = x0 if anchor == "start" else x0 - width
            box = (left - 4, y - 10, left + width + 4, y + 5)  # 4 px apart on both sides
            inside = left >= 0 and left + width <= view.width and box[1] >= 0 and box[3] <= view.height
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


def _candidates(ctx: AppContext, view: View, selected_place: dict | None, results: list, saved_by_place: dict) -> list:
    """The gazetteer places to mark, (rank, index, place), most important first: search results,
    saved places and (when zoomed in) everything else in view."""
    result_ids = {p["id"] for p in results}
    candidates = []
    others_zoom = 9 if results else 5  # with search results on the map, keep the rest quiet
    for index, p in enumerate(all_places(ctx)):
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
    return candidates[: 120 if view.zoom >= 5 else 90]


def _marker(name: str, x: float, y: float, r: int, href: str, cls: str, testid: str):
    """A marker on the map: a round link to the place or saved location."""
    return A(
        Title(name),
        Circle(cx=f"{x:.1f}", cy=f"{y:.1f}", r=str(r)),
        href=href,
        cls=cls,
        aria_label=name,
        data_testid=testid,
    )


def _saved_spots(ctx: AppContext, view: View, selected_saved: dict | None) -> list[tuple]:
    """Markers (and label requests) of the saved locations that are not gazetteer places."""
    spots = []
    for s in ctx.state["saved"]:
        if s.get("place") and place_by_id(ctx, s["place"]):
            continue
        if selected_saved and s["id"] == selected_saved["id"]:
            continue
        if not view.contains(s["lat"], s["lon"], 8):
            continue
        x, y = view.project(s["lat"], s["lon"])
        marker = _marker(
            s["name"], x, y, 5, page_href(ctx, saved=s["id"]), "saved-spot", f"maps-marker-saved-{s['id']}"
        )
        spots.append((marker, (x, y, s["name"], False)))
    return spots


def _background(ctx: AppContext, view: View) -> tuple[list, list]:
    """Water or ground, the land outlines (when zoomed out enough) and the graticule; and the
    boxes the graticule's labels take."""
    cfg = ctx.config
    outlines = cfg["show_outlines"] and view.zoom <= cfg["outline_max_zoom"]
    layers: list = [
        Rect(x="0", y="0", width=str(view.width), height=str(view.height), cls="water" if outlines else "ground")
    ]
    if outlines:
        layers += outline_paths(view)
    grid, grid_boxes = grid_lines(ctx, view)
    return layers + grid, grid_boxes


def map_svg(ctx: AppContext, view: View, focus: dict) -> Svg:
    """The map picture: background, outlines, graticule, markers and labels."""
    layers, grid_boxes = _background(ctx, view)
    selected_place = focus.get("place")
    selected_saved = focus.get("saved")
    results = focus.get("results") or []
    saved_by_place = {s["place"]: s for s in ctx.state["saved"] if s.get("place")}
    candidates = _candidates(ctx, view, selected_place, results, saved_by_place)
    markers: list = []
    wanted: list[tuple[float, float, str, bool]] = []  # label requests, most important first
    tops: list = []
    # the open place or saved location, and the dropped pin (not links: clicks go to the map)
    if selected_place or selected_saved:
        item = selected_place or selected_saved
        x, y = view.project(item["lat"], item["lon"])
        tops.append(teardrop(x, y, "selected", "maps-marker-selected", item["name"]))
        wanted.append((x + 5, y - 14, item["name"], True))
    pin = focus.get("pin")
    if pin:
        x, y = view.project(*pin)
        tops.append(teardrop(x, y, "pin", "maps-marker-pin", ctx.t("dropped_pin")))

    keep = {k: v for k, v in (("q", focus.get("q")), ("kind", focus.get("kind"))) if v}
    for rank, _, p in candidates:
        x, y = view.project(p["lat"], p["lon"])
        is_saved = p["id"] in saved_by_place
        cls = "place" + (" saved" if is_saved else "") + (" minor" if rank == 2 else "")
        r = 6 if rank < 2 else (5 if is_saved else 4)
        markers.append(
            _marker(p["name"], x, y, r, page_href(ctx, **keep, place=p["id"]), cls, f"maps-marker-{p['id']}")
        )
        wanted.append((x, y, p["name"], False))

    # saved locations that are not gazetteer places (custom places, saved pins)
    for marker, request in _saved_spots(ctx, view, selected_saved):
        markers.append(marker)
        wanted.insert(1 if tops else 0, request)

    labels = place_labels(view, wanted, limit=40 if view.zoom >= 6 else 18, taken=grid_boxes)
    return Svg(
        *layers,
        *markers,
        G(*labels, aria_hidden="true"),
        *tops,
        width=str(view.width),
        height=str(view.height),
        cls="maps-svg",
        role="group",
        aria_label=ctx.t("map_label"),
        data_testid="maps-svg",
    )


def map_controls(ctx: AppContext, view: View, browse: dict) -> list:
    def link(v: View, label: str, text: str, testid: str, cls: str = ""):
        query = {**browse, **view_params(v)}
        return A(text, href=page_href(ctx, **query), title=label, aria_label=label, cls=cls or None, data_testid=testid)

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


def map_block(ctx: AppContext, view: View, focus: dict, browse: dict):
    hidden = {**{k: browse[k] for k in ("q", "kind", "place", "saved") if k in browse}, **view_params(view)}
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
            map_svg(ctx, view, focus),
            scale_bar(ctx, view),
            *map_controls(ctx, view, browse),
            cls="maps-frame",
            dir="ltr",
            style=f"--map-w:{view.width}px;width:{view.width}px;max-width:100%;height:{view.height}px",
            data_testid="maps-map",
        ),
        Div(
            Span(ctx.t("map_hint")),
            Span(
                ctx.t("view_status", z=view.zoom, coords=coords_text(ctx, view.lat, view.lon, 2)),
                data_testid="maps-view-status",
            ),
            cls="maps-caption muted",
        ),
        P(ctx.t("outlines_hidden"), cls="muted small") if ctx.config["show_outlines"] and not outlines else None,
        cls="maps-map-col",
        style=f"width:{view.width}px;max-width:100%",
    )
