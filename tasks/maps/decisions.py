"""A branching family on the map: save a place unless it is saved already, in which case set
its note."""

from __future__ import annotations

from openapps_sim.apps.maps import model as maps_model
from openapps_sim.tasks.picks import open_place, unsaved_places

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily, Condition, Decision
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import page_testids
from openapps_sim.taskkit.progress import Op


def place_saved(place_id: str, name: str) -> Condition:
    """Is the place among the saved places? (the data; on the page, the place's "saved" badge)"""

    def look(ui):
        obs = yield from open_place(ui, name, place_id)
        return f"maps-saved-badge-{place_id}" in page_testids(obs or {})

    return Condition("maps", lambda m: bool(maps_model.saved_for_place(m, place_id)), look)


@family("maps.save_or_note", apps="maps", max_steps=10)
class SaveOrNote(BranchingFamily):
    """If a place is already among the saved places, set its note; otherwise save it."""

    def sample(self, state, config, rng):
        candidates = unsaved_places(state, config)
        place = pick(rng, candidates, "unsaved place")
        saved = rng.random() < 0.5
        note = rng.choice(words(config, "maps.notes"))
        return {"place_id": place["id"], "name": place["name"], "lat": place["lat"], "lon": place["lon"],
                "note": note, "saved_id": f"s{state['maps']['next_id']}",
                "branch": self.decision({"place_id": place["id"], "name": place["name"]}).leaf([saved])}  # fmt: skip

    def decision(self, params):
        return Decision.when(place_saved(params["place_id"], params["name"]), "saved", "new")

    def prepare(self, state, params):
        if params["branch"] == "saved":
            maps_model.add_saved(state["maps"], params["name"], params["lat"], params["lon"], params["place_id"])

    def branch_plans(self, params, initial):
        return {
            "new": [Op.of("maps", "save_place", place=params["place_id"])],
            "saved": [Op.of("maps", "set_note", id=params["saved_id"], note=params["note"])],
        }

    def act(self, leaf, params, ui):  # the place's page is open
        if leaf == "new":
            yield ui.click(f"maps-save-{params['place_id']}")
            return
        yield from ui.open_app("maps")
        yield ui.click(f"maps-saved-{params['saved_id']}")
        yield ui.fill("maps-note-input", params["note"])
        yield ui.click("maps-note-save")
