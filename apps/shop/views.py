"""Shop's shared page pieces: the top bar and layout, product cards and grid, listings with sorting and pages, prices, the order summary."""

from __future__ import annotations

from openapps_sim.apps.shop import model
from openapps_sim.apps.shop.images import product_svg
from openapps_sim.apps.shop.style import ICON

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import app_search
from openapps_sim.web.icons import svg
from openapps_sim.web.tags import A, Div, Nav, NotStr, P, Span


def money(ctx: AppContext, amount: float) -> str:
    return model.fmt_price(ctx.config, amount)


def stars(rating: float) -> str:
    full = int(round(rating))
    return "★" * full + "☆" * (5 - full)


def product_img(ctx: AppContext, pid: str, p: dict, size: int, chosen: str | None = None) -> NotStr:
    icon = p.get("picture", "category")
    if icon == "category":
        icon = (ctx.config["categories"].get(p["category"]) or {}).get("icon", "box")
    return NotStr(product_svg(icon, model.product_colour(ctx.config, pid, p, chosen), size))


def cart_count(ctx: AppContext) -> int:
    return sum(ln["qty"] for ln in ctx.state["cart"])


def layout(ctx: AppContext, *children, title: str | None = None, q: str = "", active: str = ""):
    cfg = ctx.config
    count = cart_count(ctx)
    top = Div(
        Div(
            A(
                NotStr(svg(ICON, 20)),
                ctx.t("shop_home"),
                href=ctx.url("/"),
                data_testid="shop-home",
                style="font-weight:700;text-decoration:none;display:inline-flex;gap:4px;align-items:center",
            ),
            app_search(ctx, q, action="/search", cls="shop-search"),
            Div(
                A(
                    ctx.t("cart"),
                    Span(str(count), cls="badge", data_testid="shop-cart-count"),
                    href=ctx.url("/cart"),
                    data_testid="shop-cart",
                ),
                A(ctx.t("orders"), href=ctx.url("/orders"), data_testid="shop-orders"),
                cls="shop-links",
            ),
            cls="row shop-header",
        ),
        Nav(
            *[
                A(
                    c["name"],
                    href=ctx.url(f"/category/{cid}"),
                    cls="active" if cid == active else None,
                    data_testid=f"shop-category-{cid}",
                )
                for cid, c in cfg["categories"].items()
            ],
            cls="shop-cats",
            aria_label=ctx.t("categories"),
        ),
        cls="card shop-top",
    )
    return ctx.page(top, *children, title=title or cfg["title"])


def product_card(ctx: AppContext, pid: str, p: dict):
    return A(
        product_img(ctx, pid, p, 160),
        Span(p["name"], cls="shop-name"),
        Span(
            Span(stars(p.get("rating", 0)), cls="stars", aria_hidden="true"),
            f" {model.fmt_number(ctx.config, p.get('rating', 0))} ({p.get('reviews', 0)})",
            cls="muted small",
        ),
        Span(money(ctx, p["price"]), cls="shop-price"),
        href=ctx.url(f"/product/{pid}"),
        cls="card shop-card",
        data_testid=f"shop-product-{pid}",
    )


def product_grid(ctx: AppContext, products: dict, ids: list[str]):
    return Div(*[product_card(ctx, pid, products[pid]) for pid in ids], cls="shop-grid", data_testid="shop-results")


def int_param(value, default: int | None = None) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


def listing(ctx: AppContext, params: dict, base: str, ids: list[str], products: dict, extra: dict) -> list:
    """Sort links, the product grid of one page and the pager."""
    sort = params.get("sort") if params.get("sort") in model.SORTS else "relevance"
    ids = model.sort_ids(products, ids, sort)
    size = ctx.config["page_size"]
    pages = max(1, (len(ids) + size - 1) // size)
    page = min(max(1, int_param(params.get("page"), 1) or 1), pages)
    shown = ids[(page - 1) * size : page * size]

    def href(**kw) -> str:
        query = dict(extra, sort=sort, page=page)
        query.update(kw)
        parts = [f"{k}={quote_param(str(v))}" for k, v in query.items() if v not in ("", None, "relevance", 1)]
        return ctx.url(base + ("?" + "&".join(parts) if parts else ""))

    sorts = Div(
        Span(ctx.t("sort_by") + ":", cls="muted"),
        *[
            A(
                ctx.t(f"sort_{s}"),
                href=href(sort=s, page=1),
                cls="active" if s == sort else None,
                data_testid=f"shop-sort-{s}",
            )
            for s in model.SORTS
        ],
        cls="shop-sorts",
    )
    toolbar = Div(
        Span(ctx.t("n_products", n=len(ids)), cls="muted", data_testid="shop-count"), sorts, cls="shop-toolbar"
    )
    pager = None
    if pages > 1:
        pager = Nav(
            A(ctx.t("prev_page"), href=href(page=page - 1), cls="button secondary", data_testid="shop-page-prev")
            if page > 1
            else None,
            Span(ctx.t("page_of", n=page, total=pages), cls="muted", data_testid="shop-page-info"),
            A(ctx.t("next_page"), href=href(page=page + 1), cls="button secondary", data_testid="shop-page-next")
            if page < pages
            else None,
            cls="pager",
        )
    return [toolbar, product_grid(ctx, products, shown), pager]


def quote_param(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def option_text(ctx: AppContext, pid: str, options: dict) -> str:
    return model.options_text(ctx.config, model.product_any(ctx.config, pid), options)


def product_name(ctx: AppContext, pid: str) -> str:
    p = model.product_any(ctx.config, pid)
    return p["name"] if p else pid


def order_summary(ctx: AppContext, lines: list[dict]):
    sub = model.subtotal(lines)
    ship = model.shipping_for(ctx.config, sub)
    free_over = ctx.config["free_shipping_over"]
    return Div(
        Div(Span(ctx.t("subtotal")), Span(money(ctx, sub), data_testid="shop-subtotal"), cls="sum-row"),
        Div(
            Span(ctx.t("shipping")),
            Span(ctx.t("free") if ship == 0 else money(ctx, ship), data_testid="shop-shipping"),
            cls="sum-row",
        ),
        Div(Span(ctx.t("total")), Span(money(ctx, sub + ship), data_testid="shop-total"), cls="sum-row total"),
        P(ctx.t("free_shipping_note", amount=money(ctx, free_over)), cls="muted small")
        if free_over > 0 and ship > 0
        else None,
        cls="stack",
    )
