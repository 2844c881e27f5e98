"""The admin API's wire facts, shared by the server (``web``) and its client (``envs``) so that
neither imports the other."""

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
