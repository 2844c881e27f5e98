"""Todo's configuration section."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.config.schema import Bool, ListOf, Record, Str
from openapps_sim.config.texts import texts

STRINGS = texts(Path(__file__).with_name("strings.yaml"))

SCHEMA = Record(
    strings=STRINGS,
    items=ListOf(Record(title=Str(), done=Bool(False), notes=Str("")), default=[], unique="title"),
    show_filters=Bool(True, doc="show the All / Active / Done filter links"),
    strike_done=Bool(True, doc="strike through the titles of done items", vary=True),
)
