"""The start page's configuration section."""

from __future__ import annotations

from openapps_sim.config.categories import CATEGORIES
from openapps_sim.config.schema import Enum, MapOf, Record, Str

SCHEMA = Record(
    heading=Str("Your apps"),
    subtitle=Str(""),
    strings=Record(
        open=Str("Open"),
        search_placeholder=Str("Search apps"),
        search_button=Str("Search"),
        all_apps=Str("All apps"),
        categories=Str("Categories"),
        no_match=Str("No app matches your search."),
    ),
    category_names=MapOf(
        Str(),
        default={c: c for c in CATEGORIES},
        doc="each category as the page names it, by Play's name (English: Play's name; a language pack: "
        "Maps & Navigation: Karten & Navigation)",
        keys=CATEGORIES,
    ),
    tile_order=Enum(
        ["apps", "alphabetical", "reverse"],
        "apps",
        doc="order of the tiles: the apps' own order, alphabetical by title, or that order reversed",
        vary=True,
    ),
)
