"""Sweeps: agents x tasks x variations x seeds (x any swept option), in parallel, resumable.

A sweep spec is YAML (see ``experiments/*.yaml`` and docs/sweeps.md). Results go to
``OUT/results.jsonl``, one JSON record per finished episode, appended by the parent process
only, one complete line per ``write``; ``--resume`` skips every episode whose id is already
there, so a sweep killed at any moment loses nothing and duplicates nothing (a torn last line
from a kill mid-write is ignored and its episode re-run)."""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

from openapps_sim.errors import BrowserNotFound, ConfigError
from openapps_sim.sweeps.executors import execute_local, execute_ray
from openapps_sim.sweeps.progress import Progress
from openapps_sim.sweeps.spec import SweepSpec
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
        "agents": [
            {"name": a["name"], "label": a.get("label"), "config": describe_agent_config(a["name"], a.get("config"))}
            for a in spec.agents
        ],
        "browser": chromium_version(),
        "browser_binary": _browser_binary(),
        "viewports": spec.viewports,
        "axes": spec.axes(),
        "workers": workers,
        "executor": executor,
        "episodes_planned": len(spec.episodes()),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def run_sweep(
    spec: SweepSpec,
    out: Path,
    workers: int | None = None,
    executor: str = "local",
    resume: bool = False,
    progress: bool = True,
    headless: bool = True,
    limit: int | None = None,
) -> dict:
    """Run every episode of ``spec`` not yet in ``out/results.jsonl``. Returns a summary."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    results_path = out / "results.jsonl"
    manifest_path = out / "manifest.json"
    workers = workers or spec.workers
    existing = read_results(results_path)
    if existing and not resume:
        raise ConfigError(
            str(out),
            "results.jsonl",
            f"already holds {len(existing)} episodes",
            "--resume to continue this sweep, or a new --out folder",
        )
    if manifest_path.exists() and resume:
        old = json.loads(manifest_path.read_text())
        if old.get("spec_hash") != spec.spec_hash:
            raise ConfigError(
                str(out),
                "manifest.json",
                "was written by a different spec (spec_hash differs)",
                "the same spec with --resume, or a new --out folder",
            )
    if executor not in ("local", "ray"):
        raise ConfigError("--executor", "executor", f"unknown executor {executor!r}", "local, ray")
    episodes = spec.episodes()
    # Episodes recorded as infrastructure errors run again on --resume; the report keeps the
    # last record of an episode id.
    finished = {r["episode_id"] for r in existing if not r.get("error")}
    todo = [e for e in episodes if e.episode_id not in finished]
    if limit is not None:
        todo = todo[:limit]
    if not manifest_path.exists():
        write_json_atomic(manifest_path, manifest_for(spec, workers, executor))
    run_id = hashlib.sha1(f"{spec.spec_hash}:{time.time()}".encode()).hexdigest()[:10]
    writer = ResultsWriter(results_path)
    bar = Progress(len(episodes), already=len(episodes) - len(todo), enabled=progress)
    bar.render()

    def on_result(record: dict, trajectory: dict) -> None:
        save_trajectory(out, trajectory)
        writer.write(record)
        bar.update(record)

    t0 = time.time()
    try:
        if todo:
            (execute_ray if executor == "ray" else execute_local)(todo, out, run_id, workers, on_result, headless)
    finally:
        writer.close()
        bar.render(final=True)
    return {
        "planned": len(episodes),
        "ran": bar.counted,
        "skipped": len(episodes) - len(todo),
        "errors": bar.errors,
        "seconds": round(time.time() - t0, 1),
        "results": str(results_path),
    }
