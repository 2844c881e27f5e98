"""Return-value families on the map: the distance between two saved places (``math``) and the
note saved with a place."""

from __future__ import annotations

import re
from collections import Counter

from openapps_sim.tasks.picks import earlier_saves, save_earlier, set_field

from openapps_sim.config.normalise import distance_km, norm_text
from openapps_sim.taskkit import Infeasible, family, pick
from openapps_sim.taskkit.answers import AnswerFamily, format_number, pack_lang
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_attributes, testid_texts
from openapps_sim.taskkit.progress import Milestone


def _unique_saved(state: dict) -> list[dict]:
    saved = state["maps"]["saved"]
    counts = Counter(norm_text(s["name"]) for s in saved)
    return [s for s in saved if counts[norm_text(s["name"])] == 1]


def _saved_open(sid: str) -> Milestone:
    return Milestone(
        f"saved place {sid} open", lambda state, path, sid=sid: path.startswith("/maps") and f"saved={sid}" in path
    )


_COORD = re.compile(r"(\d+(?:\.\d+)?)\s*°\s*\u2069?\s*([^\s,]+)")


def page_coords(text: str, negative: list[str]) -> tuple[float, float] | None:
    """``(lat, lon)`` from the coordinates a saved place shows (``48.8566° N, 2.3522° E``; a
    right-to-left page isolates each number); a south or west word makes its value negative."""
    found = _COORD.findall(text.replace("\u2066", ""))
    if len(found) != 2:
        return None
    lat, lon = (float(v) * (-1 if word in negative else 1) for v, word in found)
    return lat, lon


@family("maps.distance_km", apps="maps", max_steps=8, category="math", answer_kind="number")
class DistanceKm(AnswerFamily):
    """Answer how far apart two saved places are in kilometres (great-circle distance from the
    coordinates shown; within 1 % or 1 km)."""

    tolerance, relative_tolerance = 1.0, 0.01

    def sample(self, state, config, rng):
        extra = earlier_saves(state, config, rng)  # a seeded start state: places saved before
        save_earlier(state, extra)
        saved = _unique_saved(state)
        if len(saved) < 2:
            raise Infeasible("fewer than two saved places with unique names")
        a, b = rng.sample(saved, 2)
        km = distance_km(a["lat"], a["lon"], b["lat"], b["lon"])
        lang = pack_lang(config)
        strings = config["maps"].get("strings", {})
        return {"a_id": a["id"], "a": a["name"], "b_id": b["id"], "b": b["name"], "km": km,
                "answer": format_number(km, lang, 1), "lang": lang, "extra_places": extra,
                # the page's words for south and west: reading "12.5° S" is knowing the language
                "negative": [strings.get("south", "S"), strings.get("west", "W")]}  # fmt: skip

    def prepare(self, state, params):
        save_earlier(state, params.get("extra_places"))

    def answer(self, state, params):
        """The distance between the two saved places as the world holds them now."""
        by_id = {s["id"]: s for s in state["maps"]["saved"]}
        a, b = by_id.get(params["a_id"]), by_id.get(params["b_id"])
        if a is None or b is None:
            return ""
        return format_number(distance_km(a["lat"], a["lon"], b["lat"], b["lon"]), params["lang"], 1)

    def milestones(self, params, initial=None, expected=None):
        return [_saved_open(params["a_id"]), _saved_open(params["b_id"])]

    def solve(self, params, ui):
        """Open each saved place, read its coordinates off the page and compute the distance."""
        yield from ui.open_app("maps")
        obs = yield ui.click(f"maps-saved-{params['a_id']}")
        a = page_coords(testid_texts(obs).get("maps-saved-coords", ""), params["negative"])
        obs = yield ui.click(f"maps-saved-{params['b_id']}")
        b = page_coords(testid_texts(obs).get("maps-saved-coords", ""), params["negative"])
        km = distance_km(*a, *b) if a and b else 0.0
        yield ui.answer(f"{format_number(km, params['lang'], 1)} km")


@family("maps.place_note", apps="maps", max_steps=6, category="lookup", answer_kind="text")
class PlaceNote(AnswerFamily):
    """Answer with the note saved with a named saved place."""

    def sample(self, state, config, rng):
        """A seeded start state: up to two more places were saved before, and the place asked
        about holds its own note or one of the language's ``maps.place_notes``."""
        extra = earlier_saves(state, config, rng)
        save_earlier(state, extra)
        s = pick(rng, _unique_saved(state), "saved place")
        note = rng.choice([n for n in [s.get("note"), *words(config, "maps.place_notes")] if n])
        return {"saved_id": s["id"], "name": s["name"], "note": note, "answer": note, "lang": pack_lang(config),
                "extra_places": extra}  # fmt: skip

    def prepare(self, state, params):
        save_earlier(state, params.get("extra_places"))
        set_field(state["maps"]["saved"], params["saved_id"], "note", params["note"])

    def milestones(self, params, initial=None, expected=None):
        return [_saved_open(params["saved_id"])]

    def answer(self, state, params):
        return next((s.get("note", "") for s in state["maps"]["saved"] if s["id"] == params["saved_id"]), "")

    def solve(self, params, ui):
        """Open the saved place and read its note field."""
        yield from ui.open_app("maps")
        obs = yield ui.click(f"maps-saved-{params['saved_id']}")
        yield ui.answer(testid_attributes(obs).get("maps-note-input", {}).get("value", ""))
