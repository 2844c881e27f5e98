"""Sweep workers a core each: how the oracle sweep scales with cores, apart from how many cores
one worker keeps busy.

On a 2-core machine "2 workers against 1" mixes two things: how well workers scale when each
has a core, and how much of the second core one worker already uses (its Python, its Chromium's
browser, renderer and GPU processes and its app server run at the same time). This section
separates them. Each run is a 1-worker sweep in a child process whose CPU affinity (inherited by
its worker, server and browser) is one core:

* ``one_core``: one such sweep on CPU 0 (seeds 0-2, 42 episodes);
* ``core_each``: two such sweeps at once, on CPU 0 and CPU 1 (seeds 0-2 and 3-5);
* ``one_worker_both_cores``: the same 42 episodes with no affinity.

``core_each / one_core`` is the per-core scaling; ``one_worker_both_cores / one_core`` is what
one worker gains from the second core, which bounds 2 workers against 1 on this machine.
Run alone: ``python bench/pinned.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent  # bench.py, for its sweep's families


def child(cpu: int, seeds: list[int], families: list[str]) -> dict:
    """One 1-worker oracle sweep, on ``cpu`` alone (-1: any core); its start and end times."""
    if cpu >= 0:
        os.sched_setaffinity(0, {cpu})
    import yaml

    from openapps_sim.sweeps.spec import load_spec
    from openapps_sim.sweeps.sweep import run_sweep

    with tempfile.TemporaryDirectory() as tmp:
        spec = {
            "name": "pinned",
            "agents": ["oracle"],
            "tasks": families,
            "variations": ["default", "dark_theme"],
            "seeds": seeds,
            "backends": ["chromium"],
        }
        path = Path(tmp) / "pinned.yaml"
        path.write_text(yaml.safe_dump(spec))
        start = time.time()
        summary = run_sweep(load_spec(path), Path(tmp) / "out", workers=1, progress=False)
        cpus = sorted(os.sched_getaffinity(0))
        return {"ran": summary["ran"], "errors": summary["errors"], "cpus": cpus, "start": start, "end": time.time()}


def _group(jobs: list[tuple[int, list[int]]], families: tuple[str, ...]) -> dict:
    """Children run at once; episodes per minute from the first start to the last end."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(Path(__file__)), "--child", str(cpu), ",".join(map(str, seeds)), ",".join(families)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for cpu, seeds in jobs
    ]
    runs = []
    for proc in procs:
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"bench/pinned.py: a child sweep exited with {proc.returncode}")
        runs.append(json.loads(out.strip().splitlines()[-1]))
    ran = sum(r["ran"] for r in runs)
    wall = max(r["end"] for r in runs) - min(r["start"] for r in runs)
    return {
        "episodes": ran,
        "errors": sum(r["errors"] for r in runs),
        "cpus": [r["cpus"] for r in runs],
        "seconds": round(wall, 1),
        "episodes_per_minute": round(60 * ran / wall, 1),
    }


def bench_pinned(figures: dict, families: tuple[str, ...] | None = None, seeds: int = 3) -> None:
    """The three runs of the module's docstring (``seeds`` seeds a sweep; the bench's sweep
    families unless given), into ``figures["sweep_core_each"]``."""
    if not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2:
        figures["sweep_core_each"] = {"skipped": "needs CPU affinity and at least 2 cores"}
        return
    if families is None:
        from bench import SWEEP_FAMILIES

        families = SWEEP_FAMILIES
    first, second = sorted(os.sched_getaffinity(0))[:2]
    mine, other = list(range(seeds)), list(range(seeds, 2 * seeds))
    out = {
        "one_core": _group([(first, mine)], families),
        "core_each": _group([(first, mine), (second, other)], families),
        "one_worker_both_cores": _group([(-1, mine)], families),
    }
    base = out["one_core"]["episodes_per_minute"]
    out["per_core_scaling"] = round(out["core_each"]["episodes_per_minute"] / base, 2)
    out["second_core_gain_of_one_worker"] = round(out["one_worker_both_cores"]["episodes_per_minute"] / base, 2)
    figures["sweep_core_each"] = out


def pinned_lines(f: dict) -> str:
    if "skipped" in f:
        return f"  sweep workers a core each     skipped: {f['skipped']}"
    return "\n".join(
        [
            f"  1 worker on one core          {f['one_core']['episodes_per_minute']:.1f} episodes/min",
            f"  2 workers, a core each        {f['core_each']['episodes_per_minute']:.1f} episodes/min"
            f"  = {f['per_core_scaling']:.2f}x (per-core scaling)",
            f"  1 worker on both cores        {f['one_worker_both_cores']['episodes_per_minute']:.1f} episodes/min"
            f"  = {f['second_core_gain_of_one_worker']:.2f}x one core (what a second worker cannot also have)",
        ]
    )


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        run = child(int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")], sys.argv[4].split(","))
        print(json.dumps(run), flush=True)
    else:
        sys.path.insert(0, str(HERE))
        figures: dict = {"load_average_start": [round(x, 2) for x in os.getloadavg()]}
        bench_pinned(figures)
        figures["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(figures, indent=2))
        print(pinned_lines(figures["sweep_core_each"]))
