"""The start page's configuration section."""

from __future__ import annotations

from openapps_sim.config.schema import Record, Str

SCHEMA = Record(
    heading=Str("Your apps"),
    subtitle=Str(""),
    strings=Record(open=Str("Open")),
)
