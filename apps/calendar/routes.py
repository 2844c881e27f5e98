"""Calendar's handlers: parse the request, change the state through :mod:`.model`, log, redirect or render."""

from __future__ import annotations

from openapps_sim.apps.calendar import model, operations
from openapps_sim.apps.calendar.forms import form_page, form_values, read_form, values_to_raw
from openapps_sim.apps.calendar.model import FIELDS, parse_date, parse_month
from openapps_sim.apps.calendar.views import day_href, detail_page, month_page, not_found, today_of

from openapps_sim.appkit import AppContext, AppRoutes

routes = AppRoutes()  # the handlers below, registered in the order they are matched


@routes.get("/")
def index(ctx: AppContext, params: dict):
    today = today_of(ctx)
    selected = parse_date(params.get("day")) if params.get("day") != "today" else today
    ym = parse_month(params.get("month")) or (
        (selected.year, selected.month) if selected else (today.year, today.month)
    )
    y, m = ym
    query = str(params.get("q") or "").strip()
    return month_page(ctx, y, m, today, selected, query)


@routes.get("/new")
def new_form(ctx: AppContext, params: dict):
    source = model.find_event(ctx.state, str(params.get("copy", ""))) if params.get("copy") else None
    if source:
        values = form_values(source)
        heading = ctx.t("duplicate_heading")
    else:
        d = parse_date(params.get("date")) or today_of(ctx)
        values = {f: "" for f in FIELDS} | {"date": d.isoformat()}
        heading = ctx.t("new_heading")
    back = day_href(parse_date(values["date"]) or today_of(ctx))
    return form_page(ctx, heading, values, ctx.url("/new"), back, None)


@routes.post("/new")
def create(ctx: AppContext, params: dict):
    values, error = read_form(ctx, params)
    if error:
        back = day_href(parse_date(values["date"]) or today_of(ctx))
        return form_page(ctx, ctx.t("new_heading"), values, ctx.url("/new"), back, error)
    ev = operations.create_event(ctx, **values_to_raw(values))
    return ctx.redirect(day_href(parse_date(ev["date"])))


@routes.get("/event/{eid}")
def detail(ctx: AppContext, params: dict):
    ev = model.find_event(ctx.state, params["eid"])
    if not ev:
        return not_found(ctx)
    return detail_page(ctx, ev)


def _edit_page(ctx: AppContext, eid: str, values: dict, error: str | None):
    """The edit form of event ``eid`` holding ``values`` (with the ``error`` of the last try)."""
    return form_page(ctx, ctx.t("edit_heading"), values, ctx.url(f"/event/{eid}/edit"), f"/event/{eid}", error)


@routes.get("/event/{eid}/edit")
def edit_form(ctx: AppContext, params: dict):
    ev = model.find_event(ctx.state, params["eid"])
    return _edit_page(ctx, ev["id"], form_values(ev), None) if ev else not_found(ctx)


@routes.post("/event/{eid}/edit")
def edit(ctx: AppContext, params: dict):
    ev = model.find_event(ctx.state, params["eid"])
    if not ev:
        return not_found(ctx)
    values, error = read_form(ctx, params)
    if error:
        return _edit_page(ctx, ev["id"], values, error)
    operations.edit_event(ctx, ev["id"], **values_to_raw(values))
    return ctx.redirect(f"/event/{ev['id']}")


@routes.post("/event/{eid}/delete")
def delete(ctx: AppContext, params: dict):
    if not model.find_event(ctx.state, params["eid"]):
        return ctx.redirect("/")
    ev = operations.delete_event(ctx, params["eid"])
    return ctx.redirect(day_href(parse_date(ev["date"])))
