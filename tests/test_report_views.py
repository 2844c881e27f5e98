"""The report's research views as pure functions: the paper's tables with intervals over tasks,
rollups, stuck loops versus progressing repeats, paired versions; the step log's
facts; and the navigation family's target app counted as needed."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from openapps_sim.analysis.metrics.behaviour import intent_misunderstood
from openapps_sim.analysis.metrics.breaks import (
    loop_kind_rates,
    loop_kinds,
    paired_summary,
    paired_versions,
    rollups,
)
from openapps_sim.analysis.metrics.paper import deviation_intervals, multi_step, task_reliability, version_reliability
from openapps_sim.analysis.metrics.reliability import agent_deviation, version_success
from openapps_sim.analysis.metrics.table import prepare
from openapps_sim.config.catalog import compose, initial_state_json
from openapps_sim.sweeps.steplog import addressed, outside_app
from openapps_sim.taskkit import all_families, instantiate


def rec(agent, task, variation, seed, success, **kw) -> dict:
    out = {
        "episode_id": f"{agent}-{task}-{variation}-{seed}",
        "agent": agent,
        "task": task,
        "variation": variation,
        "seed": seed,
        "success": success,
        "reward": float(success),
        "partial_reward": float(success),
        "actions": ["click('1')"],
        "apps_visited": ["start", task.split(".")[0]],
        "task_apps": [task.split(".")[0]],
        "structure": "single",
    }
    out.update(kw)
    return out


def frame() -> pd.DataFrame:
    recs = []
    for task in ("todo.add_item", "calendar.add_event", "maps.save_place"):
        for seed in range(3):
            recs.append(rec("a", task, "default", seed, True))
            recs.append(rec("a", task, "dark_theme", seed, seed != 0 or task != "todo.add_item"))
            recs.append(rec("a", task, "german", seed, seed == 2))
    return pd.DataFrame(recs)


def test_stuck_loop_versus_progressing_repeat():
    next5 = ["click('next')"] * 5
    assert loop_kinds(next5, [True] * 5, 2) == (0, 1, 0)  # the month changes every time
    assert loop_kinds(next5, [True, False, False, False, False], 2) == (1, 0, 0)
    assert loop_kinds(next5, None, 2) == (0, 0, 1)  # an older record: unclassified
    assert loop_kinds(["a", "b"], [False, False], 2) == (0, 0, 0)
    df = pd.DataFrame(
        [
            rec("a", "calendar.add_event", "default", 0, True, actions=next5, step_changed=[True] * 5),
            rec("a", "calendar.add_event", "default", 1, False, actions=next5, step_changed=[False] * 5),
        ]
    )
    k = loop_kind_rates(prepare(df, 2), ["agent"]).iloc[0]
    assert k["stuck_per_episode"] == 0.5 and k["progressing_per_episode"] == 0.5 and k["episodes_stuck"] == 0.5


def test_deviation_intervals_bracket_the_point_over_tasks():
    ci = deviation_intervals(frame(), ["agent"], ["variation"], n_boot=300).iloc[0]
    ref = agent_deviation(frame(), ["agent"]).iloc[0]
    assert ci["tasks"] == 3
    for s in ("within_std", "across_std", "within_mad", "across_mad", "std_ratio", "mad_ratio"):
        assert ci[s] == pytest.approx(ref[s])
        assert ci[f"{s}_lo"] <= ci[s] + 1e-9 <= ci[f"{s}_hi"] + 2e-9


def test_table4_table5_and_figure4_filter():
    df = frame()
    df = pd.concat([df, pd.DataFrame([rec("a", "shop.add_to_cart", v, 0, False) for v in ("default", "german")])])
    t4 = task_reliability(df, "default")
    assert set(t4["task"]) == {"todo.add_item", "calendar.add_event", "maps.save_place", "shop.add_to_cart"}
    assert t4.set_index("task").loc["todo.add_item", "success_rate"] == 1.0
    vr = version_reliability(df, ["agent", "variation"], n_boot=200).set_index("variation")
    # german: each of the three tasks 1/3, the never-run-in-dark shop task 0/1 -> (1/3 * 3 + 0) / 4
    assert vr.loc["german", "success_rate"] == pytest.approx(0.25)
    assert vr.loc["german", "success_rate_lo"] <= 0.25 <= vr.loc["german", "success_rate_hi"]
    fig4 = version_success(df, ["agent"], ["variation"], drop_unsolved=True).set_index("variation")
    assert fig4.loc["german", "success_rate"] == pytest.approx(1 / 3)  # the never-solved shop task is dropped


def test_multi_step_partial_and_any_subgoal():
    df = pd.DataFrame(
        [
            rec("a", "multi.errands", "default", 0, False, partial_reward=0.5, structure="sequential"),
            rec("a", "multi.errands", "default", 1, False, partial_reward=0.0, structure="sequential"),
            rec("a", "multi.errands", "default", 2, True, partial_reward=1.0, structure="sequential"),
            rec("a", "todo.add_item", "default", 0, False),  # not multi-step: left out
        ]
    )
    r = multi_step(df).iloc[0]
    assert r["n"] == 3 and r["partial_reward"] == pytest.approx(0.5) and r["any_subgoal"] == pytest.approx(2 / 3)


def test_paired_versions_list_flips_with_both_episodes():
    pairs = paired_versions(frame())
    flips = pairs[pairs["flip"] != "same"]
    lost = flips[(flips["variation"] == "dark_theme")]
    assert len(lost) == 1 and lost.iloc[0]["task"] == "todo.add_item" and lost.iloc[0]["flip"] == "lost"
    assert lost.iloc[0]["episode_id_base"] == "a-todo.add_item-default-0"
    assert lost.iloc[0]["episode_other"] == "a-todo.add_item-dark_theme-0"
    s = paired_summary(pairs).set_index("variation")
    assert s.loc["german", "lost"] == 6 and s.loc["german", "gained"] == 0 and s.loc["german", "pairs"] == 9


def test_rollups_per_app_and_kind():
    r = rollups(frame(), n_boot=100)
    apps = r["app"].set_index("app")
    assert set(apps.index) == {"todo", "calendar", "maps"}
    kinds = r["variation_kind"].set_index("variation_kind")
    assert kinds.loc["content", "success_rate"] == pytest.approx(1 / 3)


def test_navigation_target_is_a_needed_app_and_outside_pages_are_not():
    """The oracle opening the app a navigation goal names was flagged as intent misunderstanding
    (task_apps was only ["start"]); it must not be, and a page on another host must be."""
    fam = all_families()["start.navigate_to_app"]
    config, state = compose("default"), json.loads(initial_state_json("default", (), 0))
    for seed in range(4):
        inst = instantiate(fam, state, config, seed)
        target = inst.params["app"]
        assert target in inst.apps
        assert not intent_misunderstood(["start", target], list(inst.apps))
    assert outside_app("https://leafletjs.com/", "127.0.0.1") == "web:leafletjs.com"
    assert outside_app("http://127.0.0.1:8123/todo/", "127.0.0.1") is None
    assert outside_app("about:blank", "127.0.0.1") is None
    assert intent_misunderstood(["start", "todo", "web:example.com"], ["todo"])


def test_addressed_element_and_point():
    obs = {
        "axtree_object": {
            "nodes": [{"browsergym_id": "12", "role": {"value": "button"}, "name": {"value": "Add item"}}]
        },
        "extra_element_properties": {"12": {"bbox": [100, 50, 40, 20]}},
    }
    assert addressed("click('12')", obs) == {
        "bid": "12",
        "role": "button",
        "name": "Add item",
        "box": [100.0, 50.0, 40.0, 20.0],
    }
    assert addressed("mouse_click(320, 240)", obs) == {"point": [320.0, 240.0]}
    assert addressed("click('99')", obs)["name"] == "(not on the page)"
    assert addressed("scroll(0, 200)", obs) == {}


def test_step_log_keeps_the_llm_agents_reasoning_and_tokens():
    """A real OpenAI-compatible HTTP server on 127.0.0.1 (tests/fake_llm_server.py) answers."""
    from openapps_sim.agents import make_agent

    from openapps_sim.sweeps.steplog import StepLog

    from .fake_llm_server import FakeLLMServer

    obs = {"url": "http://127.0.0.1/todo/", "extra_element_properties": {"1": {}}}
    with FakeLLMServer(["<think>the add button is bid 1</think>\n<action>click('1')</action>"]) as server:
        config = {"model": "m", "base_url": server.url + "/v1", "require_api_key": False, "backoff": 0.0}
        agent = make_agent("openai", config)
        agent.reset("goal")
        log = StepLog(None, "episode")
        log.start(obs, agent.usage())
        log.before(obs)
        action = agent.act(obs)
        entry = log.after(agent, action, dict(obs, url="http://127.0.0.1/todo/?added=1"), 0)
    assert action == "click('1')"
    assert entry["reasoning"] == "the add button is bid 1"
    assert entry["tokens"] and all(v > 0 for v in entry["tokens"].values() if isinstance(v, (int, float)))
    assert entry["changed"] and entry["thumbnail"] is None and entry["time_s"] >= 0
