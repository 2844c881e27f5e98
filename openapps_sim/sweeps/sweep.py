"""Sweeps: agents x tasks x variations x seeds (x any swept option), in parallel, resumable.

A sweep spec is YAML (see ``experiments/*.yaml`` and docs/sweeps.md). Results go to
``OUT/results.jsonl``, one JSON record per finished episode, appended by the parent process
only, one complete line per ``write``; ``--resume`` skips every episode whose id is already
there, so a sweep killed at any moment loses nothing and duplicates nothing (a torn last line
from a kill mid-write is ignored and its episode re-run)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from openapps_sim.errors import BrowserNotFound, ConfigError, Problems, unknown_name
from openapps_sim.sweeps.executors import execute_local
from openapps_sim.sweeps.progress import Progress
from openapps_sim.sweeps.raypool import execute_ray, ray_address
from openapps_sim.sweeps.spec import SweepSpec, check_workers
from openapps_sim.sweeps.store import ResultsWriter, read_results, save_trajectory, write_json_atomic


def git_commit() -> str | None:
    try:
        here = Path(__file__).resolve().parent.parent
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def _browser_binary() -> str:
    from openapps_sim.envs.browser import find_chromium

    try:
        return find_chromium()
    except BrowserNotFound as e:  # the manifest is written before any browser starts
        return f"not found ({e})"


def manifest_for(spec: SweepSpec, workers: int, executor: str) -> dict:
    from importlib.metadata import version

    from openapps_sim.agents import describe_agent_config
    from openapps_sim.envs.browser import chromium_version

    return {
        "package": "openapps-sim",
        "version": version("openapps-sim"),
        "git_commit": git_commit(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "spec_source": spec.source,
        "spec": spec.raw,
        "spec_hash": spec.spec_hash,
        "seeds": spec.seeds,
        "trials": spec.trials,
        "style": spec.style,
        "agents": [
            {
                "name": a["name"],
                "label": a.get("label"),
                "config": describe_agent_config(a["name"], a.get("config"), a.get("options")),
            }
            for a in spec.agents
        ],
        "backends": spec.backends,
        # the browser only when one shows the pages (the text backend has none)
        "browser": chromium_version() if "chromium" in spec.backends else None,
        "browser_binary": _browser_binary() if "chromium" in spec.backends else None,
        "viewports": spec.viewports,
        "axes": spec.axes(),
        "workers": workers,
        "executor": executor,
        "episodes_planned": len(spec.episodes()),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def check_before_running(spec: SweepSpec) -> None:
    """Every pack, task and agent of the spec, checked before the first episode (and before
    anything is written): a pack with a schema error or an agent config with a bad option is
    one clear error here (every one of them at once), not a crash in a worker after a server
    and browser have started."""
    from openapps_sim.agents import make_agent
    from openapps_sim.config.catalog import compose
    from openapps_sim.taskkit import get_family

    problems = Problems()
    for variation in spec.variations:
        problems.check(compose, variation)
    for task in spec.tasks:
        problems.check(get_family, task, f"{spec.source}: tasks")
    for i, agent in enumerate(spec.agents):
        options, where = agent.get("options") or {}, f"{spec.source}: agents[{i}]"
        problems.check(make_agent, agent["name"], agent.get("config"), options=options, options_source=where)
    problems.raise_any()


def _prepare_out(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except (FileExistsError, NotADirectoryError):
        raise ConfigError("--out", str(out), "is a file, or lies under one", "a folder path") from None
    except PermissionError:
        raise ConfigError("--out", str(out), "is not writable", "a folder you can write to") from None
    except OSError as e:
        raise ConfigError("--out", str(out), f"cannot be used ({e.strerror})", "a writable folder path") from None


class _Lock:
    """An exclusive lock on a results folder: two sweeps never write to one folder at once."""

    def __init__(self, out: Path):
        import fcntl

        self.path = out / ".sweep.lock"
        while True:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(self.fd, 64, 0).decode(errors="replace").strip() or "another process"
                os.close(self.fd)
                raise ConfigError(
                    str(out),
                    ".sweep.lock",
                    f"another sweep (pid {holder}) is writing to this folder",
                    "a different --out",
                ) from None
            try:
                same = os.stat(self.path).st_ino == os.fstat(self.fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(self.fd)  # the holder removed the file as we opened it: lock the new one
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, str(os.getpid()).encode(), 0)

    def release(self) -> None:
        """Remove the lock file, then drop the lock (removed while held, so a sweep that opened
        the old file sees it is gone and locks a new one)."""
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        os.close(self.fd)  # closing drops the flock


class _Signals:
    """SIGINT / SIGTERM / SIGHUP set a flag the executors poll, instead of raising wherever
    the main thread happens to be (which used to leave workers spinning)."""

    def __init__(self) -> None:
        self.received: int | None = None
        self.old: dict[int, object] = {}

    def __enter__(self) -> _Signals:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                self.old[sig] = signal.signal(sig, self._on)
        return self

    def _on(self, signum: int, frame) -> None:
        if self.received is not None:  # a second signal: stop waiting
            raise KeyboardInterrupt
        self.received = signum

    def __exit__(self, *exc) -> None:
        for sig, handler in self.old.items():
            signal.signal(sig, handler)


def _check_folder(out: Path, spec: SweepSpec, existing: list[dict], resume: bool, manifest_path: Path) -> None:
    if existing and not resume:
        raise ConfigError(
            str(out),
            "results.jsonl",
            f"already holds {len(existing)} episodes",
            "--resume to continue this sweep, or a new --out folder",
        )
    if not manifest_path.exists():
        if existing:
            ids = {e.episode_id for e in spec.episodes()}
            foreign = sum(1 for r in existing if r.get("episode_id") not in ids)
            if foreign:
                raise ConfigError(
                    str(out),
                    "manifest.json",
                    f"is missing and {foreign} recorded episodes are not episodes of {spec.source}",
                    "the spec that wrote this folder, or a new --out folder",
                )
        return
    old = json.loads(manifest_path.read_text())
    if old.get("spec_hash") != spec.spec_hash:
        if not existing:
            return  # a stale manifest from a run that recorded nothing: replaced below
        raise ConfigError(
            str(out),
            "manifest.json",
            f"was written by a different spec ({old.get('spec_source', '?')})",
            "the same spec with --resume, or a new --out folder",
        )


def run_sweep(
    spec: SweepSpec,
    out: Path,
    workers: int | None = None,
    executor: str = "local",
    resume: bool = False,
    progress: bool = True,
    headless: bool = True,
    limit: int | None = None,
    ray_at: str | None = None,
) -> dict:
    """Run every episode of ``spec`` not yet in ``out/results.jsonl``. Returns a summary.
    ``ray_at``: the Ray cluster to join (else ``RAY_ADDRESS``, else a local Ray), Ray executor only.

    Raises :class:`~openapps_sim.sweeps.executors.SweepInterrupted` after a SIGINT or SIGTERM,
    once the workers are gone and every finished episode is recorded.
    """
    if executor not in ("local", "ray"):
        raise unknown_name("--executor", "executor", executor, ("local", "ray"), what="executor", keep_order=True)
    if ray_at and executor != "ray":
        raise ConfigError("--ray-address", ray_at, "only the Ray executor joins a Ray cluster", "--executor ray")
    workers = spec.workers if workers is None else check_workers(workers)
    check_before_running(spec)
    out = Path(out)
    _prepare_out(out)
    lock = _Lock(out)
    try:
        run = execute_local
        if executor == "ray":
            address = ray_address(ray_at)
            run = functools.partial(execute_ray, address=address)
        return _run_locked(spec, out, workers, run, executor, resume, progress, headless, limit)
    finally:
        lock.release()


def _run_locked(spec, out, workers, run, executor, resume, progress, headless, limit) -> dict:
    results_path = out / "results.jsonl"
    manifest_path = out / "manifest.json"
    existing = read_results(results_path)
    _check_folder(out, spec, existing, resume, manifest_path)
    episodes = spec.episodes()
    # Episodes recorded as infrastructure errors run again on --resume; the report keeps the
    # last record of an episode id.
    finished = {r["episode_id"] for r in existing if not r.get("error")}
    todo = [e for e in episodes if e.episode_id not in finished]
    done_before = len(episodes) - len(todo)
    if limit is not None:
        todo = todo[:limit]
    if not existing or not manifest_path.exists():
        write_json_atomic(manifest_path, manifest_for(spec, workers, executor))
    run_id = hashlib.sha1(f"{spec.spec_hash}:{time.time()}".encode()).hexdigest()[:10]
    writer = ResultsWriter(results_path)
    bar = Progress(len(episodes), already=done_before, enabled=progress and bool(todo))
    bar.render()
    if progress and not todo:
        print(
            f"nothing left to run: all {len(episodes)} episodes of {spec.name} are recorded in {out}",
            file=sys.stderr,
        )

    def on_result(record: dict, trajectory: dict) -> None:
        save_trajectory(out, trajectory)
        writer.write(record)
        bar.update(record)

    t0 = time.time()
    try:
        with _Signals() as signals:
            if todo:
                run(todo, out, run_id, workers, on_result, headless, stop=lambda: signals.received)
    finally:
        writer.close()
        bar.render(final=True)
    return {
        "planned": len(episodes),
        "ran": bar.counted,
        "skipped": done_before,
        "errors": bar.errors,
        "seconds": round(time.time() - t0, 1),
        "results": str(results_path),
    }
