"""The page shell every app page is wrapped in: document head, theme CSS, top bar, overlays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fasthtml.common import A, Body, Head, Header, Html, Main, Meta, Span, Style, Title, to_xml

from .theme import BASE_CSS, theme_css

if TYPE_CHECKING:
    from .appkit import AppContext


def render_page(ctx: AppContext, title: str, children: tuple[Any, ...]) -> str:
    world = ctx.world
    theme = world.config["theme"]
    shell = world.config["shell"]
    css = BASE_CSS + world.theme_css() + ctx.app.css
    body_cls = f"layout-{theme['layout']} nav-{theme['nav_position']} app-{ctx.app.name}"
    topbar = Header(
        A(shell["home_label"], href="/", data_testid="nav-home"),
        Span(shell["brand"], cls="brand"),
        Span(ctx.config.get("title", ""), data_testid="app-title") if ctx.app.name != "start" else None,
        cls="topbar",
    )
    overlays = [hook(ctx) for hook in world.page_hooks]
    doc = Html(
        Head(
            Meta(charset="utf-8"),
            Meta(name="viewport", content="width=device-width, initial-scale=1"),
            Title(f"{title} · {shell['brand']}"),
            Style(css),
        ),
        Body(topbar, Main(*children), *[o for o in overlays if o is not None], cls=body_cls),
        lang=shell["lang"],
    )
    return "<!doctype html>\n" + to_xml(doc)


__all__ = ["render_page", "theme_css"]
