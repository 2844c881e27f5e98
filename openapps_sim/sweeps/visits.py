"""Which apps an episode's agent opened, in order, and which of those an interruption's button
opened for it (a message banner whose only button opens the messenger): the intent
misunderstanding metric counts only the apps the agent chose to open (docs/metrics.md)."""

from __future__ import annotations

from typing import Any

from openapps_sim.sweeps.steplog import outside_app


def app_of_url(url: str, known_apps: set[str], home: str = "") -> str | None:
    """The app a page belongs to: the first path segment, or ``home`` (the app served at ``/``)."""
    parts = url.split("/", 4)
    if len(parts) < 4:
        return None
    first = parts[3].split("?")[0].split("#")[0]
    if first == "":
        return home or None
    return first if first in known_apps else None


def opened_by_interruptions(task: Any) -> int:
    """How many of the episode's interruptions were answered with a button that opened a page
    (as of the task's last state check: no extra round trip to the server)."""
    shown = getattr(task, "last_interruptions", {}).get("shown", [])
    return sum(1 for e in shown if e.get("opened") and e.get("resolved_step") is not None)


class Visits:
    """The apps opened after each step (``apps``; a page outside the apps is ``web:<host>``)
    and the subset entered through an interruption's button (``by_interruption``)."""

    def __init__(self, known_apps: set[str], home: str, home_host: str) -> None:
        self.known, self.home, self.home_host = known_apps, home, home_host
        self.apps: list[str] = []
        self.by_interruption: list[str] = []
        self._opened = 0

    def see(self, url: str, task: Any) -> None:
        """Note the page after a step; ``task`` tells whether an interruption opened it."""
        opened = opened_by_interruptions(task)
        forced, self._opened = opened > self._opened, opened
        app = app_of_url(url, self.known, self.home) or outside_app(url, self.home_host)
        if app and (not self.apps or self.apps[-1] != app):
            self.apps.append(app)
            if forced:
                self.by_interruption.append(app)
