"""Return-value families on the calendar: an event's time and the days between today and an
event (a date computation, category ``math``)."""

from __future__ import annotations

from datetime import date

from openapps_sim.tasks.calendar import _date_params, open_event, unique_events

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang


def _event_page(params: dict) -> list[str]:
    return [f"/calendar/event/{params['event_id']}"]


@family
class EventTime(AnswerFamily):
    id = "calendar.event_time"
    apps = ("calendar",)
    max_steps = 20
    category = "lookup"
    answer_kind = "time"
    description = "Answer at what time a named event starts."
    phrasings = {
        "plain": [
            "What time is '{title}' on {day_en}?",
            "At what time does '{title}' ({date}) start?",
            "Tell me the start time of '{title}' on {day_en}.",
        ],
        "casual": [
            "when's '{title}' on {day_en} again? the time I mean",
            "what time do I have '{title}' ({date})?",
            "remind me what time '{title}' is on {day_en}?",
        ],
        "context": [
            "I need to book a taxi. What time is '{title}' on {day_en}?",
            "My sister wants to call me that day. When does '{title}' ({date}) start?",
            "I keep mixing up my appointments: what time is '{title}' on {day_en}?",
        ],
        "de": ["Um wie viel Uhr ist '{title}' am {day_de}?", "Wann beginnt '{title}' am {day_de}?"],
        "fr": ["À quelle heure est '{title}' le {day_fr} ?", "À quelle heure commence '{title}' le {day_fr} ?"],
    }

    def sample(self, state, config, rng):
        ev = pick(rng, [e for e in unique_events(state) if e.get("time")], "event with a time")
        return {
            "event_id": ev["id"],
            "title": ev["title"],
            "date": ev["date"],
            **_date_params("day", ev["date"]),
            "answer": ev["time"],
            "lang": pack_lang(config),
        }

    def answer_pages(self, params):
        return _event_page(params)

    def solve(self, params, ui):
        yield from open_event(ui, params["event_id"], params["date"])
        yield ui.answer(params["answer"])


@family
class DaysBetween(AnswerFamily):
    id = "calendar.days_until"
    apps = ("calendar",)
    max_steps = 20
    category = "math"
    answer_kind = "number"
    description = "Answer how many days lie between today (the calendar's today) and a named event."
    phrasings = {
        "plain": [
            "How many days are there between today and '{title}'?",
            "Count the days from today to '{title}' (or since, if it is past) and tell me.",
            "How many days apart are today and the event '{title}'?",
        ],
        "casual": [
            "how many days till (or since) '{title}'?",
            "'{title}': how many days away from today is that?",
            "quick math pls: days between today and '{title}'?",
        ],
        "context": [
            "I'm planning my leave. How many days are there between today and '{title}'?",
            "My friend asked about '{title}'. How many days from today is it?",
            "I lost track of time lately; how many days lie between today and '{title}'?",
        ],
        "de": ["Wie viele Tage liegen zwischen heute und '{title}'?", "Wie viele Tage sind es bis '{title}'?"],
        "fr": ["Combien de jours séparent aujourd'hui de '{title}' ?", "Dans combien de jours est '{title}' ?"],
    }

    def sample(self, state, config, rng):
        ev = pick(rng, unique_events(state), "event with a unique title")
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
        yield from open_event(ui, params["event_id"], params["date"])
        yield ui.answer(params["answer"])
