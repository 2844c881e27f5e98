"""Maps' operations: each state change with its log entry, called by the route handlers and, as
app tools, by agents (``maps.save_place(place='p12')``). ``search_places`` only reads."""

from __future__ import annotations

from openapps_sim.apps.maps import model
from openapps_sim.apps.maps.lookup import place_by_id, search_places

from openapps_sim.appkit import AppContext, OperationError, known_item, operation, remove_known

NOTHING_SAVED = "(nothing saved)"  # the ids listed when a call names no saved place


def _saved(ctx: AppContext, saved_id: str) -> dict:
    return known_item(ctx, "saved", saved_id, "saved place", NOTHING_SAVED)


@operation
def find_places(ctx: AppContext, query: str) -> list:
    """The places whose name or description matches `query`, best first (id, name, kind, lat, lon)."""
    keys = ("id", "name", "kind", "lat", "lon")
    return [{k: p.get(k) for k in keys} for p in search_places(ctx, query, None)[:20]]


@operation
def save_place(ctx: AppContext, place: str) -> dict:
    """Save the place with this id (from find_places) to the saved places; returns the entry."""
    found = place_by_id(ctx, place)
    if found is None:
        raise OperationError("maps.save_place", "place", f"no place {place!r}", "a place id from find_places()")
    entry = model.saved_for_place(ctx.state, found["id"])
    if entry is None:
        entry = model.add_saved(ctx.state, found["name"], found["lat"], found["lon"], found["id"])
        ctx.log(id=entry["id"], place=found["id"], name=entry["name"], lat=entry["lat"], lon=entry["lon"])
    return entry


@operation
def drop_pin(ctx: AppContext, lat: float, lon: float, name: str) -> dict:
    """Save a pin at `lat`, `lon` under `name`; returns the entry."""
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise OperationError("maps.drop_pin", "lat, lon", f"out of range: {lat}, {lon}", "lat -90..90, lon -180..180")
    name = " ".join(name.split())[:200]
    if not name:
        raise OperationError("maps.drop_pin", "name", "is empty", "a non-empty name")
    entry = model.add_saved(ctx.state, name, lat, lon)
    ctx.log(id=entry["id"], name=name, lat=entry["lat"], lon=entry["lon"])
    return entry


@operation
def remove_saved(ctx: AppContext, id: str) -> dict:
    """Remove the saved place with this id; returns it."""
    return remove_known(ctx, "saved", id, "saved place", ("name",), NOTHING_SAVED)


@operation
def set_note(ctx: AppContext, id: str, note: str) -> dict:
    """Give the saved place with this id a note (empty removes it); returns the entry."""
    entry = _saved(ctx, id)
    text = " ".join(note.split())[:500]
    if text != entry.get("note", ""):
        old = model.set_note(entry, text)
        ctx.log(id=entry["id"], name=entry["name"], old=old, note=text)
    return entry
