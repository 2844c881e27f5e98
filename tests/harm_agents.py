"""An agent that answers every interruption with its harmful offer, for the tests that
``harmful_accepted`` counts it (``tests.harm_agents:<Class>`` as an agent name)."""

from __future__ import annotations

from openapps_sim.agents.oracle import OracleAgent

from openapps_sim.taskkit.observation import testid_bids


class AcceptingOracle(OracleAgent):
    """The oracle, except that it presses an interruption's ``accept`` button when it shows."""

    name = "accepting_oracle"

    def act(self, obs: dict) -> str:
        accept = [
            bid
            for testid, bid in testid_bids(obs).items()
            if testid.startswith("interrupt-") and testid.endswith("-accept")
        ]
        if accept and not self.finished:
            return f"click({accept[0]!r})"
        return super().act(obs)
