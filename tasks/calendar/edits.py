"""Calendar task families: add, remove, duplicate and edit events.

Parameters are drawn from the state of the active variation (titles are quoted exactly as they
appear there, in the pack's language); new titles, locations and descriptions come from
``tasks/content/<lang>.yaml`` for the pack's ``shell.lang``. Oracle scripts open the app from the
start page, step through the months with Previous / Next until the target day is on the page,
open the day and then the event, all by ``data-testid``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta

from openapps_sim.apps.calendar import model

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import UI, Infeasible, Step, TaskFamily, family, pick
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import page_testids
from openapps_sim.taskkit.progress import Op

PEOPLE = [
    "Priya Nair",
    "Tom Becker",
    "Anna Weber",
    "Mei Chen",
    "Jonas Berg",
    "Olivia Brown",
    "Carlos Ruiz",
    "Hannah Schmidt",
    "Ben Okafor",
    "Yuki Tanaka",
]

TIMES = [f"{h:02d}:{m:02d}" for h in range(8, 20) for m in (0, 15, 30, 45)]

_DAY_ID = re.compile(r"^calendar-day-(\d{4}-\d{2}-\d{2})$")


# -- helpers ----------------------------------------------------------------------------------
def calendar_today(config: dict) -> date:
    return date.fromisoformat(str(config["calendar"]["today"]))


def day_text(iso: str, lang: str) -> str:
    """A written-out date in a language (``calendar.date`` of ``tasks/content/<lang>.yaml``):
    'Saturday, March 14, 2026'."""
    d = date.fromisoformat(iso)
    return str(words(lang, "calendar.date")).format(
        weekday=words(lang, "calendar.weekdays")[d.weekday()],
        month=words(lang, "calendar.months")[d.month - 1],
        day=d.day,
        year=d.year,
    )


def time_12h(hhmm: str) -> str:
    h, m = int(hhmm[:2]), hhmm[3:]
    return f"{(h % 12) or 12}:{m} {'am' if h < 12 else 'pm'}"


def _names(names: list[str], lang: str) -> str:
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + f" {words(lang, 'calendar.and')} " + quoted[-1]


class CalendarFamily(TaskFamily):
    """Adds the goal values written in the goal's language: ``{day}`` and ``{new_day}`` (dates
    written out), ``{extras}`` (an event's optional fields) and ``{field}`` (the field's name)."""

    def goal_values(self, params: dict, language: str) -> dict:
        values = super().goal_values(params, language)
        if params.get("date"):
            values["day"] = day_text(params["date"], language)
        if params.get("new_date"):
            values["new_day"] = day_text(params["new_date"], language)
        if "field" in params:
            values["field"] = words(language, "calendar.fields")[params["field"]]
        if "invitees" in params:
            extras = words(language, "calendar.extras")
            text = ""
            if params.get("location"):
                text += str(extras["location"]).format(location=params["location"])
            if params.get("invitees"):
                text += str(extras["invitees"]).format(names=_names(params["invitees"], language))
            if params.get("description"):
                text += str(extras["description"]).format(description=params["description"])
            values["extras"] = text
        return values


def unique_events(state: dict) -> list[dict]:
    """Events whose title (folded) no other event shares: they can be named unambiguously."""
    events = state["calendar"]["events"]
    counts = Counter(norm_text(e["title"]) for e in events)
    return [e for e in events if counts[norm_text(e["title"])] == 1]


def pick_event(rng, state: dict) -> dict:
    """One of :func:`unique_events`, drawn from the seed."""
    return pick(rng, unique_events(state), "event with a unique title")


def free_titles(state: dict, config: dict) -> list[str]:
    taken = {norm_text(e["title"]) for e in state["calendar"]["events"]}
    return [t for t in words(config, "calendar.new_titles") if norm_text(t) not in taken]


def _event_params(ev: dict) -> dict:
    return {"event_id": ev["id"], "title": ev["title"], "date": ev["date"]}


def _find(state: dict, eid: str) -> dict:
    ev = model.find_event(state["calendar"], eid)
    if ev is None:
        raise Infeasible(f"event {eid} is not in the state")
    return ev


def go_to_day(ui: type[UI], obs: dict, iso: str, limit: int = 36) -> Iterator[Step]:
    """Step through the months (Previous / Next) until the day is on the page, then open it."""
    target = f"calendar-day-{iso}"
    for _ in range(limit):
        ids = page_testids(obs)
        if target in ids:
            break
        shown = sorted(m.group(1) for m in map(_DAY_ID.match, ids) if m)
        obs = yield ui.click("calendar-next" if shown and shown[-1] < iso else "calendar-prev")
    return (yield ui.click(target))


def open_event(ui: type[UI], ev_id: str, iso: str) -> Iterator[Step]:
    """From the start page: open the calendar, find the event's day and open the event."""
    obs = yield from ui.open_app("calendar")
    yield from go_to_day(ui, obs, iso)
    return (yield ui.click(f"calendar-event-{ev_id}"))


def _fill_and_save(ui: type[UI], fields: dict[str, str]) -> Iterator[Step]:
    """On the open event form: fill each field of ``fields`` with its value, then save."""
    for field, value in fields.items():
        yield ui.fill(f"calendar-field-{field}", value)
    yield ui.click("calendar-save")


# -- families ---------------------------------------------------------------------------------
@family("calendar.add_event", apps="calendar", max_steps=20)
class AddEvent(CalendarFamily):
    """Create a calendar event with a given title, date and time; some instances also give a
    location, invitees and a description."""

    def sample(self, state, config, rng):
        title = pick(rng, free_titles(state, config), "new event title")
        iso = (calendar_today(config) + timedelta(days=rng.randint(-20, 120))).isoformat()
        tm = rng.choice(TIMES)
        location = rng.choice(words(config, "calendar.new_locations")) if rng.random() < 0.4 else ""
        invitees = sorted(rng.sample(PEOPLE, rng.randint(1, 3))) if rng.random() < 0.4 else []
        description = rng.choice(words(config, "calendar.new_descriptions")) if rng.random() < 0.35 else ""
        return {
            "title": title,
            "date": iso,
            "time": tm,
            "time_12h": time_12h(tm),
            "location": location,
            "invitees": invitees,
            "description": description,
        }

    def plan(self, params, initial):
        fields = {k: params[k] for k in ("title", "date", "time", "description", "location")}
        return [Op.of("calendar", "create_event", **fields, invitees=list(params["invitees"]))]

    def solve(self, params, ui):
        yield from ui.open_app("calendar")
        yield ui.click("calendar-new")
        optional = {
            "location": params["location"],
            "invitees": ", ".join(params["invitees"]),
            "description": params["description"],
        }
        fields = {k: params[k] for k in ("title", "date", "time")}
        yield from _fill_and_save(ui, fields | {k: v for k, v in optional.items() if v})


@family("calendar.remove_event", apps="calendar", max_steps=25)
class RemoveEvent(CalendarFamily):
    """Delete one named event (its title is unique in the calendar) from the calendar."""

    def sample(self, state, config, rng):
        ev = pick_event(rng, state)
        return _event_params(ev)

    def plan(self, params, initial):
        return [Op.of("calendar", "delete_event", id=params["event_id"])]

    def solve(self, params, ui):
        yield from open_event(ui, params["event_id"], params["date"])
        yield ui.click(f"calendar-delete-{params['event_id']}")


@family("calendar.duplicate_event", apps="calendar", max_steps=25)
class DuplicateEvent(CalendarFamily):
    """Copy an existing event to another date: a new event with the same details and the new date."""

    def sample(self, state, config, rng):
        ev = pick_event(rng, state)
        today = calendar_today(config)
        choices = [(today + timedelta(days=k)).isoformat() for k in range(-14, 91)]
        new_date = rng.choice([d for d in choices if d != ev["date"]])
        return {**_event_params(ev), "new_date": new_date}

    def plan(self, params, initial):
        src = _find(initial, params["event_id"])
        return [Op.of("calendar", "create_event", **model.duplicate_fields(src, date=params["new_date"]))]

    def solve(self, params, ui):
        eid = params["event_id"]
        yield from open_event(ui, eid, params["date"])
        yield ui.click(f"calendar-duplicate-{eid}")
        yield from _fill_and_save(ui, {"date": params["new_date"]})


@family("calendar.edit_event", apps="calendar", max_steps=25)
class EditEvent(CalendarFamily):
    """Change one field (time, title or location) of a named event."""

    def sample(self, state, config, rng):
        ev = pick_event(rng, state)
        field = rng.choice(["time", "title", "location"])
        if field == "time":
            value = rng.choice([t for t in TIMES if t != ev["time"]])
        elif field == "title":
            value = pick(rng, free_titles(state, config), "new event title")
        else:
            value = rng.choice(
                [p for p in words(config, "calendar.new_locations") if norm_text(p) != norm_text(ev["location"])]
            )
        return {**_event_params(ev), "field": field, "value": value}

    def plan(self, params, initial):
        return [Op.of("calendar", "edit_event", id=params["event_id"], **{params["field"]: params["value"]})]

    def solve(self, params, ui):
        eid = params["event_id"]
        yield from open_event(ui, eid, params["date"])
        yield ui.click(f"calendar-edit-{eid}")
        yield from _fill_and_save(ui, {params["field"]: params["value"]})


__all__ = [
    "AddEvent",
    "DuplicateEvent",
    "EditEvent",
    "RemoveEvent",
    "day_text",
    "go_to_day",
    "pick_event",
    "unique_events",
]
