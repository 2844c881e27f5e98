"""The start page's configuration section."""

from __future__ import annotations

from openapps_sim.config.schema import Enum, Record, Str

SCHEMA = Record(
    heading=Str("Your apps"),
    subtitle=Str(""),
    strings=Record(open=Str("Open")),
    tile_order=Enum(
        ["apps", "alphabetical", "reverse"],
        "apps",
        doc="order of the tiles: the apps' own order, alphabetical by title, or that order reversed",
        vary=True,
    ),
)
