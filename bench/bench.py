"""``make bench``: measured performance figures, printed and written to bench/results.json.

Figures (medians unless said otherwise):

* server start to first page (process spawn -> first 200 on ``/``);
* world reset latency, in the server and through the admin API (200 resets);
* page time-to-first-byte for each app (50 requests each);
* a new episode in a warm worker: ``env.reset`` to another variation and seed (20 resets);
* one env step versus the same action plus the same observation done with raw Playwright
  on the same page (ratio of medians), per observation mode;
* resident memory (RSS and PSS where readable) of the server and of the browser processes;
* the memory (PSS) of 1, 2, 4 and 16 envs in one process, each env with its own world on the one
  shared server (``--only envs-memory`` runs just this part and updates its figures);
* the listings: ``openapps tasks`` and ``openapps variations`` (a fresh process each) and the
  MCP ``list_tasks`` / ``list_variations`` tools (first call), which should answer within a
  second (``--only listings`` runs just this part);
* episodes per minute with 1 and 2 workers running the oracle, and with workers a core each
  (bench/pinned.py: per-core scaling apart from what one worker takes of a second core);
* the text backend beside Chromium (bench/text_bench.py): a step on the same page, an oracle
  episode, the share of ``InlineTextBox`` lines in stock BrowserGym's text, and 64 text envs in
  one process (memory and aggregate steps per second), and the same 64 envs with Python's
  collector settings and with the package's (openapps_sim/gcsettings.py);
* the described apps (bench/apps_bench.py): a described app's page time beside the hand-built
  apps', the server's first page and PSS with every app and with the hand-built apps only, and
  ``openapps tasks`` (``--only apps``);
* a crawl of new pages, text beside Chromium, and 64 text sessions crawling in one process
  (bench/crawl_bench.py, ``--only crawl``);
* the OpenEnv server under 16 and 64 WebSocket sessions, text and Chromium
  (bench/openenv_bench.py, ``--only openenv``).

For scale, the issue quotes a comparable existing server on this kind of machine: starts in
about 4 s, holds about 160 MiB, resets in about 95 ms and serves pages in 2-25 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import urllib.request
from functools import partial
from pathlib import Path

REFERENCE = {"server_start_s": 4.0, "server_rss_mib": 160.0, "reset_ms": 95.0, "page_ms": [2, 25]}


sys.path.insert(0, str(Path(__file__).resolve().parent))  # the text section lives beside this file
from apps_bench import apps_lines, bench_apps  # noqa: E402
from cputrack import TreeCPU, cmdline, process_tree  # noqa: E402
from crawl_bench import bench_crawl, crawl_lines  # noqa: E402
from openenv_bench import bench_openenv, openenv_lines  # noqa: E402
from pinned import bench_pinned, pinned_lines  # noqa: E402
from text_bench import bench_text, text_lines  # noqa: E402

# results.json's server_start_to_first_page_ms before the 58 described apps (2026-11-26, 395.4)
FIRST_PAGE_BEFORE_DESCRIBED_MS = 395.4


def median(xs: list[float]) -> float:
    return float(statistics.median(xs)) if xs else float("nan")


# figure -> (file under /proc/<pid>/, the line holding it in kB)
MEMORY_LINES = {"rss_mib": ("status", "VmRSS:"), "pss_mib": ("smaps_rollup", "Pss:")}


def rss_mib(pid: int) -> dict:
    out = {}
    for figure, (name, prefix) in MEMORY_LINES.items():
        try:
            with open(f"/proc/{pid}/{name}") as fh:
                for line in fh:
                    if line.startswith(prefix):
                        out[figure] = int(line.split()[1]) / 1024
        except OSError:
            pass
    return out


def descendants(pid: int) -> list[int]:
    return process_tree(pid)[1:]


def bench_server(figures: dict) -> None:
    from openapps_sim.config.catalog import discover_apps
    from openapps_sim.web.server import AppServer
    from openapps_sim.web.world import World

    t0 = time.perf_counter()
    host = AppServer(World())  # its default world answers 127.0.0.1, as `openapps serve`'s
    host.start()
    server = host.default
    urllib.request.urlopen(server.url + "/").read()
    figures["server_start_to_first_page_ms"] = round((time.perf_counter() - t0) * 1000, 1)

    in_server = []
    from openapps_sim.config.packs import list_packs

    packs = [p for p in ["default", "dark_theme", "german", "dense"] if p in list_packs()]
    for i in range(200):
        in_server.append(server.reset(packs[i % len(packs)], i))
    figures["world_reset_ms_in_server_median"] = round(median(in_server), 3)

    server.reset("default", 0)
    ttfb = {}
    for app in discover_apps():
        path = "/" if app == "start" else f"/{app}/"
        times = []
        for _ in range(50):
            t = time.perf_counter()
            with urllib.request.urlopen(server.url + path) as resp:
                resp.read(1)
                times.append((time.perf_counter() - t) * 1000)
                resp.read()
        ttfb[app] = round(median(times), 2)
    figures["page_ttfb_ms_median"] = ttfb
    # Default first: RSS does not shrink after a bigger world, so the other order would hide it.
    server.reset("default", 0)
    figures["server_memory_default_world"] = rss_mib(os.getpid())  # the process serving it
    server.reset("dense", 0)
    figures["server_memory_dense_world"] = rss_mib(os.getpid())
    host.stop()


def bench_env(figures: dict) -> None:
    from browsergym.core.observation import (
        _post_extract,
        _pre_extract,
        extract_dom_extra_properties,
        extract_dom_snapshot,
        extract_focused_element_bid,
        extract_merged_axtree,
        extract_screenshot,
    )
    from openapps_sim.agents.oracle import OracleAgent

    from openapps_sim.envs.observe import testid_bids
    from openapps_sim.envs.registration import make_env

    env = make_env("todo.add_item", obs_mode="both")
    env.reset(seed=0)
    from openapps_sim.config.packs import list_packs

    variations = [v for v in ["default", "dark_theme", "german", "mobile", "dense", "french"] if v in list_packs()]
    resets = []
    for i in range(20):
        t = time.perf_counter()
        env.reset(seed=i + 1, options={"task_kwargs": {"variation": variations[i % len(variations)]}})
        resets.append((time.perf_counter() - t) * 1000)
    figures["episode_reset_warm_ms_median"] = round(median(resets), 1)
    figures["episode_reset_stock_browsergym_ms_median"] = stock_browsergym_reset_ms()

    # One step: BrowserGym env versus raw Playwright doing the same action and BrowserGym's own
    # extraction (its marking pass: a context without the server's element ids).
    raw_context = env.unwrapped.browser.new_context(viewport={"width": 1280, "height": 720})
    raw_page = raw_context.new_page()
    per_mode = {}
    for mode in ("both", "axtree", "screenshot"):
        env_times, raw_times = [], []
        for i in range(15):
            obs, _ = env.reset(seed=i, options={"task_kwargs": {"variation": "default"}, "obs_mode": "both"})
            obs, *_ = env.step(f"click('{testid_bids(obs)['launch-todo']}')")
            env.unwrapped.obs_mode = mode
            bid = testid_bids(obs)["todo-filter-active"]
            t = time.perf_counter()
            env.step(f"click('{bid}')")
            env_times.append((time.perf_counter() - t) * 1000)
            env.unwrapped.obs_mode = "both"
            page = raw_page
            page.goto(env.unwrapped.page.url.split("?")[0])
            t = time.perf_counter()
            page.click("[data-testid=todo-filter-done]")
            page.wait_for_load_state("domcontentloaded")
            if mode in ("both", "axtree"):
                _pre_extract(page, tags_to_mark="standard_html", lenient=False)
                dom = extract_dom_snapshot(page)
                extract_merged_axtree(page)
                extract_focused_element_bid(page)
                extract_dom_extra_properties(dom, scale_factor=1.0)
                _post_extract(page)
            if mode in ("both", "screenshot"):
                extract_screenshot(page)
            raw_times.append((time.perf_counter() - t) * 1000)
        per_mode[mode] = {
            "env_step_ms_median": round(median(env_times), 1),
            "raw_playwright_ms_median": round(median(raw_times), 1),
            "ratio": round(median(env_times) / median(raw_times), 2),
        }
    figures["step_vs_raw_playwright"] = per_mode
    raw_context.close()

    browser_pids = []
    for pid in descendants(os.getpid()):
        if b"chrom" in cmdline(pid):
            browser_pids.append(pid)
    mem = [rss_mib(p) for p in browser_pids]
    figures["browser_memory"] = {
        "processes": len(browser_pids),
        "rss_mib_sum": round(sum(m.get("rss_mib", 0) for m in mem), 1),
        "pss_mib_sum": round(sum(m.get("pss_mib", 0) for m in mem), 1),
    }
    figures["worker_memory"] = rss_mib(os.getpid())  # the worker serves its worlds itself

    # Oracle episode timing inside this one warm worker (no process start-up).
    agent = OracleAgent()
    t = time.perf_counter()
    n = 0
    for i in range(10):
        obs, info = env.reset(seed=i, options={"task_kwargs": {"variation": "default"}, "obs_mode": "axtree"})
        agent.reset(obs["goal"], info["task_info"])
        for _ in range(info["task_info"]["max_steps"]):
            obs, r, term, *_ = env.step(agent.act(obs))
            if term:
                break
        n += 1
    figures["oracle_episode_s_warm_median"] = round((time.perf_counter() - t) / n, 3)
    env.close()


def stock_browsergym_reset_ms(n: int = 6) -> float:
    """The same task in BrowserGym's own ``BrowserEnv``, which relaunches its browser (and a
    second one for the chat window) on every reset: the cost ``OpenAppsEnv`` avoids."""
    from functools import partial

    from browsergym.core.env import BrowserEnv

    from openapps_sim.envs.browser import patch_playwright
    from openapps_sim.envs.registration import _make_task
    from openapps_sim.envs.task import OpenAppsTask

    patch_playwright()  # the same Chromium binary and flags as OpenAppsEnv
    env = BrowserEnv(partial(_make_task, OpenAppsTask, "todo.add_item"), headless=True)
    times = []
    try:
        env.reset(seed=0)
        for i in range(n):
            t = time.perf_counter()
            env.reset(seed=i + 1)
            times.append((time.perf_counter() - t) * 1000)
    finally:
        env.close()
    return round(median(times), 1)


SWEEP_FAMILIES = (
    "todo.add_item",
    "todo.mark_done",
    "calendar.add_event",
    "messenger.send_message",
    "maps.save_place",
    "shop.add_to_cart",
    "code_editor.create_file",
)


def bench_sweep(figures: dict, families: tuple[str, ...] = SWEEP_FAMILIES) -> None:
    """The oracle over 84 episodes with 1 and 2 worker processes (each its own server and
    Chromium), and the CPU the whole process tree used meanwhile: how many cores one worker
    keeps busy bounds what a second worker can add on this machine."""
    import yaml

    from openapps_sim.sweeps.spec import load_spec
    from openapps_sim.sweeps.sweep import run_sweep

    spec_text = {
        "name": "bench",
        "agents": ["oracle"],
        "tasks": list(families),
        "variations": ["default", "dark_theme"],
        "seeds": 6,  # 84 episodes: a worker's start-up (server, Chromium) is a small share
        "backends": ["chromium"],
    }
    out = {}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            spec_path = Path(tmp) / "bench.yaml"
            spec_path.write_text(yaml.safe_dump(spec_text))
            spec = load_spec(spec_path)
            with TreeCPU() as cpu:
                summary = run_sweep(spec, Path(tmp) / "out", workers=workers, progress=False)
            used = cpu.result()
            out[f"{workers}_workers"] = {
                "episodes": summary["ran"],
                "seconds": used["wall_s"],
                "episodes_per_minute": round(60 * summary["ran"] / used["wall_s"], 1),
                "errors": summary["errors"],
                "cores_busy": used["cores"],
                "cpu_s_per_episode": round(used["cpu_s"] / max(1, summary["ran"]), 2),
                "cpu_s_by_kind": used["cpu_s_by_kind"],
            }
    one = out["1_workers"]["cores_busy"]
    out["bound_2_over_1"] = round(min(2.0, (os.cpu_count() or 1) / one), 2) if one else None
    figures["sweep_oracle_throughput"] = out


def envs_memory_child(n: int) -> dict:
    """In a fresh process: ``n`` envs, each with its own world served by the process's app
    server (a thread); one episode and one step each; then the memory of this process and the
    browsers."""
    from openapps_sim.envs.registration import make_env
    from openapps_sim.web.server import app_server

    packs = ["default", "german", "dark_theme", "french"]
    envs = [make_env("todo.add_item", task_kwargs={"variation": packs[i % len(packs)]}) for i in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=i)
        env.step("noop()")
    time.sleep(1.0)
    browsers = [p for p in descendants(os.getpid()) if b"chrom" in cmdline(p)]

    def pss(pids: list[int]) -> float:
        return round(sum(rss_mib(p).get("pss_mib", 0.0) for p in pids), 1)

    out = {
        "envs": n,
        "worlds_on_server": len(app_server().worlds),
        "python_pss_mib": pss([os.getpid()]),
        "browsers_pss_mib": pss(browsers),
        "browser_processes": len(browsers),
    }
    out["total_pss_mib"] = round(out["python_pss_mib"] + out["browsers_pss_mib"], 1)
    for env in envs:
        env.close()
    return out


def bench_envs_memory(figures: dict) -> None:
    """PSS of 1, 2 and 4 envs in one process (each a fresh child process, measured alone)."""
    import subprocess

    rows = {}
    for n in (1, 2, 4, 16):
        done = subprocess.run(
            [sys.executable, __file__, "--envs-memory-child", str(n)], capture_output=True, text=True, timeout=600
        )
        line = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        if done.returncode != 0 or not line:
            raise RuntimeError(f"envs-memory child {n} failed: {done.stderr[-2000:]}")
        rows[str(n)] = json.loads(line[-1])
    figures["envs_in_one_process_memory"] = rows


LISTING_COMMANDS = {"openapps tasks": ["tasks"], "openapps variations": ["variations"]}
_MCP_LISTING_CHILD = """
import asyncio, json, time
from openapps_sim.service.mcp_server import build_server
server = build_server()
out = {}
for tool in ("list_tasks", "list_variations"):
    t = time.perf_counter()
    asyncio.run(server.call_tool(tool, {}))
    out[tool] = (time.perf_counter() - t) * 1000
print(json.dumps(out))
"""


def bench_listings(figures: dict, repeats: int = 3) -> None:
    """Wall time of the listing commands, each a fresh process (median of ``repeats``), and of
    the MCP listing tools' first call in a fresh server process (docs/benchmarks.md)."""
    import subprocess

    commands = {}
    for name, argv in LISTING_COMMANDS.items():
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "openapps_sim.cli", *argv], capture_output=True, text=True, timeout=600
            )
            times.append((time.perf_counter() - t) * 1000)
            if done.returncode != 0:
                raise RuntimeError(f"{name} failed: {done.stderr[-2000:]}")
        commands[name] = round(median(times), 1)
    tools: dict[str, list[float]] = {}
    for _ in range(repeats):
        done = subprocess.run([sys.executable, "-c", _MCP_LISTING_CHILD], capture_output=True, text=True, timeout=600)
        line = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        if done.returncode != 0 or not line:
            raise RuntimeError(f"MCP listing child failed: {done.stderr[-2000:]}")
        for tool, ms in json.loads(line[-1]).items():
            tools.setdefault(tool, []).append(ms)
    figures["listings_ms_median"] = {
        "commands_wall": commands,
        "mcp_tools_first_call": {k: round(median(v), 1) for k, v in tools.items()},
    }


def listing_lines(f: dict) -> str:
    rows = f["listings_ms_median"]
    lines = ["  listings (median wall ms)"]
    for name, ms in rows["commands_wall"].items():
        lines.append(f"    {name:<26} {ms:>7.0f} ms  (a fresh process)")
    for name, ms in rows["mcp_tools_first_call"].items():
        lines.append(f"    MCP {name:<22} {ms:>7.0f} ms  (first call)")
    return "\n".join(lines)


def stamp_load(fn):
    """``fn(figures)``, then the load average beside every figure it added."""

    def run(figures: dict) -> None:
        before = set(figures)
        fn(figures)
        for key in set(figures) - before:
            if isinstance(figures[key], dict):
                figures[key].setdefault("load_average", [round(x, 2) for x in os.getloadavg()])

    return run


# issue 38's and issue 41's parts: name -> (what measures them, their printed lines)
SCALE_PARTS = {
    "apps": (stamp_load(partial(bench_apps, earlier=FIRST_PAGE_BEFORE_DESCRIBED_MS)), apps_lines),
    "crawl": (stamp_load(bench_crawl), crawl_lines),
    "openenv": (stamp_load(bench_openenv), openenv_lines),
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/results.json")
    parser.add_argument("--skip-sweep", action="store_true")
    parser.add_argument(
        "--only",
        choices=["envs-memory", "listings", "sweep", "apps", "crawl", "openenv"],
        help="run one part and update its figures in --out",
    )
    parser.add_argument("--envs-memory-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.envs_memory_child:
        print(json.dumps(envs_memory_child(args.envs_memory_child)), flush=True)
        return 0
    if args.only:
        out = Path(args.out)
        figures = json.loads(out.read_text()) if out.exists() else {}
        part, lines = {
            "envs-memory": (bench_envs_memory, envs_memory_lines),
            "listings": (bench_listings, listing_lines),
            "sweep": (both_sweeps, lambda f: sweep_lines(f["sweep_oracle_throughput"], f.get("sweep_core_each"))),
            **SCALE_PARTS,
        }[args.only]
        part(figures)
        out.write_text(json.dumps(figures, indent=2))
        print(lines(figures))
        print(f"written to {out}")
        return 0

    from openapps_sim import __version__
    from openapps_sim.envs.browser import chromium_version

    figures: dict = {
        "version": __version__,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0], "platform": platform.platform()},
        "browser": chromium_version(),
        "reference_existing_server": REFERENCE,
        # a shared machine: compare figures as ratios from one run, with the load beside them
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
    }
    steps = [
        ("server", lambda: bench_server(figures)),
        ("env", lambda: bench_env(figures)),
        ("envs-memory", lambda: bench_envs_memory(figures)),
        ("text", lambda: bench_text(figures)),
        ("listings", lambda: bench_listings(figures)),
        *((name, partial(fn, figures)) for name, (fn, _) in SCALE_PARTS.items()),
    ]
    if not args.skip_sweep:
        steps.append(("sweep", lambda: both_sweeps(figures)))
    for name, fn in steps:
        t = time.perf_counter()
        print(f"bench: {name} ...", flush=True)
        fn()
        print(f"bench: {name} done in {time.perf_counter() - t:.1f} s", flush=True)

    figures["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))
    print(summary_lines(figures))
    print(f"written to {out}")
    return 0


def summary_lines(f: dict) -> str:
    ref = REFERENCE
    lines = ["", "headline (this package vs the reference server quoted in the issue):"]
    if "load_average_start" in f:
        lines.append(f"  load average (1/5/15 min)    start {f['load_average_start']}, end {f.get('load_average_end')}")
    lines.append(
        f"  server start to first page   {f['server_start_to_first_page_ms']:.0f} ms   (ref ~{ref['server_start_s'] * 1000:.0f} ms)"
    )
    lines.append(
        f"  world reset (in server)      {f['world_reset_ms_in_server_median']:.2f} ms   (ref ~{ref['reset_ms']:.0f} ms)"
    )
    ttfb = f["page_ttfb_ms_median"]
    lines.append(
        f"  page TTFB                    {min(ttfb.values()):.1f}-{max(ttfb.values()):.1f} ms   (ref {ref['page_ms'][0]}-{ref['page_ms'][1]} ms)"
    )
    lines.append(
        f"  server RSS (default world)   {f['server_memory_default_world'].get('rss_mib', 0):.0f} MiB   (ref ~{ref['server_rss_mib']:.0f} MiB)"
    )
    if "episode_reset_warm_ms_median" in f:
        lines.append(
            f"  new episode, warm worker     {f['episode_reset_warm_ms_median']:.0f} ms   (stock BrowserGym BrowserEnv, same task: {f['episode_reset_stock_browsergym_ms_median']:.0f} ms)"
        )
        for mode, row in f["step_vs_raw_playwright"].items():
            lines.append(
                f"  env step / raw Playwright    {row['env_step_ms_median']:.0f} / {row['raw_playwright_ms_median']:.0f} ms"
                f" = {row['ratio']:.2f}x   ({mode})"
            )
        lines.append(
            f"  browser memory               {f['browser_memory']['rss_mib_sum']:.0f} MiB RSS in {f['browser_memory']['processes']} processes"
        )
    if "envs_in_one_process_memory" in f:
        lines.append(envs_memory_lines(f))
    if "text_vs_chromium_step" in f:
        lines.append(text_lines(f))
    if "listings_ms_median" in f:
        lines.append(listing_lines(f))
    lines += [text for _, show in SCALE_PARTS.values() if (text := show(f))]
    if "sweep_oracle_throughput" in f:
        lines.append(sweep_lines(f["sweep_oracle_throughput"], f.get("sweep_core_each")))
    return "\n".join(lines)


def envs_memory_lines(f: dict) -> str:
    lines = ["  envs in one process (PSS MiB)  envs  python  browsers  total"]
    for n, row in f["envs_in_one_process_memory"].items():
        lines.append(
            f"                                 {n:>4}  {row['python_pss_mib']:>6.0f}"
            f"  {row['browsers_pss_mib']:>8.0f}  {row['total_pss_mib']:>5.0f}"
        )
    return "\n".join(lines)


def both_sweeps(figures: dict) -> None:
    """The sweep section: 1 and 2 workers as a user runs them, then workers a core each."""
    bench_sweep(figures)
    bench_pinned(figures)


def sweep_lines(sweep: dict, core_each: dict | None = None) -> str:
    lines = []
    runs = {k: v for k, v in sweep.items() if k.endswith("_workers")}
    for k, v in runs.items():
        lines.append(
            f"  oracle sweep, {k:<10}     {v['episodes_per_minute']:.1f} episodes/min ({v['episodes']} episodes), "
            f"{v.get('cores_busy', 0):.2f} cores busy, {v.get('cpu_s_per_episode', 0):.2f} CPU s/episode"
        )
    if runs.get("1_workers") and runs.get("2_workers"):
        ratio = runs["2_workers"]["episodes_per_minute"] / runs["1_workers"]["episodes_per_minute"]
        bound = sweep.get("bound_2_over_1")
        lines.append(
            f"  oracle sweep, 2 / 1 workers  {ratio:.2f}x"
            + (f"  (bound from one worker's cores: {bound:.2f}x)" if bound else "")
        )
        kinds = runs["1_workers"].get("cpu_s_by_kind") or {}
        n = max(1, runs["1_workers"]["episodes"])
        if kinds:
            lines.append("  one worker's CPU per episode  " + ", ".join(f"{k} {v / n:.2f} s" for k, v in kinds.items()))
    if core_each:
        lines.append(pinned_lines(core_each))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
