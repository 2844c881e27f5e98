"""Maps' state and its changes: pure functions over the app's state dict (``{"saved": [...],
"next_id": n}``), used by the route handlers and by the task families' ``apply``."""

from __future__ import annotations

from openapps_sim.apps.maps.geo import wrap_lon

from openapps_sim.appkit import ItemKey, by_id
from openapps_sim.config.normalise import norm_text
from openapps_sim.errors import ConfigError

COORD_DIGITS = 2  # normalise() compares coordinates rounded to this many decimals
PIN_DIGITS = 5  # stored precision of dropped pins (about a metre)

# the natural key of the items of each list in the normalised state (for reward explanations)
ITEM_KEYS = {"saved": ItemKey("name", "saved place")}


def round_to(value: float, digits: int) -> float:
    return round(float(value), digits) + 0.0  # + 0.0 turns -0.0 into 0.0


def initial_state(config: dict, rng) -> dict:
    places = {p["id"]: p for p in config["places"]}
    saved = []
    for i, entry in enumerate(config["saved"]):
        if entry["place"]:
            place = places.get(entry["place"])
            if place is None:
                raise ConfigError(
                    "maps.saved", f"[{i}].place", f"unknown place {entry['place']!r}", "an id in maps.places"
                )
            name, lat, lon = entry["name"] or place["name"], place["lat"], place["lon"]
        else:
            if not entry["name"]:
                raise ConfigError("maps.saved", f"[{i}]", "a saved location needs a place or a name")
            name, lat, lon = entry["name"], entry["lat"], entry["lon"]
        saved.append(
            {
                "id": f"s{i + 1}",
                "name": name,
                "lat": round_to(lat, PIN_DIGITS),
                "lon": round_to(lon, PIN_DIGITS),
                "note": entry["note"],
                "place": entry["place"],
            }
        )
    return {"saved": saved, "next_id": len(saved) + 1}


def normalise(state: dict) -> dict:
    """Saved locations as a sorted list of (folded name, lat, lon, folded note).

    Coordinates are wrapped and rounded to two decimals (0.01° is about 1.1 km north-south),
    so a pin dropped within 0.005° of a place's two-decimal coordinates equals the place.
    Ids, the order of the list and the link to a gazetteer place do not matter.
    """
    rows = sorted(
        (
            norm_text(s["name"]),
            round_to(s["lat"], COORD_DIGITS),
            round_to(wrap_lon(s["lon"]), COORD_DIGITS),
            norm_text(s.get("note", "")),
        )
        for s in state["saved"]
    )
    return {"saved": [{"name": n, "lat": la, "lon": lo, "note": no} for n, la, lo, no in rows]}


def saved_entry(maps: dict, saved_id: str | None) -> dict | None:
    return by_id(maps["saved"], saved_id) if saved_id else None


def saved_for_place(maps: dict, place_id: str) -> dict | None:
    return next((s for s in maps["saved"] if s.get("place") == place_id), None)


def add_saved(maps: dict, name: str, lat: float, lon: float, place: str = "") -> dict:
    """Save a location (a gazetteer place when ``place`` is its id, else a dropped pin); returns it."""
    entry = {
        "id": f"s{maps['next_id']}",
        "name": name,
        "lat": round_to(lat, PIN_DIGITS),
        "lon": round_to(lon, PIN_DIGITS),
        "note": "",
        "place": place,
    }
    maps["next_id"] += 1
    maps["saved"].append(entry)
    return entry


def set_note(entry: dict, text: str) -> str:
    """Give a saved location a note; returns the old one."""
    old = entry.get("note", "")
    entry["note"] = text
    return old


def showcase(state: dict, config: dict) -> list:
    """Pages worth a look beyond the map: the first place's details."""
    from openapps_sim.appkit import Showcase

    return [Showcase("place", f"/?place={config['places'][0]['id']}")] if config["places"] else []
