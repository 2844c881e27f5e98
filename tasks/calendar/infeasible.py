"""The infeasible family of the calendar: the goal names something it does not hold (the base and
what such a family is: ``tasks/infeasible.py``)."""

from __future__ import annotations

from datetime import timedelta

from openapps_sim.tasks.calendar.edits import CalendarFamily, calendar_today, free_titles, go_to_day
from openapps_sim.tasks.infeasible import InfeasibleFamily

from openapps_sim.taskkit import family, pick


@family("calendar.move_missing_event", apps="calendar", max_steps=12)
class MoveMissingEvent(InfeasibleFamily, CalendarFamily):
    """Move an event that is not in the calendar to another day (infeasible: report it, change
    nothing)."""

    target_key = "title"

    def sample(self, state, config, rng):
        title = pick(rng, free_titles(state, config), "missing event title")
        day = calendar_today(config) + timedelta(days=rng.randint(1, 24))
        return {"title": title, "new_date": day.isoformat()}

    def infeasible_target(self, params):
        return f"{self.id}:{params['title']}:{params['new_date']}"

    def reason(self, params):
        return f"There is no event {params['title']!r} in the calendar."

    def solve(self, params, ui):
        obs = yield from ui.open_app("calendar")
        yield from go_to_day(ui, obs, params["new_date"])  # look around the day it should go to
        yield ui.report_infeasible(self.reason(params))
