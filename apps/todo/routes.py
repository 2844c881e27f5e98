"""Todo's handlers: parse the request, change the state through :mod:`.model`, log, redirect."""

from __future__ import annotations

from openapps_sim.apps.todo import model
from openapps_sim.apps.todo.views import index_page

from openapps_sim.appkit import AppContext, AppRoutes


def _back(params: dict) -> str:
    flt = params.get("filter")
    return f"/?filter={flt}" if flt in ("active", "done") else "/"


def routes(r: AppRoutes) -> None:
    @r.get("/")
    def index(ctx: AppContext, params: dict):
        return index_page(ctx, params.get("filter", "all"), params.get("edit"))

    @r.post("/add")
    def add(ctx: AppContext, params: dict):
        title = str(params.get("title", "")).strip()
        if title:
            item = model.add_item(ctx.state, title)
            ctx.log("add", id=item["id"], title=title)
        return ctx.redirect("/")

    @r.post("/toggle/{item_id}")
    def toggle(ctx: AppContext, params: dict):
        item = model.find_item(ctx.state, params["item_id"])
        if item:
            model.set_done(item, not item["done"])
            ctx.log("toggle", id=item["id"], title=item["title"], done=item["done"])
        return ctx.redirect(_back(params))

    @r.post("/edit/{item_id}")
    def edit(ctx: AppContext, params: dict):
        item = model.find_item(ctx.state, params["item_id"])
        title = str(params.get("title", "")).strip()
        if item and title and title != item["title"]:
            old = model.rename(item, title)
            ctx.log("edit", id=item["id"], old=old, title=title)
        return ctx.redirect(_back(params))

    @r.post("/delete/{item_id}")
    def delete(ctx: AppContext, params: dict):
        item = model.delete_item(ctx.state, params["item_id"])
        if item:
            ctx.log("delete", id=item["id"], title=item["title"])
        return ctx.redirect(_back(params))

    @r.post("/clear")
    def clear(ctx: AppContext, params: dict):
        done = model.clear_completed(ctx.state)
        if done:
            ctx.log("clear_completed", ids=[i["id"] for i in done], titles=[i["title"] for i in done])
        return ctx.redirect("/")
