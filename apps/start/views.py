"""The launcher: one tile per app with its icon, title and description; with 64 apps, a search
box (``?q=``: title, description or category) and a row of categories (``?category=``).

The category row and the tiles are most of the page and the same at every visit of a world
(and in every world of the same configuration): they are written as HTML once per
:class:`Tile` list, query, category and labels (:func:`launcher_body`), a pure function of
those values, so a world whose titles, icons, order or language differ gets other HTML."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple
from urllib.parse import urlencode

from openapps_sim.apps.start.model import in_tile_order, launchable

from openapps_sim.appkit import AppContext, AppSpec
from openapps_sim.config.normalise import norm_text
from openapps_sim.web.components import app_search
from openapps_sim.web.icons import icon_path, svg
from openapps_sim.web.tags import H1, A, Div, Nav, NotStr, P, Span, to_xml

CONTENT_LEVEL = 6  # the indentation of a page's content in the page shell (html > body > main)
KEPT_BODIES = 128  # launcher bodies kept (a query an agent types is a new one)


class Tile(NamedTuple):
    """What the launcher shows of one app (everything :func:`launcher_body` reads of it)."""

    name: str
    title: str
    description: str
    category: str  # Play's name: what ``?category=`` and the test ids say
    icon: str  # the SVG path drawn
    category_label: str = ""  # the category as the world's language names it (else Play's name)


class Labels(NamedTuple):
    """The launcher's own texts in the world's language."""

    all_apps: str
    categories: str
    no_match: str


def tile_icon(apps: dict[str, AppSpec], spec: AppSpec, chosen: str) -> str:
    """The tile's icon: the one the config names (an app's or a generic one), else the app's own."""
    if not chosen:
        return spec.icon_svg or icon_path("app")
    if chosen in apps and apps[chosen].icon_svg:
        return apps[chosen].icon_svg
    return icon_path(chosen)


def tiles_of(ctx: AppContext) -> tuple[Tile, ...]:
    """A tile for every app on the start page, in the start page's tile order."""
    apps, config = ctx.world.apps, ctx.world.config
    names = in_tile_order(launchable(apps, config), config, ctx.config["tile_order"])
    shown_names = ctx.config["category_names"]
    return tuple(
        Tile(
            name,
            config[name]["title"],
            config[name].get("description", ""),
            apps[name].category,
            tile_icon(apps, apps[name], config[name].get("icon", "")),
            shown_names.get(apps[name].category, apps[name].category),
        )
        for name in names
    )


def shown_tiles(tiles: tuple[Tile, ...], query: str, category: str) -> list[Tile]:
    """The tiles in ``category`` (every one for ``""``) whose title, description or category
    (Play's name or the world's) holds every word of ``query`` (case and accents folded)."""
    words = norm_text(query).split()
    out = []
    for tile in tiles:
        if category and tile.category != category:
            continue
        text = norm_text(" ".join([str(tile.title), str(tile.description), tile.category, tile.category_label]))
        if all(w in text for w in words):
            out.append(tile)
    return out


def category_row(tiles: tuple[Tile, ...], chosen: str, query: str, labels: Labels) -> object:
    """Links to the launcher narrowed to each category its apps come in (and back to all), named
    and ordered in the world's language; the search in force is kept."""
    shown = {t.category: t.category_label or t.category for t in tiles if t.category}
    cats = sorted(shown, key=lambda cat: norm_text(shown[cat]))

    def link(label: str, cat: str, testid: str) -> object:
        args = urlencode({k: v for k, v in (("category", cat), ("q", query)) if v})
        current = "page" if cat == chosen else None
        return A(label, href="/" + (f"?{args}" if args else ""), cls="chip", aria_current=current, data_testid=testid)

    links = [link(labels.all_apps, "", "launcher-category-all")]
    links += [link(shown[cat], cat, f"launcher-category-{category_slug(cat)}") for cat in cats]
    return Nav(*links, aria_label=labels.categories, cls="chips", data_testid="launcher-categories")


def category_slug(category: str) -> str:
    """A category as a test id part: ``Maps & Navigation`` -> ``maps-and-navigation``."""
    return "-".join(norm_text(category.replace("&", " and ")).split())


def tile_link(tile: Tile) -> object:
    return A(
        Span(NotStr(svg(tile.icon, 28)), cls="icon-wrap"),
        Div(
            Span(
                tile.title,
                cls="h2",
                role="heading",
                aria_level="2",
                style="font-weight:700;font-size:1.2em;color:var(--primary)",
            ),
            P(tile.description, data_testid=f"launch-desc-{tile.name}"),
        ),
        href=f"/{tile.name}/",
        cls="card tile",
        data_testid=f"launch-{tile.name}",
    )


@lru_cache(maxsize=KEPT_BODIES)
def launcher_body(tiles: tuple[Tile, ...], query: str, category: str, labels: Labels) -> str:
    """The category row and the tiles shown (or the note that none matches), as the HTML the
    page shell writes of them: made of its arguments alone, so it is kept by them."""
    shown = shown_tiles(tiles, query, category)
    parts = (
        category_row(tiles, category, query, labels),
        Div(*map(tile_link, shown), cls="launcher")
        if shown
        else P(labels.no_match, cls="muted", data_testid="launcher-empty"),
    )
    return "".join(to_xml(part, lvl=CONTENT_LEVEL) for part in parts)


def launcher_page(ctx: AppContext, query: str = "", category: str = ""):
    labels = Labels(ctx.t("all_apps"), ctx.t("categories"), ctx.t("no_match"))
    subtitle = ctx.config.get("subtitle")
    return ctx.page(
        H1(ctx.config["heading"], data_testid="start-heading"),
        P(subtitle, cls="muted") if subtitle else None,
        app_search(ctx, query, hidden={"category": category} if category else None),
        NotStr(launcher_body(tiles_of(ctx), query, category, labels)),
        title=ctx.config["title"],
    )
