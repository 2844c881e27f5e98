"""The page shell every app page is wrapped in: document head, theme CSS, top bar, overlays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fasthtml.common import A, Body, Head, Header, Html, Main, Meta, Span, Style, Title, to_xml

from openapps_sim.web.theme import BASE_CSS

if TYPE_CHECKING:
    from openapps_sim.appkit import AppContext


def render_page(ctx: AppContext, title: str, children: tuple[Any, ...]) -> str:
    world = ctx.world
    theme = ctx.theme
    shell = world.config["shell"]
    css = BASE_CSS + world.theme_css(theme) + ctx.app.css
    body_cls = f"layout-{theme['layout']} nav-{theme['nav_position']} app-{ctx.app.name}"
    topbar = Header(
        A(shell["home_label"], href="/", data_testid="nav-home"),
        Span(shell["brand"], cls="brand"),
        Span(ctx.config.get("title", ""), data_testid="app-title") if ctx.app.name != "start" else None,
        cls="topbar",
    )
    doc = Html(
        Head(
            Meta(charset="utf-8"),
            Meta(name="viewport", content="width=device-width, initial-scale=1"),
            Title(f"{title} · {shell['brand']}"),
            Style(css),
        ),
        Body(topbar, Main(*children), cls=body_cls),
        lang=shell["lang"],
        dir=shell["dir"],
    )
    return "<!doctype html>\n" + to_xml(doc)
