"""Agents that keep acting on the page they saw before a crash restarted the app, for the
perception-drift tests (``tests.drift_agents:<Class>`` as an agent name)."""

from __future__ import annotations

from urllib.parse import urljoin

from openapps_sim.agent import Agent
from openapps_sim.sweeps.steplog import page_elements


def _restart_button(elements: dict) -> str | None:
    """The bid of a crash screen's restart button (every crash button restarts), else None."""
    for bid, (role, name, *_) in elements.items():
        if role == "button" and "restart" in name.lower():
            return bid
    return None


class StaleClicker(Agent):
    """Opens the todo app; when the app crashes, answers the crash screen, then clicks ``clicks``
    times the id of an element of the page it saw before the crash that the restarted page no
    longer has under that id (:meth:`stale_ids`), then says it is done."""

    name = "stale_clicker"
    clicks = 3

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.before: dict = {}
        self.restarted = False
        self.clicked = 0
        self.n = 0

    def stale_ids(self, now: dict) -> list[str]:
        """The ids of the old page whose element is not under them now."""
        return [bid for bid, element in self.before.items() if now.get(bid) != element]

    def act(self, obs: dict) -> str:
        self.n += 1
        now = page_elements(obs)
        restart = _restart_button(now)
        if restart is not None:
            self.restarted = True
            return f"click('{restart}')"
        if self.restarted and self.clicked < self.clicks:
            stale = self.stale_ids(now)
            if stale:
                self.clicked += 1
                return f"click('{stale[-1]}')"
        if self.n == 1:
            self.before = now
            return f"goto('{urljoin(obs['url'], '/todo/')}')"
        return "send_msg_to_user('Done.')"


class MovedClicker(StaleClicker):
    """Like :class:`StaleClicker`, but clicks the old id of an element that is still on the page
    under another id: the id it remembers points at another element now."""

    name = "moved_clicker"

    def stale_ids(self, now: dict) -> list[str]:
        here = set(now.values())
        return [
            bid
            for bid, element in self.before.items()
            if bid in now and now[bid] != element and element[1] and element in here
        ]


class GoneClicker(StaleClicker):
    """Like :class:`StaleClicker`, but clicks only old ids that name nothing on the page now."""

    name = "gone_clicker"

    def stale_ids(self, now: dict) -> list[str]:
        return [bid for bid in self.before if bid not in now]
