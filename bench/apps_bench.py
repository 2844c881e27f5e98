"""``make bench``'s section on the described apps (issue 38 point 6): what 58 apps made from
``app.yaml`` files cost the pages, the server and the listing.

* ``described_page_time``: two described apps' first pages beside two hand-built apps', in one
  run: the server-side render (a GET of the page, read whole, from a world reset to a new seed
  each round so that no rendering is reused) and the text backend's observation of it (an
  env's ``goto`` step, its first visit of the page in a world reset each round); medians.
* ``apps_server_cost``: in fresh processes, an app server started as ``bench_server`` starts it
  (spawn to the first 200 on ``/``; the same figure as ``server_start_to_first_page_ms``, which
  results.json holds from before the described apps) and its PSS once every app's first page has
  been served; with every app, and with the hand-built apps only. The described apps cannot be
  switched off by configuration (``OPENAPPS_APPS`` only adds folders to the package's library,
  apps/described/spec.py ``search_path``), so the control run points the library at an empty
  folder inside its own process (``--server-child hand``).
* ``openapps tasks`` and ``openapps apps --json`` wall time, each a fresh process.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

DESCRIBED = ("banking", "recipes")
HAND_BUILT = ("todo", "shop")


def _median(xs: list[float]) -> float:
    return round(statistics.median(xs), 2) if xs else 0.0


def render_times(apps: tuple[str, ...], repeats: int) -> dict[str, list[float]]:
    from openapps_sim.web.server import AppServer
    from openapps_sim.web.world import World

    host = AppServer(World())
    host.start()
    server = host.default
    out: dict[str, list[float]] = {a: [] for a in apps}
    try:
        for i in range(repeats + 1):  # the first round warms the process (not counted)
            server.reset("default", i)
            for app in apps:
                t = time.perf_counter()
                with urllib.request.urlopen(f"{server.url}/{app}/") as resp:
                    resp.read()
                if i:
                    out[app].append((time.perf_counter() - t) * 1000)
    finally:
        host.stop()
    return out


def text_times(apps: tuple[str, ...], repeats: int) -> dict[str, list[float]]:
    from urllib.parse import urlsplit

    from openapps_sim.envs.registration import make_env

    env = make_env("todo.add_item", backend="text", obs_mode="axtree")
    out: dict[str, list[float]] = {a: [] for a in apps}
    try:
        for i in range(repeats + 1):
            obs, _ = env.reset(seed=i)  # a new world: every page below is its first visit
            base = urlsplit(obs["url"])
            for app in apps:
                t = time.perf_counter()
                env.step(f"goto('{base.scheme}://{base.netloc}/{app}/')")
                if i:
                    out[app].append((time.perf_counter() - t) * 1000)
    finally:
        env.close()
    return out


def page_time(repeats: int = 10) -> dict:
    apps = DESCRIBED + HAND_BUILT
    render, text = render_times(apps, repeats), text_times(apps, repeats)
    rows = {a: {"render_ms": _median(render[a]), "text_step_ms": _median(text[a])} for a in apps}
    out: dict = {"repeats": repeats, "pages": rows}
    for figure in ("render_ms", "text_step_ms"):
        described = statistics.mean(rows[a][figure] for a in DESCRIBED)
        hand = statistics.mean(rows[a][figure] for a in HAND_BUILT)
        out[f"{figure}_described_over_hand_built"] = round(described / hand, 2) if hand else 0
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return out


def forget_apps() -> None:
    """Clear every cache of the package's modules loaded so far (importing the described apps'
    module already discovered the apps)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("openapps_sim"):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def server_child(which: str) -> dict:
    """In a fresh process: start an app server, time its first page, serve every app's first
    page, read this process's PSS. ``which``: ``all``, or ``hand`` (the library emptied)."""
    if which == "hand":
        import openapps_sim.apps.described.spec as spec

        empty = tempfile.mkdtemp()
        spec.library_dir = lambda: __import__("pathlib").Path(empty)
        os.environ.pop(spec.SEARCH_ENV, None)
        forget_apps()
    from openapps_sim.config.catalog import discover_apps
    from openapps_sim.web.server import AppServer
    from openapps_sim.web.world import World

    t0 = time.perf_counter()
    host = AppServer(World())  # as bench_server (server_start_to_first_page_ms) starts it
    host.start()
    server = host.default
    urllib.request.urlopen(server.url + "/").read()
    first = (time.perf_counter() - t0) * 1000
    apps = list(discover_apps())
    for app in apps:
        urllib.request.urlopen(server.url + ("/" if app == "start" else f"/{app}/")).read()
    with open("/proc/self/smaps_rollup") as fh:
        pss = next(int(ln.split()[1]) for ln in fh if ln.startswith("Pss:")) / 1024
    host.stop()
    return {"apps": len(apps), "first_page_ms": round(first, 1), "pss_mib": round(pss, 1)}


def run_child(which: str) -> dict:
    args = [sys.executable, __file__, "--server-child", which]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not line:
        raise RuntimeError(f"server child {which} failed: {done.stderr[-2000:]}")
    return json.loads(line[-1])


def command_ms(argv: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "openapps_sim.cli", *argv], capture_output=True, timeout=600)
        times.append((time.perf_counter() - t) * 1000)
        if done.returncode != 0:
            raise RuntimeError(f"openapps {' '.join(argv)} failed: {done.stderr[-2000:]!r}")
    return _median(times)


def server_cost(repeats: int = 3, earlier: float | None = None) -> dict:
    """Both servers alternately, ``repeats`` times each after one untimed run of each (it fills
    the parsed-YAML cache); ``earlier``: results.json's first-page figure, for the ratio."""
    runs: dict[str, list[dict]] = {"all": [], "hand": []}
    for i in range(repeats + 1):
        for which in runs:
            row = run_child(which)
            if i:
                runs[which].append(row)
    out: dict = {}
    for which, rows in runs.items():
        out[f"{which}_apps"] = {
            "apps": rows[0]["apps"],
            "first_page_ms": _median([r["first_page_ms"] for r in rows]),
            "pss_mib": _median([r["pss_mib"] for r in rows]),
        }
    out["first_page_all_over_hand"] = round(out["all_apps"]["first_page_ms"] / out["hand_apps"]["first_page_ms"], 2)
    out["pss_all_over_hand"] = round(out["all_apps"]["pss_mib"] / out["hand_apps"]["pss_mib"], 2)
    if earlier:
        out["first_page_ms_before_described_apps"] = earlier
        out["first_page_over_before"] = round(out["all_apps"]["first_page_ms"] / earlier, 2)
    out["openapps_tasks_ms"] = command_ms(["tasks"], repeats)
    out["openapps_apps_json_ms"] = command_ms(["apps", "--json"], repeats)
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return out


def bench_apps(figures: dict, small: bool = False, earlier: float | None = None) -> None:
    """Both figures; ``small``: one repeat each, to check the code path (tests)."""
    figures["described_page_time"] = page_time(1 if small else 10)
    figures["apps_server_cost"] = server_cost(1 if small else 3, earlier)


def apps_lines(f: dict) -> str:
    lines = []
    page = f.get("described_page_time")
    if page:
        for app, row in page["pages"].items():
            kind = "described" if app in DESCRIBED else "hand-built"
            lines.append(
                f"  page /{app + '/':<12} {kind:<10}  render {row['render_ms']:.1f} ms, text step {row['text_step_ms']:.1f} ms"
            )
        lines.append(
            f"  described / hand-built pages  render {page['render_ms_described_over_hand_built']:.2f}x,"
            f" text step {page['text_step_ms_described_over_hand_built']:.2f}x; load {page['load_average']}"
        )
    cost = f.get("apps_server_cost")
    if cost:
        a, h = cost["all_apps"], cost["hand_apps"]
        lines.append(
            f"  app server, {a['apps']} / {h['apps']} apps      first page {a['first_page_ms']:.0f} / {h['first_page_ms']:.0f} ms,"
            f" PSS {a['pss_mib']:.0f} / {h['pss_mib']:.0f} MiB (all apps served once)"
        )
        if "first_page_over_before" in cost:
            lines.append(
                f"  first page vs before          {cost['first_page_over_before']:.2f}x"
                f" of {cost['first_page_ms_before_described_apps']:.0f} ms (goal <= 2x)"
            )
        lines.append(
            f"  openapps tasks / apps --json  {cost['openapps_tasks_ms']:.0f} / {cost['openapps_apps_json_ms']:.0f} ms"
            f" (goal <= 1000 ms); load {cost['load_average']}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--server-child":
        print(json.dumps(server_child(sys.argv[2])), flush=True)
        sys.exit(0)
    figures: dict = {}
    bench_apps(figures, small="--small" in sys.argv, earlier=395.4)
    print(json.dumps(figures, indent=2))
    print(apps_lines(figures))
