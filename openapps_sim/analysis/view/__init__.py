"""``openapps view RUNS...``: a local web page over every episode of one or more run folders.

``episodes`` reads the folders (through the report's reader) into one index with labels,
failure kinds, filters, search and success flips; ``pages`` draws the lists, ``episode`` one
episode and a flip side by side (the report's trajectory viewer with the tree and the exchange
with the model on each step), ``exchange`` a step's recorded exchange, ``style`` the stylesheet
and ``app`` the routes. The command (:mod:`openapps_sim.cli.view`) serves the app with uvicorn.
"""

from openapps_sim.analysis.view.app import build_app
from openapps_sim.analysis.view.episodes import Episodes, failure_kind, load_episodes

__all__ = ["Episodes", "build_app", "failure_kind", "load_episodes"]
