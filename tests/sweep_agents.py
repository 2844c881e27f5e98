"""Small agents for sweep tests, found by the sweep like any agent file
(``tests.sweep_agents:<Class>`` in a spec's ``agents``)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from openapps_sim.agent import Agent

from .procs import descendants

# A page BrowserGym cannot observe: two elements carry the same ``bid`` attribute, so marking
# the page raises "Attribute bid already used" inside ``env.step``.
BID_COLLISION = 'goto("data:text/html,<a bid=1>x</a><a bid=1>y</a>")'


class ScriptedAgent(Agent):
    """An agent that acts by step number: ``move(n, obs)`` gives the action of step ``n``
    (counted from 1 since the last reset)."""

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.n = 0

    def act(self, obs: dict) -> str:
        self.n += 1
        return self.move(self.n, obs)

    def move(self, n: int, obs: dict) -> str:
        raise NotImplementedError


class BidCollisionAgent(ScriptedAgent):
    """Navigates to a page whose observation cannot be extracted, then declares it is done."""

    name = "bid_collision"

    def move(self, n: int, obs: dict) -> str:
        return BID_COLLISION if n == 1 else "send_msg_to_user('done')"


def chromium_pids() -> set[int]:
    """The Chromium processes this test process started (its descendants)."""
    pids = set()
    for pid in descendants(os.getpid()):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip().lower()
        except OSError:
            continue
        if "chrom" in name or "headless" in name:
            pids.add(pid)
    return pids


def kill_browsers(spare: set[int] = frozenset()) -> int:
    """SIGKILL the Chromium processes this test process started, except ``spare`` (browsers
    of other tests that run in the same process)."""
    killed = 0
    for pid in chromium_pids() - set(spare):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except ProcessLookupError:
            pass
    return killed


class BrowserKillerAgent(Agent):
    """Kills the browser from outside (like the OOM killer would), then acts as usual. Set
    ``spare`` to the Chromium processes that were running before the sweep started."""

    name = "browser_killer"
    spare: set[int] = set()

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        pass

    def act(self, obs: dict) -> str:
        assert kill_browsers(BrowserKillerAgent.spare) > 0, "no Chromium process found to kill"
        return "go_back()"


class SeedRecorder(Agent):
    """Declares it is done at once, naming the seed it was reset with (the sweep runs agents
    in worker processes, so the seed is reported through the action)."""

    name = "seed_recorder"

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.seed = seed

    def act(self, obs: dict) -> str:
        return f"send_msg_to_user('seed {self.seed}')"


class RaisesOnStep2Agent(ScriptedAgent):
    """Acts once (a valid no-op), then raises its own exception on step 2: a bug of the agent,
    so a failed episode of this agent, never an infrastructure error."""

    name = "raises_on_step_2"

    def move(self, n: int, obs: dict) -> str:
        if n == 2:
            raise ValueError("the agent's own bug on step 2")
        return "noop(0)"


class WaitingAgent(ScriptedAgent):
    """Never finishes: waits at every step (``noop(0)``, no wait), so only the step budget ends it."""

    name = "waiting"

    def move(self, n: int, obs: dict) -> str:
        return "noop(0)"
