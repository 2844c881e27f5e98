"""Executors: how the episodes of a sweep are spread over workers.

``execute_local`` runs each worker as a child process (``sweeps.worker_main``) in its own
process group, holding its app server and Chromium. The parent alone writes results, and it
watches every worker:

* a worker that sends no heartbeat for ``stall_s`` seconds (a hung renderer, a dead Playwright
  driver) or dies is killed with its whole process group, replaced, and its episode is run once
  more; a second failure is recorded as an infrastructure error;
* a mistake in the spec found by a worker (a ``ConfigError``) stops the sweep with its message;
* a permanent model-server error in a worker (``SweepStopped``: 401, 404, context length) too;
* SIGINT or SIGTERM stops the sweep within seconds: running episodes are abandoned (nothing is
  recorded for them, so ``--resume`` runs them again) and every worker group is killed.

``execute_ray`` spreads episodes over Ray actors instead.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from openapps_sim.errors import ConfigError, OpenAppsError, Problems, SweepStopped
from openapps_sim.lifecycle import die_with_parent
from openapps_sim.sweeps.record import EpisodeSpec, error_record, spec_to_json

OnResult = Callable[[dict, dict], None]
DEFAULT_STALL_S = float(os.environ.get("OPENAPPS_STALL_S", "300"))


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
    started: float = field(default_factory=time.monotonic)


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

    def __init__(self, workers: int, out: Path, run_id: str, headless: bool, stall_s: float):
        self.n, self.out, self.run_id, self.headless, self.stall_s = workers, out, run_id, headless, stall_s
        self.sel = selectors.DefaultSelector()
        self.procs: list[_Proc] = []

    def _spawn(self) -> _Proc:
        cmd = [sys.executable, "-m", "openapps_sim.sweeps.worker_main", "--out", str(self.out), "--run-id", self.run_id]
        if not self.headless:
            cmd.append("--headed")
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
        proc.spec, proc.attempt, proc.last_beat = spec, attempt, time.monotonic()
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
                    self._crashed(proc, queue, on_result, "the worker process died")
                    continue
                proc.buffer += chunk
                while b"\n" in proc.buffer:
                    line, proc.buffer = proc.buffer.split(b"\n", 1)
                    self._message(proc, json.loads(line), queue, on_result)
            now = time.monotonic()
            for proc in list(self.procs):
                if proc.spec is not None and now - proc.last_beat > self.stall_s:
                    self._crashed(proc, queue, on_result, f"no progress for {self.stall_s:.0f} s (hung browser?)")

    def _next(self, proc: _Proc, queue: list) -> None:
        proc.spec = None
        if queue:
            self._send(proc, *queue.pop(0))

    def _message(self, proc: _Proc, msg: dict, queue: list, on_result: OnResult) -> None:
        if "beat" in msg:
            proc.last_beat = time.monotonic()
        elif "result" in msg:
            on_result(msg["result"]["record"], msg["result"]["trajectory"])
            self._next(proc, queue)
        elif "user_errors" in msg:
            problems = Problems()
            for e in msg["user_errors"]:
                problems.add(ConfigError(e["source"], e["path"], e["problem"], e["allowed"]))
            problems.raise_any()
        elif "stop" in msg:
            raise SweepStopped(msg["stop"])

    def _crashed(self, proc: _Proc, queue: list, on_result: OnResult, why: str) -> None:
        spec, attempt, started = proc.spec, proc.attempt, proc.started
        self._retire(proc)
        fresh = self._spawn()
        if spec is None:
            self._next(fresh, queue)
            return
        if attempt == 1:
            self._send(fresh, spec, 2)  # one more try on a fresh worker
            return
        record = error_record(spec, self.run_id, attempt, RuntimeError(why), time.monotonic() - started)
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
    stall_s: float = DEFAULT_STALL_S,
) -> None:
    pool = LocalPool(max(1, workers), out, run_id, headless, stall_s)
    try:
        pool.run(todo, on_result, stop)
    finally:
        pool.close()


def execute_ray(
    todo: list[EpisodeSpec],
    out: Path,
    run_id: str,
    workers: int,
    on_result: OnResult,
    headless: bool = True,
    stop: Callable[[], int | None] = lambda: None,
    stall_s: float = DEFAULT_STALL_S,
) -> None:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "--executor", "ray", "Ray is not installed; install the extra: pip install 'openapps-sim[ray]'"
        ) from None
    started = False
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True

    @ray.remote(num_cpus=1)
    class RayWorker:
        def __init__(self):
            from openapps_sim.gcsettings import tune_gc
            from openapps_sim.sweeps.runner import Worker

            self.worker = Worker(headless=headless)
            tune_gc()  # the actor is a process of its own, as a local worker is

        def run(self, spec, out_dir, run_id):
            from openapps_sim.sweeps.runner import run_with_retry

            res = run_with_retry(self.worker, spec, Path(out_dir), run_id)
            return res.record, res.trajectory

    actors = [RayWorker.remote() for _ in range(workers)]
    pending = {}
    queue = list(todo)
    for actor in actors:
        if queue:
            pending[actor.run.remote(queue.pop(0), str(out), run_id)] = actor
    try:
        while pending:
            signum = stop()
            if signum:
                raise SweepInterrupted(signum)
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            if not ready:
                continue
            actor = pending.pop(ready[0])
            record, trajectory = ray.get(ready[0])
            on_result(record, trajectory)
            if queue:
                pending[actor.run.remote(queue.pop(0), str(out), run_id)] = actor
    finally:
        for actor in actors:
            ray.kill(actor)
        if started:
            ray.shutdown()
