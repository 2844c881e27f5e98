"""Executors: how the episodes of a sweep are spread over workers.

``execute_local`` runs each worker as a child process (``sweeps.worker_main``) in its own
process group, holding its worlds (served from a thread) and Chromium. The parent alone writes results, and it
watches every worker. Its heartbeat says whose time it is (:mod:`.heartbeat`), and a worker that
sends no heartbeat for ``stall_s`` seconds, or dies, is killed with its whole process group and
replaced; then, by the phase it was in:

* in the agent's own turn (``agent.reset``, ``agent.act``): the agent's failed episode
  (``agent_error``: it did not answer, or its worker died while it acted -- an agent that ate
  the memory meets the OOM killer or a memory limit), counted in its success rate, not retried,
  never run again by ``--resume``;
* in the environment (reset, step, scoring): its episode is run once more on the fresh worker,
  and a second failure is recorded as an infrastructure error;
* stalled waiting on the agent's model service: the same, recorded as a model-service error.

Besides:

* a mistake in the spec found by a worker (a ``ConfigError``) stops the sweep with its message;
* a permanent model-server error in a worker (``SweepStopped``: 401, 404, context length) too;
* SIGINT or SIGTERM stops the sweep within seconds: running episodes are abandoned (nothing is
  recorded for them, so ``--resume`` runs them again) and every worker group is killed.

``OPENAPPS_STALL_S`` (seconds, default 300) sets ``stall_s``; ``OPENAPPS_AGENT_MEMORY_MB`` bounds
how much memory an agent may take in one turn (default: no bound). ``sweeps.raypool.execute_ray``
spreads episodes over Ray actors instead (without the watchdog), on this machine or a cluster.
Each record's ``worker`` says where it ran (host, process).
"""

from __future__ import annotations

import json
import math
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from openapps_sim.errors import ConfigError, OpenAppsError, SweepStopped, error_from_json
from openapps_sim.lifecycle import die_with_parent
from openapps_sim.sweeps.heartbeat import AGENT_PHASES, ENV, MODEL, PHASES
from openapps_sim.sweeps.record import (
    INFRASTRUCTURE,
    MODEL_SERVICE,
    EpisodeSpec,
    agent_fault_record,
    error_record,
    spec_to_json,
)

OnResult = Callable[[dict, dict], None]
StopCheck = Callable[[], int | None]  # the signal that asked the sweep to stop, else None
DEFAULT_STALL_S = 300.0


def env_number(name: str, default: float | None, unit: str) -> float | None:
    """The positive number in the environment variable ``name`` (``default`` when unset)."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise ConfigError("environment", name, f"expected a number of {unit}, got {text!r}", "a number above 0")
    return value


class SweepInterrupted(OpenAppsError):
    """The sweep was stopped by a signal; what finished is recorded."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")


@dataclass
class _Proc:
    popen: subprocess.Popen
    buffer: bytes = b""
    spec: EpisodeSpec | None = None
    attempt: int = 1
    last_beat: float = field(default_factory=time.monotonic)
    started: float = field(default_factory=time.monotonic)  # when its episode was sent
    phase: str = ENV  # whose time it is (sweeps.heartbeat), as its last beat said
    step: int = -1
    sofar: dict | None = None  # the record if the agent never answers (sent as its turn starts)


def exit_status(popen: subprocess.Popen, wait: float = 5.0) -> str:
    """How a worker whose output closed ended: ``signal 9, SIGKILL`` or ``exit code 1``."""
    try:
        code = popen.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        return "its output closed"
    if code < 0:
        try:
            return f"signal {-code}, {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def failure_reason(proc: _Proc, stall_s: float | None, how: str = "") -> str:
    """Why the episode on ``proc`` ended: it stalled (``stall_s``) or its worker died (``how``),
    said for the phase it was in."""
    call = "agent.reset" if proc.step < 0 else f"agent.act at step {proc.step + 1}"
    if stall_s is not None:
        return {
            "agent": f"the agent did not answer within {stall_s:g} s ({call})",
            "model": f"the agent's model service did not answer within {stall_s:g} s ({call})",
            "record": f"the environment did not answer within {stall_s:g} s (scoring the episode)",
        }.get(proc.phase, f"the environment did not answer within {stall_s:g} s (a hung app server or browser)")
    if proc.phase in AGENT_PHASES:
        return f"the worker died while the agent was acting ({how}; {call})"
    return f"the worker died while the environment was running ({how})"


def local_worker(pid: int) -> dict:
    """A record's ``worker``: where a local worker process ran its episode."""
    return {"executor": "local", "host": socket.gethostname(), "pid": pid, "node": None}


def _kill_group(proc: subprocess.Popen, grace: float = 3.0) -> None:
    """SIGTERM the worker's process group, then SIGKILL what is left."""
    try:
        pgid = os.getpgid(proc.pid)
    except ProcessLookupError:
        pgid = None
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        try:
            if pgid is not None:
                os.killpg(pgid, sig)
            else:
                proc.send_signal(sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=wait)
            if pgid is None:
                return
            # the group may outlive its leader (server, browser): make sure it is gone
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


class LocalPool:
    """Worker processes, a watchdog, and a clean stop."""

    def __init__(
        self, workers: int, out: Path, run_id: str, headless: bool, stall_s: float, memory_mb: float | None = None
    ):
        self.n, self.out, self.run_id, self.headless, self.stall_s = workers, out, run_id, headless, stall_s
        self.memory_mb = memory_mb
        self.sel = selectors.DefaultSelector()
        self.procs: list[_Proc] = []

    def _spawn(self) -> _Proc:
        cmd = [sys.executable, "-m", "openapps_sim.sweeps.worker_main", "--out", str(self.out), "--run-id", self.run_id]
        if not self.headless:
            cmd.append("--headed")
        if self.memory_mb:
            cmd += ["--agent-memory-mb", f"{self.memory_mb:g}"]
        popen = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,
            bufsize=0,
            preexec_fn=die_with_parent(signal.SIGKILL),  # a worker never outlives the sweep; its server follows it
        )
        proc = _Proc(popen)
        self.sel.register(popen.stdout, selectors.EVENT_READ, proc)
        self.procs.append(proc)
        return proc

    def _retire(self, proc: _Proc) -> None:
        try:
            self.sel.unregister(proc.popen.stdout)
        except (KeyError, ValueError):
            pass
        _kill_group(proc.popen)
        if proc in self.procs:
            self.procs.remove(proc)

    def _send(self, proc: _Proc, spec: EpisodeSpec, attempt: int) -> None:
        proc.spec, proc.attempt = spec, attempt
        proc.last_beat = proc.started = time.monotonic()
        proc.phase, proc.step, proc.sofar = ENV, -1, None  # making the agent and the env, resetting
        message = {"spec": spec_to_json(spec), "attempt": attempt}  # a retry on a fresh worker says so
        proc.popen.stdin.write((json.dumps(message) + "\n").encode())
        proc.popen.stdin.flush()

    def close(self) -> None:
        for proc in list(self.procs):
            try:
                proc.popen.stdin.close()
            except OSError:
                pass
        deadline = time.monotonic() + 10
        for proc in list(self.procs):
            try:
                proc.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            self._retire(proc)
        self.sel.close()

    def run(self, todo: list[EpisodeSpec], on_result: OnResult, stop: Callable[[], int | None]) -> None:
        queue = [(spec, 1) for spec in todo]
        for _ in range(min(self.n, len(queue))):
            self._spawn()
        for proc in self.procs:
            if queue:
                self._send(proc, *queue.pop(0))
        while any(p.spec is not None for p in self.procs):
            signum = stop()
            if signum:
                raise SweepInterrupted(signum)
            for key, _ in self.sel.select(timeout=0.5):
                proc: _Proc = key.data
                chunk = os.read(proc.popen.stdout.fileno(), 1 << 16)
                if not chunk:
                    self._crashed(proc, queue, on_result, how=exit_status(proc.popen))
                    continue
                proc.buffer += chunk
                while b"\n" in proc.buffer:
                    line, proc.buffer = proc.buffer.split(b"\n", 1)
                    self._message(proc, json.loads(line), queue, on_result)
            now = time.monotonic()
            for proc in list(self.procs):
                if proc.spec is not None and now - proc.last_beat > self.stall_s:
                    self._crashed(proc, queue, on_result)

    def _next(self, proc: _Proc, queue: list) -> None:
        proc.spec = None
        if queue:
            self._send(proc, *queue.pop(0))

    def _message(self, proc: _Proc, msg: dict, queue: list, on_result: OnResult) -> None:
        if "beat" in msg:
            proc.last_beat = time.monotonic()
            proc.step, proc.phase = int(msg["beat"]), msg.get("phase") if msg.get("phase") in PHASES else ENV
            if "sofar" in msg:
                proc.sofar = msg["sofar"]
        elif "result" in msg:
            msg["result"]["record"]["worker"] = local_worker(proc.popen.pid)
            on_result(msg["result"]["record"], msg["result"]["trajectory"])
            self._next(proc, queue)
        elif "user_errors" in msg:
            raise error_from_json(msg["user_errors"])
        elif "stop" in msg:
            raise SweepStopped(msg["stop"])

    def _crashed(self, proc: _Proc, queue: list, on_result: OnResult, how: str | None = None) -> None:
        """``proc`` stalled (``how`` None) or died (``how``: its exit status): replaced. Its episode
        is the agent's failure when that happened in the agent's turn (a stall while it waited on
        its model service excepted), else it runs once more and is then recorded as an error."""
        spec, attempt, started, phase = proc.spec, proc.attempt, proc.started, proc.phase
        why = failure_reason(proc, self.stall_s if how is None else None, how or "")
        self._retire(proc)
        fresh = self._spawn()
        if spec is None:
            self._next(fresh, queue)
            return
        duration = time.monotonic() - started
        model_stall = phase == MODEL and how is None
        if phase in AGENT_PHASES and not model_stall:
            on_result(agent_fault_record(spec, self.run_id, attempt, why, duration, proc.sofar), {})
            self._next(fresh, queue)
            return
        if attempt == 1:
            self._send(fresh, spec, 2)  # one more try on a fresh worker
            return
        kind = MODEL_SERVICE if model_stall else INFRASTRUCTURE
        record = error_record(spec, self.run_id, attempt, RuntimeError(why), duration, kind)
        record["worker"] = local_worker(proc.popen.pid)
        on_result(record, {})
        self._next(fresh, queue)


def execute_local(
    todo: list[EpisodeSpec],
    out: Path,
    run_id: str,
    workers: int,
    on_result: OnResult,
    headless: bool = True,
    stop: Callable[[], int | None] = lambda: None,
    stall_s: float | None = None,
) -> None:
    """Run ``todo`` on ``workers`` worker processes; ``stall_s`` None: ``OPENAPPS_STALL_S``."""
    if stall_s is None:
        stall_s = env_number("OPENAPPS_STALL_S", DEFAULT_STALL_S, "seconds")
    memory_mb = env_number("OPENAPPS_AGENT_MEMORY_MB", None, "megabytes")
    pool = LocalPool(max(1, workers), out, run_id, headless, stall_s, memory_mb)
    try:
        pool.run(todo, on_result, stop)
    finally:
        pool.close()
