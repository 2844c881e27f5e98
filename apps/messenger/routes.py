"""Messenger's handlers: parse the request, change the state through :mod:`.model`, log, redirect."""

from __future__ import annotations

from openapps_sim.apps.messenger import model, operations
from openapps_sim.apps.messenger.views import forward_page, layout, not_found

from openapps_sim.appkit import AppContext, AppRoutes

routes = AppRoutes()  # the handlers below, registered in the order they are matched


@routes.get("/")
def index(ctx: AppContext, params: dict):
    q = params.get("q")
    return layout(ctx, str(q) if q is not None else None, None)


@routes.get("/chat/{cid}")
def chat(ctx: AppContext, params: dict):
    c = model.contact(ctx.state, params["cid"])
    if c is None:
        return not_found(ctx)
    q = params.get("q")
    return layout(ctx, str(q) if q is not None else None, c)


@routes.post("/send/{cid}")
def send(ctx: AppContext, params: dict):
    cid = params["cid"]
    text = str(params.get("text", "")).strip()
    if model.contact(ctx.state, cid) is None:
        return not_found(ctx)
    if text:
        operations.send_message(ctx, cid, text)
    return ctx.redirect(f"/chat/{cid}#latest")


@routes.get("/forward/{mid}")
def forward_form(ctx: AppContext, params: dict):
    found = model.find_message(ctx.state, params["mid"])
    if found is None:
        return not_found(ctx)
    source, m = found
    return forward_page(ctx, params["mid"], source, m, str(params.get("q", "")))


@routes.post("/forward/{mid}")
def forward(ctx: AppContext, params: dict):
    mid, to = params["mid"], str(params.get("to", ""))
    if model.find_message(ctx.state, mid) is None or model.contact(ctx.state, to) is None:
        return not_found(ctx)
    operations.forward_message(ctx, mid, to)
    return ctx.redirect(f"/chat/{to}#latest")
