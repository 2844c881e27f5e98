"""Calendar: push an event back by one day, keeping its time."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

from openapps_sim.apps.calendar.datefmt import read_date

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import TaskFamily, family, pick
from openapps_sim.taskkit.observation import testid_attributes
from openapps_sim.taskkit.progress import Op


def next_day(iso: str) -> str:
    """The ISO date one day after ``iso``."""
    return (date.fromisoformat(iso) + timedelta(days=1)).isoformat()


@family("calendar.postpone_event", apps="calendar", max_steps=12)
class PostponeEvent(TaskFamily):
    """Move the event with a given title to the day after its current date, at the same time."""

    def sample(self, state, config, rng):
        events = state["calendar"]["events"]
        seen = Counter(norm_text(e["title"]) for e in events)
        unique = [e for e in events if seen[norm_text(e["title"])] == 1]
        event = pick(rng, unique, "calendar event with a title of its own")
        return {"id": event["id"], "title": event["title"]}

    def plan(self, params, initial):
        event = next(e for e in initial["calendar"]["events"] if e["id"] == params["id"])
        return [Op.of("calendar", "edit_event", id=params["id"], date=next_day(event["date"]))]

    def solve(self, params, ui):
        yield from ui.open_app("calendar")
        yield ui.fill("calendar-search", params["title"])
        yield ui.click("calendar-search-submit")
        yield ui.click(f"calendar-event-{params['id']}")
        obs = yield ui.click(f"calendar-edit-{params['id']}")
        field = testid_attributes(obs)["calendar-field-date"]  # the date as the page writes it
        shown = read_date(field.get("value", ""), field.get("data-format", "YYYY-MM-DD"))
        yield ui.fill("calendar-field-date", next_day(shown))  # ISO is read in every language
        yield ui.click("calendar-save")
