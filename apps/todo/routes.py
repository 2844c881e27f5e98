"""Todo's handlers: parse the request, change the state through :mod:`.model`, log, redirect."""

from __future__ import annotations

from collections.abc import Callable

from openapps_sim.apps.todo import model, operations
from openapps_sim.apps.todo.views import index_page

from openapps_sim.appkit import AppContext, AppRoutes

routes = AppRoutes()  # the handlers below, registered in the order they are matched


def _back(params: dict) -> str:
    flt = params.get("filter")
    return f"/?filter={flt}" if flt in ("active", "done") else "/"


def _on_item(ctx: AppContext, params: dict, operation: Callable[[AppContext, str], object]):
    """Run ``operation`` on the item of the URL if there is one; back to the list as it was filtered."""
    if model.find_item(ctx.state, params["item_id"]):
        operation(ctx, params["item_id"])
    return ctx.redirect(_back(params))


@routes.get("/")
def index(ctx: AppContext, params: dict):
    return index_page(ctx, params.get("filter", "all"), params.get("edit"))


@routes.post("/add")
def add(ctx: AppContext, params: dict):
    title = str(params.get("title", "")).strip()
    if title:
        operations.add_item(ctx, title)
    return ctx.redirect("/")


@routes.post("/toggle/{item_id}")
def toggle(ctx: AppContext, params: dict):
    return _on_item(ctx, params, operations.toggle_item)


@routes.post("/edit/{item_id}")
def edit(ctx: AppContext, params: dict):
    item = model.find_item(ctx.state, params["item_id"])
    title = str(params.get("title", "")).strip()
    if item and title:
        operations.edit_item(ctx, item["id"], title)
    return ctx.redirect(_back(params))


@routes.post("/delete/{item_id}")
def delete(ctx: AppContext, params: dict):
    return _on_item(ctx, params, operations.delete_item)


@routes.post("/clear")
def clear(ctx: AppContext, params: dict):
    operations.clear_completed(ctx)
    return ctx.redirect("/")
