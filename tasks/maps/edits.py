"""Maps task families: save a place from the gazetteer, remove a saved location, drop a pin.

Parameters come from the active variation's gazetteer and saved list, so names are quoted in
the pack's language. Coordinates are compared after the maps app's normalisation (rounded to
two decimals), which gives a dropped pin a tolerance of 0.005° around the target place.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from openapps_sim.tasks.picks import earlier_saves, open_place, save_earlier, unique_names, unsaved_places

from openapps_sim.config.normalise import distance_km, norm_text
from openapps_sim.taskkit import TaskFamily, family, pick
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.progress import Op


@family("maps.save_place", apps="maps", max_steps=10)
class SavePlace(TaskFamily):
    """Search the map for a named place and save it to the saved locations."""

    def sample(self, state, config, rng):
        candidates = unsaved_places(state, config)
        place = pick(rng, candidates, "unsaved place")
        return {"place_id": place["id"], "name": place["name"], "lat": place["lat"], "lon": place["lon"]}

    def plan(self, params, initial):
        return [Op.of("maps", "save_place", place=params["place_id"])]

    def solve(self, params, ui):
        yield from open_place(ui, params["name"], params["place_id"])
        yield ui.click(f"maps-save-{params['place_id']}")


@family("maps.remove_saved_place", apps="maps", max_steps=6, clicks="maps-remove-{saved_id}")
class RemoveSavedPlace(TaskFamily):
    """Remove one named location from the saved locations."""

    def sample(self, state, config, rng):
        saved = state["maps"]["saved"]
        unique = unique_names(saved)
        entry = pick(rng, [s for s in saved if norm_text(s["name"]) in unique], "saved location")
        # A seeded start state: up to two more places from the gazetteer were saved before.
        extra = earlier_saves(state, config, rng)
        return {"saved_id": entry["id"], "name": entry["name"], "extra_places": extra}

    def prepare(self, state, params):
        save_earlier(state, params.get("extra_places"))

    def plan(self, params, initial):
        return [Op.of("maps", "remove_saved", id=params["saved_id"])]


@family("maps.drop_pin", apps="maps", max_steps=12)
class DropPin(TaskFamily):
    """Drop a pin on the map at a named place (within about half a kilometre) and save it under a
    given name."""

    # no other place this close (km), so the marker of a neighbour never covers the target
    CLEARANCE_KM = 2.5

    def _alone(self, p: dict, places: list[dict]) -> bool:
        for q in places:
            if q is p or abs(q["lat"] - p["lat"]) > 0.1 or abs(q["lon"] - p["lon"]) > 0.2:
                continue
            if distance_km(p["lat"], p["lon"], q["lat"], q["lon"]) <= self.CLEARANCE_KM:
                return False
        return True

    def _alone_ids(self, places: list[dict]) -> set[int]:
        """``id()`` of each place ``_alone`` among ``places``: each is compared only with the
        places within 0.11 degrees of latitude (found in a list sorted by it), a superset of
        those ``_alone`` looks at (the whole list made this quadratic: 17 ms a sample, now 1.4)."""
        by_lat = sorted(places, key=lambda q: q["lat"])
        lats = [q["lat"] for q in by_lat]
        near = ((p, by_lat[bisect_left(lats, p["lat"] - 0.11) : bisect_right(lats, p["lat"] + 0.11)]) for p in places)
        return {id(p) for p, window in near if self._alone(p, window)}

    def sample(self, state, config, rng):
        maps = state["maps"]
        places = config["maps"]["places"]
        unique = unique_names(places)
        alone = self._alone_ids(places)
        clear = [p for p in places if norm_text(p["name"]) in unique and abs(p["lat"]) <= 75 and id(p) in alone]
        place = pick(rng, clear, "place for a pin")
        taken = {norm_text(s["name"]) for s in maps["saved"]}
        labels = [x for x in words(config, "maps.pin_labels") if norm_text(x) not in taken]
        label = pick(rng, labels, "pin name")
        return {
            "place_id": place["id"],
            "place": place["name"],
            "label": label,
            "lat": round(place["lat"], 2),
            "lon": round(place["lon"], 2),
        }

    def plan(self, params, initial):
        """A pin dropped by a click lands near the place, not on it: the name says which it is."""
        return [Op.of("maps", "drop_pin", lat=params["lat"], lon=params["lon"], name=params["label"]).keyed("name")]

    def solve(self, params, ui):
        # Opening the place centres the map on it; a click on the map's centre drops the pin there.
        yield from open_place(ui, params["place"], params["place_id"])
        yield ui.click("maps-canvas")
        yield ui.fill("maps-pin-name", params["label"])
        yield ui.click("maps-pin-save")
