"""The start page: a launcher with an icon, title and description for every app."""

from __future__ import annotations

from pathlib import Path

from fasthtml.common import H1, A, Div, NotStr, P, Span

from openapps_sim.appkit import AppContext, AppRoutes, AppSpec
from openapps_sim.config.schema import Enum, Record, Str
from openapps_sim.web.icons import icon_svg

SCHEMA = Record(
    heading=Str("Your apps"),
    subtitle=Str(""),
    strings=Record(open=Str("Open")),
    tile_order=Enum(
        ["apps", "alphabetical", "reverse"],
        "apps",
        doc="order of the tiles: the apps' own order, alphabetical by title, or that order reversed",
        vary=True,
    ),
)

CSS = """
.launcher{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:var(--pad)}
.layout-mobile .launcher{grid-template-columns:1fr}
.tile{display:flex;gap:var(--pad);align-items:flex-start;text-decoration:none;color:var(--text)}
.tile .icon-wrap{flex:none;width:48px;height:48px;border-radius:var(--radius);background:var(--primary);
 color:var(--on-primary);display:flex;align-items:center;justify-content:center}
.tile .icon{width:28px;height:28px}
.tile h2{margin:0 0 4px 0;color:var(--primary)}
.tile p{margin:0;color:var(--muted);overflow-wrap:break-word;min-width:0}
.tile>div{min-width:0}
"""


def _tile_order(ctx: AppContext) -> list[str]:
    names = list(ctx.world.apps)
    order = ctx.config["tile_order"]
    if order == "alphabetical":
        names.sort(key=lambda n: str(ctx.world.config[n].get("title", n)).casefold())
    elif order == "reverse":
        names.reverse()
    return names


def routes(r: AppRoutes) -> None:
    @r.get("/")
    def index(ctx: AppContext, params: dict):
        tiles = []
        for name in _tile_order(ctx):
            if name == "start":
                continue
            cfg = ctx.world.config[name]
            icon = cfg.get("icon") or name
            tiles.append(
                A(
                    Span(NotStr(icon_svg(icon, 28)), cls="icon-wrap"),
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
            Div(*tiles, cls="launcher"),
            title=ctx.config["title"],
        )


APP = AppSpec(
    name="start",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=lambda config, rng: {},
    routes=routes,
    order=0,
    css=CSS,
)
