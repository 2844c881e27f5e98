"""The admin API's wire facts, shared by the server (``web``), the apps (``appkit``) and the
server's client (``envs``) so that none imports another."""

SECRET_HEADER = "x-openapps-secret"
SECRET_ENV = "OPENAPPS_ADMIN_SECRET"

# Worlds: the default one answers every host; world ``ID`` also answers ``ID.localhost``.
DEFAULT_WORLD = "w0"
WORLD_HOST_SUFFIX = ".localhost"
WORLD_PARAM = "world"

# A page request carrying this header gets BrowserGym element ids (``bid`` attributes) written
# into the HTML by the server (openapps_sim.web.bids); our environments send it, stock BrowserGym
# does not (its own marking pass refuses pages that carry them already).
BIDS_HEADER = "x-openapps-bids"

# A sealed world (``PUT /_admin/seal``) answers page requests only when they carry its key in this
# header: its environment's own browser sends it, so nothing else (a script given the world's URL)
# can read or change the world outside the episode's counted steps.
PAGE_KEY_HEADER = "x-openapps-page-key"

# Every response of a world (its pages, redirects, the admin API acting on it) carries the world's
# revision after the request (openapps_sim.web.world.World.revision): a client that is the world's
# only client knows from it, without asking, whether anything a task checks has changed.
REVISION_HEADER = "x-openapps-revision"

# The longest text one form field, query parameter or app-tool argument may carry (docs/apps):
# the server answers a page request with a longer one by a page saying so, without running the
# app's handler, and an app operation refuses a longer argument (``OperationError``), whoever
# calls it. Agents' action strings are bounded by twice this (``envs.actions.MAX_ACTION_CHARS``).
MAX_TEXT_CHARS = 6000


def too_long(values: dict) -> tuple[str, int] | None:
    """``(key, length)`` of the first text of ``values`` (a value, or an item of a list value)
    longer than :data:`MAX_TEXT_CHARS`; None when every one fits."""
    for key, value in values.items():
        for text in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(text, str) and len(text) > MAX_TEXT_CHARS:
                return str(key), len(text)
    return None
