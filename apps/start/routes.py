"""The start page's one handler."""

from __future__ import annotations

from openapps_sim.apps.start.views import launcher_page

from openapps_sim.appkit import AppContext, AppRoutes


def index(ctx: AppContext, params: dict):
    return launcher_page(ctx)


def routes(r: AppRoutes) -> None:
    """Register the handlers below on ``r``."""
    r.get("/")(index)
