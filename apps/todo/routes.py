"""Todo's handlers: parse the request, change the state through :mod:`.model`, log, redirect."""

from __future__ import annotations

from openapps_sim.apps.todo import model, operations
from openapps_sim.apps.todo.views import index_page

from openapps_sim.appkit import AppContext, AppRoutes


def _back(params: dict) -> str:
    flt = params.get("filter")
    return f"/?filter={flt}" if flt in ("active", "done") else "/"


def index(ctx: AppContext, params: dict):
    return index_page(ctx, params.get("filter", "all"), params.get("edit"))


def add(ctx: AppContext, params: dict):
    title = str(params.get("title", "")).strip()
    if title:
        operations.add_item(ctx, title)
    return ctx.redirect("/")


def toggle(ctx: AppContext, params: dict):
    if model.find_item(ctx.state, params["item_id"]):
        operations.toggle_item(ctx, params["item_id"])
    return ctx.redirect(_back(params))


def edit(ctx: AppContext, params: dict):
    item = model.find_item(ctx.state, params["item_id"])
    title = str(params.get("title", "")).strip()
    if item and title:
        operations.edit_item(ctx, item["id"], title)
    return ctx.redirect(_back(params))


def delete(ctx: AppContext, params: dict):
    if model.find_item(ctx.state, params["item_id"]):
        operations.delete_item(ctx, params["item_id"])
    return ctx.redirect(_back(params))


def clear(ctx: AppContext, params: dict):
    operations.clear_completed(ctx)
    return ctx.redirect("/")


def routes(r: AppRoutes) -> None:
    """Register the handlers below on ``r``."""
    r.get("/")(index)
    r.post("/add")(add)
    r.post("/toggle/{item_id}")(toggle)
    r.post("/edit/{item_id}")(edit)
    r.post("/delete/{item_id}")(delete)
    r.post("/clear")(clear)
