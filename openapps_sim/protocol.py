"""Facts shared by the app server (``web``), the apps (``appkit``) and the environments
(``envs``) that need none of them to be imported."""

# World ``ID`` is served at ``http://ID.localhost:PORT`` (Chromium resolves every *.localhost name
# to the loopback address); each world is an origin of its own.
WORLD_HOST_SUFFIX = ".localhost"

# A page request carrying this header gets BrowserGym element ids (``bid`` attributes) written
# into the HTML by the server (openapps_sim.web.bids); our environments send it, stock BrowserGym
# does not (its own marking pass refuses pages that carry them already).
BIDS_HEADER = "x-openapps-bids"

# A sealed world (``World.seal``; MCP sessions) answers a browser's page requests only when they
# carry its key in this header: its environment's own browser sends it, so nothing else given the
# world's URL can read or change the world outside the episode's counted steps.
PAGE_KEY_HEADER = "x-openapps-page-key"

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
