"""Shop's catalogue pages: home, a category, search results and a product."""

from __future__ import annotations

from openapps_sim.apps.shop import model
from openapps_sim.apps.shop.images import product_svg
from openapps_sim.apps.shop.views import layout, listing, money, product_grid, product_img, stars

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import field
from openapps_sim.web.tags import H1, H2, A, Button, Div, Form, Input, NotStr, Option, P, Select, Span


def home_page(ctx: AppContext, params: dict):
    cfg = ctx.config
    products = model.catalogue(cfg)
    featured = [pid for pid in cfg["featured"] if pid in products]
    if not featured:
        featured = model.sort_ids(products, list(products), "rating")
    featured = featured[: cfg["featured_count"]]
    tiles = [
        A(
            NotStr(product_svg(c["icon"], "#7c8a99", 48)),
            Div(Span(c["name"], cls="shop-name"), P(c["blurb"], cls="muted small") if c["blurb"] else None),
            href=ctx.url(f"/category/{cid}"),
            cls="card shop-cat-tile",
            data_testid=f"shop-category-card-{cid}",
        )
        for cid, c in cfg["categories"].items()
    ]
    return layout(
        ctx,
        Div(
            Div(H1(ctx.t("home_heading"), data_testid="shop-heading"), P(ctx.t("home_tagline"), cls="muted")),
            cls="card shop-hero",
        ),
        H2(ctx.t("shop_by_category")),
        Div(*tiles, cls="shop-cat-tiles"),
        H2(ctx.t("featured"), style="margin-top:var(--pad)"),
        product_grid(ctx, products, featured),
    )


def category_page(ctx: AppContext, params: dict):
    cfg = ctx.config
    cid = params["cid"]
    c = cfg["categories"].get(cid)
    if c is None:
        return layout(ctx, Div(P(ctx.t("category_missing")), cls="card", data_testid="shop-missing"))
    products = model.catalogue(cfg)
    ids = [pid for pid, p in products.items() if p["category"] == cid]
    return layout(
        ctx,
        Div(A(ctx.t("shop_home"), href=ctx.url("/")), " › ", Span(c["name"]), cls="crumbs muted small"),
        H1(c["name"], data_testid="shop-heading"),
        P(c["blurb"], cls="muted") if c["blurb"] else None,
        *listing(ctx, params, f"/category/{cid}", ids, products, {}),
        title=f"{c['name']} · {cfg['title']}",
        active=cid,
    )


def search_page(ctx: AppContext, params: dict):
    cfg = ctx.config
    q = str(params.get("q", "")).strip()
    products = model.catalogue(cfg)
    if not q:
        heading, ids = ctx.t("all_products"), list(products)
    else:
        heading, ids = ctx.t("results_for", q=q), model.search(cfg, products, q)
    body = (
        listing(ctx, params, "/search", ids, products, {"q": q})
        if ids
        else [P(ctx.t("no_results"), cls="card muted", data_testid="shop-no-results")]
    )
    return layout(ctx, H1(heading, data_testid="shop-heading"), *body, q=q, title=f"{heading} · {cfg['title']}")


def _flash(ctx: AppContext, params: dict):
    """The note above a product: added to the cart, or an option the shop refused."""
    flash = None
    if params.get("added"):
        flash = Div(
            ctx.t("added") + " ",
            A(ctx.t("view_cart"), href=ctx.url("/cart"), style="color:inherit", data_testid="shop-added-view-cart"),
            cls="flash",
            data_testid="shop-added",
        )
    elif params.get("error"):
        flash = Div(ctx.t("bad_option"), cls="error", data_testid="shop-error")
    return flash


def _option_field(cfg: dict, pid: str, p: dict, kind: str, codes: list):
    """The drop-down of one product option (colour swatches beside a colour)."""
    swatches = None
    if kind == "colour":
        swatches = Div(
            *[
                Span(
                    cls="swatch",
                    style=f"background:{model.product_colour(cfg, pid, p, code)}",
                    title=model.option_label(cfg, code),
                )
                for code in codes
            ],
            cls="swatches",
            aria_hidden="true",
        )
    return field(
        cfg["option_names"].get(kind, kind),
        f"opt-{kind}",
        Select(
            *[Option(model.option_label(cfg, code), value=code) for code in codes],
            name=f"opt_{kind}",
            id=f"opt-{kind}",
            data_testid=f"shop-option-{kind}",
        ),
        swatches,
        cls="shop-field",
    )


def _add_form(ctx: AppContext, pid: str, p: dict):
    """The product's options, quantity and "add to cart"."""
    cfg = ctx.config
    fields = [_option_field(cfg, pid, p, kind, codes) for kind, codes in p["options"].items()]
    form = Form(
        Input(type="hidden", name="product_id", value=pid),
        *fields,
        field(
            ctx.t("quantity"),
            "qty",
            Input(type="number", name="qty", id="qty", value="1", min="1", max=str(model.MAX_QTY),
                  required=True, data_testid="shop-qty"),
            cls="shop-field",
        ),
        Button(ctx.t("add_to_cart"), type="submit", data_testid="shop-add-to-cart"),
        method="post",
        action=ctx.url("/cart/add"),
        cls="stack",
    )  # fmt: skip
    return form


def product_page(ctx: AppContext, params: dict):
    cfg = ctx.config
    pid = params["pid"]
    products = model.catalogue(cfg)
    p = products.get(pid)
    if p is None:
        return layout(ctx, Div(P(ctx.t("product_missing")), cls="card", data_testid="shop-missing"))
    c = cfg["categories"].get(p["category"], {"name": p["category"]})
    flash = _flash(ctx, params)
    form = _add_form(ctx, pid, p)
    related = [i for i, q in products.items() if q["category"] == p["category"] and i != pid][:4]
    return layout(
        ctx,
        Div(
            A(ctx.t("shop_home"), href=ctx.url("/")),
            " › ",
            A(c["name"], href=ctx.url(f"/category/{p['category']}"), data_testid="shop-crumb-category"),
            " › ",
            Span(p["name"]),
            cls="crumbs muted small",
        ),
        flash,
        Div(
            Div(product_img(ctx, pid, p, 320), cls="card"),
            Div(
                H1(p["name"], data_testid="shop-product-name"),
                Div(
                    Span(stars(p.get("rating", 0)), cls="stars", aria_hidden="true"),
                    " " + ctx.t("rating", rating=model.fmt_number(cfg, p.get("rating", 0))),
                    " · " + ctx.t("reviews", n=p.get("reviews", 0)),
                    cls="muted",
                    data_testid="shop-product-rating",
                ),
                Div(money(ctx, p["price"]), cls="shop-price big", data_testid="shop-product-price"),
                P(p.get("description", ""), data_testid="shop-product-description"),
                form,
                P(ctx.t("in_stock"), cls="muted small"),
                cls="stack",
            ),
            cls="shop-detail",
        ),
        H2(ctx.t("related", category=c["name"]), style="margin-top:var(--pad)") if related else None,
        product_grid(ctx, products, related) if related else None,
        title=f"{p['name']} · {cfg['title']}",
        active=p["category"],
    )
