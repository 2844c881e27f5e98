"""Shop's handlers: parse the request, change the state through :mod:`.model`, log, redirect or render."""

from __future__ import annotations

from openapps_sim.apps.shop import model, operations
from openapps_sim.apps.shop.cart_pages import cart_page, checkout_page, orders_page
from openapps_sim.apps.shop.pages import category_page, home_page, product_page, search_page
from openapps_sim.apps.shop.views import int_param

from openapps_sim.appkit import AppContext, AppRoutes

routes = AppRoutes()  # the handlers below, registered in the order they are matched
routes.get("/")(home_page)
routes.get("/category/{cid}")(category_page)
routes.get("/search")(search_page)
routes.get("/product/{pid}")(product_page)
routes.get("/cart")(cart_page)
routes.get("/orders")(orders_page)


@routes.post("/cart/add")
def add(ctx: AppContext, params: dict):
    pid = str(params.get("product_id", ""))
    p = model.catalogue(ctx.config).get(pid)
    if p is None:
        return ctx.redirect("/")
    options = {}
    for kind, codes in p["options"].items():
        value = params.get(f"opt_{kind}")
        if value not in codes:
            return ctx.redirect(f"/product/{pid}?error=1")
        options[kind] = value
    qty = int_param(params.get("qty"), None)
    if qty is None or not 1 <= qty <= model.MAX_QTY:
        return ctx.redirect(f"/product/{pid}?error=1")
    line = operations.add_to_cart(ctx, pid, [f"{k}={v}" for k, v in options.items()], qty)
    return ctx.redirect(f"/product/{pid}?added={line['id']}")


@routes.post("/cart/line/{line}/qty")
def set_qty(ctx: AppContext, params: dict):
    line = model.cart_line(ctx.state, int_param(params.get("line")))
    qty = int_param(params.get("qty"))
    if line is None or qty is None:
        return ctx.redirect("/cart")
    operations.set_quantity(ctx, line["id"], qty)
    return ctx.redirect("/cart")


@routes.post("/cart/line/{line}/remove")
def remove(ctx: AppContext, params: dict):
    line = model.cart_line(ctx.state, int_param(params.get("line")))
    if line is not None:
        operations.remove_line(ctx, line["id"])
    return ctx.redirect("/cart")


@routes.post("/cart/empty")
def empty(ctx: AppContext, params: dict):
    operations.empty_cart(ctx)
    return ctx.redirect("/cart")


@routes.get("/checkout")
def checkout_form(ctx: AppContext, params: dict):
    return checkout_page(ctx, {}, False)


@routes.post("/checkout")
def checkout(ctx: AppContext, params: dict):
    address = {k: str(params.get(k, "")).strip() for k in model.ADDRESS_FIELDS}
    if not ctx.state["cart"]:
        return ctx.redirect("/cart")
    if not all(address.values()):
        return checkout_page(ctx, address, True)
    order = operations.checkout(ctx, **address)
    return ctx.redirect(f"/orders?placed={order['id']}")
