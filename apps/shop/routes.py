"""Shop's handlers: parse the request, change the state through :mod:`.model`, log, redirect or render."""

from __future__ import annotations

from openapps_sim.apps.shop import model
from openapps_sim.apps.shop.cart_pages import cart_page, checkout_page, orders_page
from openapps_sim.apps.shop.pages import category_page, home_page, product_page, search_page
from openapps_sim.apps.shop.views import int_param

from openapps_sim.appkit import AppContext, AppRoutes


def routes(r: AppRoutes) -> None:
    r.get("/")(home_page)
    r.get("/category/{cid}")(category_page)
    r.get("/search")(search_page)
    r.get("/product/{pid}")(product_page)
    r.get("/cart")(cart_page)
    r.get("/orders")(orders_page)

    @r.post("/cart/add")
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
        line, merged = model.add_line(ctx.state, pid, options, qty)
        ctx.log("add_to_cart", line=line["id"], product_id=pid, options=options, qty=qty, merged=merged)
        return ctx.redirect(f"/product/{pid}?added={line['id']}")

    @r.post("/cart/line/{line}/qty")
    def set_qty(ctx: AppContext, params: dict):
        line = model.cart_line(ctx.state, int_param(params.get("line")))
        qty = int_param(params.get("qty"))
        if line is None or qty is None:
            return ctx.redirect("/cart")
        qty = min(qty, model.MAX_QTY)
        if qty <= 0:
            model.remove_line(ctx.state, line)
            ctx.log("remove_line", line=line["id"], product_id=line["product_id"], options=line["options"])
        elif qty != line["qty"]:
            old = model.set_line_qty(line, qty)
            ctx.log("set_qty", line=line["id"], product_id=line["product_id"], old=old, qty=qty)
        return ctx.redirect("/cart")

    @r.post("/cart/line/{line}/remove")
    def remove(ctx: AppContext, params: dict):
        line = model.cart_line(ctx.state, int_param(params.get("line")))
        if line is not None:
            model.remove_line(ctx.state, line)
            ctx.log("remove_line", line=line["id"], product_id=line["product_id"], options=line["options"])
        return ctx.redirect("/cart")

    @r.post("/cart/empty")
    def empty(ctx: AppContext, params: dict):
        n = model.empty_cart(ctx.state)
        if n:
            ctx.log("empty_cart", lines=n)
        return ctx.redirect("/cart")

    @r.get("/checkout")
    def checkout_form(ctx: AppContext, params: dict):
        return checkout_page(ctx, {}, False)

    @r.post("/checkout")
    def checkout(ctx: AppContext, params: dict):
        address = {k: str(params.get(k, "")).strip() for k in model.ADDRESS_FIELDS}
        if not ctx.state["cart"]:
            return ctx.redirect("/cart")
        if not all(address.values()):
            return checkout_page(ctx, address, True)
        order = model.place_order(ctx.state, ctx.config, address)
        ctx.log("checkout", order=order["id"], lines=len(order["lines"]), total=order["total"], address=address)
        return ctx.redirect(f"/orders?placed={order['id']}")
