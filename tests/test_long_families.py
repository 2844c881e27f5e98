"""The long-horizon families (tasks/multi/long.py, long_more.py; docs/tasks.md, "Long-horizon
families"): the oracle solves each on the text backend with at least the steps written here (one
pack per family, packs rotated; every pack is experiments/oracle_long.yaml), half the work done
scores 0 with partial progress between 0 and 1, and every piece is a milestone."""

from __future__ import annotations

import pytest

from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.taskkit.plan import run_plan
from openapps_sim.taskkit.progress import MilestoneTracker
from openapps_sim.taskkit.statecopy import copy_state
from openapps_sim.web.world import World

from .oracle_play import play_oracle

# the oracle's steps on the text backend, default pack, seed 0 (docs/tasks.md's table)
ORACLE_STEPS = {
    "multi.long_meal_week": 70,
    "multi.long_spring_cleaning": 67,
    "multi.long_party_week": 59,
    "multi.long_release_sprint": 57,
    "multi.long_trip_week": 57,
    "multi.long_week_ahead": 57,
    "multi.long_month_messages": 55,
    "multi.long_project_move": 55,
    "multi.long_weekend_errands": 37,
    "multi.long_visit_friends": 31,
    "multi.long_tidy_desk": 26,
    "multi.long_team_update": 25,
}
LONG = sorted(ORACLE_STEPS)
# one pack per family in make test: a language pack and an interruption pack among them
PACKS = ["default", "german", "interrupt_mixed", "interrupt_crash", "mandarin", "arabic"]


def test_every_long_family_is_listed_and_long_enough():
    assert sorted(f for f in all_families() if f.startswith("multi.long_")) == LONG
    assert len(LONG) >= 12 and all(n >= 20 for n in ORACLE_STEPS.values())
    assert len([n for n in ORACLE_STEPS.values() if n >= 50]) >= 8
    for fid in LONG:  # a budget with slack for interruptions and detours
        assert all_families()[fid].max_steps >= ORACLE_STEPS[fid] + 25, fid


@pytest.mark.parametrize("fid", LONG)
def test_the_oracle_solves_it_through_the_pages(env_on, fid):
    env = env_on("text")
    pack = "default" if fid in ("multi.long_meal_week", "multi.long_team_update") else PACKS[LONG.index(fid) % 6]
    obs, info = env.reset(seed=0, options={"task_kwargs": {"family": fid, "variation": pack}})
    steps = []
    real_step = env.step

    def counting(action):
        steps.append(action)
        return real_step(action)

    env.step = counting
    try:
        reward, last = play_oracle(env, obs, info["task_info"])
    finally:
        del env.step
    assert reward == 1.0, (fid, pack, last.get("task_info", {}).get("explanation"))
    if pack in ("default", "german", "mandarin", "arabic"):  # no interruption: the same steps
        assert len(steps) == ORACLE_STEPS[fid], (fid, pack, len(steps))
    else:
        assert len(steps) >= ORACLE_STEPS[fid], (fid, pack, len(steps))


@pytest.fixture(scope="module")
def world():
    w = World()
    w.reset("default", 3)
    return w


@pytest.mark.parametrize("fid", LONG)
def test_half_done_is_partial_progress_and_no_reward(world, fid):
    fam = all_families()[fid]
    inst = instantiate(fam, world.state, world.config, 3)
    pieces = inst.params["pieces"]
    assert len(inst.subgoals) == len(pieces) >= 5
    assert evaluate(fam, inst, inst.initial).reward == 0.0
    assert evaluate(fam, inst, inst.initial).partial == 0.0
    plan = fam.plan(inst.params, inst.initial)
    half = copy_state(inst.initial)
    run_plan(plan[: len(plan) // 2], half, world.config, fid)
    scored = evaluate(fam, inst, half)
    assert scored.reward == 0.0 and 0.0 < scored.partial < 1.0, (fid, scored.partial)
    assert scored.partial == pytest.approx((len(plan) // 2) / len(plan))
    tracker = MilestoneTracker(inst.milestones)
    tracker.observe(1, half, "http://127.0.0.1:1/", intact=scored.intact)
    reached = [m for m, step in tracker.first.items() if step is not None]
    assert 0 < len(reached) < len(inst.milestones), (fid, reached)
    assert evaluate(fam, inst, inst.expected).reward == 1.0


def test_different_seeds_give_different_items(world):
    for fid in LONG:
        fam = all_families()[fid]
        a, b = (instantiate(fam, world.state, world.config, s).params["pieces"] for s in (0, 1))
        assert a != b, fid
