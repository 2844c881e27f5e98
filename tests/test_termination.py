"""``termination: agent`` (issue 25, point 3): the episode ends only when the agent declares it
is done (a message or ``report_infeasible``) or its budget is spent; success is the state then.
Premature stops and overruns are counted in the record. Infeasible families (point 4): success
is ``report_infeasible`` with nothing changed, under either mode."""

from __future__ import annotations

import copy

import pytest

from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import EpisodeSpec
from openapps_sim.taskkit import all_families, evaluate, get_family, instantiate
from openapps_sim.web.world import World

from .shared_fixtures import module_worker

AGENTS = "tests.termination_agents:"


worker = module_worker()


def _run(worker, agent: str, task: str = "todo.add_item", termination: str = "agent", backend: str = "text", **kw):
    spec = EpisodeSpec(agent=agent, task=task, world=WorldSpec(seed=1), backend=backend, termination=termination, **kw)
    return worker.run(spec)


def test_an_agent_that_stops_early_scores_0_and_counts_a_premature_stop(worker):
    rec = _run(worker, AGENTS + "StopAtOnce").record
    assert (rec["termination"], rec["success"], rec["reward"], rec["steps"]) == ("agent", False, 0.0, 1)
    assert (rec["declared"], rec["declared_step"], rec["premature_stop"]) == ("message", 1, True)
    assert rec["goal_met_step"] is None and rec["overrun_steps"] is None


def test_an_agent_that_runs_on_counts_an_overrun_and_declaring_scores_the_state(worker):
    rec = _run(worker, AGENTS + "RunOn").record
    assert rec["success"] and not rec["premature_stop"] and rec["declared"] == "message"
    # three noops after the goal held, then the declaring step (needed, not an overrun)
    assert rec["overrun_steps"] == 3
    assert rec["declared_step"] == rec["goal_met_step"] + 4 == rec["steps"]


def test_without_a_declaration_the_goal_held_is_no_success(worker):
    rec = _run(worker, AGENTS + "NeverDeclare", max_steps=8).record
    assert not rec["success"] and rec["reward"] == 0.0 and rec["declared"] is None
    assert rec["steps"] == 8 and rec["overrun_steps"] == 8 - rec["goal_met_step"] > 0


def test_auto_ends_when_the_state_is_right(worker):
    rec = _run(worker, AGENTS + "RunOn", termination="auto").record
    assert rec["termination"] == "auto" and rec["success"]
    assert rec["steps"] == rec["goal_met_step"] and rec["overrun_steps"] == 0 and rec["declared"] is None
    early = _run(worker, AGENTS + "StopAtOnce", termination="auto").record
    assert not early["success"] and early["premature_stop"]


def test_the_oracle_declares_done_under_agent(worker):
    # messenger.tell_in_order: the oracle's script spends the family's whole budget, so the
    # declaring step needs the one step agent termination adds (it was truncated undeclared before)
    for task in ("todo.add_item", "calendar.event_time", "shop.add_missing_product", "messenger.tell_in_order"):
        rec = _run(worker, "oracle", task=task).record
        assert rec["success"] and rec["overrun_steps"] == 0 and not rec["premature_stop"], (task, rec["state_diff"])


@pytest.mark.browser
def test_an_overrun_on_chromium(worker):
    rec = _run(worker, AGENTS + "RunOnTwo", backend="chromium").record
    assert rec["backend"] == "chromium" and rec["success"] and rec["overrun_steps"] == 2
    early = _run(worker, AGENTS + "StopAtOnce", backend="chromium").record
    assert not early["success"] and early["premature_stop"]


def test_a_gym_env_under_agent_termination_goes_on_until_declared():
    from openapps_sim.envs.registration import make_env

    env = make_env("todo.add_item", backend="text", termination="agent", obs_mode="axtree", interface="mixed")
    try:
        obs, info = env.reset(seed=1)
        assert info["task_info"]["termination"] == "agent"
        assert info["task_info"]["max_steps"] == 9  # todo.add_item's 8 steps and the declaring step
        title = info["task_info"]["params"]["title"]
        obs, reward, terminated, truncated, step = env.step(f"todo.add_item(title={title!r})")
        assert (reward, terminated) == (0.0, False)
        assert "not declared" in step["task_info"]["explanation"]
        obs, reward, terminated, truncated, step = env.step("send_msg_to_user('Added it.')")
        assert (reward, terminated, step["task_info"]["success"]) == (1.0, True, True)
    finally:
        env.close()


def test_gym_make_takes_the_termination():
    import gymnasium as gym

    import openapps_sim  # noqa: F401  (registers the ids)

    env = gym.make("browsergym/openapps.todo.tick_missing_item", backend="text", termination="agent", obs_mode="axtree")
    try:
        _, info = env.reset(seed=3)
        assert info["task_info"]["termination"] == "agent"
        _, reward, terminated, _, _ = env.step("report_infeasible('It is not on the list.')")
        assert (reward, terminated) == (1.0, True)
    finally:
        env.close()


def test_a_wrong_termination_is_one_clear_error():
    from openapps_sim.envs.registration import make_env

    with pytest.raises(ConfigError, match="termination"):
        make_env("todo.add_item", backend="text", termination="whenever")


def test_the_mcp_reset_takes_a_termination():
    from openapps_sim.service.session import EnvSession

    session = EnvSession()
    try:
        out = session.reset(
            "todo.add_item", "default", 1, "en", "bid", {"width": 1280, "height": 720}, "mixed", "text", "agent"
        )
        assert out["termination"] == "agent"
        title = session.info["task_info"]["params"]["title"]
        assert session.act(f"todo.add_item(title={title!r})")["done"] is False
        final = session.act("send_msg_to_user('Added.')")
        assert final["done"] and final["reward"] == 1.0
        with pytest.raises(ConfigError, match="termination"):
            session.reset(
                "todo.add_item", "default", 1, "en", "bid", {"width": 1280, "height": 720}, "mixed", "text", "x"
            )
    finally:
        if session.env is not None:
            session.env.close()


# -- infeasible families -------------------------------------------------------------------------
INFEASIBLE = sorted(f for f, fam in all_families().items() if fam.infeasible)


def test_at_least_six_infeasible_families_across_the_apps():
    assert len(INFEASIBLE) >= 6
    assert {get_family(f).apps[0] for f in INFEASIBLE} >= {
        "todo",
        "calendar",
        "messenger",
        "shop",
        "code_editor",
        "maps",
    }


@pytest.mark.parametrize("family_id", INFEASIBLE)
def test_only_reporting_with_nothing_changed_succeeds(family_id):
    world, fam = World(), get_family(family_id)
    world.reset("default", 2)
    inst = instantiate(fam, world.state, world.config, 2)
    assert evaluate(fam, inst, inst.initial, reported_infeasible=True).success
    assert not evaluate(fam, inst, inst.initial).success  # doing nothing, saying nothing
    assert not evaluate(fam, inst, inst.initial, answer="It is not there.").success  # a message is no report
    changed = copy.deepcopy(inst.initial)
    app = fam.apps[0]
    for _key, value in changed[app].items():  # something changed in the app: one item fewer
        if isinstance(value, list) and value:
            value.pop()
            break
    else:
        pytest.fail(f"{app} has no list to change")
    assert not evaluate(fam, inst, changed, reported_infeasible=True).success


def test_a_similar_product_in_the_cart_fails(worker):
    from openapps_sim.apps.shop import model as cat

    world, fam = World(), get_family("shop.add_missing_product")
    world.reset("default", 0)
    inst = instantiate(fam, world.state, world.config, 0)
    similar = next(p for p in cat.catalogue(world.config["shop"]) if p)  # any product on sale
    state = copy.deepcopy(inst.initial)
    cat.add_line(state["shop"], similar, {}, inst.params["qty"])
    ev = evaluate(fam, inst, state, reported_infeasible=True)
    assert not ev.success and ev.diff


def test_reporting_a_feasible_task_infeasible_fails(worker):
    fam = get_family("todo.add_item")
    world = World()
    world.reset("default", 0)
    inst = instantiate(fam, world.state, world.config, 0)
    assert evaluate(fam, inst, inst.expected).success
    ev = evaluate(fam, inst, inst.expected, reported_infeasible=True)
    assert not ev.success and "reported the task infeasible" in ev.explain()


def test_an_infeasible_episode_does_not_end_by_itself_under_auto():
    from openapps_sim.envs.registration import make_env

    env = make_env("todo.tick_missing_item", backend="text", obs_mode="axtree")
    try:
        env.reset(seed=0)
        _, reward, terminated, _, _ = env.step("noop()")
        assert (reward, terminated) == (0.0, False)
        _, reward, terminated, _, step = env.step("report_infeasible('There is no such item.')")
        assert (reward, terminated, step["task_info"]["success"]) == (1.0, True, True)
    finally:
        env.close()


# -- the report ----------------------------------------------------------------------------------
def _record(agent: str, termination: str, success: bool, **outcome) -> dict:
    from openapps_sim.sweeps.record import new_record

    spec = EpisodeSpec(agent=agent, task="todo.add_item", world=WorldSpec(seed=len(outcome)), termination=termination)
    rec = new_record(spec, "r1", 1)
    rec.update(success=success, reward=float(success), steps=5, **outcome)
    rec["episode_id"] += f"-{agent}-{termination}-{sorted(outcome.items())}"
    return rec


def test_the_report_counts_premature_stops_and_overruns_and_shows_the_mode(tmp_path):
    import json

    from openapps_sim.analysis.metrics.completion import completion_summary
    from openapps_sim.analysis.report.write import write_report

    records = [
        _record("a", "agent", False, declared="message", premature_stop=True),
        _record("a", "agent", True, declared="message", goal_met_step=3, overrun_steps=2),
        _record("a", "agent", False, goal_met_step=2, overrun_steps=3),  # never declared
        _record("a", "agent", True, declared="infeasible"),
        _record("a", "auto", True, goal_met_step=5, overrun_steps=0),
    ]
    import pandas as pd

    summary = completion_summary(pd.DataFrame(records), ["agent"]).set_index("termination")
    agent = summary.loc["agent"]
    assert (agent["n"], agent["declared"], agent["reported_infeasible"]) == (4, 3, 1)
    assert (agent["premature_stops"], agent["overruns"], agent["overrun_steps"], agent["never_declared"]) == (
        1,
        2,
        5,
        1,
    )
    assert (summary.loc["auto", "overruns"], summary.loc["auto", "premature_stops"]) == (0, 0)

    run = tmp_path / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    md, _ = write_report(run)
    text = md.read_text(encoding="utf-8")
    assert "Termination: **agent, auto**" in text
    section = text[text.index("## How episodes ended") :]
    row = next(line for line in section.splitlines() if line.startswith("| a | agent"))
    assert [c.strip() for c in row.strip("|").split("|")][2:] == ["4", "50.0%", "3", "1", "1", "2", "5", "1"]
