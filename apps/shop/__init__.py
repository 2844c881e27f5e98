"""Shop: browse a catalogue by category or search, choose options, fill a cart, check out,
and look back at past orders.

The catalogue lives in the configuration (so packs translate, lengthen or thin it); the state
holds only the cart, the orders and two id counters.
"""

from __future__ import annotations

from pathlib import Path

from fasthtml.common import H1, H2, A, Button, Div, Form, Input, Label, Li, Nav, NotStr, Option, P, Select, Span, Ul

from openapps_sim.appkit import AppContext, AppRoutes, AppSpec, ItemKey
from openapps_sim.config.schema import Enum, Float, Int, ListOf, MapOf, Record, Str
from openapps_sim.web.icons import icon_svg

from . import catalog as cat
from .images import ICONS, product_svg

STRINGS = Record(
    home_heading=Str("Find something you'll love"),
    home_tagline=Str("Everyday things for your home, your garden and your weekends."),
    search_placeholder=Str("Search products"),
    search_button=Str("Search"),
    categories=Str("Categories"),
    shop_by_category=Str("Shop by category"),
    featured=Str("Featured products"),
    shop_home=Str("Shop"),
    cart=Str("Cart"),
    orders=Str("Orders"),
    results_for=Str("Results for “{q}”"),
    all_products=Str("All products"),
    n_products=Str("{n} products"),
    no_results=Str("No products match your search. Try fewer or different words."),
    sort_by=Str("Sort by"),
    sort_relevance=Str("Relevance"),
    sort_price_asc=Str("Price: low to high"),
    sort_price_desc=Str("Price: high to low"),
    sort_rating=Str("Top rated"),
    sort_name=Str("Name"),
    prev_page=Str("Previous"),
    next_page=Str("Next"),
    page_of=Str("Page {n} of {total}"),
    rating=Str("{rating} out of 5"),
    reviews=Str("{n} reviews"),
    quantity=Str("Quantity"),
    add_to_cart=Str("Add to cart"),
    added=Str("Added to your cart."),
    view_cart=Str("View cart"),
    in_stock=Str("In stock – ships in 1–2 working days."),
    related=Str("More in {category}"),
    product_missing=Str("This product is not available."),
    category_missing=Str("This category does not exist."),
    bad_option=Str("Please choose one of the listed options and a quantity from 1 to 99."),
    cart_heading=Str("Your cart"),
    cart_empty=Str("Your cart is empty."),
    continue_shopping=Str("Continue shopping"),
    each=Str("{price} each"),
    update=Str("Update"),
    remove=Str("Remove"),
    empty_cart=Str("Empty cart"),
    subtotal=Str("Subtotal"),
    shipping=Str("Shipping"),
    free=Str("Free"),
    total=Str("Total"),
    free_shipping_note=Str("Free shipping on orders over {amount}."),
    checkout=Str("Proceed to checkout"),
    checkout_heading=Str("Checkout"),
    shipping_address=Str("Shipping address"),
    field_name=Str("Full name"),
    field_street=Str("Street and house number"),
    field_city=Str("City"),
    field_postcode=Str("Postcode"),
    field_country=Str("Country"),
    place_order=Str("Place order"),
    order_summary=Str("Order summary"),
    missing_fields=Str("Please fill in every field of the address."),
    nothing_to_check_out=Str("Your cart is empty, so there is nothing to check out."),
    back_to_cart=Str("Back to cart"),
    orders_heading=Str("Your orders"),
    no_orders=Str("You have not placed any orders yet."),
    order_number=Str("Order #{id}"),
    order_placed=Str("Thank you! Your order #{id} has been placed."),
    ship_to=Str("Ships to"),
    items_count=Str("{n} items"),
)

ADDRESS = Record(name=Str(), street=Str(), city=Str(), postcode=Str(), country=Str())

PRODUCT = Record(
    name=Str(),
    category=Str(doc="a key of shop.categories"),
    price=Float(lo=0, hi=1_000_000),
    options=MapOf(ListOf(Str()), default={}, doc="option kind (a key of option_names) → value codes"),
    rating=Float(0.0, lo=0, hi=5),
    reviews=Int(0, lo=0),
    description=Str(""),
)

SCHEMA = Record(
    strings=STRINGS,
    price_format=Str("${amount}", doc="how a price is written; {amount} is the number"),
    decimal_separator=Str(".", doc="'.' or ','"),
    shipping_fee=Float(4.95, lo=0, hi=1000),
    free_shipping_over=Float(50.0, lo=0, hi=100000, doc="subtotal from which shipping is free (0: never)"),
    page_size=Int(24, lo=4, hi=500, doc="products per page in categories and search results", vary=(8, 12, 24, 48)),
    featured=ListOf(Str(), default=[], doc="product ids on the home page (default: the top rated)"),
    featured_count=Int(8, lo=0, hi=48),
    only_products=ListOf(Str(), default=[], doc="if not empty: only these product ids are on sale"),
    categories=MapOf(Record(name=Str(), icon=Enum(ICONS, "box"), blurb=Str("")), doc="category id → name"),
    option_names=MapOf(Str(), doc="option kind (colour, size, format) → its label"),
    option_values=MapOf(Record(name=Str(), hex=Str("")), doc="stable value code → label (and colour)"),
    products=MapOf(PRODUCT, doc="product id (p001 ...) → product"),
    past_orders=ListOf(Record(id=Str(), lines=ListOf(Record(product_id=Str(), options=MapOf(Str(), default={}),
                                                          qty=Int(1, lo=1, hi=99), price=Float(lo=0))),
                              address=ADDRESS), default=[], doc="orders already in the history"),
)  # fmt: skip

CSS = """
.shop-top{padding:var(--gap) var(--pad)}
.shop-header{justify-content:space-between}
.shop-search{display:flex;gap:var(--gap);flex:1 1 260px}
.shop-search input{flex:1 1 auto;width:6em;min-width:0}
.shop-links{display:flex;flex-wrap:wrap;gap:var(--gap) var(--pad);align-items:center}
.shop-links a{font-weight:600;text-decoration:none;display:inline-flex;gap:4px;align-items:center}
.shop-cats{display:flex;flex-wrap:wrap;gap:calc(var(--gap)*.5) var(--pad);margin-top:var(--gap);padding-top:var(--gap);
 border-top:var(--bw) solid var(--border)}
.shop-cats a{text-decoration:none;color:var(--muted);font-weight:600}
.shop-cats a.active{color:var(--primary);text-decoration:underline}
.shop-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:var(--pad)}
.layout-mobile .shop-grid{grid-template-columns:repeat(auto-fill,minmax(min(100%,11em),1fr))}
.shop-card{display:flex;flex-direction:column;gap:4px;text-decoration:none;color:var(--text);margin:0}
.shop-card:hover,.shop-card:focus{border-color:var(--primary)}
.shop-card .shop-img{width:100%;height:auto}
.shop-name{font-weight:600;overflow-wrap:break-word}
.shop-price{font-weight:700;color:var(--text)}
.shop-price.big{font-size:1.5em}
.stars{color:var(--accent);letter-spacing:1px}
.shop-cat-tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:var(--pad)}
.shop-cat-tile{display:flex;gap:var(--gap);align-items:center;text-decoration:none;color:var(--text);margin:0}
.shop-cat-tile p{margin:0;overflow-wrap:break-word}
.shop-cat-tile svg{flex:none}
.shop-hero{display:flex;gap:var(--pad);align-items:center;justify-content:space-between}
.shop-hero p{margin:0}
.shop-detail{display:grid;grid-template-columns:minmax(0,340px) minmax(0,1fr);gap:calc(var(--pad)*1.5);align-items:start}
.layout-mobile .shop-detail{grid-template-columns:1fr}
.shop-detail .shop-img{width:100%;height:auto}
.shop-detail p{overflow-wrap:break-word}
.shop-field{display:flex;flex-direction:column;gap:2px;max-width:320px}
.shop-field select,.shop-field input{width:100%}
.swatches{display:flex;gap:6px;margin-top:4px}
.swatch{width:1.1em;height:1.1em;border-radius:50%;border:var(--bw) solid var(--border);display:inline-block}
.crumbs{margin-bottom:var(--gap)}
.crumbs a{text-decoration:none}
.shop-toolbar{display:flex;flex-wrap:wrap;gap:var(--gap) var(--pad);align-items:center;justify-content:space-between;
 margin-bottom:var(--pad)}
.shop-sorts{display:flex;flex-wrap:wrap;gap:var(--gap);align-items:center}
.shop-sorts a{text-decoration:none}
.shop-sorts a.active{font-weight:700;text-decoration:underline}
.pager{display:flex;gap:var(--pad);align-items:center;justify-content:center;margin:var(--pad) 0}
.shop-cols{display:grid;grid-template-columns:1fr minmax(240px,320px);gap:var(--pad);align-items:start}
.layout-mobile .shop-cols{grid-template-columns:1fr}
.shop-line{display:grid;grid-template-columns:64px minmax(0,1fr) auto auto auto;gap:var(--pad);align-items:center;
 padding:var(--gap) 0;border-bottom:var(--bw) solid var(--border)}
.shop-line form.row{flex-wrap:nowrap}
.layout-mobile .shop-line{display:flex;flex-wrap:wrap}
.layout-mobile .shop-line .info{flex:1 1 60%}
.layout-mobile .shop-line form.row,.layout-mobile .shop-search{flex-direction:row;flex:none}
.shop-line:last-child{border-bottom:0}
.shop-line .shop-img{flex:none}
.shop-line .info{min-width:0;overflow-wrap:break-word}
.shop-line input[type=number]{width:5em}
.shop-line .line-total{min-width:6em;text-align:end;font-weight:700}
.sum-row{display:flex;justify-content:space-between;gap:var(--gap)}
.sum-row.total{font-weight:700;font-size:1.15em;border-top:var(--bw) solid var(--border);padding-top:var(--gap)}
.shop-form{display:grid;grid-template-columns:1fr 1fr;gap:var(--gap) var(--pad)}
.shop-form .wide{grid-column:1 / -1}
.layout-mobile .shop-form{grid-template-columns:1fr}
.shop-form input{width:100%}
.order-lines li{display:flex;justify-content:space-between;gap:var(--gap);padding:2px 0}
"""


# -- state -----------------------------------------------------------------------------------
def initial_state(config: dict, rng) -> dict:
    cat.check_config(config)
    orders = []
    for o in config["past_orders"]:
        lines = [
            {"product_id": ln["product_id"], "options": dict(ln["options"]), "qty": ln["qty"], "price": ln["price"]}
            for ln in o["lines"]
        ]
        orders.append(
            {"id": o["id"], "lines": lines, "address": dict(o["address"]), "total": cat.order_total(config, lines)}
        )
    numeric = [int(o["id"]) for o in orders if o["id"].isdigit()]
    return {"cart": [], "orders": orders, "next_line": 1, "next_order": max(numeric, default=1000) + 1}


def normalise(state: dict) -> dict:
    return cat.normalise(state)


# -- small pieces ----------------------------------------------------------------------------
def _price(ctx: AppContext, amount: float) -> str:
    return cat.fmt_price(ctx.config, amount)


def _stars(rating: float) -> str:
    full = int(round(rating))
    return "★" * full + "☆" * (5 - full)


def _img(ctx: AppContext, pid: str, p: dict, size: int, chosen: str | None = None) -> NotStr:
    icon = (ctx.config["categories"].get(p["category"]) or {}).get("icon", "box")
    return NotStr(product_svg(icon, cat.product_colour(ctx.config, pid, p, chosen), size))


def _cart_count(ctx: AppContext) -> int:
    return sum(ln["qty"] for ln in ctx.state["cart"])


def _layout(ctx: AppContext, *children, title: str | None = None, q: str = "", active: str = ""):
    cfg = ctx.config
    count = _cart_count(ctx)
    top = Div(
        Div(
            A(
                NotStr(icon_svg("shop", 20)),
                ctx.t("shop_home"),
                href=ctx.url("/"),
                data_testid="shop-home",
                style="font-weight:700;text-decoration:none;display:inline-flex;gap:4px;align-items:center",
            ),
            Form(
                Input(
                    type="search",
                    name="q",
                    value=q,
                    placeholder=ctx.t("search_placeholder"),
                    aria_label=ctx.t("search_placeholder"),
                    autocomplete="off",
                    data_testid="shop-search",
                ),
                Button(ctx.t("search_button"), type="submit", data_testid="shop-search-submit"),
                method="get",
                action=ctx.url("/search"),
                role="search",
                cls="shop-search",
            ),
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


def _card(ctx: AppContext, pid: str, p: dict):
    return A(
        _img(ctx, pid, p, 160),
        Span(p["name"], cls="shop-name"),
        Span(
            Span(_stars(p.get("rating", 0)), cls="stars", aria_hidden="true"),
            f" {cat.fmt_number(ctx.config, p.get('rating', 0))} ({p.get('reviews', 0)})",
            cls="muted small",
        ),
        Span(_price(ctx, p["price"]), cls="shop-price"),
        href=ctx.url(f"/product/{pid}"),
        cls="card shop-card",
        data_testid=f"shop-product-{pid}",
    )


def _grid(ctx: AppContext, products: dict, ids: list[str]):
    return Div(*[_card(ctx, pid, products[pid]) for pid in ids], cls="shop-grid", data_testid="shop-results")


def _int(value, default: int | None = None) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


def _listing(ctx: AppContext, params: dict, base: str, ids: list[str], products: dict, extra: dict) -> list:
    """Sort links, the product grid of one page and the pager."""
    sort = params.get("sort") if params.get("sort") in cat.SORTS else "relevance"
    ids = cat.sort_ids(products, ids, sort)
    size = ctx.config["page_size"]
    pages = max(1, (len(ids) + size - 1) // size)
    page = min(max(1, _int(params.get("page"), 1) or 1), pages)
    shown = ids[(page - 1) * size : page * size]

    def href(**kw) -> str:
        query = dict(extra, sort=sort, page=page)
        query.update(kw)
        parts = [f"{k}={_q(str(v))}" for k, v in query.items() if v not in ("", None, "relevance", 1)]
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
            for s in cat.SORTS
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
    return [toolbar, _grid(ctx, products, shown), pager]


def _q(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def _option_text(ctx: AppContext, pid: str, options: dict) -> str:
    return cat.options_text(ctx.config, cat.product_any(ctx.config, pid), options)


def _name(ctx: AppContext, pid: str) -> str:
    p = cat.product_any(ctx.config, pid)
    return p["name"] if p else pid


def _summary(ctx: AppContext, lines: list[dict]):
    sub = cat.subtotal(lines)
    ship = cat.shipping_for(ctx.config, sub)
    free_over = ctx.config["free_shipping_over"]
    return Div(
        Div(Span(ctx.t("subtotal")), Span(_price(ctx, sub), data_testid="shop-subtotal"), cls="sum-row"),
        Div(
            Span(ctx.t("shipping")),
            Span(ctx.t("free") if ship == 0 else _price(ctx, ship), data_testid="shop-shipping"),
            cls="sum-row",
        ),
        Div(Span(ctx.t("total")), Span(_price(ctx, sub + ship), data_testid="shop-total"), cls="sum-row total"),
        P(ctx.t("free_shipping_note", amount=_price(ctx, free_over)), cls="muted small")
        if free_over > 0 and ship > 0
        else None,
        cls="stack",
    )


# -- routes ----------------------------------------------------------------------------------
def routes(r: AppRoutes) -> None:
    @r.get("/")
    def home(ctx: AppContext, params: dict):
        cfg = ctx.config
        products = cat.catalogue(cfg)
        featured = [pid for pid in cfg["featured"] if pid in products]
        if not featured:
            featured = cat.sort_ids(products, list(products), "rating")
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
        return _layout(
            ctx,
            Div(
                Div(H1(ctx.t("home_heading"), data_testid="shop-heading"), P(ctx.t("home_tagline"), cls="muted")),
                cls="card shop-hero",
            ),
            H2(ctx.t("shop_by_category")),
            Div(*tiles, cls="shop-cat-tiles"),
            H2(ctx.t("featured"), style="margin-top:var(--pad)"),
            _grid(ctx, products, featured),
        )

    @r.get("/category/{cid}")
    def category(ctx: AppContext, params: dict):
        cfg = ctx.config
        cid = params["cid"]
        c = cfg["categories"].get(cid)
        if c is None:
            return _layout(ctx, Div(P(ctx.t("category_missing")), cls="card", data_testid="shop-missing"))
        products = cat.catalogue(cfg)
        ids = [pid for pid, p in products.items() if p["category"] == cid]
        return _layout(
            ctx,
            Div(A(ctx.t("shop_home"), href=ctx.url("/")), " › ", Span(c["name"]), cls="crumbs muted small"),
            H1(c["name"], data_testid="shop-heading"),
            P(c["blurb"], cls="muted") if c["blurb"] else None,
            *_listing(ctx, params, f"/category/{cid}", ids, products, {}),
            title=f"{c['name']} · {cfg['title']}",
            active=cid,
        )

    @r.get("/search")
    def search(ctx: AppContext, params: dict):
        cfg = ctx.config
        q = str(params.get("q", "")).strip()
        products = cat.catalogue(cfg)
        if not q:
            heading, ids = ctx.t("all_products"), list(products)
        else:
            heading, ids = ctx.t("results_for", q=q), cat.search(cfg, products, q)
        body = (
            _listing(ctx, params, "/search", ids, products, {"q": q})
            if ids
            else [P(ctx.t("no_results"), cls="card muted", data_testid="shop-no-results")]
        )
        return _layout(ctx, H1(heading, data_testid="shop-heading"), *body, q=q, title=f"{heading} · {cfg['title']}")

    @r.get("/product/{pid}")
    def product(ctx: AppContext, params: dict):
        cfg = ctx.config
        pid = params["pid"]
        products = cat.catalogue(cfg)
        p = products.get(pid)
        if p is None:
            return _layout(ctx, Div(P(ctx.t("product_missing")), cls="card", data_testid="shop-missing"))
        c = cfg["categories"].get(p["category"], {"name": p["category"]})
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
        fields = []
        for kind, codes in p["options"].items():
            swatches = None
            if kind == "colour":
                swatches = Div(
                    *[
                        Span(
                            cls="swatch",
                            style=f"background:{cat.product_colour(cfg, pid, p, code)}",
                            title=cat.option_label(cfg, code),
                        )
                        for code in codes
                    ],
                    cls="swatches",
                    aria_hidden="true",
                )
            fields.append(
                Div(
                    Label(cfg["option_names"].get(kind, kind), fr=f"opt-{kind}"),
                    Select(
                        *[Option(cat.option_label(cfg, code), value=code) for code in codes],
                        name=f"opt_{kind}",
                        id=f"opt-{kind}",
                        data_testid=f"shop-option-{kind}",
                    ),
                    swatches,
                    cls="shop-field",
                )
            )
        form = Form(
            Input(type="hidden", name="product_id", value=pid),
            *fields,
            Div(
                Label(ctx.t("quantity"), fr="qty"),
                Input(type="number", name="qty", id="qty", value="1", min="1", max=str(cat.MAX_QTY),
                      required=True, data_testid="shop-qty"),
                cls="shop-field",
            ),
            Button(ctx.t("add_to_cart"), type="submit", data_testid="shop-add-to-cart"),
            method="post",
            action=ctx.url("/cart/add"),
            cls="stack",
        )  # fmt: skip
        related = [i for i, q in products.items() if q["category"] == p["category"] and i != pid][:4]
        return _layout(
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
                Div(_img(ctx, pid, p, 320), cls="card"),
                Div(
                    H1(p["name"], data_testid="shop-product-name"),
                    Div(
                        Span(_stars(p.get("rating", 0)), cls="stars", aria_hidden="true"),
                        " " + ctx.t("rating", rating=cat.fmt_number(cfg, p.get("rating", 0))),
                        " · " + ctx.t("reviews", n=p.get("reviews", 0)),
                        cls="muted",
                    ),
                    Div(_price(ctx, p["price"]), cls="shop-price big", data_testid="shop-product-price"),
                    P(p.get("description", ""), data_testid="shop-product-description"),
                    form,
                    P(ctx.t("in_stock"), cls="muted small"),
                    cls="stack",
                ),
                cls="shop-detail",
            ),
            H2(ctx.t("related", category=c["name"]), style="margin-top:var(--pad)") if related else None,
            _grid(ctx, products, related) if related else None,
            title=f"{p['name']} · {cfg['title']}",
            active=p["category"],
        )

    @r.post("/cart/add")
    def add(ctx: AppContext, params: dict):
        pid = str(params.get("product_id", ""))
        p = cat.catalogue(ctx.config).get(pid)
        if p is None:
            return ctx.redirect("/")
        options = {}
        for kind, codes in p["options"].items():
            value = params.get(f"opt_{kind}")
            if value not in codes:
                return ctx.redirect(f"/product/{pid}?error=1")
            options[kind] = value
        qty = _int(params.get("qty"), None)
        if qty is None or not 1 <= qty <= cat.MAX_QTY:
            return ctx.redirect(f"/product/{pid}?error=1")
        line, merged = cat.add_line(ctx.state, pid, options, qty)
        ctx.log("add_to_cart", line=line["id"], product_id=pid, options=options, qty=qty, merged=merged)
        return ctx.redirect(f"/product/{pid}?added={line['id']}")

    def _line(ctx: AppContext, params: dict) -> dict | None:
        n = _int(params.get("line"))
        return next((ln for ln in ctx.state["cart"] if ln["id"] == n), None)

    @r.post("/cart/line/{line}/qty")
    def set_qty(ctx: AppContext, params: dict):
        line = _line(ctx, params)
        qty = _int(params.get("qty"))
        if line is None or qty is None:
            return ctx.redirect("/cart")
        qty = min(qty, cat.MAX_QTY)
        if qty <= 0:
            ctx.state["cart"].remove(line)
            ctx.log("remove_line", line=line["id"], product_id=line["product_id"], options=line["options"])
        elif qty != line["qty"]:
            old = line["qty"]
            line["qty"] = qty
            ctx.log("set_qty", line=line["id"], product_id=line["product_id"], old=old, qty=qty)
        return ctx.redirect("/cart")

    @r.post("/cart/line/{line}/remove")
    def remove(ctx: AppContext, params: dict):
        line = _line(ctx, params)
        if line is not None:
            ctx.state["cart"].remove(line)
            ctx.log("remove_line", line=line["id"], product_id=line["product_id"], options=line["options"])
        return ctx.redirect("/cart")

    @r.post("/cart/empty")
    def empty(ctx: AppContext, params: dict):
        if ctx.state["cart"]:
            n = len(ctx.state["cart"])
            ctx.state["cart"] = []
            ctx.log("empty_cart", lines=n)
        return ctx.redirect("/cart")

    @r.get("/cart")
    def cart_page(ctx: AppContext, params: dict):
        cfg = ctx.config
        cart = ctx.state["cart"]
        if not cart:
            return _layout(
                ctx,
                H1(ctx.t("cart_heading"), data_testid="shop-heading"),
                Div(
                    P(ctx.t("cart_empty"), data_testid="shop-cart-empty"),
                    A(ctx.t("continue_shopping"), href=ctx.url("/"), cls="button", data_testid="shop-continue"),
                    cls="card",
                ),
                title=f"{ctx.t('cart_heading')} · {cfg['title']}",
            )
        rows = []
        for ln in cart:
            n = ln["id"]
            p = cat.product_any(cfg, ln["product_id"])
            price = p["price"] if p else 0.0
            rows.append(
                Li(
                    _img(ctx, ln["product_id"], p, 64, ln["options"].get("colour")) if p else Span(),
                    Div(
                        A(_name(ctx, ln["product_id"]), href=ctx.url(f"/product/{ln['product_id']}"),
                          cls="shop-name", data_testid=f"shop-line-product-{n}"),
                        Div(_option_text(ctx, ln["product_id"], ln["options"]), cls="muted small"),
                        Div(ctx.t("each", price=_price(ctx, price)), cls="muted small"),
                        cls="info",
                    ),
                    Form(
                        Input(type="number", name="qty", value=str(ln["qty"]), min="0", max=str(cat.MAX_QTY),
                              aria_label=ctx.t("quantity"), data_testid=f"shop-line-qty-{n}"),
                        Button(ctx.t("update"), type="submit", cls="secondary", data_testid=f"shop-line-update-{n}"),
                        method="post",
                        action=ctx.url(f"/cart/line/{n}/qty"),
                        cls="row",
                    ),
                    Span(_price(ctx, price * ln["qty"]), cls="line-total"),
                    Form(
                        Button(ctx.t("remove"), type="submit", cls="danger", data_testid=f"shop-line-remove-{n}"),
                        method="post",
                        action=ctx.url(f"/cart/line/{n}/remove"),
                    ),
                    cls="shop-line",
                    data_testid=f"shop-line-{n}",
                )
            )  # fmt: skip
        lines = cat.priced_lines(cfg, cart)
        return _layout(
            ctx,
            H1(ctx.t("cart_heading"), data_testid="shop-heading"),
            Div(
                Div(Ul(*rows, cls="plain"), cls="card"),
                Div(
                    _summary(ctx, lines),
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

    def _checkout_page(ctx: AppContext, values: dict, error: bool):
        cfg = ctx.config
        cart = ctx.state["cart"]
        title = f"{ctx.t('checkout_heading')} · {cfg['title']}"
        if not cart:
            return _layout(
                ctx,
                H1(ctx.t("checkout_heading"), data_testid="shop-heading"),
                Div(
                    P(ctx.t("nothing_to_check_out"), data_testid="shop-cart-empty"),
                    A(ctx.t("continue_shopping"), href=ctx.url("/"), cls="button", data_testid="shop-continue"),
                    cls="card",
                ),
                title=title,
            )
        autocomplete = {"name": "name", "street": "street-address", "city": "address-level2",
                        "postcode": "postal-code", "country": "country-name"}  # fmt: skip
        fields = [
            Div(
                Label(ctx.t(f"field_{k}"), fr=f"f-{k}"),
                Input(type="text", name=k, id=f"f-{k}", value=values.get(k, ""), required=True,
                      autocomplete=autocomplete[k], data_testid=f"shop-field-{k}"),
                cls="wide" if k in ("name", "street") else None,
            )
            for k in cat.ADDRESS_FIELDS
        ]  # fmt: skip
        lines = cat.priced_lines(cfg, cart)
        items = [
            Li(
                Span(f"{ln['qty']} × {_name(ctx, ln['product_id'])}",
                     Span(" · " + _option_text(ctx, ln["product_id"], ln["options"]), cls="muted small")
                     if ln["options"] else None),
                Span(_price(ctx, ln["price"] * ln["qty"])),
            )
            for ln in lines
        ]  # fmt: skip
        return _layout(
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
                    Div(_summary(ctx, lines), style="margin-top:var(--pad)"),
                    A(ctx.t("back_to_cart"), href=ctx.url("/cart"), data_testid="shop-back-to-cart"),
                    cls="card stack",
                ),
                cls="shop-cols",
            ),
            title=title,
        )  # fmt: skip

    @r.get("/checkout")
    def checkout_page(ctx: AppContext, params: dict):
        return _checkout_page(ctx, {}, False)

    @r.post("/checkout")
    def checkout(ctx: AppContext, params: dict):
        address = {k: str(params.get(k, "")).strip() for k in cat.ADDRESS_FIELDS}
        if not ctx.state["cart"]:
            return ctx.redirect("/cart")
        if not all(address.values()):
            return _checkout_page(ctx, address, True)
        order = cat.place_order(ctx.state, ctx.config, address)
        ctx.log("checkout", order=order["id"], lines=len(order["lines"]), total=order["total"], address=address)
        return ctx.redirect(f"/orders?placed={order['id']}")

    @r.get("/orders")
    def orders(ctx: AppContext, params: dict):
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
                                    A(_name(ctx, ln["product_id"]), href=ctx.url(f"/product/{ln['product_id']}"),
                                      data_testid=f"shop-order-{o['id']}-product-{ln['product_id']}"),
                                    Span(" · " + _option_text(ctx, ln["product_id"], ln["options"]),
                                         cls="muted small") if ln["options"] else None,
                                ),
                                Span(_price(ctx, ln["price"] * ln["qty"])),
                            )
                            for ln in o["lines"]
                        ],
                        cls="plain order-lines",
                    ),
                    Div(Span(ctx.t("total")), Span(_price(ctx, o["total"])), cls="sum-row total"),
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
        return _layout(
            ctx,
            Div(ctx.t("order_placed", id=placed), cls="flash", data_testid="shop-order-placed")
            if placed and any(o["id"] == placed for o in ctx.state["orders"])
            else None,
            H1(ctx.t("orders_heading"), data_testid="shop-heading"),
            *(cards or [Div(P(ctx.t("no_orders"), cls="muted"), cls="card", data_testid="shop-no-orders")]),
            title=f"{ctx.t('orders_heading')} · {cfg['title']}",
        )


APP = AppSpec(
    name="shop",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes=routes,
    normalise=normalise,
    order=50,
    css=CSS,
    item_keys={
        "cart": ItemKey(("product_id", "options"), "cart line"),
        "orders": ItemKey((), "order"),
        "orders[].lines": ItemKey(("product_id", "options"), "order line"),
    },
)
