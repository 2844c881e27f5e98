"""``make bench`` keeps running: its parts are exercised here once, tiny (the figures themselves
live in bench/results.json, never in a test). The stock-BrowserGym comparison broke silently
when ``_make_task`` gained its ``seed`` argument."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from openapps_sim.gcsettings import THRESHOLDS

pytestmark = pytest.mark.browser


def _bench_module():
    path = Path(__file__).resolve().parent.parent / "bench" / "bench.py"
    spec = importlib.util.spec_from_file_location("openapps_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_stock_browsergym_comparison_runs():
    ms = _bench_module().stock_browsergym_reset_ms(n=1)
    assert ms > 0 and not math.isnan(ms)


def test_the_text_backend_section_runs():
    import sys

    _bench_module()  # puts bench/ on the path
    text_bench = sys.modules.get("text_bench") or __import__("text_bench")
    step = text_bench.step_ratio(n=1)
    assert step["chromium_ms_median"] > 0 and step["text_ms_median"] > 0
    share = text_bench.inline_text_box_share()
    assert 0 < share["line_share"] < 1
    # fresh processes (no browser of this test session in them), with Python's collector settings
    # and with the package's (openapps_sim/gcsettings.py)
    figures = {"gc_text_envs": text_bench.gc_text_envs(2)}
    for setting, threshold in (("default", [700, 10, 10]), ("tuned", list(THRESHOLDS))):
        envs = figures["gc_text_envs"][setting]
        assert envs["envs"] == 2 and envs["browser_processes"] == 0 and envs["steps_per_second"] > 0
        assert envs["gc_threshold"] == threshold
    assert "collector, 2 text envs" in text_bench.text_lines(figures)


def test_the_listings_section_measures_every_listing():
    bench = _bench_module()
    figures: dict = {}
    bench.bench_listings(figures, repeats=1)
    rows = figures["listings_ms_median"]
    assert set(rows["commands_wall"]) == {"openapps tasks", "openapps variations"}
    assert set(rows["mcp_tools_first_call"]) == {"list_tasks", "list_variations"}
    assert all(v > 0 for part in rows.values() for v in part.values())
    assert "MCP list_variations" in bench.listing_lines(figures)


def test_the_core_each_section_pins_a_sweep_to_one_core():
    import os
    import sys

    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs 2 cores")
    _bench_module()  # puts bench/ on the path
    pinned = sys.modules.get("pinned") or __import__("pinned")
    run = pinned._group([(cpus[1], [0])], ("todo.add_item",))
    # default and dark_theme, one seed, in a child held to that core (its worker, server and
    # browser inherit it)
    assert (run["episodes"], run["errors"], run["cpus"]) == (2, 0, [[cpus[1]]])
    both = {**run, "cpus": [[cpus[0]], [cpus[1]]], "episodes": 4, "episodes_per_minute": 2 * run["episodes_per_minute"]}
    figures = {"one_core": run, "core_each": both, "one_worker_both_cores": run}
    lines = pinned.pinned_lines({**figures, "per_core_scaling": 2.0, "second_core_gain_of_one_worker": 1.0})
    assert "= 2.00x (per-core scaling)" in lines


def _bench_part(name: str):
    import sys

    _bench_module()  # puts bench/ on the path
    return sys.modules.get(name) or __import__(name)


def test_the_described_apps_section_measures_pages_server_and_listing():
    apps_bench = _bench_part("apps_bench")
    figures: dict = {}
    apps_bench.bench_apps(figures, small=True, earlier=395.4)
    page = figures["described_page_time"]
    assert set(page["pages"]) == {"banking", "recipes", "todo", "shop"}
    assert all(row["render_ms"] > 0 and row["text_step_ms"] > 0 for row in page["pages"].values())
    assert {"render_ms_described_over_hand_built", "text_step_ms_described_over_hand_built", "load_average"} <= set(
        page
    )
    cost = figures["apps_server_cost"]
    # the control run holds the six hand-built apps and the start page only
    assert cost["hand_apps"]["apps"] == 7 and cost["all_apps"]["apps"] >= 64
    assert cost["first_page_ms_before_described_apps"] == 395.4
    for key in ("first_page_over_before", "pss_all_over_hand", "openapps_tasks_ms", "openapps_apps_json_ms"):
        assert cost[key] > 0
    assert "openapps tasks / apps --json" in apps_bench.apps_lines(figures)


def test_the_crawl_section_replays_one_crawl_in_both_backends():
    crawl_bench = _bench_part("crawl_bench")
    figures: dict = {}
    crawl_bench.bench_crawl(figures, small=True)
    crawl = figures["crawl_text_vs_chromium"]
    assert crawl["steps"] == 4 and crawl["chromium_ms_median"] > 0 and crawl["text_ms_median"] > 0
    assert {"ratio", "ratio_of_totals", "cpu_ratio", "new_page_share", "page_mismatches", "load_average"} <= set(crawl)
    sessions = figures["crawl_text_sessions"]
    assert (sessions["sessions"], sessions["steps"]) == (2, 4)
    assert sessions["pss_mib"] > 0 and sessions["one_core_bound_steps_per_second"] > 0
    assert "text sessions crawling" in crawl_bench.crawl_lines(figures)


def test_a_crawler_prefers_links_to_pages_not_seen():
    crawl_bench = _bench_part("crawl_bench")

    def node(bid, role, url=None):
        props = [{"name": "url", "value": {"value": url}}] if url else []
        return {"browsergym_id": bid, "role": {"value": role}, "properties": props}

    nodes = [node("3", "link", "http://w1.localhost/"), node("12", "link", "http://w1.localhost/todo/")]
    nodes += [node("5", "button"), node("7", "heading")]
    obs = {"axtree_object": {"nodes": nodes}}
    assert crawl_bench.choices(obs, {"/"}) == ["5", "12"]
    assert crawl_bench.choices(obs, set()) == ["3", "5", "12"]
    only_links = {"axtree_object": {"nodes": nodes[:2]}}
    assert crawl_bench.choices(only_links, {"/", "/todo/"}) == ["3", "12"]


def test_the_openenv_section_loads_the_real_server_with_both_backends():
    openenv_bench = _bench_part("openenv_bench")
    figures: dict = {}
    openenv_bench.bench_openenv(figures, small=True)
    runs = figures["openenv_sessions"]
    for key, backend in (("text_2", "text"), ("chromium_2", "chromium")):
        run = runs[key]
        assert (run["sessions"], run["backend"], run["steps"]) == (2, backend, 4)
        assert run["p50_ms"] > 0 and run["p99_ms"] >= run["p50_ms"] and run["server_pss_mib"] > 0
    assert runs["text_over_chromium_same_sessions"] > 0
    assert "OpenEnv,  2 chromium sessions" in openenv_bench.openenv_lines(figures)
