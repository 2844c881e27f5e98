"""Act, then answer, on the map: save or remove a location, then answer how many saved
locations there are afterwards (see taskkit/answers.py, ``ActAnswerFamily``)."""

from __future__ import annotations

from openapps_sim.tasks.maps.edits import RemoveSavedPlace, SavePlace
from openapps_sim.tasks.picks import earlier_saves, save_earlier

from openapps_sim.taskkit import family
from openapps_sim.taskkit.answers import ActAnswerFamily, pack_lang
from openapps_sim.taskkit.observation import page_testids


def saved_rows(obs: dict) -> int:
    """How many saved locations the page's saved list shows."""
    return sum(1 for t in page_testids(obs) if t.startswith("maps-saved-item-"))


class SavedCount(ActAnswerFamily):
    """The answer: how many saved locations there are after the change."""

    def answer(self, state, params):
        return str(len(state["maps"]["saved"]))


@family("maps.save_then_count", apps="maps", max_steps=12, category="count", answer_kind="number")
class SaveThenCount(SavePlace, SavedCount):
    """Search the map for a named place and save it, then answer how many saved locations there
    are now."""

    def sample(self, state, config, rng):
        """A seeded start state: up to two more places were saved before (``extra_places``)."""
        extra = earlier_saves(state, config, rng)
        save_earlier(state, extra)  # ``state`` is the sample's own copy
        params = SavePlace.sample(self, state, config, rng)
        return dict(params, extra_places=extra, lang=pack_lang(config))

    def prepare(self, state, params):
        save_earlier(state, params.get("extra_places"))

    def solve(self, params, ui):
        """Save the place, then count the saved list the page shows."""
        obs = yield from ui.through(SavePlace.solve(self, params, ui))
        yield ui.answer(str(saved_rows(obs)))


@family("maps.remove_then_count", apps="maps", max_steps=8, category="count", answer_kind="number")
class RemoveThenCount(RemoveSavedPlace, SavedCount):
    """Remove a named location from the saved locations, then answer how many saved locations are
    left."""

    def sample(self, state, config, rng):
        return dict(RemoveSavedPlace.sample(self, state, config, rng), lang=pack_lang(config))

    def solve(self, params, ui):
        """Remove the location, then count the saved list the page shows."""
        yield from ui.open_app("maps")
        obs = yield ui.click(f"maps-remove-{params['saved_id']}")
        yield ui.answer(str(saved_rows(obs)))
