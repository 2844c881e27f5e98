"""Maps' side panels (search, results, a place, a saved location, a dropped pin, the saved list) and the page."""

from __future__ import annotations

from openapps_sim.apps.maps import model
from openapps_sim.apps.maps.geo import (
    MAX_ZOOM,
    MIN_ZOOM,
    View,
    fit_zoom,
    format_km,
)
from openapps_sim.apps.maps.lookup import (
    browse_params,
    coords_text,
    country_name,
    float_param,
    kind_label,
    map_size,
    nearby_places,
    nearest_place,
    page_href,
    parse_pin,
    place_by_id,
    search_places,
)
from openapps_sim.apps.maps.mapview import map_block
from openapps_sim.apps.maps.model import PIN_DIGITS
from openapps_sim.apps.maps.schema import KINDS

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import app_search, flash, post_button
from openapps_sim.web.tags import H1, H2, A, Button, Div, Form, Input, Label, Li, P, Section, Span, Ul


def search_card(ctx: AppContext, browse: dict):
    q = browse.get("q", "")
    kind = browse.get("kind", "")
    chips = [
        A(
            kind_label(ctx, k),
            href=page_href(ctx, kind=k),
            cls="active" if k == kind else None,
            data_testid=f"maps-kind-{k}",
        )
        for k in KINDS
    ]
    return Section(
        app_search(
            ctx,
            q,
            label=ctx.t("search_label"),
            cls="row maps-search",
            after=(
                A(ctx.t("clear_search"), href=page_href(ctx), cls="button secondary", data_testid="maps-search-clear")
                if q or kind
                else None,
            ),
        ),
        Div(Span(ctx.t("browse"), cls="muted small"), *chips, cls="maps-kinds"),
        cls="card",
    )


def results_panel(ctx: AppContext, browse: dict, results: list[dict], total: int):
    q, kind = browse.get("q", ""), browse.get("kind", "")
    heading = ctx.t("results_heading", q=q) if q else ctx.t("kind_heading", kind=kind_label(ctx, kind))
    saved_places = {s["place"] for s in ctx.state["saved"] if s.get("place")}
    rows = [
        Li(
            Span(cls="maps-dot" + (" saved" if p["id"] in saved_places else "")),
            Span(
                A(p["name"], href=page_href(ctx, q=q, kind=kind, place=p["id"]), data_testid=f"maps-result-{p['id']}"),
                Span(f"{kind_label(ctx, p['kind'])} · {country_name(ctx, p['country'])}", cls="sub"),
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


def place_panel(ctx: AppContext, place: dict, browse: dict):
    pid = place["id"]
    saved = model.saved_for_place(ctx.state, pid)
    keep = {k: browse[k] for k in ("q", "kind", "lat", "lon", "z") if k in browse}
    if saved:
        action = P(
            Span(ctx.t("saved_badge"), cls="badge", data_testid=f"maps-saved-badge-{pid}"),
            " ",
            Span(ctx.t("already_saved"), cls="muted"),
        )
    else:
        action = post_button(ctx.t("save"), ctx.url(f"/save/{pid}"), f"maps-save-{pid}", hidden=keep)
    nearby = nearby_places(ctx, place["lat"], place["lon"], ctx.config["nearby_km"], exclude=pid)
    back = None
    if browse.get("q") or browse.get("kind"):
        back = A(
            "← " + ctx.t("back_to_results"),
            href=page_href(ctx, q=browse.get("q"), kind=browse.get("kind")),
            data_testid="maps-back",
        )
    return Section(
        back,
        H2(place["name"], data_testid="maps-place-name"),
        P(
            Span(kind_label(ctx, place["kind"]), cls="badge"),
            " ",
            Span(country_name(ctx, place["country"]), cls="muted"),
        ),
        P(place["description"], data_testid="maps-place-description") if place["description"] else None,
        P(coords_text(ctx, place["lat"], place["lon"], 2), cls="muted small coords", data_testid="maps-place-coords"),
        action,
        Div(
            Span(ctx.t("nearby"), cls="muted small"),
            Ul(
                *[
                    Li(
                        A(p["name"], href=page_href(ctx, place=p["id"]), data_testid=f"maps-nearby-{p['id']}"),
                        Span(f"{kind_label(ctx, p['kind'])} · {format_km(d)}", cls="sub"),
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


def saved_panel(ctx: AppContext, saved: dict, browse: dict):
    sid = saved["id"]
    place = place_by_id(ctx, saved.get("place"))
    nearest = None if place else nearest_place(ctx, saved["lat"], saved["lon"])
    keep = {k: browse[k] for k in ("lat", "lon", "z") if k in browse}
    return Section(
        H2(saved["name"], data_testid="maps-saved-name"),
        P(Span(ctx.t("saved_badge"), cls="badge"), " ", Span(kind_label(ctx, place["kind"]), cls="muted"))
        if place
        else None,
        P(place["description"]) if place and place["description"] else None,
        P(coords_text(ctx, saved["lat"], saved["lon"]), cls="muted small coords", data_testid="maps-saved-coords"),
        P(
            A(
                ctx.t("nearest", name=nearest[0]["name"], distance=format_km(nearest[1])),
                href=page_href(ctx, place=nearest[0]["id"]),
                data_testid="maps-nearest",
            ),
        )
        if nearest
        else None,
        A(ctx.t("open_place"), href=page_href(ctx, place=place["id"]), data_testid="maps-open-place")
        if place
        else None,
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


def pin_panel(ctx: AppContext, pin: tuple[float, float], browse: dict):
    lat, lon = pin
    nearest = nearest_place(ctx, lat, lon)
    keep = {k: browse[k] for k in ("lat", "lon", "z") if k in browse}
    back = {k: v for k, v in browse.items() if k != "pin"}
    return Section(
        H2(ctx.t("dropped_pin")),
        P(coords_text(ctx, lat, lon), cls="coords", data_testid="maps-pin-coords"),
        P(
            A(
                ctx.t("nearest", name=nearest[0]["name"], distance=format_km(nearest[1])),
                href=page_href(ctx, place=nearest[0]["id"]),
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
                    href=page_href(ctx, **back),
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


def saved_card(ctx: AppContext, browse: dict, open_id: str | None):
    keep = {k: browse[k] for k in ("q", "kind", "place", "lat", "lon", "z") if k in browse}
    rows = []
    for s in ctx.state["saved"]:
        sid = s["id"]
        sub = coords_text(ctx, s["lat"], s["lon"], 2) + (f" · {s['note']}" if s.get("note") else "")
        rows.append(
            Li(
                Span(cls="maps-dot saved"),
                Span(
                    A(
                        s["name"],
                        href=page_href(ctx, saved=sid),
                        aria_current="true" if sid == open_id else None,
                        data_testid=f"maps-saved-{sid}",
                    ),
                    Span(sub, cls="sub"),
                    cls="grow",
                ),
                post_button(
                    ctx.t("remove"),
                    ctx.url(f"/remove/{sid}"),
                    f"maps-remove-{sid}",
                    hidden=keep,
                    cls="danger",
                    about=s["name"],
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


def _view(ctx: AppContext, browse: dict, pin, place, saved, results: list, width: int, height: int) -> View:
    """What the map shows: the view in the URL, else the pin, place or saved location, else all
    search results, else the app's start view."""
    cfg = ctx.config
    lat = float_param(browse.get("lat"), -90.0, 90.0)
    lon = float_param(browse.get("lon"), -540.0, 540.0)
    zoom = float_param(browse.get("z"), MIN_ZOOM, MAX_ZOOM)
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
    return view


def index_page(ctx: AppContext, params: dict):
    browse = browse_params(params)
    width, height, stacked = map_size(ctx)
    cfg = ctx.config
    kind = browse.get("kind") if browse.get("kind") in KINDS else None
    if "kind" in browse and not kind:
        browse.pop("kind")
    pin = parse_pin(browse.get("pin"))
    place = place_by_id(ctx, browse.get("place"))
    saved = model.saved_entry(ctx.state, browse.get("saved"))
    results, total = [], 0
    if browse.get("q") or kind:
        found = search_places(ctx, browse.get("q", ""), kind)
        total = len(found)
        results = found[: cfg["results_limit"]]

    view = _view(ctx, browse, pin, place, saved, results, width, height)

    if pin:
        panel = pin_panel(ctx, pin, browse)
    elif place:
        panel = place_panel(ctx, place, browse)
    elif saved:
        panel = saved_panel(ctx, saved, browse)
    elif browse.get("q") or kind:
        panel = results_panel(ctx, browse, results, total)
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
        flash(ctx.t(flash_key), "maps-flash") if flash_key else None,
        Div(
            Div(
                search_card(ctx, browse),
                panel,
                saved_card(ctx, browse, saved["id"] if saved else None),
                cls="maps-side",
            ),
            map_block(ctx, view, focus, browse),
            cls="maps-layout" + (" stacked" if stacked else ""),
        ),
        title=cfg["title"],
    )
