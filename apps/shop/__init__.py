"""Shop: browse a catalogue by category or search, choose options, fill a cart, check out,
and look back at past orders.

The catalogue lives in the configuration (so packs translate, lengthen or thin it); the state
holds only the cart, the orders and two id counters.
"""

from __future__ import annotations

from openapps_sim.apps.shop.schema import SCHEMA
from openapps_sim.apps.shop.style import ICON

from openapps_sim.appkit import AppSpec

APP = AppSpec.from_package(__name__, category="Shopping", order=50, icon_svg=ICON)

__all__ = ["APP", "SCHEMA"]
