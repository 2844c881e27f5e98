"""Destructive shortcuts earn no credit: a sub-goal (partial reward) and a milestone (ESAR) hold
only while nothing outside the task's expected change differs (issue 23, point 5).

The probe deletes everything the apps hold (every list and mapping of their state emptied). On
97af659 emptying the whole cart gave ``shop.remove_from_cart`` partial 1.0 and ESAR 1.0 and
``shop.checkout`` 0.5. Pure logic: no server, no browser."""

from __future__ import annotations

import copy

import pytest

from openapps_sim.config.catalog import drawn
from openapps_sim.taskkit import all_families, evaluate, get_family, instantiate
from openapps_sim.taskkit.composite import MultiStepFamily
from openapps_sim.taskkit.progress import MilestoneTracker
from openapps_sim.taskkit.reward import normalise_world, outside_change
from openapps_sim.taskkit.statecopy import copy_state
from openapps_sim.web.world import World

from .tested_families import tested_families

FAMILIES = sorted(tested_families())
SEEDS = [0, 1]
ORIGIN = "http://127.0.0.1:1"
# the goal is the probe itself: "delete every file and folder of the project"; a navigation goal
# changes no state, so deleting the start page's (empty) state is no change at all
WIPE_IS_THE_GOAL = {"code_editor.remove_all", "start.navigate_to_app"}


@pytest.fixture(scope="module")
def world():
    return World()


def wipe(state: dict, apps) -> dict:
    """``state`` with every collection of ``apps`` emptied: everything the apps hold deleted."""
    out = copy_state(state)  # a whole copy, as deepcopy would make it, in half the time
    for app in apps:
        if app in out:
            out[app] = drawn(out[app])  # an app the world has not read yet: its state, to wipe
        for key, value in out.get(app, {}).items():
            if isinstance(value, (list, dict)):
                out[app][key] = type(value)()
    return out


def pages(fam, inst) -> list[str]:
    """Every page a milestone can name: each app's, the start page and the navigation target."""
    paths = [f"/{a}/" for a in fam.apps if a != "start"] + ["/", inst.expected_path or "/"]
    return [ORIGIN + p for p in paths]


def reached(fam, inst, state: dict, answer: str | None, guarded: bool = True) -> dict:
    """The milestones a tracker finds reached when ``state`` is seen on every page."""
    tracker = MilestoneTracker(list(inst.milestones))
    for step, url in enumerate(pages(fam, inst), 1):
        ev = evaluate(fam, inst, state, answer=answer, url=url)
        tracker.observe(step, state, url, intact=ev.intact or not guarded)
    return {k: v for k, v in tracker.first.items() if v is not None}


@pytest.mark.parametrize("family_id", FAMILIES)
def test_deleting_everything_earns_no_partial_reward_and_no_milestone(world, family_id):
    fam = all_families()[family_id]
    for seed in SEEDS:
        world.reset("default", seed)
        inst = instantiate(fam, world.state, world.config, seed)
        where = f"{family_id} seed {seed}"
        answer = inst.expected_answer  # even with the right answer sent
        target = ORIGIN + (inst.expected_path or "/")
        everything = wipe(inst.initial, list(inst.initial))
        ev = evaluate(fam, inst, everything, answer=answer, url=target)
        assert not ev.success and ev.partial == 0.0, f"{where}: wiping every app: partial {ev.partial}"
        assert not any(ev.subgoals.values()) and ev.outside, where
        assert reached(fam, inst, everything, answer) == {}, f"{where}: a milestone held after wiping every app"
        own = wipe(inst.initial, [a for a in fam.apps if a != "start"])
        ev = evaluate(fam, inst, own, answer=answer, url=target)
        if family_id in WIPE_IS_THE_GOAL:
            assert ev.success, where
        else:
            assert ev.partial == 0.0, f"{where}: wiping the task's own apps: partial {ev.partial} {ev.subgoals}"
            assert reached(fam, inst, own, answer) == {}, f"{where}: a milestone held after wiping its apps"


@pytest.mark.parametrize("family_id", FAMILIES)
def test_the_rule_takes_nothing_from_the_start_or_the_expected_state(world, family_id):
    """Neither the untouched start nor the expected state is ever outside the change: there the
    milestones are exactly those found without the rule (state milestones reached at the end)."""
    fam = all_families()[family_id]
    world.reset("default", 0)
    inst = instantiate(fam, world.state, world.config, 0)
    before, after = normalise_world(inst.initial), normalise_world(inst.expected)
    assert outside_change(before, after, before) == [] and outside_change(before, after, after) == []
    for state in (inst.initial, inst.expected):
        assert reached(fam, inst, state, None) == reached(fam, inst, state, None, guarded=False), family_id
    state_goals = {g.name for g in inst.subgoals}
    assert state_goals <= set(reached(fam, inst, inst.expected, inst.expected_answer)), family_id


@pytest.mark.parametrize("family_id", [f for f in FAMILIES if isinstance(all_families()[f], MultiStepFamily)])
def test_half_done_multi_app_tasks_keep_their_partial_reward(world, family_id):
    """The first part done and the others not yet started is progress, not a side effect."""
    fam = all_families()[family_id]
    world.reset("default", 0)
    inst = instantiate(fam, world.state, world.config, 0)
    half = fam.part_families[0].expect(inst.initial, inst.params["parts"][0], world.config)
    ev = evaluate(fam, inst, half, url=ORIGIN + "/")
    assert ev.intact and ev.partial == pytest.approx(1 / len(fam.parts)), (family_id, ev.subgoals, ev.outside[:3])


def _cart_instance(world, family_id: str, seed: int = 0):
    fam = get_family(family_id)
    world.reset("default", seed)
    return fam, instantiate(fam, world.state, world.config, seed)


def test_emptying_the_cart_is_no_progress_but_the_right_removal_is(world):
    fam, inst = _cart_instance(world, "shop.remove_from_cart")
    empty = copy.deepcopy(inst.initial)
    empty["shop"]["cart"] = []
    ev = evaluate(fam, inst, empty)
    assert ev.partial == 0.0 and ev.subgoals == {"product_removed": False}
    assert any("missing cart line" in str(d) for d in ev.outside)
    assert evaluate(fam, inst, inst.expected).partial == 1.0


def test_checkout_credit_needs_the_past_orders_kept(world):
    fam, inst = _cart_instance(world, "shop.checkout")
    emptied = copy.deepcopy(inst.initial)
    emptied["shop"]["cart"], emptied["shop"]["orders"] = [], []
    assert evaluate(fam, inst, emptied).partial == 0.0
    # the order placed to another name: the cart emptied by it is still half the task
    wrong_name = fam.expect(inst.initial, {**inst.params, "name": "Someone Else"}, world.config)
    ev = evaluate(fam, inst, wrong_name)
    assert ev.intact and ev.subgoals == {"order_placed": False, "cart_empty": True} and ev.partial == 0.5
