"""Shop's cart, checkout and orders pages."""

from __future__ import annotations

from openapps_sim.apps.shop import model
from openapps_sim.apps.shop.views import layout, money, option_text, order_summary, product_img, product_name

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import field, flash, post_button
from openapps_sim.web.tags import H1, H2, A, Button, Div, Form, Input, Li, P, Span, Ul


def _nothing_here(ctx: AppContext, heading: str, message: str, title: str):
    """The cart or checkout page of an empty cart."""
    return layout(
        ctx,
        H1(ctx.t(heading), data_testid="shop-heading"),
        Div(
            P(ctx.t(message), data_testid="shop-cart-empty"),
            A(ctx.t("continue_shopping"), href=ctx.url("/"), cls="button", data_testid="shop-continue"),
            cls="card",
        ),
        title=title,
    )


def _cart_line(ctx: AppContext, ln: dict):
    """One line of the cart: the product, its options, quantity, total and remove."""
    cfg = ctx.config
    n = ln["id"]
    p = model.product_any(cfg, ln["product_id"])
    price = p["price"] if p else 0.0
    return Li(
        product_img(ctx, ln["product_id"], p, 64, ln["options"].get("colour")) if p else Span(),
        Div(
            A(product_name(ctx, ln["product_id"]), href=ctx.url(f"/product/{ln['product_id']}"),
              cls="shop-name", data_testid=f"shop-line-product-{n}"),
            Div(option_text(ctx, ln["product_id"], ln["options"]), cls="muted small"),
            Div(ctx.t("each", price=money(ctx, price)), cls="muted small", data_testid=f"shop-line-price-{n}"),
            cls="info",
        ),
        Form(
            Input(type="number", name="qty", value=str(ln["qty"]), min="0", max=str(model.MAX_QTY),
                  aria_label=ctx.t("quantity"), data_testid=f"shop-line-qty-{n}"),
            Button(ctx.t("update"), type="submit", cls="secondary", data_testid=f"shop-line-update-{n}"),
            method="post",
            action=ctx.url(f"/cart/line/{n}/qty"),
            cls="row",
        ),
        Span(money(ctx, price * ln["qty"]), cls="line-total"),
        post_button(ctx.t("remove"), ctx.url(f"/cart/line/{n}/remove"), f"shop-line-remove-{n}", cls="danger"),
        cls="shop-line",
        data_testid=f"shop-line-{n}",
    )  # fmt: skip


def cart_page(ctx: AppContext, params: dict):
    cfg = ctx.config
    cart = ctx.state["cart"]
    if not cart:
        return _nothing_here(ctx, "cart_heading", "cart_empty", f"{ctx.t('cart_heading')} · {cfg['title']}")
    rows = [_cart_line(ctx, ln) for ln in cart]
    lines = model.priced_lines(cfg, cart)
    return layout(
        ctx,
        H1(ctx.t("cart_heading"), data_testid="shop-heading"),
        Div(
            Div(Ul(*rows, cls="plain"), cls="card"),
            Div(
                order_summary(ctx, lines),
                A(ctx.t("checkout"), href=ctx.url("/checkout"), cls="button", data_testid="shop-checkout",
                  style="display:block;text-align:center;margin-top:var(--pad)"),
                Form(
                    Button(ctx.t("empty_cart"), type="submit", cls="secondary", data_testid="shop-empty-cart",
                           style="width:100%"),
                    method="post",
                    action=ctx.url("/cart/empty"),
                    style="margin-top:var(--gap)",
                ),
                A(ctx.t("continue_shopping"), href=ctx.url("/"), data_testid="shop-continue",
                  style="display:block;text-align:center;margin-top:var(--gap)"),
                cls="card",
            ),
            cls="shop-cols",
        ),
        title=f"{ctx.t('cart_heading')} · {cfg['title']}",
    )  # fmt: skip


def checkout_page(ctx: AppContext, values: dict, error: bool):
    cfg = ctx.config
    cart = ctx.state["cart"]
    title = f"{ctx.t('checkout_heading')} · {cfg['title']}"
    if not cart:
        return _nothing_here(ctx, "checkout_heading", "nothing_to_check_out", title)
    autocomplete = {"name": "name", "street": "street-address", "city": "address-level2",
                    "postcode": "postal-code", "country": "country-name"}  # fmt: skip
    fields = [
        field(
            ctx.t(f"field_{k}"),
            f"f-{k}",
            Input(type="text", name=k, id=f"f-{k}", value=values.get(k, ""), required=True,
                  autocomplete=autocomplete[k], data_testid=f"shop-field-{k}"),
            cls="wide" if k in ("name", "street") else None,
        )
        for k in model.ADDRESS_FIELDS
    ]  # fmt: skip
    lines = model.priced_lines(cfg, cart)
    items = [
        Li(
            Span(f"{ln['qty']} × {product_name(ctx, ln['product_id'])}",
                 Span(" · " + option_text(ctx, ln["product_id"], ln["options"]), cls="muted small")
                 if ln["options"] else None),
            Span(money(ctx, ln["price"] * ln["qty"])),
        )
        for ln in lines
    ]  # fmt: skip
    return layout(
        ctx,
        H1(ctx.t("checkout_heading"), data_testid="shop-heading"),
        Div(ctx.t("missing_fields"), cls="error", data_testid="shop-checkout-error") if error else None,
        Div(
            Form(
                H2(ctx.t("shipping_address")),
                Div(*fields, cls="shop-form"),
                Button(ctx.t("place_order"), type="submit", data_testid="shop-place-order",
                       style="margin-top:var(--pad)"),
                method="post",
                action=ctx.url("/checkout"),
                cls="card",
            ),
            Div(
                H2(ctx.t("order_summary")),
                Ul(*items, cls="plain order-lines stack"),
                Div(order_summary(ctx, lines), style="margin-top:var(--pad)"),
                A(ctx.t("back_to_cart"), href=ctx.url("/cart"), data_testid="shop-back-to-cart"),
                cls="card stack",
            ),
            cls="shop-cols",
        ),
        title=title,
    )  # fmt: skip


def orders_page(ctx: AppContext, params: dict):
    cfg = ctx.config
    placed = str(params.get("placed", ""))
    cards = []
    for o in reversed(ctx.state["orders"]):
        a = o["address"]
        cards.append(
            Div(
                Div(
                    H2(ctx.t("order_number", id=o["id"]), style="margin:0"),
                    Span(ctx.t("items_count", n=sum(ln["qty"] for ln in o["lines"])), cls="badge"),
                    cls="row",
                    style="justify-content:space-between",
                ),
                Ul(
                    *[
                        Li(
                            Span(
                                f"{ln['qty']} × ",
                                A(product_name(ctx, ln["product_id"]), href=ctx.url(f"/product/{ln['product_id']}"),
                                  data_testid=f"shop-order-{o['id']}-product-{ln['product_id']}"),
                                Span(" · " + option_text(ctx, ln["product_id"], ln["options"]),
                                     cls="muted small") if ln["options"] else None,
                            ),
                            Span(money(ctx, ln["price"] * ln["qty"])),
                        )
                        for ln in o["lines"]
                    ],
                    cls="plain order-lines",
                ),
                Div(Span(ctx.t("total")), Span(money(ctx, o["total"])), cls="sum-row total"),
                P(
                    Span(ctx.t("ship_to") + ": ", cls="muted"),
                    ", ".join(x for x in (a["name"], a["street"], f"{a['postcode']} {a['city']}".strip(),
                                          a["country"]) if x),
                    cls="small",
                ),
                cls="card stack",
                data_testid=f"shop-order-{o['id']}",
            )
        )  # fmt: skip
    return layout(
        ctx,
        flash(ctx.t("order_placed", id=placed), "shop-order-placed", role=None)
        if placed and any(o["id"] == placed for o in ctx.state["orders"])
        else None,
        H1(ctx.t("orders_heading"), data_testid="shop-heading"),
        *(cards or [Div(P(ctx.t("no_orders"), cls="muted"), cls="card", data_testid="shop-no-orders")]),
        title=f"{ctx.t('orders_heading')} · {cfg['title']}",
    )
