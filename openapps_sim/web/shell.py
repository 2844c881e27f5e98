"""The page shell every app page is wrapped in: document head, theme CSS, top bar, overlays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openapps_sim.protocol import BIDS_HEADER
from openapps_sim.web.interruptions import INTERRUPT_CSS, interruption_layer
from openapps_sim.web.serialize import marked_xml
from openapps_sim.web.tags import A, Body, Head, Header, Html, Main, Meta, Span, Style, Title, to_xml
from openapps_sim.web.theme import BASE_CSS, narrow_css

if TYPE_CHECKING:
    from openapps_sim.appkit import AppContext


def render_page(ctx: AppContext, title: str, children: tuple[Any, ...]) -> str:
    world = ctx.world
    theme = ctx.theme
    shell = world.config["shell"]
    css = BASE_CSS + world.theme_css(theme) + ctx.app.css + narrow_css(BASE_CSS + ctx.app.css)
    main, interruption = interruption_layer(ctx, Main(*[_auto_direction(c) for c in children]))
    if interruption is not None:
        css += INTERRUPT_CSS
    body_cls = f"layout-{theme['layout']} nav-{theme['nav_position']} app-{ctx.app.name}"
    topbar = Header(
        A(shell["home_label"], href="/", data_testid="nav-home"),
        Span(shell["brand"], cls="brand"),
        Span(ctx.config.get("title", ""), data_testid="app-title") if not ctx.app.home else None,
        cls="topbar",
    )
    doc = Html(
        Head(
            Meta(charset="utf-8"),
            Meta(name="viewport", content="width=device-width, initial-scale=1"),
            Title(f"{title} · {shell['brand']}"),
            Style(css),
        ),
        Body(
            *((interruption, topbar, main) if _is_banner(interruption) else (topbar, main, interruption)), cls=body_cls
        ),
        lang=shell["lang"],
        dir=shell["dir"],
    )
    request = getattr(ctx, "request", None)
    if request is not None and request.headers.get(BIDS_HEADER):
        return marked_xml(doc)  # mark_bids(to_xml(doc)), written in one pass
    return to_xml(doc)  # to_xml writes the doctype of an Html tree


_TEXT_INPUTS = {None, "text", "search", "email", "url", "tel"}


def _auto_direction(node: Any) -> Any:
    """Every text field and text area gets ``dir="auto"`` (unless it says otherwise), so what a
    user types reads in its own direction on a right-to-left page and vice versa."""
    tag = getattr(node, "tag", None)
    if tag is None:
        return node
    attrs = node.attrs
    if (tag == "textarea" or (tag == "input" and attrs.get("type") in _TEXT_INPUTS)) and "dir" not in attrs:
        attrs["dir"] = "auto"
    for child in node.children:
        _auto_direction(child)
    return node


def _is_banner(component: Any) -> bool:
    return component is not None and "interrupt-banner" in str(component.attrs.get("class", ""))
