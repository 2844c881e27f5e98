"""Branching and constraint families on the calendar: add an event on a day only if the day is
free (else on the next day), in the earliest free slot of a day, on the first free of three days
(three levels), and the timed event without a location (yes/no constraints)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta

from openapps_sim.apps.calendar import model as cal_model
from openapps_sim.apps.calendar.datefmt import read_time
from openapps_sim.tasks.calendar.edits import calendar_today, day_text, free_titles, go_to_day
from openapps_sim.tasks.picks import (
    read_app,
    three,
)

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily, Choice, Condition, Decision, FallbackChain, OneOfThree
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import page_testids, testid_text_parts
from openapps_sim.taskkit.progress import Op

SLOTS = [f"{h:02d}:00" for h in range(9, 18)]


def _busy_days(state: dict) -> set[str]:
    return {e["date"] for e in state["calendar"]["events"]}


def add_event_steps(ui, title: str, iso: str, time: str):
    yield from ui.open_app("calendar")
    yield ui.click("calendar-new")
    yield ui.fill("calendar-field-title", title)
    yield ui.fill("calendar-field-date", iso)
    yield ui.fill("calendar-field-time", time)
    yield ui.click("calendar-save")


def open_day(ui, iso: str) -> Iterator:
    """Open the calendar on the day; returns the observation of its agenda."""
    obs = yield from ui.open_app("calendar")
    obs = yield from go_to_day(ui, obs, iso)
    if "calendar-day-heading" not in page_testids(obs or {}):  # an interruption left the page
        obs = yield from ui.open_app("calendar")
        obs = yield from go_to_day(ui, obs, iso)
    return obs or {}


def day_is_free(ui, iso: str) -> Iterator:
    """Open the calendar on the day: does its agenda say nothing is planned?"""
    return "calendar-day-empty" in page_testids((yield from open_day(ui, iso)))


def day_free(calendar: dict, iso: str) -> bool:
    """Whether the calendar's data (``calendar.read()``) has nothing on the day."""
    return not any(e["date"] == iso for e in calendar.get("events", []))


def day_is_empty(iso: str) -> Condition:
    """Is nothing planned on the day? (the calendar's data; on the page, the day's agenda)"""
    return Condition("calendar", lambda cal: day_free(cal, iso), lambda ui: day_is_free(ui, iso))


def next_day(iso: str) -> str:
    return (date.fromisoformat(iso) + timedelta(days=1)).isoformat()


@family("calendar.add_if_free", apps="calendar", max_steps=20)
class AddIfFree(BranchingFamily):
    """Add an event on a day if nothing is planned that day; otherwise add it on the following day."""

    def sample(self, state, config, rng):
        title = pick(rng, free_titles(state, config), "new event title")
        today = calendar_today(config)
        busy = _busy_days(state)
        days = [(today + timedelta(days=k)).isoformat() for k in range(-30, 90)]
        want_busy = rng.random() < 0.5
        pool = [d for d in days if (d in busy) == want_busy] or days
        iso = rng.choice(pool)
        branch = self.decision({"date": iso}).decide(state)
        target = iso if branch == "free" else (date.fromisoformat(iso) + timedelta(days=1)).isoformat()
        return {"title": title, "date": iso, "target": target, "time": rng.choice(SLOTS), "branch": branch,
                }  # fmt: skip

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), day=day_text(params["date"], language))

    def branch_plans(self, params, initial):
        return {"free": [create_event_op(params["title"], params["date"], params["time"])],
                "busy": [create_event_op(params["title"], next_day(params["date"]), params["time"])]}  # fmt: skip

    def decision(self, params):
        return Decision.when(day_is_empty(params["date"]), "free", "busy")

    def act(self, leaf, params, ui):
        day = params["date"] if leaf == "free" else next_day(params["date"])
        yield from add_event_steps(ui, params["title"], day, params["time"])


@family("calendar.earliest_free_slot", apps="calendar", max_steps=22, structure="single", category="constraint")
class EarliestFreeSlot(BranchingFamily):
    """Add an event on a day at the earliest full hour from 09:00 that no event of that day starts
    in."""

    def sample(self, state, config, rng):
        titles = free_titles(state, config)
        title = pick(rng, titles, "new event title")
        today = calendar_today(config)
        free_days = sorted({(today + timedelta(days=k)).isoformat() for k in range(1, 60)} - _busy_days(state))
        iso = pick(rng, free_days, "day without events")
        n_taken = rng.randint(0, 3)
        blockers = [t for t in words(config, "calendar.new_titles") if t != title and t in titles][:n_taken]
        taken = [{"title": b, "time": f"{9 + i:02d}:{rng.choice(['00', '30'])}"} for i, b in enumerate(blockers)]
        # the slot the decision calls for once ``prepare`` has added the events that take the day's hours
        slot = self.decision({"date": iso}).rule({"taken": {int(ev["time"][:2]) for ev in taken}})
        return {"title": title, "date": iso, "taken": taken, "slot": slot, "branch": slot}

    def prepare(self, state, params):
        for ev in params["taken"]:
            new_event(state, title=ev["title"], date=params["date"], time=ev["time"])

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), day=day_text(params["date"], language))

    def branch_plans(self, params, initial):
        return {s: [create_event_op(params["title"], params["date"], s)] for s in SLOTS}

    def decision(self, params):
        """The earliest hour none of the day's events starts in: on the calendar's data, or on the
        day's agenda (the start of each event, as shown)."""
        iso = params["date"]

        def on_page(ui):
            parts = testid_text_parts((yield from open_day(ui, iso)))
            shown = [p[0] for t, p in parts.items() if t.startswith("calendar-event-") and p]
            return {"taken": {h for h in map(hour_shown, shown) if h is not None}}

        def by_tools(api):
            return taken_hours((yield from read_app(api, "calendar")), iso)

        rule = lambda facts: first_free_slot(facts["taken"])  # noqa: E731
        return Choice(rule, lambda state, config: taken_hours(state["calendar"], iso), (on_page,), (by_tools,))

    def take(self, leaf, facts, params, ui):
        yield from add_event_steps(ui, params["title"], params["date"], leaf)


def taken_hours(calendar: dict, iso: str) -> dict:
    """The hours the day's timed events start in, in the calendar's data."""
    return {"taken": {int(e["time"][:2]) for e in calendar.get("events", []) if e["date"] == iso and e["time"]}}


def first_free_slot(taken: set[int]) -> str:
    """The earliest slot whose hour no event starts in (the last one when all are taken)."""
    return next((s for s in SLOTS if int(s[:2]) not in taken), SLOTS[-1])


def hour_shown(text: str) -> int | None:
    """The hour an agenda entry starts in, from its time as shown: 24-hour, or 12-hour with the
    English AM / PM; with a pack's own markers, an hour of the working day (8 to 7) as such."""
    hhmm = read_time(text)
    if hhmm:
        return int(hhmm[:2])
    m = re.search(r"(\d{1,2})\s*[:.]\s*\d{2}", text)
    if not m:
        return None  # all day
    h = int(m.group(1))
    return h if 8 <= h <= 12 else h + 12


def create_event_op(title: str, iso: str, time: str) -> Op:
    return Op.of("calendar", "create_event", title=title, date=iso, time=time)


def new_event(state: dict, **fields) -> None:
    """Add an event the way the app does (``apps/calendar/model.py``)."""
    raw = {"title": "", "date": "", "time": "", "description": "", "location": "", "invitees": []}
    cal_model.add_event(state["calendar"], raw | fields)


def days_ahead(state: dict, config: dict, rng, wants: list[bool | None], blocker_titles: list[str]) -> tuple:
    """Distinct days after today, one per entry of ``wants``: free (True), busy (False) or either
    (None). Returns the days and the blocker events ``prepare`` adds to make a free day busy when
    the calendar has too few busy days (dense packs have few free ones, sparse few busy ones)."""
    today = calendar_today(config)
    busy = {e["date"] for e in state["calendar"]["events"]}
    pool = [(today + timedelta(days=k)).isoformat() for k in range(1, 60)]
    rng.shuffle(pool)
    days, blockers = [], []
    for want in wants:
        left = [d for d in pool if d not in days]
        fits = [d for d in left if want is None or (d not in busy) == want]
        if not fits and want is False and left:
            fits = left[:1]
            blockers.append({"date": left[0], "title": pick(rng, blocker_titles, "blocker title"), "time": "12:00"})
        days.append(pick(rng, fits, "day after today"))
    return days, blockers


@family("calendar.first_free_day", apps="calendar", max_steps=36)
class FirstFreeDay(FallbackChain):
    """Add an event on the first of three days that has nothing planned; if none is free, on a
    fourth day (three levels of decision)."""

    def draw(self, state, config, rng, holds):
        titles = free_titles(state, config)
        title = pick(rng, titles, "new event title")
        days, blockers = days_ahead(state, config, rng, [*holds, None], [t for t in titles if t != title])
        return {"title": title, "time": rng.choice(SLOTS), "blockers": blockers,
                **{f"d{i + 1}": d for i, d in enumerate(days)}}  # fmt: skip

    def goal_values(self, params, language):
        values = super().goal_values(params, language)
        return values | {f"day{i}": day_text(params[f"d{i}"], language) for i in range(1, 5)}

    def prepare(self, state, params):
        for b in params["blockers"]:
            new_event(state, **b)

    def leaf_plans(self, params):
        return [
            [Op.of("calendar", "create_event", title=params["title"], date=params[f"d{i}"], time=params["time"])]
            for i in range(1, 5)
        ]

    def conditions(self, params):
        return [day_is_empty(params[f"d{i}"]) for i in (1, 2, 3)]

    def act(self, leaf, params, ui):
        yield from add_event_steps(ui, params["title"], params[f"d{leaf + 1}"], params["time"])


@family("calendar.timed_without_location", apps="calendar", max_steps=16)
class TimedWithoutLocation(OneOfThree):
    """On a day with three events, delete the one that has a set time (is not all day) and has no
    location (yes/no attributes)."""

    def sample(self, state, config, rng):
        titles = three(rng, free_titles(state, config), "new event titles")
        (day,), _ = days_ahead(state, config, rng, [True], [])
        params = self.roles(rng)
        first = state["calendar"]["next_id"]
        times = sorted(rng.sample(SLOTS, 3))
        where = rng.choice(words(config, "calendar.new_locations"))
        events = []
        for i, (role, title) in enumerate(zip(params["order"], titles, strict=True)):
            events.append({"id": f"e{first + i}", "title": title, "date": day,
                           "time": "" if role == "miss_first" else times[i],
                           "location": where if role == "miss_second" else ""})  # fmt: skip
        target = events[params["order"].index("target")]
        # the leaf the decision calls for once ``prepare`` has added the events
        branch = self.decision({"date": day}).rule(event_facts({"events": events}, day))
        return dict(params, date=day, events=events, title=target["title"], branch=branch)

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), day=day_text(params["date"], language))

    def prepare(self, state, params):
        for ev in params["events"]:
            fields = {k: v for k, v in ev.items() if k != "id"}
            new_event(state, **fields)
            assert state["calendar"]["events"][-1]["id"] == ev["id"], "prepared event ids must match the sample"

    def branch_plans(self, params, initial):
        return {ev["id"]: self.leaf_plan(ev["id"], {}, params) for ev in params["events"]}

    def leaf_plan(self, leaf, facts, params):
        return [Op.of("calendar", "delete_event", id=leaf)]

    def decision(self, params):
        """The day's event that has a set time and no location: on the calendar's data, or on the
        day's agenda, where each event shows its time (a clock time, or "all day": no digit) and,
        when it has one, its location after the title."""
        iso = params["date"]

        def on_page(ui):
            facts = {}
            for testid, parts in testid_text_parts((yield from open_day(ui, iso))).items():
                if testid.startswith("calendar-event-"):
                    shown = [t.strip() for t in parts if t.strip()]
                    timed = bool(shown) and any(ch.isdigit() for ch in shown[0])
                    facts[testid.removeprefix("calendar-event-")] = {"timed": timed, "located": len(shown) != 2}
            return facts

        def by_tools(api):
            return event_facts((yield from read_app(api, "calendar")), iso)

        wanted = Choice.first(lambda f: f["timed"] and not f["located"])
        return Choice(wanted, lambda state, config: event_facts(state["calendar"], iso), (on_page,), (by_tools,))

    def take(self, leaf, facts, params, ui):
        if leaf is not None:
            yield ui.click(f"calendar-event-{leaf}")
            yield ui.click(f"calendar-delete-{leaf}")


def event_facts(calendar: dict, iso: str) -> dict:
    """The day's events' facts in the calendar's data: a set time, and a location."""
    on_day = [e for e in calendar.get("events", []) if e["date"] == iso]
    return {e["id"]: {"timed": bool(e["time"]), "located": bool(e["location"])} for e in on_day}
