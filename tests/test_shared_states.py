"""An instance copies only the apps its family touches (a world holds 64 apps): the other apps'
states are the caller's own objects, so no family may change them while it samples, prepares or
plans. Text only, no episode."""

from __future__ import annotations

import json

import pytest

from openapps_sim.taskkit import instantiate
from openapps_sim.taskkit.statecopy import copy_apps
from openapps_sim.web.world import World

from .tested_families import tested_families

FAMILIES = tested_families()


@pytest.fixture(scope="module")
def world():
    w = World()
    w.reset("default", 1)
    return w


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_an_instance_leaves_the_state_it_was_given_unchanged(world, family_id):
    state = json.loads(json.dumps(world.draw_all()))
    before = json.dumps(state, sort_keys=True)
    inst = instantiate(FAMILIES[family_id], state, world.config, 1)
    assert json.dumps(state, sort_keys=True) == before, "sampling, preparing or planning changed the caller's state"
    changed = {a for a in state if inst.expected[a] != inst.initial[a] or inst.initial[a] != state[a]}
    # whatever the instance changes (prepared or expected) is a copy, never the caller's object
    assert all(inst.initial[a] is not state[a] and inst.expected[a] is not state[a] for a in changed)


def test_copy_apps_copies_the_named_apps_and_shares_the_rest():
    state = {"a": {"x": [1]}, "b": {"y": [2]}}
    copied = copy_apps(state, ["a"])
    assert copied == state and copied["b"] is state["b"] and copied["a"] is not state["a"]
    copied["a"]["x"].append(3)
    assert state["a"] == {"x": [1]}
