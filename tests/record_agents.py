"""Agents for the episode-record tests (``tests.record_agents:<Class>`` as an agent name)."""

from __future__ import annotations

from openapps_sim.agents.oracle import OracleAgent

from openapps_sim.taskkit.observation import testid_bids

from .sweep_agents import ScriptedAgent


class AcceptsOffers(OracleAgent):
    """The oracle, except that it presses every interruption's "accept" button it sees first."""

    name = "accepts_offers"

    def act(self, obs: dict) -> str:
        accept = sorted(t for t in testid_bids(obs) if t.startswith("interrupt-") and t.endswith("-accept"))
        if accept:
            return f"click({testid_bids(obs)[accept[0]]!r})"
        return super().act(obs)


class Refused(ScriptedAgent):
    """Acts with ``MOVES`` in turn (every one refused before it reaches the env), then ``noop``."""

    name = "refused"
    MOVES = ("no-op", "click('1', 'x', 'y', 'z')", "todo.add_item(title='milk')", "scroll(0, 200)")

    def move(self, n: int, obs: dict) -> str:
        return self.MOVES[n - 1] if n <= len(self.MOVES) else "noop(0)"
