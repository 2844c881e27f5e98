"""The infeasible family of the map: the goal names something it does not hold (the base and
what such a family is: ``tasks/infeasible.py``)."""

from __future__ import annotations

from openapps_sim.tasks.infeasible import InfeasibleFamily, taken_names
from openapps_sim.tasks.picks import (
    earlier_saves,
    save_earlier,
)

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.language import words


def unknown_places(state: dict, config: dict) -> list[str]:
    """Places the task content names (a café, a library...) that neither the gazetteer nor the
    saved places know; names with a digit (a meeting room) and the last entry ("Online") are
    no places on a map."""
    known = taken_names([p["name"] for p in config["maps"]["places"]] + [s["name"] for s in state["maps"]["saved"]])
    names = list(words(config, "calendar.new_locations"))[:-1]
    return [n for n in names if not any(ch.isdigit() for ch in n) and not any(norm_text(n) in k for k in known | {""})]


@family("maps.save_unknown_place", apps="maps", max_steps=8)
class SaveUnknownPlace(InfeasibleFamily):
    """Save a place the map does not know (infeasible: report it, change nothing)."""

    def sample(self, state, config, rng):
        name = pick(rng, unknown_places(state, config), "place the map does not know")
        return {"name": name, "extra_places": earlier_saves(state, config, rng)}

    def prepare(self, state, params):
        save_earlier(state, params.get("extra_places"))

    searched_in = "maps"

    def reason(self, params):
        return f"The map knows no place called {params['name']!r}."
