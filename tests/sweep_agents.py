"""Small agents for sweep tests, found by the sweep like any agent file
(``tests.sweep_agents:<Class>`` in a spec's ``agents``)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from openapps_sim.agent import Agent

# A page BrowserGym cannot observe: two elements carry the same ``bid`` attribute, so marking
# the page raises "Attribute bid already used" inside ``env.step``.
BID_COLLISION = 'goto("data:text/html,<a bid=1>x</a><a bid=1>y</a>")'


class BidCollisionAgent(Agent):
    """Navigates to a page whose observation cannot be extracted, then declares it is done."""

    name = "bid_collision"

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.n = 0

    def act(self, obs: dict) -> str:
        self.n += 1
        return BID_COLLISION if self.n == 1 else "send_msg_to_user('done')"


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_browsers() -> int:
    """SIGKILL every Chromium process this test process started (its descendants)."""
    killed = 0
    for pid in _descendants(os.getpid()):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip().lower()
        except OSError:
            continue
        if "chrom" in name or "headless" in name:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    return killed


class BrowserKillerAgent(Agent):
    """Kills the browser from outside (like the OOM killer would), then clicks as usual."""

    name = "browser_killer"

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        pass

    def act(self, obs: dict) -> str:
        assert kill_browsers() > 0, "no Chromium process found to kill"
        return "go_back()"


class SeedRecorder(Agent):
    """Declares it is done at once; remembers the seeds it was reset with."""

    name = "seed_recorder"
    seeds: list[int] = []

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        SeedRecorder.seeds.append(seed)

    def act(self, obs: dict) -> str:
        return "send_msg_to_user('done')"
