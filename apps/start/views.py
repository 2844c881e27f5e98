"""The launcher: one tile per app with its icon, title and description; with 64 apps, a search
box (``?q=``: title, description or category) and a row of categories (``?category=``)."""

from __future__ import annotations

from urllib.parse import urlencode

from openapps_sim.apps.start.model import in_tile_order, launchable

from openapps_sim.appkit import AppContext, AppSpec
from openapps_sim.config.normalise import norm_text
from openapps_sim.web.components import app_search
from openapps_sim.web.icons import icon_path, svg
from openapps_sim.web.tags import H1, A, Div, Nav, NotStr, P, Span


def tile_icon(apps: dict[str, AppSpec], spec: AppSpec, chosen: str) -> str:
    """The tile's icon: the one the config names (an app's or a generic one), else the app's own."""
    if not chosen:
        return spec.icon_svg or icon_path("app")
    if chosen in apps and apps[chosen].icon_svg:
        return apps[chosen].icon_svg
    return icon_path(chosen)


def shown_apps(ctx: AppContext, names: list[str], query: str, category: str) -> list[str]:
    """The apps of ``names`` in ``category`` (every one for ``""``) whose title, description or
    category holds every word of ``query`` (case and accents folded)."""
    words = norm_text(query).split()
    out = []
    for name in names:
        cfg, spec = ctx.world.config[name], ctx.world.apps[name]
        if category and spec.category != category:
            continue
        text = norm_text(" ".join([str(cfg.get("title", "")), str(cfg.get("description", "")), spec.category]))
        if all(w in text for w in words):
            out.append(name)
    return out


def category_row(ctx: AppContext, names: list[str], chosen: str, query: str) -> object:
    """Links to the launcher narrowed to each category its apps come in (and back to all); the
    search in force is kept."""
    cats = sorted({ctx.world.apps[n].category for n in names if ctx.world.apps[n].category})

    def link(label: str, cat: str, testid: str) -> object:
        args = urlencode({k: v for k, v in (("category", cat), ("q", query)) if v})
        current = "page" if cat == chosen else None
        return A(label, href="/" + (f"?{args}" if args else ""), cls="chip", aria_current=current, data_testid=testid)

    links = [link(ctx.t("all_apps"), "", "launcher-category-all")]
    links += [link(cat, cat, f"launcher-category-{category_slug(cat)}") for cat in cats]
    return Nav(*links, aria_label=ctx.t("categories"), cls="chips", data_testid="launcher-categories")


def category_slug(category: str) -> str:
    """A category as a test id part: ``Maps & Navigation`` -> ``maps-and-navigation``."""
    return "-".join(norm_text(category.replace("&", " and ")).split())


def launcher_page(ctx: AppContext, query: str = "", category: str = ""):
    apps = ctx.world.apps
    every = in_tile_order(launchable(apps, ctx.world.config), ctx.world.config, ctx.config["tile_order"])
    tiles = []
    for name in shown_apps(ctx, every, query, category):
        cfg = ctx.world.config[name]
        icon = tile_icon(apps, apps[name], cfg.get("icon", ""))
        tiles.append(
            A(
                Span(NotStr(svg(icon, 28)), cls="icon-wrap"),
                Div(
                    Span(
                        cfg["title"],
                        cls="h2",
                        role="heading",
                        aria_level="2",
                        style="font-weight:700;font-size:1.2em;color:var(--primary)",
                    ),
                    P(cfg.get("description", ""), data_testid=f"launch-desc-{name}"),
                ),
                href=f"/{name}/",
                cls="card tile",
                data_testid=f"launch-{name}",
            )
        )
    subtitle = ctx.config.get("subtitle")
    return ctx.page(
        H1(ctx.config["heading"], data_testid="start-heading"),
        P(subtitle, cls="muted") if subtitle else None,
        app_search(ctx, query, hidden={"category": category} if category else None),
        category_row(ctx, every, category, query),
        Div(*tiles, cls="launcher") if tiles else P(ctx.t("no_match"), cls="muted", data_testid="launcher-empty"),
        title=ctx.config["title"],
    )
