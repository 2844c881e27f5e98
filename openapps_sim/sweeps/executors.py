"""Executors: how the episodes of a sweep are spread over workers (one process, a spawn pool,
or Ray actors). Each worker owns one :class:`~openapps_sim.sweeps.runner.Worker`; results come
back to the parent, which alone writes them."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import EpisodeSpec

_worker = None


def _worker_init(headless: bool) -> None:
    global _worker
    from openapps_sim.sweeps.runner import Worker

    _worker = Worker(headless=headless)


def _worker_run(args: tuple[EpisodeSpec, str, str]) -> tuple[dict, dict]:
    from openapps_sim.sweeps.runner import run_with_retry

    spec, out_dir, run_id = args
    result = run_with_retry(_worker, spec, Path(out_dir), run_id)
    return result.record, result.trajectory


def execute_local(
    todo: list[EpisodeSpec], out: Path, run_id: str, workers: int, on_result, headless: bool = True
) -> None:
    if workers <= 1:
        from openapps_sim.sweeps.runner import Worker, run_with_retry

        worker = Worker(headless=headless)
        try:
            for spec in todo:
                res = run_with_retry(worker, spec, out, run_id)
                on_result(res.record, res.trajectory)
        finally:
            worker.close()
        return
    import multiprocessing as mp

    ctx = mp.get_context("spawn")  # Playwright's sync API must not be forked
    with ctx.Pool(workers, initializer=_worker_init, initargs=(headless,), maxtasksperchild=None) as pool:
        for record, trajectory in pool.imap_unordered(_worker_run, [(s, str(out), run_id) for s in todo], chunksize=1):
            on_result(record, trajectory)


def execute_ray(
    todo: list[EpisodeSpec], out: Path, run_id: str, workers: int, on_result, headless: bool = True
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
            from openapps_sim.sweeps.runner import Worker

            self.worker = Worker(headless=headless)

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
            ready, _ = ray.wait(list(pending), num_returns=1)
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
