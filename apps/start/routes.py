"""The start page's one handler."""

from __future__ import annotations

from openapps_sim.apps.start.views import launcher_page

from openapps_sim.appkit import AppContext, AppRoutes

routes = AppRoutes()  # the handlers below, registered in the order they are matched


@routes.get("/")
def index(ctx: AppContext, params: dict):
    return launcher_page(ctx, str(params.get("q", "")).strip(), str(params.get("category", "")).strip())
