"""Agents that hang, die or eat memory in their own turn, and one that hangs the environment
instead (issue 42, point 1: only what the environment did is infrastructure). Found by the sweep
like any agent file (``tests.hang_agents:<Class>``); they run in sweep worker processes."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from openapps_sim.agent import Agent

STEP = "noop(0)"


class StepCounter(Agent):
    """Acts with a valid no-op; ``turn(n)`` runs first on step ``n`` (from 1)."""

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.n = 0

    def act(self, obs: dict) -> str:
        self.n += 1
        self.turn(self.n)
        return STEP

    def turn(self, n: int) -> None:
        pass


class HangsInReset(StepCounter):
    """Never returns from ``reset``."""

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        time.sleep(3600)


class HangsOnStep2(StepCounter):
    """A no-op, then never answers."""

    def turn(self, n: int) -> None:
        if n == 2:
            time.sleep(3600)


class KilledOnStep2(StepCounter):
    """A no-op, then its process is killed as the OOM killer kills the biggest process (SIGKILL)."""

    def turn(self, n: int) -> None:
        if n == 2:
            os.kill(os.getpid(), signal.SIGKILL)


class EatsMemory(StepCounter):
    """On step 1 takes memory 64 MB at a time, up to 1.5 GB (left untouched, so without a bound
    it costs address space, not RAM), then lets it go and goes on with no-ops."""

    def turn(self, n: int) -> None:
        if n == 1:
            held = [bytes(64 * 2**20) for _ in range(24)]
            del held


def stop_app_servers() -> bool:
    """Hang this (worker) process's environment: its next state check never returns, as a hung
    app handler or browser would not (the worlds are served in the worker's own process)."""
    from openapps_sim.envs.task import OpenAppsTask

    OpenAppsTask.validate = lambda *args, **kwargs: time.sleep(3600)
    return True


class StopsItsServer(StepCounter):
    """Answers at once, having hung its worker's environment: the step that follows hangs in the
    environment (as a hung app handler or browser would), not in the agent."""

    def turn(self, n: int) -> None:
        if n == 1:
            assert stop_app_servers()


class StopsItsServerOnce(StepCounter):
    """As :class:`StopsItsServer` in the first worker that runs it (a marker file, named by the
    environment variable ``HANG_MARKER``, remembers); then declares it is done."""

    def act(self, obs: dict) -> str:
        marker = Path(os.environ["HANG_MARKER"])
        if not marker.exists():
            marker.touch()
            assert stop_app_servers()
            return STEP
        return "send_msg_to_user('done')"
