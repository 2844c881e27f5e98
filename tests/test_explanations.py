"""Explanations a person can read: list items matched by identity, so one missing, extra,
duplicated or changed item is one difference, and the event log beside the diff. The reward
itself (success or not) is equality of the normalised states, as before."""

from __future__ import annotations

import copy
import random

import pytest

from openapps_sim.config.catalog import discover_apps
from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.taskkit.reward import normalise_world, same, state_diff
from openapps_sim.web.world import World

from .tested_families import tested_families


@pytest.fixture(scope="module")
def world():
    return World()


def _add_item(world, seed=3):
    world.reset("default", seed)
    fam = all_families()["todo.add_item"]
    inst = instantiate(fam, world.state, world.config, seed)
    return fam, inst, inst.params["title"]


def _diff(fam, inst, actual):
    ev = evaluate(fam, inst, actual)
    return ev, [str(d) for d in ev.diff]


def test_a_missing_todo_is_one_difference(world):
    fam, inst, title = _add_item(world)
    ev, lines = _diff(fam, inst, inst.initial)
    assert not ev.success
    assert lines == [f"todo.items: missing todo {title.lower()!r}"]


def test_an_item_added_twice_is_one_difference(world):
    fam, inst, title = _add_item(world)
    twice = copy.deepcopy(inst.expected)
    added = next(i for i in twice["todo"]["items"] if i["title"] == title)
    twice["todo"]["items"].append(dict(added, id="t99"))
    ev, lines = _diff(fam, inst, twice)
    assert not ev.success
    assert lines == [f"todo.items: todo {title.lower()!r} is there 2 times, expected 1"]


def test_an_extra_item_is_one_difference(world):
    fam, inst, _ = _add_item(world)
    extra = copy.deepcopy(inst.expected)
    extra["todo"]["items"].append({"id": "t99", "title": "Feed the cat", "done": False, "notes": ""})
    ev, lines = _diff(fam, inst, extra)
    assert lines == ["todo.items: extra todo 'feed the cat'"]


def test_a_changed_field_is_one_difference(world):
    fam, inst, _ = _add_item(world)
    changed = copy.deepcopy(inst.expected)
    item = changed["todo"]["items"][0]
    item["done"] = not item["done"]
    ev, lines = _diff(fam, inst, changed)
    assert len(lines) == 1 and lines[0].endswith(f".done: expected {not item['done']}, got {item['done']}")
    assert lines[0].startswith(f"todo.items[{item['title'].lower()!r}]")


# Families whose goal removes many items at once: one difference per removed item is right.
MANY_ITEMS = {
    "code_editor.remove_all",
    "code_editor.remove_folder",
    "multi.folder_cleanup_tell",  # removes a folder (and clears completed todos)
    "multi.weekly_cleanup",  # removes a folder (and clears completed todos)
}


@pytest.mark.parametrize("family_id", sorted(set(tested_families()) - MANY_ITEMS))
def test_doing_nothing_is_explained_in_a_few_differences(world, family_id):
    """A do-nothing episode differs from the goal by what the goal asks, not by every item that
    sits at another position (calendar gave 173 differences, todo 11)."""
    fam = all_families()[family_id]
    world.reset("default", 1)
    inst = instantiate(fam, world.state, world.config, 1)
    ev = evaluate(fam, inst, inst.initial, url="http://127.0.0.1:1/")
    assert not ev.success
    if inst.expected_answer is not None and not ev.diff:
        # a question changes nothing: doing nothing fails by the missing answer alone
        assert ev.answer_ok is False and "answer is missing" in ev.explain()
        return
    if inst.infeasible is not None:
        # an infeasible goal changes nothing: doing nothing fails by the missing report alone
        assert not ev.diff and ev.declared_ok is False and "report_infeasible" in ev.explain()
        return
    # a long goal asks for many things (one milestone each; a moved file is two differences)
    assert 1 <= len(ev.diff) <= max(8, 2 * len(inst.milestones)), ev.explain(limit=20)


def test_apps_declare_the_identity_of_their_list_items():
    """Each app names the natural key of the lists tasks change (AppSpec.item_keys)."""
    apps = discover_apps()
    assert apps["todo"].item_keys["items"].fields == ("title",)
    for name in ("todo", "calendar", "messenger", "maps", "shop", "code_editor"):
        assert apps[name].item_keys, f"{name} declares no item identity"


def test_the_event_log_is_shown_next_to_the_diff(world):
    fam, inst, title = _add_item(world)
    world.set_state(inst.initial)
    world.log("todo", "add_item", {"id": "t9", "title": "Feed the cat"})
    world.log("todo", "delete_item", {"id": "t1", "title": "Buy groceries"})
    ev = evaluate(fam, inst, world.state)
    text = ev.explain(events=world.events)
    diff_part, log_part = text.split("event log")
    assert f"missing todo {title.lower()!r}" in diff_part
    assert "(2 change(s)" in log_part
    assert "#0 todo.add_item id='t9' title='Feed the cat'" in log_part and "#1 todo.delete_item" in log_part
    assert "event log (0 change(s)" in evaluate(fam, inst, inst.expected).explain(events=[])


@pytest.mark.parametrize("pack", ["default", "dense", "german"])
def test_reward_is_still_equality_of_the_normalised_states(world, pack):
    """Shuffled, dropped, duplicated and changed items: the diff is empty exactly when the
    normalised states are equal, so the success of every episode is what it was."""
    rng = random.Random(pack)
    world.reset(pack, 0)
    base = normalise_world(world.draw_all())
    for _ in range(60):
        other = copy.deepcopy(world.state)
        app = rng.choice(sorted(other))
        lists = [v for v in other[app].values() if isinstance(v, list) and v]
        if lists:
            items = rng.choice(lists)
            move = rng.choice(["shuffle", "drop", "dup", "swap"])
            if move == "shuffle":
                rng.shuffle(items)
            elif move == "drop":
                items.pop(rng.randrange(len(items)))
            elif move == "dup":
                items.append(copy.deepcopy(rng.choice(items)))
            elif len(items) > 1:
                items[0], items[-1] = items[-1], items[0]
        got = normalise_world(other)
        assert (state_diff(base, got) == []) == same(base, got)
    ordered = {"x": {"lines": ["a", "b"]}}
    assert [str(d) for d in state_diff(ordered, {"x": {"lines": ["b", "a"]}})] == [
        "x.lines: the same items in a different order"
    ]


class _Text(str):
    pass


@pytest.mark.parametrize(
    "ident",
    [
        ("buy oat milk",),
        ('say "hi"\\ now', "naïve café ☕", "\n\t\u2028"),
        (1, 1.0, True, False, None, 0, -12345678901234567890),
        (1.5, "a"),
        (["x", 1], {"b": 2, "a": 1}),
        (_Text("buy oat milk"),),
        (),
    ],
)
def test_items_are_grouped_by_the_json_text_of_their_identity(ident):
    """Items of a list are matched within groups of one JSON text of identity (1, 1.0 and True
    are three): the group id written without json.dumps is that text."""
    import json

    from openapps_sim.taskkit.reward import _group_id

    assert _group_id(ident) == json.dumps(ident, sort_keys=True, default=str)
    assert _group_id(None) == ""
