"""The web app of ``openapps view``: its routes over the episodes of the run folders it was given
(served by the command with uvicorn, like ``openapps serve``; this module loads no server)."""

from __future__ import annotations

from fasthtml.common import FastHTML
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from openapps_sim.analysis.view.episode import episode_page, flip_page
from openapps_sim.analysis.view.episodes import Episodes
from openapps_sim.analysis.view.pages import flips_page, list_page


def build_app(episodes: Episodes) -> FastHTML:
    """``/`` the filtered list, ``/episode/<run>/<id>`` one episode, ``/flips`` the success
    flips and ``/flip?won=..&lost=..`` one of them side by side. Nothing is loaded from another
    host: styles are inline, images embedded, and the one script is a select's ``onchange``."""
    app = FastHTML(default_hdrs=False)

    def query(req: Request) -> dict[str, str]:
        return {k: str(v) for k, v in req.query_params.items()}

    @app.route("/", methods=["GET"])
    async def index(req: Request):
        return HTMLResponse(list_page(episodes, query(req)))

    @app.route("/episode/{source}/{episode_id}", methods=["GET"])
    async def episode(req: Request):
        key = f"{req.path_params['source']}/{req.path_params['episode_id']}"
        if key not in episodes.rows:
            return Response(f"no episode {key} in these run folders", status_code=404)
        return HTMLResponse(episode_page(episodes, key, query(req)))

    @app.route("/flips", methods=["GET"])
    async def flips(req: Request):
        return HTMLResponse(flips_page(episodes))

    @app.route("/flip", methods=["GET"])
    async def flip(req: Request):
        won, lost = req.query_params.get("won", ""), req.query_params.get("lost", "")
        if won not in episodes.rows or lost not in episodes.rows:
            return Response("no such pair of episodes in these run folders", status_code=404)
        return HTMLResponse(flip_page(episodes, won, lost))

    return app
