"""Maps: a world map drawn locally as inline SVG, a gazetteer to search, saved locations and
dropped pins.

The map is a Web-Mercator view (see :mod:`.geo`) whose centre and zoom live in the URL
(``?lat=..&lon=..&z=..``), with pan and zoom links. Clicking the map submits an
``<input type=image>`` (the browser sends the click's pixel position), which the server turns
into a latitude and longitude: a *dropped pin* that can be named and saved. No script, no tiles,
nothing from another host.

The gazetteer (``places``) is configuration, so packs translate it, shorten it or rewrite its
descriptions; the built-in one is ``places.csv`` next to this file. The state holds only the
saved locations.
"""

from __future__ import annotations

from openapps_sim.apps.maps.model import normalise
from openapps_sim.apps.maps.schema import load_gazetteer

from openapps_sim.appkit import AppSpec

APP = AppSpec.from_package(
    __name__,
    category="Maps & Navigation",
    order=40,
    icon_svg="M12 21s-6-6.2-6-11a6 6 0 1 1 12 0c0 4.8-6 11-6 11zM12 8a2 2 0 1 0 0 4a2 2 0 1 0 0-4z",
)

__all__ = ["APP", "load_gazetteer", "normalise"]
