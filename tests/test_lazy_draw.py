"""A world draws an app's initial state when something first reads it (config.catalog.Undrawn),
and that changes nothing a task scores: an app the agent opens mid-episode is compared as drawn
on every side, so a change there still fails the task and a visit alone does not.

Text backend, app tools as the agent's actions (``interface="api"``): the same world, pages and
scoring as every other path."""

from __future__ import annotations

import copy
import pickle

import pytest

from openapps_sim.config.catalog import Undrawn, composed_json, fresh_state
from openapps_sim.config.world import WorldSpec
from openapps_sim.envs.registration import make_env
from openapps_sim.taskkit import evaluate, get_family, instantiate
from openapps_sim.taskkit.statecopy import KeptCopies, copy_apps, copy_state
from openapps_sim.web.world import World

NEW_SEED = 90_417  # a seed no other test draws


def undrawn(state: dict) -> set[str]:
    return {app for app, value in state.items() if type(value) is Undrawn}


def test_a_new_world_draws_no_app_until_one_is_read():
    world = World()
    world.reset(WorldSpec(seed=NEW_SEED))
    assert undrawn(world.state) == set(world.apps)
    habits = world.app_state("habits")
    assert undrawn(world.state) == set(world.apps) - {"habits"}
    assert world.app_state("habits") is habits  # drawn once, then the world's own
    every = fresh_state(composed_json("default", ()), NEW_SEED)
    assert habits == every["habits"]  # the very state an eager draw gives
    assert world.draw_all() == every and not undrawn(world.state)


def test_an_undrawn_state_is_itself_under_every_copy_and_drawn_by_copy_apps():
    world = World()
    world.reset(WorldSpec(seed=NEW_SEED + 1))
    notes = world.state["notes"]
    assert copy.copy(notes) is notes and copy.deepcopy(notes) is notes and copy_state(notes) is notes
    assert KeptCopies().copy(world.state)["notes"] is notes
    assert notes == notes.draw() and notes == notes  # equal to what it stands for
    changed = notes.draw()
    changed["notes"] = []
    assert notes != changed
    again = World()
    again.reset(WorldSpec(seed=NEW_SEED + 1))
    assert again.state["notes"] is not notes and again.state["notes"] == notes  # same app, config, seed
    again.reset(WorldSpec(seed=NEW_SEED + 2))
    assert again.state["notes"] != notes
    own = copy_apps(world.state, ["notes"])  # a copy to be changed: drawn
    assert type(own["notes"]) is dict and own["notes"] == notes.draw() and own["todo"] is world.state["todo"]
    with pytest.raises(TypeError, match="an initial state not drawn yet is not pickled"):
        pickle.dumps(world.state)
    # read as a dict (a family that reads an app it does not list): one message saying what to do
    with pytest.raises(TypeError, match=r"notes: initial state not drawn yet; .*app_state\('notes'\)"):
        notes["notes"]
    with pytest.raises(AttributeError, match=r"lists in `apps`"):
        notes.items()
    assert not hasattr(notes, "keys") and not isinstance(notes, dict)


def test_evaluate_compares_an_app_drawn_on_one_side_only_as_drawn():
    """Scored directly (no env): an app the world drew after the instance was made is drawn in
    the instance too; an app the instance drew and the world did not is drawn in the state."""
    world = World()
    world.reset(WorldSpec(seed=NEW_SEED + 3))
    fam = get_family("todo.add_item")
    inst = instantiate(fam, world.state, world.config, NEW_SEED + 3)
    assert type(inst.initial["notes"]) is Undrawn and type(inst.initial["todo"]) is dict
    ev = evaluate(fam, inst, world.state)  # the world never read todo: nothing was done
    assert not ev.success and ev.diff and all(d.path.startswith("todo") for d in ev.diff), ev.diff
    world.app_state("notes")  # a visit
    assert evaluate(fam, inst, {**world.state, "todo": inst.expected["todo"]}).success
    world.app_state("notes")["notes"].clear()  # a change to an app drawn after the instance
    ev = evaluate(fam, inst, {**world.state, "todo": inst.expected["todo"]})
    assert not ev.success and ev.outside and all(d.path.startswith("notes") for d in ev.diff)


@pytest.fixture()
def todo_env():
    env = make_env("todo.add_item", backend="text", interface="api")
    yield env
    env.close()


def solve(env) -> float:
    """The todo.add_item instance solved with the app's own tool; the reward of that step."""
    title = env.unwrapped.task.instance.params["title"]
    _, reward, *_ = env.step(f"todo.add_item(title={title!r})")
    return reward


def test_a_reset_draws_only_what_the_task_and_its_first_page_read(todo_env):
    todo_env.reset(seed=NEW_SEED)
    live = todo_env.unwrapped.task.live
    drawn = set(live.apps) - undrawn(live.state)
    assert "todo" in drawn and len(drawn) <= 3, drawn  # the family's app (and the start page's)


def test_an_app_read_mid_episode_without_a_change_keeps_the_reward(todo_env):
    todo_env.reset(seed=NEW_SEED)
    obs, *_ = todo_env.step("habits.read()")
    assert obs["last_action_error"] == "" and "habits" not in undrawn(todo_env.unwrapped.task.live.state)
    assert solve(todo_env) == 1.0


def test_a_change_to_an_app_first_drawn_mid_episode_fails_the_task(todo_env):
    todo_env.reset(seed=NEW_SEED)
    assert "habits" in undrawn(todo_env.unwrapped.task.live.state)
    obs, *_ = todo_env.step("habits.set_setting_freeze(value=True)")
    assert obs["last_action_error"] == "", obs["last_action_error"]
    assert solve(todo_env) == 0.0
    ev = todo_env.unwrapped.task.last_evaluation
    assert any(d.path.startswith("habits.settings") for d in ev.diff), ev.diff
