"""The Ray executor: the episodes of a sweep on Ray actors, on this machine or on a cluster.

Where Ray runs:

* ``--ray-address ADDRESS`` (or the environment's ``RAY_ADDRESS``, e.g. ``auto`` after
  ``ray start --head``) joins that running cluster; the cluster's own size decides, so nothing
  about CPUs is asked of it (asking is what Ray refuses when it joins);
* neither: a private local Ray is started with one CPU per worker (``address="local"``: a cluster
  that happens to run on this machine is never joined by accident) and shut down at the end.

The guarantees are the local executor's (:mod:`openapps_sim.sweeps.executors`):

* one writer: actors return each episode's record and trajectory; only the driver writes them;
* resume and no duplicates: an episode is recorded once, when its result reaches the driver;
  what was running when the sweep stopped is not recorded, so ``--resume`` runs it again;
* a crash is retried once: an actor that dies (its node lost, its process killed) is replaced by
  a fresh one and its episode runs again as attempt 2; a second loss is an infrastructure error;
* no orphans: the actors are killed when the sweep ends, however it ends, and their app servers
  die with them (``lifecycle.die_with_parent``); if the driver itself is killed, Ray kills the
  actors it owns;
* workers are spread over the nodes (Ray's ``SPREAD`` strategy), at most one per CPU of the
  cluster, so none waits forever for a CPU that the others hold.

Each record's ``worker`` says where it ran: host, process and Ray node id.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

from openapps_sim.errors import ConfigError, SweepStopped, error_from_json, problems_to_json
from openapps_sim.sweeps.executors import OnResult, StopCheck, SweepInterrupted
from openapps_sim.sweeps.record import EpisodeSpec, error_record, spec_from_json, spec_to_json


def ray_address(flag: str | None) -> str | None:
    """The cluster to join: the ``--ray-address`` flag, else ``RAY_ADDRESS``; None: a local Ray."""
    return flag or os.environ.get("RAY_ADDRESS") or None


def import_ray():
    try:
        import ray  # optional: only this executor needs it
    except ImportError:
        raise ConfigError(
            "--executor", "ray", "Ray is not installed", "install the extra: pip install 'openapps-sim[ray]'"
        ) from None
    return ray


def start_ray(ray, address: str | None, workers: int) -> bool:
    """Join ``address`` or start a private local Ray; True when this call connected (so the
    sweep disconnects at its end), False when the caller had already initialised Ray."""
    if ray.is_initialized():
        return False
    if address is None:
        ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False)
        return True
    try:
        ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = "--ray-address" if os.environ.get("RAY_ADDRESS") != address else "RAY_ADDRESS"
        first = str(e).strip().splitlines()[0][:300] if str(e).strip() else type(e).__name__
        raise ConfigError(
            where,
            address,
            f"no Ray cluster could be joined there ({first})",
            "the address of a running cluster (HOST:PORT, as `ray start --head` prints it), or auto",
        ) from None
    return True


class EpisodeActor:
    """One sweep worker as a Ray actor: a :class:`~openapps_sim.sweeps.runner.Worker` (its app
    server and browser) reused across episodes, answering as ``worker_main`` does."""

    def __init__(self, headless: bool):
        from openapps_sim.gcsettings import tune_gc
        from openapps_sim.sweeps.runner import Worker

        self.worker = Worker(headless=headless)
        tune_gc()  # the actor is a process of its own, as a local worker is

    def where(self) -> dict:
        import ray

        node = ray.get_runtime_context().get_node_id()
        return {"executor": "ray", "host": socket.gethostname(), "pid": os.getpid(), "node": node}

    def run(self, spec: dict, out_dir: str, run_id: str, attempt: int) -> dict:
        from openapps_sim.sweeps.runner import run_with_retry

        try:
            res = run_with_retry(self.worker, spec_from_json(spec), Path(out_dir), run_id, first_attempt=attempt)
        except ConfigError as e:
            return {"user_errors": problems_to_json(e)}
        except SweepStopped as e:
            return {"stop": str(e)}
        res.record["worker"] = self.where()
        return {"result": {"record": res.record, "trajectory": res.trajectory}}


class RayPool:
    """The actors of one sweep, the episode each is running, and their replacement."""

    def __init__(self, ray, workers: int, out: Path, run_id: str, headless: bool):
        self.ray, self.out, self.run_id = ray, str(out), run_id
        self.cls = ray.remote(num_cpus=1, max_restarts=0)(EpisodeActor)
        self.headless = headless
        self.actors: list = []
        self.pending: dict = {}  # object ref -> (actor, spec, attempt, started)
        self.n = self._size(workers)

    def _size(self, workers: int) -> int:
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            raise ConfigError(
                "--executor", "ray", "the Ray cluster has no CPU to run a worker on", "a cluster with CPUs"
            )
        if workers > cpus:
            print(f"openapps: the Ray cluster has {cpus} CPUs: {cpus} workers instead of {workers}", file=sys.stderr)
        return min(workers, cpus)

    def _spawn(self):
        actor = self.cls.options(scheduling_strategy="SPREAD").remote(self.headless)
        self.actors.append(actor)
        return actor

    def _send(self, actor, spec: EpisodeSpec, attempt: int) -> None:
        ref = actor.run.remote(spec_to_json(spec), self.out, self.run_id, attempt)
        self.pending[ref] = (actor, spec, attempt, time.monotonic())

    def _retire(self, actor) -> None:
        try:
            self.ray.kill(actor, no_restart=True)
        except Exception:  # noqa: BLE001 - already gone
            pass
        if actor in self.actors:
            self.actors.remove(actor)

    def run(self, todo: list[EpisodeSpec], on_result: OnResult, stop: StopCheck) -> None:
        queue = [(spec, 1) for spec in todo]
        for _ in range(min(self.n, len(queue))):
            self._send(self._spawn(), *queue.pop(0))
        while self.pending:
            signum = stop()
            if signum:
                raise SweepInterrupted(signum)
            ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=0.5)
            if not ready:
                continue
            actor, spec, attempt, started = self.pending.pop(ready[0])
            try:
                msg = self.ray.get(ready[0])
            except self.ray.exceptions.RayError as e:  # the actor or its node died
                self._crashed(actor, spec, attempt, started, e, queue, on_result)
                continue
            if "user_errors" in msg:
                raise error_from_json(msg["user_errors"])
            if "stop" in msg:
                raise SweepStopped(msg["stop"])
            on_result(msg["result"]["record"], msg["result"]["trajectory"])
            if queue:
                self._send(actor, *queue.pop(0))

    def _crashed(self, actor, spec, attempt, started, exc, queue, on_result) -> None:
        self._retire(actor)
        fresh = self._spawn()
        if attempt == 1:
            self._send(fresh, spec, 2)  # one more try on a fresh actor
            return
        why = RuntimeError(f"the Ray worker died twice ({type(exc).__name__}: {str(exc).splitlines()[0][:300]})")
        record = error_record(spec, self.run_id, attempt, why, time.monotonic() - started)
        record["worker"] = {"executor": "ray", "host": None, "pid": None, "node": None}
        on_result(record, {})
        if queue:
            self._send(fresh, *queue.pop(0))

    def close(self) -> None:
        for actor in list(self.actors):
            self._retire(actor)
        self.pending.clear()


def execute_ray(
    todo: list[EpisodeSpec],
    out: Path,
    run_id: str,
    workers: int,
    on_result: OnResult,
    headless: bool = True,
    stop: StopCheck = lambda: None,
    address: str | None = None,
) -> None:
    """Run ``todo`` on Ray actors (see the module's docstring); ``address`` as :func:`ray_address`."""
    ray = import_ray()
    started = start_ray(ray, address, workers)
    try:
        pool = RayPool(ray, workers, out, run_id, headless)
        try:
            pool.run(todo, on_result, stop)
        finally:
            pool.close()
    finally:
        if started:
            ray.shutdown()  # a joined cluster goes on running: only this driver disconnects
