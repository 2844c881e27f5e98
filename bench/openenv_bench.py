"""``make bench``'s OpenEnv section (issue 41 point 4): ``openapps openenv`` under load.

``openenv_sessions``: the real server (``python -m openapps_sim.cli openenv --port 0``, as
tests/test_openenv.py starts it) and ``n`` of OpenEnv's own ``GenericEnvClient`` WebSocket
sessions at once in this process's event loop. Each session resets (its own world, seed = its
index), all wait for the last reset, then each crawls ``steps`` steps (a random link or button of
its tree text, from a generator seeded by its index) as fast as answers come: aggregate steps per
second over the step phase, p50 and p99 of a step's round trip as the client sees it, the
server's CPU per step (its whole process tree, browsers included) and its PSS with every session
open. The text backend at 16 and 64 sessions; the Chromium backend (a browser context per
session, each with its own world, on the server's browser thread, as the official OpenEnv
environment has a Chromium per session) at 16. 64 Chromium sessions are not run: their memory is
estimated from the 16's (``chromium_64_estimate``).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cputrack import cpu_seconds, process_tree  # noqa: E402

CLICK = re.compile(r"\[(\d+)\] (?:link|button) ")
TASK = "todo.add_item"


@contextmanager
def openenv_server(max_sessions: int = 64):
    """``openapps openenv --port 0`` in a subprocess: (its URL, its pid, the file its stderr goes
    to, read for the errors it logged)."""
    import tempfile

    cmd = [sys.executable, "-m", "openapps_sim.cli", "openenv", "--port", "0", "--max-sessions", str(max_sessions)]
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, text=True)
    try:
        deadline = time.time() + 300
        while not (m := re.search(r"OpenEnv server at (http://127\.0\.0\.1:\d+)", Path(log.name).read_text())):
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"openapps openenv did not start: {Path(log.name).read_text()[-2000:]}")
            time.sleep(0.2)
        yield m.group(1), proc.pid, log.name
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def tree_cpu(pid: int) -> float:
    total = 0.0
    for p in process_tree(pid):
        try:
            total += cpu_seconds(p)
        except OSError:
            pass
    return total


def tree_pss(pid: int) -> float:
    total = 0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                total += next((int(ln.split()[1]) for ln in fh if ln.startswith("Pss:")), 0)
        except OSError:
            pass
    return round(total / 1024, 1)


async def session(
    url: str, index: int, backend: str, steps: int, ready, go, latencies: list[float], errors: list[str]
) -> int:
    """One client: reset, wait for every other session's reset, then ``steps`` crawl steps."""
    from openenv.core import GenericEnvClient

    rng = random.Random(index)
    async with GenericEnvClient(base_url=url, message_timeout_s=600) as env:
        result = await env.reset(task=TASK, seed=index, backend=backend, termination="agent")
        ready()
        await go.wait()
        done = 0
        for _ in range(steps):
            bids = CLICK.findall(result.observation.get("axtree_txt", "")) or ["0"]
            t = time.perf_counter()
            try:
                result = await env.step({"action": f"click('{rng.choice(bids)}')"})
                latencies.append((time.perf_counter() - t) * 1000)
                done += 1
            except RuntimeError as e:  # the server's error for this call (counted, the episode restarted)
                errors.append(str(e)[:300])
                result = None
            while result is None or result.done:  # a new world (its reset not counted in a step)
                try:
                    result = await env.reset(
                        task=TASK, seed=index + 1000 * (done + 1), backend=backend, termination="agent"
                    )
                except RuntimeError as e:
                    errors.append(str(e)[:300])
                    if len(errors) > 50:
                        raise
    return done


async def load(url: str, pid: int, n: int, backend: str, steps: int) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    go = asyncio.Event()
    state = {"ready": 0, "pss": 0.0}

    def ready() -> None:
        state["ready"] += 1
        if state["ready"] == n:
            state["pss"] = tree_pss(pid)  # every session holds its world (and, in Chromium, its context)
            state["cpu"], state["t"] = tree_cpu(pid), time.perf_counter()
            go.set()

    t = time.perf_counter()
    counts = await asyncio.gather(*(session(url, i, backend, steps, ready, go, latencies, errors) for i in range(n)))
    wall, cpu = time.perf_counter() - state["t"], tree_cpu(pid) - state["cpu"]
    total = sum(counts)
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    return {
        "sessions": n,
        "backend": backend,
        "steps": total,
        "resets_s": round(state["t"] - t, 1),
        "steps_per_second": round(total / wall, 1),
        "p50_ms": round(statistics.median(latencies), 1),
        "p99_ms": round(q[98], 1),
        "server_cpu_ms_per_step": round(1000 * cpu / total, 1),
        "server_pss_mib": state["pss"],
        "errors": len(errors),
        "first_error": errors[0] if errors else "",
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


async def warm_up(url: str, backend: str, apps: int | None) -> None:
    """Untimed, before the load: one session visits every app's first page, so that what the
    server does once per app (its modules, templates, styles) is not counted in the load."""
    from urllib.parse import urlsplit

    from openenv.core import GenericEnvClient

    from openapps_sim.config.discovery import discover_apps

    async with GenericEnvClient(base_url=url, message_timeout_s=600) as env:
        result = await env.reset(task=TASK, seed=10_000, backend=backend, termination="agent")
        for name in [a for a in discover_apps() if a != "start"][:apps]:
            if result.done:  # the step budget is spent: another episode
                result = await env.reset(task=TASK, seed=10_000, backend=backend, termination="agent")
            base = urlsplit(result.observation["url"])
            result = await env.step({"action": f"goto('{base.scheme}://{base.netloc}/{name}/')"})


def run_load(n: int, backend: str, steps: int, warm: int | None = None) -> dict:
    with openenv_server(max(n, 1)) as (url, pid, log):
        # a thread of its own: this thread may hold Playwright's loop (an env of another section)
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, warm_up(url, backend, warm)).result()
            out = pool.submit(asyncio.run, load(url, pid, n, backend, steps)).result()
        text = Path(log).read_text()
        out["server_tracebacks"] = text.count("Traceback")
        where = text.find("Traceback")
        out["server_first_traceback"] = text[where : where + 3000] if where >= 0 else ""
        return out


def bench_openenv(figures: dict, small: bool = False) -> None:
    """Text at 16 and 64 sessions, Chromium at 16 (``small``: 2 sessions, 2 steps each)."""
    if small:
        runs = {"text_2": run_load(2, "text", 2, warm=1), "chromium_2": run_load(2, "chromium", 2, warm=1)}
    else:
        runs = {
            "text_16": run_load(16, "text", 25),
            "text_64": run_load(64, "text", 10),
            "chromium_16": run_load(16, "chromium", 6),
        }
    chromium = next(v for k, v in runs.items() if k.startswith("chromium"))
    text = next(v for k, v in runs.items() if k.startswith("text"))
    runs["text_over_chromium_same_sessions"] = round(text["steps_per_second"] / chromium["steps_per_second"], 1)
    runs["chromium_64_estimate"] = {
        "server_pss_mib": round(chromium["server_pss_mib"] * 64 / chromium["sessions"], 0),
        "skipped": "64 Chromium sessions not run; memory scaled from the run above (an upper bound: the browser's "
        "own processes are shared)",
    }
    figures["openenv_sessions"] = runs


def openenv_lines(f: dict) -> str:
    rows = f.get("openenv_sessions")
    if not rows:
        return ""
    lines = []
    for r in rows.values():
        if isinstance(r, dict) and "steps_per_second" in r:
            lines.append(
                f"  OpenEnv, {r['sessions']:>2} {r['backend']:<8} sessions  {r['steps_per_second']:.1f} steps/s,"
                f" p50 {r['p50_ms']:.0f} ms, p99 {r['p99_ms']:.0f} ms, server CPU {r['server_cpu_ms_per_step']:.1f} ms"
                f" a step, {r['server_pss_mib']:.0f} MiB PSS, {r.get('errors', 0)} errors; load {r['load_average']}"
            )
    lines.append(f"  OpenEnv text / chromium, same sessions  {rows['text_over_chromium_same_sessions']:.1f}x steps/s")
    return "\n".join(lines)


if __name__ == "__main__":
    import json

    figures: dict = {}
    bench_openenv(figures, small="--small" in sys.argv)
    print(json.dumps(figures, indent=2))
    print(openenv_lines(figures))
