"""Maps' configuration section, and the built-in gazetteer it defaults to."""

from __future__ import annotations

import csv
from pathlib import Path

from openapps_sim.apps.maps.geo import (
    MAX_ZOOM,
    MIN_ZOOM,
)

from openapps_sim.config.schema import Bool, Enum, Float, Int, ListOf, MapOf, Record, Str

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


STRINGS = Record(
    search_label=Str("Search places"),
    search_placeholder=Str("City, landmark, museum…"),
    search_button=Str("Search"),
    clear_search=Str("Clear"),
    browse=Str("Browse:"),
    tip=Str("Search for a place or pick a category, then save it to your list. Click the map to drop a pin."),
    results_heading=Str("Results for “{q}”"),
    kind_heading=Str("Category: {kind}"),
    results_count=Str("{n} places"),
    results_more=Str("Showing the first {n}. Refine your search to see others."),
    no_results=Str("No places match “{q}”."),
    back_to_results=Str("Back to results"),
    save=Str("Save"),
    saved_badge=Str("Saved"),
    already_saved=Str("This place is in your saved locations."),
    nearby=Str("Nearby"),
    saved_heading=Str("Saved locations"),
    saved_empty=Str("Nothing saved yet. Search for a place and press Save, or click the map to drop a pin."),
    remove=Str("Remove"),
    dropped_pin=Str("Dropped pin", doc="the heading of a dropped pin and the default name it is saved under"),
    pin_name_label=Str("Name"),
    pin_save=Str("Save pin"),
    pin_discard=Str("Discard"),
    pin_hint=Str("Not quite right? Click the map again to move the pin."),
    nearest=Str("Nearest place: {name} · {distance}"),
    note_label=Str("Note"),
    note_save=Str("Save note"),
    open_place=Str("Show place details"),
    zoom_in=Str("Zoom in"),
    zoom_out=Str("Zoom out"),
    pan_n=Str("Pan north"),
    pan_s=Str("Pan south"),
    pan_e=Str("Pan east"),
    pan_w=Str("Pan west"),
    map_label=Str("World map"),
    canvas_alt=Str("Map: click anywhere to drop a pin"),
    map_hint=Str("Click anywhere on the map to drop a pin."),
    view_status=Str("Zoom {z} · centre {coords}"),
    outlines_hidden=Str("Coastlines are drawn only when zoomed out."),
    flash_saved=Str("Saved to your locations."),
    flash_removed=Str("Removed from your locations."),
    flash_pin=Str("Pin saved to your locations."),
    flash_note=Str("Note saved."),
    north=Str("N"),
    south=Str("S"),
    east=Str("E"),
    west=Str("W"),
)

KIND_LABELS = Record(
    city=Str("City"),
    landmark=Str("Landmark"),
    museum=Str("Museum"),
    park=Str("Park"),
    nature=Str("Nature"),
    airport=Str("Airport"),
    university=Str("University"),
    stadium=Str("Stadium"),
    station=Str("Station"),
)

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
