"""``make bench``'s crawl section (issue 41 point 4): a crawl of new pages, as a rollout mostly is.

* ``crawl_text_vs_chromium``: random links and buttons from a fixed seed. The crawler chooses
  each action from the text backend's observation (a link to a page this episode has not seen
  yet where there is one, else any link or button) and the same action runs in a Chromium env
  on a world of the same seed, interleaved step by step, so both see the same load and the same
  action sequence. An episode runs ``episode_steps`` steps (or until the task ends it), then
  both start a new episode on a new seed (untimed): a new world, so its pages are new again.
  The ratio is of the medians (and of the totals) of the step times.
* ``crawl_text_sessions``: ``sessions`` text envs in one fresh process, each with its own world
  and its own crawler (seeded by its index), stepping round robin: aggregate steps per second,
  CPU per step, the bound one core sets (1000 / CPU ms per step) and the process's PSS.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from urllib.parse import urlsplit

TASK = "todo.add_item"  # the crawl starts on the start page (all 64 apps) and wanders from there
CLICKABLE = ("link", "button")


def page_key(url: str) -> str:
    """A page's path and query: the same page in both backends (their hosts differ)."""
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def choices(obs: dict, seen: set[str]) -> list[str]:
    """The element ids a crawler may click: links to pages not seen yet and buttons, or (when no
    link leads anywhere new) every link and button; sorted, so a seed picks the same one."""
    fresh, every = [], []
    for node in obs["axtree_object"]["nodes"]:
        role = (node.get("role") or {}).get("value")
        bid = node.get("browsergym_id")
        if role not in CLICKABLE or not bid:
            continue
        props = {p["name"]: (p.get("value") or {}).get("value") for p in node.get("properties", [])}
        if props.get("disabled"):
            continue
        every.append(bid)
        if role == "button" or page_key(str(props.get("url") or "")) not in seen:
            fresh.append(bid)
    return sorted(fresh or every, key=lambda b: (len(b), b))


def warm_up(env, apps: int | None = None) -> None:
    """Untimed: one visit of every app's first page, so that what a process does once per app
    (its modules, templates, styles) is not counted in a crawl's steps."""
    from openapps_sim.config.discovery import discover_apps

    obs, _ = env.reset(seed=10_000)
    ended = False
    for name in [a for a in discover_apps() if a != "start"][:apps]:
        if ended:  # the step budget is spent: another episode
            obs, _ = env.reset(seed=10_000)
        base = urlsplit(obs["url"])
        obs, _, term, trunc, _ = env.step(f"goto('{base.scheme}://{base.netloc}/{name}/')")
        ended = term or trunc


def tree_cpu(backend: str) -> float:
    """CPU seconds so far: this process alone for the text backend (it has no other), this
    process and every process below it (the browser's) for Chromium (clock ticks: a sum over
    many steps)."""
    if backend == "text":
        return time.process_time()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from cputrack import cpu_seconds, process_tree

    total = 0.0
    for pid in process_tree(os.getpid()):
        try:
            total += cpu_seconds(pid)
        except OSError:
            pass
    return total


def crawl_ratio(steps: int = 150, episode_steps: int = 25, seed: int = 0, warm: int | None = None) -> dict:
    """The same crawl in both backends, interleaved (see the module's docstring)."""
    from openapps_sim.envs.registration import make_env

    kw = {"obs_mode": "axtree", "task_kwargs": {"termination": "agent"}}
    envs = {b: make_env(TASK, backend=b, **kw) for b in ("chromium", "text")}
    for env in envs.values():
        warm_up(env, warm)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {b: [] for b in envs}
    new = mismatched = episodes = 0
    cpu = {b: 0.0 for b in envs}
    try:
        while len(times["text"]) < steps:
            obs = {b: env.reset(seed=seed + episodes)[0] for b, env in envs.items()}
            episodes += 1
            seen = {page_key(obs["text"]["url"])}
            for k in range(min(episode_steps, steps - len(times["text"]))):
                action = f"click('{rng.choice(choices(obs['text'], seen) or ['0'])}')"
                order = list(envs) if k % 2 else list(reversed(envs))  # neither always goes first
                ended = False
                for b in order:
                    c, t = tree_cpu(b), time.perf_counter()
                    obs[b], _, term, trunc, _ = envs[b].step(action)
                    times[b].append((time.perf_counter() - t) * 1000)
                    cpu[b] += tree_cpu(b) - c
                    ended = ended or term or trunc
                key = page_key(obs["text"]["url"])
                new += key not in seen
                seen.add(key)
                mismatched += key != page_key(obs["chromium"]["url"])
                if ended:
                    break
    finally:
        for env in envs.values():
            env.close()
    chromium, text = statistics.median(times["chromium"]), statistics.median(times["text"])
    n = len(times["text"])
    return {
        "steps": n,
        "episodes": episodes,
        "new_page_share": round(new / n, 3),
        "page_mismatches": mismatched,
        "chromium_ms_median": round(chromium, 2),
        "text_ms_median": round(text, 2),
        "ratio": round(chromium / text, 1),
        "ratio_of_totals": round(sum(times["chromium"]) / sum(times["text"]), 1),
        "text_cpu_ms_per_step": round(1000 * cpu["text"] / n, 2),
        # this process (its app server thread included) and its browser's processes
        "chromium_cpu_ms_per_step": round(1000 * cpu["chromium"] / n, 2),
        "cpu_ratio": round(cpu["chromium"] / cpu["text"], 1) if cpu["text"] else 0,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def pss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def sessions_child(sessions: int, rounds: int, warm: int | None = None) -> dict:
    """In a fresh process: ``sessions`` text envs crawling round robin (see the docstring)."""
    from openapps_sim.envs.registration import make_env
    from openapps_sim.gcsettings import tune_gc

    kw = {"backend": "text", "obs_mode": "axtree", "task_kwargs": {"termination": "agent"}}
    envs = [make_env(TASK, **kw) for _ in range(sessions)]
    warm_up(envs[0], warm)
    rngs = [random.Random(i) for i in range(sessions)]
    obs = [env.reset(seed=i)[0] for i, env in enumerate(envs)]
    seen = [{page_key(o["url"])} for o in obs]
    tune_gc()  # as an RL user's process can, once its envs are made (openapps_sim/gcsettings.py)
    steps = new = resets = 0
    cpu, t = time.process_time(), time.perf_counter()
    for _ in range(rounds):
        for i, env in enumerate(envs):
            obs[i], _, term, trunc, _ = env.step(f"click('{rngs[i].choice(choices(obs[i], seen[i]) or ['0'])}')")
            steps += 1
            key = page_key(obs[i]["url"])
            new += key not in seen[i]
            seen[i].add(key)
            if term or trunc:  # a new world: its pages are new again (counted in the time)
                obs[i] = env.reset(seed=sessions + steps)[0]
                seen[i] = {page_key(obs[i]["url"])}
                resets += 1
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    out = {
        "sessions": sessions,
        "steps": steps,
        "resets": resets,
        "new_page_share": round(new / steps, 3),
        "steps_per_second": round(steps / wall, 1),
        "cpu_ms_per_step": round(1000 * cpu / steps, 2),
        "one_core_bound_steps_per_second": round(steps / cpu, 1),
        "pss_mib": pss_mib(os.getpid()),
        "threads": len(os.listdir("/proc/self/task")),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    for env in envs:
        env.close()
    return out


def crawl_sessions(sessions: int = 64, rounds: int = 8, warm: int = 0) -> dict:
    """:func:`sessions_child` in a fresh process (nothing of this process's in its memory);
    ``warm``: how many apps the warm-up visits (0: all)."""
    args = [sys.executable, __file__, "--sessions-child", str(sessions), str(rounds), str(warm)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=1200)
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not line:
        raise RuntimeError(f"crawl sessions child failed: {done.stderr[-2000:]}")
    return json.loads(line[-1])


def bench_crawl(figures: dict, small: bool = False) -> None:
    """Both crawl figures; ``small``: a few steps each, to check the code path (tests)."""
    figures["crawl_text_vs_chromium"] = crawl_ratio(steps=4, episode_steps=2, warm=1) if small else crawl_ratio()
    figures["crawl_text_sessions"] = crawl_sessions(2, 2, warm=1) if small else crawl_sessions()


CRAWL_LINES = {
    "crawl_text_vs_chromium": [
        "  crawl of new pages           chromium {chromium_ms_median:.0f} ms / text {text_ms_median:.1f} ms"
        " = {ratio:.1f}x (totals {ratio_of_totals:.1f}x; {steps} steps, {new_page_share:.0%} new pages,"
        " text CPU {text_cpu_ms_per_step:.1f} ms a step); load {load_average}",
        "                               CPU a step: chromium {chromium_cpu_ms_per_step:.1f} ms (its processes)"
        " / text {text_cpu_ms_per_step:.1f} ms = {cpu_ratio:.1f}x",
    ],
    "crawl_text_sessions": [
        "  {sessions} text sessions crawling  {steps_per_second:.0f} steps/s, CPU {cpu_ms_per_step:.2f} ms a step"
        " (one core: at most {one_core_bound_steps_per_second:.0f} steps/s), {pss_mib:.0f} MiB PSS,"
        " {new_page_share:.0%} new pages; load {load_average}"
    ],
}


def crawl_lines(f: dict) -> str:
    return "\n".join(t.format_map(f[key]) for key, ts in CRAWL_LINES.items() if f.get(key) for t in ts)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--sessions-child":
        n, rounds, warm = (int(a) for a in sys.argv[2:])
        print(json.dumps(sessions_child(n, rounds, warm or None)), flush=True)
        sys.exit(0)
    figures: dict = {}
    bench_crawl(figures, small="--small" in sys.argv)
    print(json.dumps(figures, indent=2))
    print(crawl_lines(figures))
