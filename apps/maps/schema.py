"""Maps' configuration section, and the built-in gazetteer it defaults to."""

from __future__ import annotations

import csv
from pathlib import Path

from openapps_sim.apps.maps.geo import (
    MAX_ZOOM,
    MIN_ZOOM,
)

from openapps_sim.config.schema import Bool, Enum, Float, Int, ListOf, MapOf, Record, Str
from openapps_sim.config.texts import texts

HERE = Path(__file__).parent
KINDS = ("city", "landmark", "museum", "park", "nature", "airport", "university", "stadium", "station")


def load_gazetteer(path: Path = HERE / "places.csv") -> list[dict]:
    """The built-in gazetteer: one dict per row of ``places.csv``."""
    with open(path, encoding="utf-8", newline="") as fh:
        return [
            {
                "id": row["id"],
                "name": row["name"],
                "kind": row["kind"],
                "country": row["country"],
                "lat": float(row["lat"]),
                "lon": float(row["lon"]),
                "description": row["description"],
            }
            for row in csv.DictReader(fh)
        ]


STRINGS = texts(HERE / "strings.yaml")

# a kind's label in English is its name, capitalised ("Museum")
KIND_LABELS = Record({kind: Str(kind.capitalize()) for kind in KINDS})

PLACE = Record(
    id=Str(doc="stable identifier used in URLs and data-testids; keep it in translations"),
    name=Str(),
    kind=Enum(KINDS, "city"),
    country=Str("", doc="a key of `countries` (ISO code) or a country name"),
    lat=Float(lo=-85.0, hi=85.0),
    lon=Float(lo=-180.0, hi=180.0),
    description=Str(""),
)

SAVED = Record(
    place=Str("", doc="id of a gazetteer place (its name and coordinates are used)"),
    name=Str("", doc="name of a custom location (or a different name for a place)"),
    lat=Float(0.0, lo=-85.0, hi=85.0),
    lon=Float(0.0, lo=-180.0, hi=180.0),
    note=Str(""),
)

SCHEMA = Record(
    strings=STRINGS,
    kinds=KIND_LABELS,
    countries=MapOf(Str(), default={}, doc="country code to display name"),
    places=ListOf(PLACE, default=load_gazetteer(), doc="the gazetteer (built-in: places.csv)"),
    saved=ListOf(SAVED, default=[], doc="the saved locations the app starts with", unique="name"),
    start_view=Record(
        lat=Float(30.0, lo=-80.0, hi=80.0), lon=Float(10.0, lo=-180.0, hi=180.0), zoom=Int(2, lo=MIN_ZOOM, hi=MAX_ZOOM)
    ),
    place_zoom=Int(12, lo=MIN_ZOOM, hi=MAX_ZOOM, doc="zoom used when a place or pin is opened"),
    map_width=Int(620, lo=280, hi=1600, doc="map width in CSS pixels (narrowed to fit the layout)"),
    map_height=Int(440, lo=220, hi=1200, doc="map height in CSS pixels"),
    show_outlines=Bool(True, doc="draw the coarse hand-drawn coastlines"),
    outline_max_zoom=Int(5, lo=MIN_ZOOM, hi=MAX_ZOOM, doc="deepest zoom at which coastlines are drawn"),
    results_limit=Int(25, lo=1, hi=200),
    nearby_km=Int(25, lo=0, hi=2000, doc="radius of the 'Nearby' list of a place"),
)
