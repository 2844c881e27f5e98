"""The start page: a launcher with an icon, title and description for every app."""

from __future__ import annotations

from openapps_sim.appkit import AppSpec

APP = AppSpec.from_package(__name__, order=0, icon_svg="M4 11l8-7 8 7M6 10v10h12V10", home=True)
