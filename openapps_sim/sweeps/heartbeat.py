"""Whose time it is: a sweep worker's heartbeat names the phase its episode is in, so that the
parent's watchdog can tell a hang or a death in the agent's own code (the agent's failed
episode) from one in the environment (infrastructure) -- docs/sweeps.md, "Hangs and deaths".

Phases, in the order an episode goes through them:

* ``env`` -- the worker starting, its app server and browser, ``env.reset``, checking an
  action and running it (``env.step``);
* ``agent`` -- the agent's own code: ``agent.reset`` and ``agent.act``;
* ``model`` -- inside the agent's turn, a call of its model client to its model service (an
  HTTP attempt or the wait before the next, announced by
  :func:`openapps_sim.agent.calling_model_service`);
* ``record`` -- the final state scored and the record written.

While the agent acts, the worker can hold it to a memory bound (``memory_mb``): its address
space may grow by at most that much during one turn, so an agent that eats memory meets a
``MemoryError`` of its own (its failed episode) instead of the machine's OOM killer.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

ENV, AGENT, MODEL, RECORD = "env", "agent", "model", "record"
PHASES = (ENV, AGENT, MODEL, RECORD)
AGENT_PHASES = (AGENT, MODEL)  # the agent's turn: a worker dying in it died of the agent's doing

try:
    import resource
except ImportError:  # not on every platform: no memory bound there
    resource = None  # type: ignore[assignment]


def address_space() -> int | None:
    """This process's virtual memory size in bytes (Linux), else None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class Heartbeat:
    """Called as ``beat(step, phase, sofar=None)``: sends ``{"beat": step, "phase": phase}``
    through ``send`` (with what ``sofar()`` returns: the record if the agent never answers from
    here). Thread-safe: an agent's model client may announce its calls from another thread."""

    def __init__(self, send: Callable[[dict], None], memory_mb: float | None = None):
        self.send, self.memory_mb = send, memory_mb
        self.step, self.phase = -1, ENV
        self.lock = threading.Lock()
        self.saved_limit: tuple[int, int] | None = None

    def __call__(self, step: int, phase: str, sofar: Callable[[], dict] | None = None) -> None:
        if phase not in AGENT_PHASES:
            self.lift_bound()  # before anything of the worker's own allocates
        message: dict = {"beat": step, "phase": phase}
        if sofar is not None:
            message["sofar"] = sofar()
        with self.lock:
            entering = phase in AGENT_PHASES and self.phase not in AGENT_PHASES
            self.step, self.phase = step, phase
            self.send(message)
            if entering:
                self.set_bound()

    def model_call(self, active: bool) -> None:
        """A listener of :data:`openapps_sim.agent.MODEL_CALL_LISTENERS`: a call to the model
        service starts (``model``) or ends (back to ``agent``) -- only during the agent's turn."""
        if self.phase in AGENT_PHASES:
            self(self.step, MODEL if active else AGENT)

    def set_bound(self) -> None:
        if not self.memory_mb or resource is None:
            return
        now = address_space()
        if now is None:
            return
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = now + int(self.memory_mb * 2**20)
        for held in (soft, hard):  # never above a limit the worker was already given
            if held != resource.RLIM_INFINITY:
                limit = min(limit, held)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        self.saved_limit = (soft, hard)

    def lift_bound(self) -> None:
        saved, self.saved_limit = self.saved_limit, None
        if saved is not None and resource is not None:
            resource.setrlimit(resource.RLIMIT_AS, saved)
