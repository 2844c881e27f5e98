"""Return-value families on the calendar: an event's time and the days between today and an
event (a date computation, category ``math``)."""

from __future__ import annotations

import re
from datetime import date

from openapps_sim.apps.calendar.datefmt import read_date
from openapps_sim.tasks.calendar.edits import day_text, go_to_day, open_event, pick_event, unique_events
from openapps_sim.tasks.picks import set_field

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang
from openapps_sim.taskkit.observation import testid_attributes, testid_texts


def _event_page(params: dict) -> list[str]:
    return [f"/calendar/event/{params['event_id']}"]


@family("calendar.event_time", apps="calendar", max_steps=20, category="lookup", answer_kind="time")
class EventTime(AnswerFamily):
    """Answer at what time a named event starts."""

    # a seeded start state: half the seeds find the event moved to one of these times
    MOVED_TO = [f"{h:02d}:{m:02d}" for h in range(8, 20) for m in (0, 30)]

    def sample(self, state, config, rng):
        ev = pick(rng, [e for e in unique_events(state) if e.get("time")], "event with a time")
        time = ev["time"] if rng.random() < 0.5 else rng.choice([t for t in self.MOVED_TO if t != ev["time"]])
        return {
            "event_id": ev["id"],
            "title": ev["title"],
            "date": ev["date"],
            "time": time,
            "answer": time,
            "lang": pack_lang(config),
        }

    def prepare(self, state, params):
        if params.get("time"):
            set_field(state["calendar"]["events"], params["event_id"], "time", params["time"])

    def answer_pages(self, params):
        return _event_page(params)

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), day=day_text(params["date"], language))

    def answer(self, state, params):
        return next((e["time"] for e in state["calendar"]["events"] if e["id"] == params["event_id"]), "")

    def solve(self, params, ui):
        """Read the time on the event's page; a 12-hour time with a marker in the page's language
        is read from the edit form's time field (HH:MM) instead, leaving without saving."""
        obs = yield from open_event(ui, params["event_id"], params["date"])
        shown = testid_texts(obs).get("calendar-detail-time", "")
        if not re.fullmatch(r"\d{1,2}:\d{2}", shown):
            obs = yield ui.click(f"calendar-edit-{params['event_id']}")
            shown = testid_attributes(obs).get("calendar-field-time", {}).get("value", "")
        yield ui.answer(shown)


@family("calendar.days_until", apps="calendar", max_steps=20, category="math", answer_kind="number")
class DaysBetween(AnswerFamily):
    """Answer how many days lie between today (the calendar's today) and a named event."""

    def sample(self, state, config, rng):
        ev = pick_event(rng, state)
        today = date.fromisoformat(str(config["calendar"]["today"]))
        days = abs((date.fromisoformat(ev["date"]) - today).days)
        return {
            "event_id": ev["id"],
            "title": ev["title"],
            "date": ev["date"],
            "answer": str(days),
            "lang": pack_lang(config),
        }

    def answer_pages(self, params):
        return ["/calendar"]

    def solve(self, params, ui):
        """Read today off the month grid (the day marked current), the event's date off its edit
        form (written as the language writes dates: the field's ``data-format`` says how), leave
        without saving, and count the days between."""
        obs = yield from ui.open_app("calendar")
        days = {t: a for t, a in testid_attributes(obs).items() if t.startswith("calendar-day-")}
        today = next((t.removeprefix("calendar-day-") for t, a in days.items() if a.get("aria-current") == "date"), "")
        yield from go_to_day(ui, obs, params["date"])
        yield ui.click(f"calendar-event-{params['event_id']}")
        obs = yield ui.click(f"calendar-edit-{params['event_id']}")
        field = testid_attributes(obs).get("calendar-field-date", {})
        when = read_date(field.get("value", ""), field.get("data-format", "YYYY-MM-DD")) or ""
        yield ui.answer(str(abs((date.fromisoformat(when) - date.fromisoformat(today)).days)))

    def solve_api(self, params, api):
        """Ask the calendar for its today and read the event's date from its data."""
        today = api.result((yield api.call("calendar", "today")))
        events = api.result((yield api.read("calendar")))["events"]
        when = next((e["date"] for e in events if e["id"] == params["event_id"]), today)
        yield api.answer(str(abs((date.fromisoformat(when) - date.fromisoformat(today)).days)))
