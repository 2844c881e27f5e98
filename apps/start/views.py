"""The launcher: one tile per app with its icon, title and description."""

from __future__ import annotations

from openapps_sim.apps.start.model import in_tile_order, launchable

from openapps_sim.appkit import AppContext, AppSpec
from openapps_sim.web.icons import icon_path, svg
from openapps_sim.web.tags import H1, A, Div, NotStr, P, Span


def tile_icon(apps: dict[str, AppSpec], spec: AppSpec, chosen: str) -> str:
    """The tile's icon: the one the config names (an app's or a generic one), else the app's own."""
    if not chosen:
        return spec.icon_svg or icon_path("app")
    if chosen in apps and apps[chosen].icon_svg:
        return apps[chosen].icon_svg
    return icon_path(chosen)


def launcher_page(ctx: AppContext):
    apps = ctx.world.apps
    tiles = []
    for name in in_tile_order(launchable(apps, ctx.world.config), ctx.world.config, ctx.config["tile_order"]):
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
        Div(*tiles, cls="launcher"),
        title=ctx.config["title"],
    )
