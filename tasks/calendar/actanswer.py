"""Act, then answer, in the calendar: add an event, then answer how many events its day holds
now (see taskkit/answers.py, ``ActAnswerFamily``)."""

from __future__ import annotations

from openapps_sim.tasks.calendar.edits import AddEvent

from openapps_sim.taskkit import family
from openapps_sim.taskkit.answers import ActAnswerFamily, pack_lang
from openapps_sim.taskkit.observation import page_testids


@family("calendar.add_then_count_day", apps="calendar", max_steps=22, category="count", answer_kind="number")
class AddThenCountDay(AddEvent, ActAnswerFamily):
    """Create a calendar event with a given title, date and time, then answer how many events that
    day holds now (the new one included)."""

    def sample(self, state, config, rng):
        """On most seeds the day already holds events (so the count is not always one)."""
        params = AddEvent.sample(self, state, config, rng)
        busy = sorted({ev["date"] for ev in state["calendar"]["events"]})
        if busy and rng.random() < 0.7:
            params["date"] = rng.choice(busy)
        return dict(params, lang=pack_lang(config))

    def answer(self, state, params):
        return str(sum(1 for ev in state["calendar"]["events"] if ev["date"] == params["date"]))

    def answer_pages(self, params):
        return [f"/calendar/day/{params['date']}"]

    def solve(self, params, ui):
        """Save the event (the calendar then shows its day), and count the day's agenda."""
        obs = yield from ui.through(AddEvent.solve(self, params, ui))
        yield ui.answer(str(sum(1 for t in page_testids(obs) if t.startswith("calendar-event-"))))
