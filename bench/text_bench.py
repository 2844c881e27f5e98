"""``make bench``'s text-backend section: the text backend beside Chromium, measured in one run.

* ``text_vs_chromium_step``: the same action (a link click that loads the todo page) on the same
  page, in both backends, interleaved; medians and their ratio. An episode that spends its step
  budget starts again (untimed), so every timed step runs its action.
* ``text_vs_chromium_oracle_episode``: the oracle on the same instances in both backends.
* ``inline_text_boxes``: what share of the lines and characters of ``flatten_axtree_to_str`` the
  ``InlineTextBox`` nodes of stock BrowserGym's extraction make on each app's first page (the
  measurement behind dropping them in both backends).
* ``text_envs_in_one_process``: 64 text envs (each its own world) in one fresh process: PSS of
  the process (its worlds included), and the aggregate steps per second of the 64 stepping round
  robin (link clicks: first visits of a page in each world, and clicks on a link to the page
  shown).
* ``gc_text_envs``: the same 64 envs twice, in fresh processes one after the other: with
  Python's collector settings (``OPENAPPS_GC=default``) and with the package's
  (``openapps_sim/gcsettings.py``, which the process applies once its envs are made, as an RL
  user's process can); CPU per step of both and their ratio.
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import time

APPS = ("/", "/todo/", "/calendar/", "/messenger/", "/maps/", "/shop/", "/code_editor/")


def _median(xs: list[float]) -> float:
    return round(statistics.median(xs), 2) if xs else 0.0


def bench_text(figures: dict) -> None:
    figures["text_vs_chromium_step"] = step_ratio()
    figures["text_vs_chromium_oracle_episode"] = oracle_ratio()
    figures["inline_text_boxes"] = inline_text_box_share()
    figures["text_envs_in_one_process"] = text_envs_child_run(64)
    figures["gc_text_envs"] = gc_text_envs(64)


def step_ratio(n: int = 15) -> dict:
    from openapps_sim.envs.observe import testid_bids
    from openapps_sim.envs.registration import make_env

    envs = {b: make_env("todo.add_item", backend=b, obs_mode="axtree") for b in ("chromium", "text")}
    times: dict[str, list[float]] = {b: [] for b in envs}
    bids = {}

    def start(b: str) -> None:  # a new episode on the todo page (not timed)
        obs, _ = envs[b].reset(seed=0)
        obs, *_ = envs[b].step(f"click('{testid_bids(obs)['launch-todo']}')")
        bids[b] = testid_bids(obs)["todo-filter-all"]

    for b in envs:
        start(b)
    for _ in range(n):
        for b, env in envs.items():  # interleaved: both see the same load
            t = time.perf_counter()
            _, _, terminated, truncated, _ = env.step(f"click('{bids[b]}')")
            times[b].append((time.perf_counter() - t) * 1000)
            if terminated or truncated:  # a step past the budget would run no action: start again
                start(b)
    for env in envs.values():
        env.close()
    chromium, text = _median(times["chromium"]), _median(times["text"])
    return {"chromium_ms_median": chromium, "text_ms_median": text, "ratio": round(chromium / text, 1) if text else 0}


def oracle_ratio(
    families: tuple = ("todo.add_item", "calendar.add_event", "shop.checkout", "messenger.send_message"),
) -> dict:
    from openapps_sim.config.world import WorldSpec
    from openapps_sim.sweeps.record import EpisodeSpec
    from openapps_sim.sweeps.runner import Worker

    out = {}
    for backend in ("chromium", "text"):
        worker = Worker()
        worker.run(EpisodeSpec(agent="oracle", task=families[0], world=WorldSpec(seed=9), backend=backend))  # warm
        t = time.perf_counter()
        steps = episodes = solved = 0
        for family in families:
            for seed in range(2):
                rec = worker.run(
                    EpisodeSpec(agent="oracle", task=family, world=WorldSpec(seed=seed), backend=backend)
                ).record
                steps += rec["steps"]
                episodes += 1
                solved += rec["reward"] == 1
        seconds = time.perf_counter() - t
        worker.close()
        out[backend] = {
            "episodes": episodes,
            "solved": solved,
            "ms_per_episode": round(1000 * seconds / episodes, 1),
            "ms_per_step": round(1000 * seconds / max(steps, 1), 1),
        }
    out["ratio"] = round(out["chromium"]["ms_per_episode"] / out["text"]["ms_per_episode"], 1)
    return out


def inline_text_box_share() -> dict:
    """Stock BrowserGym extraction (its marking pass, no server ids) of each app's first page."""
    from browsergym.core.observation import _post_extract, _pre_extract, extract_merged_axtree
    from browsergym.utils.obs import flatten_axtree_to_str

    from openapps_sim.envs.browser import acquire_browser, release_browser
    from openapps_sim.web.server import app_server

    world = app_server().add()
    world.reset("default", 0)
    browser = acquire_browser(headless=True)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    lines = boxes = chars = box_chars = 0
    try:
        for path in APPS:
            page.goto(world.url + path)
            _pre_extract(page, tags_to_mark="standard_html", lenient=False)
            text = flatten_axtree_to_str(extract_merged_axtree(page))
            _post_extract(page)
            for line in text.splitlines():
                lines += 1
                chars += len(line)
                if line.strip().startswith("InlineTextBox"):
                    boxes += 1
                    box_chars += len(line)
    finally:
        context.close()
        release_browser(browser)
        app_server().drop(world)
    return {
        "pages": len(APPS),
        "lines": lines,
        "inline_text_box_lines": boxes,
        "line_share": round(boxes / lines, 3) if lines else 0,
        "char_share": round(box_chars / chars, 3) if chars else 0,
    }


def text_envs_child(n: int, tune: bool = False) -> dict:
    """In a fresh process: ``n`` text envs, one world each (in memory); the PSS of this process;
    then every env steps in turn, each step a link click that loads a page: once to open
    the todo app, then three times its "all" filter. The first visit of a page in a world is cold
    (the app renders it, the tab parses it and builds its tree); a link to the page shown is warm
    (rendered and parsed at this revision already). Aggregate steps per second: all of them, the
    cold ones and the warm ones."""
    from openapps_sim.envs.observe import testid_bids
    from openapps_sim.envs.registration import make_env
    from openapps_sim.web.server import app_server

    sys.path.insert(0, os.path.dirname(__file__))
    from cputrack import cmdline

    from bench import descendants, rss_mib  # noqa: F401 - the bench's own readers

    envs = [make_env("todo.add_item", backend="text") for _ in range(n)]
    launch = []
    for i, env in enumerate(envs):
        obs, _ = env.reset(seed=i)
        launch.append(f"click('{testid_bids(obs)['launch-todo']}')")
    if tune:
        from openapps_sim.gcsettings import tune_gc

        tune_gc()
    seconds = {"cold": 0.0, "warm": 0.0}
    steps = {"cold": 0, "warm": 0}
    filters = []
    cpu = time.process_time()
    for rnd in range(4):
        kind = "cold" if rnd < 2 else "warm"
        t = time.perf_counter()
        for i, env in enumerate(envs):
            obs, *_ = env.step(launch[i] if rnd == 0 else filters[i])
            if rnd == 0:
                filters.append(f"click('{testid_bids(obs)['todo-filter-all']}')")
        seconds[kind] += time.perf_counter() - t
        steps[kind] += n
    cpu = time.process_time() - cpu
    out = {
        "envs": n,
        "worlds": len(app_server().worlds),
        "python_pss_mib": rss_mib(os.getpid()).get("pss_mib", 0.0),
        "browser_processes": sum(1 for p in descendants(os.getpid()) if b"chrom" in cmdline(p)),
        "steps": steps["cold"] + steps["warm"],
        "steps_per_second": round((steps["cold"] + steps["warm"]) / (seconds["cold"] + seconds["warm"]), 1),
        "cold_steps_per_second": round(steps["cold"] / seconds["cold"], 1),
        "warm_steps_per_second": round(steps["warm"] / seconds["warm"], 1),
        # what the steps cost in CPU: the rate an idle machine would reach (the wall-clock rate
        # above includes the load)
        "cpu_ms_per_step": round(1000 * cpu / (steps["cold"] + steps["warm"]), 2),
        "cpu_steps_per_second": round((steps["cold"] + steps["warm"]) / max(cpu, 1e-9), 1),
        "load_average": round(os.getloadavg()[0], 1),
        "gc_threshold": list(gc.get_threshold()),
    }
    out["total_pss_mib"] = out["python_pss_mib"]
    for env in envs:
        env.close()
    return out


def text_envs_child_run(n: int, collector: str | None = None) -> dict:
    """``collector``: None runs the child as a user's process (Python's settings); "default" sets
    ``OPENAPPS_GC=default``; "tuned" has the child tune itself."""
    from openapps_sim.gcsettings import ENV

    env = os.environ.copy()
    if collector == "default":
        env[ENV] = "default"
    elif collector == "tuned":
        env.pop(ENV, None)
    tune = ["--tune-gc"] if collector == "tuned" else []
    args = [sys.executable, __file__, "--text-envs-child", str(n), *tune]
    done = subprocess.run(args, capture_output=True, text=True, timeout=1200, env=env)
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not line:
        raise RuntimeError(f"text-envs child failed: {done.stderr[-2000:]}")
    return json.loads(line[-1])


def gc_text_envs(n: int) -> dict:
    """Python's collector settings against the package's, on the same work, one after the other."""
    out: dict = {setting: text_envs_child_run(n, setting) for setting in ("default", "tuned")}
    out["envs"] = n
    out["cpu_ratio"] = round(out["tuned"]["cpu_ms_per_step"] / out["default"]["cpu_ms_per_step"], 2)
    return out


# figure -> its lines in the printed summary (format templates over the figure's values), in this order
TEXT_LINES = {
    "text_vs_chromium_step": [
        "  step, same page and action   chromium {chromium_ms_median:.0f} ms / text {text_ms_median:.1f} ms = {ratio:.1f}x"
    ],
    "text_vs_chromium_oracle_episode": [
        "  oracle episode               chromium {chromium[ms_per_episode]:.0f} ms / text {text[ms_per_episode]:.0f} ms"
        " = {ratio:.1f}x"
    ],
    "inline_text_boxes": [
        "  InlineTextBox share          {line_share:.0%} of lines, {char_share:.0%} of characters (stock extraction,"
        " {pages} pages)"
    ],
    "text_envs_in_one_process": [
        "  {envs} text envs, one process   {total_pss_mib:.0f} MiB PSS, {steps_per_second:.1f} steps/s round robin"
        " (first visits {cold_steps_per_second:.1f}, pages seen {warm_steps_per_second:.1f}),"
        " {browser_processes} browser processes",
        " " * 32 + " CPU {cpu_ms_per_step:.2f} ms a step:"
        " {cpu_steps_per_second:.0f} steps per CPU second; load average {load_average}",
    ],
    "gc_text_envs": [
        "  collector, {envs} text envs     Python's settings {default[cpu_ms_per_step]:.2f} ms CPU a step,"
        " the package's {tuned[cpu_ms_per_step]:.2f} ms = {cpu_ratio:.2f}x"
    ],
}
# values older runs did not record
LATER_FIGURES = {"cold_steps_per_second": 0, "warm_steps_per_second": 0}


def text_lines(f: dict) -> str:
    lines = [t.format_map({**LATER_FIGURES, **f[key]}) for key, ts in TEXT_LINES.items() if f.get(key) for t in ts]
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--text-envs-child":
        print(json.dumps(text_envs_child(int(sys.argv[2]), tune=sys.argv[3:] == ["--tune-gc"])), flush=True)
        sys.exit(0)
    figures: dict = {}
    bench_text(figures)
    print(json.dumps(figures, indent=2))
    print(text_lines(figures))
