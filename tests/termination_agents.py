"""Agents that end their episodes badly on purpose, for the termination tests
(``tests.termination_agents:<Class>`` as an agent name)."""

from __future__ import annotations

from openapps_sim.agents.oracle import OracleAgent


class StopAtOnce(OracleAgent):
    """Declares it is done before doing anything."""

    name = "stop_at_once"

    def act(self, obs: dict) -> str:
        return "send_msg_to_user('Done.')"


class RunOn(OracleAgent):
    """Does the oracle's work, then ``extra`` more harmless steps, then declares it is done
    (``extra=None``: it never declares)."""

    name = "run_on"
    extra: int | None = 3

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        super().reset(goal, {**(task_info or {}), "termination": "auto"}, seed)  # the oracle's work, undeclared
        self.after = 0

    def act(self, obs: dict) -> str:
        if not self.finished:
            action = super().act(obs)
            if not self.finished:
                return action
        self.after += 1
        if self.extra is None or self.after <= self.extra:
            return "noop(0)"
        return "send_msg_to_user('Done.')"


class NeverDeclare(RunOn):
    name = "never_declare"
    extra = None


class RunOnTwo(RunOn):
    name = "run_on_two"
    extra = 2
