"""The start page: a launcher with an icon, title and description for every app."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.apps.start.model import initial_state
from openapps_sim.apps.start.schema import SCHEMA
from openapps_sim.apps.start.style import CSS

from openapps_sim.appkit import AppSpec

APP = AppSpec(
    name="start",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes="openapps_sim.apps.start.routes",
    order=0,
    css=CSS,
    icon_svg="M4 11l8-7 8 7M6 10v10h12V10",
    home=True,
)
