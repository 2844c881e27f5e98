"""Branching and constraint families on the calendar: add an event on a day only if the day is
free (else on the next day), and add an event in the earliest free slot of a day."""

from __future__ import annotations

from datetime import date, timedelta

from openapps_sim.tasks.calendar import NEW_TITLES, _date_params, _free_titles, _lang, _new_event, _today

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily
from openapps_sim.taskkit.progress import Op

SLOTS = [f"{h:02d}:00" for h in range(9, 18)]


def _busy_days(state: dict) -> set[str]:
    return {e["date"] for e in state["calendar"]["events"]}


def _add_steps(ui, title: str, iso: str, time: str):
    yield from ui.open_app("calendar")
    yield ui.click("calendar-new")
    yield ui.fill("calendar-field-title", title)
    yield ui.fill("calendar-field-date", iso)
    yield ui.fill("calendar-field-time", time)
    yield ui.click("calendar-save")


@family
class AddIfFree(BranchingFamily):
    id = "calendar.add_if_free"
    apps = ("calendar",)
    max_steps = 20
    description = "Add an event on a day if nothing is planned that day; otherwise add it on the following day."
    phrasings = {
        "plain": [
            "If I have nothing in my calendar on {day_en}, add '{title}' at {time} that day; otherwise add it on "
            "the next day at {time}.",
            "Add '{title}' at {time} on {day_en} if that day is free; if not, put it on the day after at {time}.",
            "Check {day_en} in my calendar: free? Add '{title}' at {time}. Busy? Add it the following day at {time}.",
        ],
        "casual": [
            "if {day_en} is empty in my calendar, stick '{title}' in at {time}, else do the day after, same time",
            "'{title}' at {time}: {day_en} if I'm free, otherwise the next day pls",
            "Can you add '{title}' at {time} on {day_en}? Unless something's already on that day, then the day after.",
        ],
        "context": [
            "I'm trying to keep {day_en} calm. If nothing is planned that day, add '{title}' at {time}; otherwise "
            "add it on the next day at {time}.",
            "My week is chaos. Add '{title}' at {time} on {day_en} if the day is free, else on the day after.",
            "Someone asked me to meet. '{title}' at {time} on {day_en} if I have nothing then, otherwise the next day.",
        ],
        "de": [
            "Wenn ich am {day_de} nichts im Kalender habe, trage '{title}' um {time} ein; sonst am Tag danach um {time}."
        ],
        "fr": ["Si je n'ai rien le {day_fr}, ajoute '{title}' à {time} ce jour-là ; sinon le lendemain à {time}."],
    }

    def sample(self, state, config, rng):
        lang = _lang(config)
        title = pick(rng, _free_titles(state, lang), "new event title")
        today = _today(config)
        busy = _busy_days(state)
        days = [(today + timedelta(days=k)).isoformat() for k in range(-30, 90)]
        want_busy = rng.random() < 0.5
        pool = [d for d in days if (d in busy) == want_busy] or days
        iso = rng.choice(pool)
        branch = "busy" if iso in busy else "free"
        target = iso if branch == "free" else (date.fromisoformat(iso) + timedelta(days=1)).isoformat()
        return {"title": title, "date": iso, "target": target, "time": rng.choice(SLOTS), "branch": branch,
                **_date_params("day", iso)}  # fmt: skip

    def apply(self, state, params):
        (op,) = self.branch_ops(params)[params["branch"]]
        _new_event(state, title=params["title"], date=dict(op.args)["date"], time=params["time"])

    def branch_ops(self, params):
        nxt = (date.fromisoformat(params["date"]) + timedelta(days=1)).isoformat()
        return {
            "free": [Op.of("calendar", "add", title=params["title"], date=params["date"])],
            "busy": [Op.of("calendar", "add", title=params["title"], date=nxt)],
        }

    def solve(self, params, ui):
        yield from _add_steps(ui, params["title"], params["target"], params["time"])


@family
class EarliestFreeSlot(BranchingFamily):
    id = "calendar.earliest_free_slot"
    apps = ("calendar",)
    max_steps = 22
    structure = "single"
    category = "constraint"
    description = "Add an event on a day at the earliest full hour from 09:00 that no event of that day starts in."
    phrasings = {
        "plain": [
            "Add '{title}' on {day_en} at the earliest free full hour from 09:00 (an hour is taken if an event starts in it).",
            "Put '{title}' on {day_en} in the first free hour slot starting at 09:00.",
            "Schedule '{title}' on {day_en} at the earliest whole hour from 9:00 with no event starting in it.",
        ],
        "casual": [
            "book '{title}' on {day_en}, earliest free hour from 9 am pls",
            "'{title}' on {day_en}, first free slot on the hour from 09:00",
            "Grab the earliest free hour (from 09:00) on {day_en} for '{title}'.",
        ],
        "context": [
            "I'm a morning person. Add '{title}' on {day_en} at the earliest free full hour from 09:00.",
            "My afternoon is always packed, so put '{title}' on {day_en} in the first free hour from 09:00.",
            "To get it done early: '{title}' on {day_en}, earliest full hour from 09:00 with nothing starting then.",
        ],
        "de": ["Trage '{title}' am {day_de} zur frühesten freien vollen Stunde ab 09:00 ein."],
        "fr": ["Ajoute '{title}' le {day_fr} à la première heure pleine libre à partir de 09:00."],
    }

    def sample(self, state, config, rng):
        lang = _lang(config)
        titles = _free_titles(state, lang)
        title = pick(rng, titles, "new event title")
        today = _today(config)
        free_days = sorted({(today + timedelta(days=k)).isoformat() for k in range(1, 60)} - _busy_days(state))
        iso = pick(rng, free_days, "day without events")
        n_taken = rng.randint(0, 3)
        blockers = [t for t in NEW_TITLES[lang] if t != title and t in titles][:n_taken]
        taken = [{"title": b, "time": f"{9 + i:02d}:{rng.choice(['00', '30'])}"} for i, b in enumerate(blockers)]
        slot = SLOTS[len(taken)]
        return {"title": title, "date": iso, "taken": taken, "slot": slot, "branch": slot, **_date_params("day", iso)}

    def prepare(self, state, params):
        for ev in params["taken"]:
            _new_event(state, title=ev["title"], date=params["date"], time=ev["time"])

    def apply(self, state, params):
        _new_event(state, title=params["title"], date=params["date"], time=params["slot"])

    def branch_ops(self, params):
        return {s: [Op.of("calendar", "add", title=params["title"], date=params["date"], time=s)] for s in SLOTS}

    def solve(self, params, ui):
        yield from _add_steps(ui, params["title"], params["date"], params["slot"])
