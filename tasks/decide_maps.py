"""A branching family on the map: save a place unless it is saved already, in which case set
its note."""

from __future__ import annotations

from openapps_sim.tasks.maps import _append, _open_place, _unique_names

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily
from openapps_sim.taskkit.progress import Op

NOTES = ["Go early to avoid the queue", "Try the café next door", "Good spot for photos", "Bring cash"]


@family
class SaveOrNote(BranchingFamily):
    id = "maps.save_or_note"
    apps = ("maps",)
    max_steps = 10
    description = "If a place is already among the saved places, set its note; otherwise save it."
    phrasings = {
        "plain": [
            "If '{name}' is already one of my saved places, set its note to '{note}'; otherwise save it.",
            "Save '{name}' on my map, unless it is saved already: then give it the note '{note}'.",
            "Check my saved places for '{name}': saved? Note '{note}'. Not saved? Save it.",
        ],
        "casual": [
            "is '{name}' saved on my map? if yes add the note '{note}', if not save it",
            "'{name}': save it, or if it's already saved just note '{note}' on it",
            "Pls make sure '{name}' is saved; if it already was, put '{note}' as its note.",
        ],
        "context": [
            "A friend recommended '{name}' again. If it's already saved, set its note to '{note}'; otherwise save it.",
            "Planning my holiday: if '{name}' is among my saved places, note '{note}' on it, else save it.",
            "I can never remember what I saved. If '{name}' is saved, note '{note}'; if not, save it now.",
        ],
        "de": ["Wenn '{name}' schon gespeichert ist, setze die Notiz '{note}'; sonst speichere den Ort."],
        "fr": ["Si '{name}' est déjà enregistré, mets la note '{note}' ; sinon enregistre-le."],
    }

    def sample(self, state, config, rng):
        maps = state["maps"]
        places = config["maps"]["places"]
        unique = _unique_names(places)
        taken_ids = {s.get("place") for s in maps["saved"]}
        taken_names = {norm_text(s["name"]) for s in maps["saved"]}
        candidates = [p for p in places if p["id"] not in taken_ids and norm_text(p["name"]) in unique
                      and norm_text(p["name"]) not in taken_names]  # fmt: skip
        place = pick(rng, candidates, "unsaved place")
        saved = rng.random() < 0.5
        return {"place_id": place["id"], "name": place["name"], "lat": place["lat"], "lon": place["lon"],
                "note": rng.choice(NOTES), "saved_id": f"s{maps['next_id']}", "branch": "saved" if saved else "new"}  # fmt: skip

    def prepare(self, state, params):
        if params["branch"] == "saved":
            _append(state["maps"], params["name"], params["lat"], params["lon"], params["place_id"])

    def apply(self, state, params):
        if params["branch"] == "new":
            _append(state["maps"], params["name"], params["lat"], params["lon"], params["place_id"])
        else:
            for entry in state["maps"]["saved"]:
                if entry["id"] == params["saved_id"]:
                    entry["note"] = params["note"]

    def branch_ops(self, params):
        return {
            "new": [Op.of("maps", "save", place=params["place_id"])],
            "saved": [Op.of("maps", "note", id=params["saved_id"], note=params["note"])],
        }

    def solve(self, params, ui):
        if params["branch"] == "new":
            yield from _open_place(ui, params["name"], params["place_id"])
            yield ui.click(f"maps-save-{params['place_id']}")
            return
        yield from ui.open_app("maps")
        yield ui.click(f"maps-saved-{params['saved_id']}")
        yield ui.fill("maps-note-input", params["note"])
        yield ui.click("maps-note-save")
