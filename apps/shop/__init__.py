"""Shop: browse a catalogue by category or search, choose options, fill a cart, check out,
and look back at past orders.

The catalogue lives in the configuration (so packs translate, lengthen or thin it); the state
holds only the cart, the orders and two id counters.
"""

from __future__ import annotations

from pathlib import Path

from openapps_sim.apps.shop.model import initial_state, normalise
from openapps_sim.apps.shop.schema import SCHEMA
from openapps_sim.apps.shop.style import CSS, ICON

from openapps_sim.appkit import AppSpec

APP = AppSpec(
    name="shop",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes="openapps_sim.apps.shop.routes",
    normalise=normalise,
    order=50,
    css=CSS,
    icon_svg=ICON,
)

__all__ = ["APP", "SCHEMA"]
