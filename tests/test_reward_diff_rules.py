"""More of the reward's explanation rules (``taskkit/reward.py``) on hand-made states, every
expectation written out: the rules that ``make mutants`` found unguarded by
``tests/test_reward_rules.py`` (pairing of changed items, nouns of declared mappings, the order
difference's fields, outside changes with the apps' own keys). No browser."""

from __future__ import annotations

import copy
import math

import pytest

from openapps_sim.appkit import ItemKey
from openapps_sim.taskkit.reward import normalise_world, normalised_expected, outside_change, same, state_diff
from openapps_sim.web.world import World

MISS = "<missing>"


def diffs(expected, actual, keys=None):
    return [d.as_dict() for d in state_diff(expected, actual, keys=keys if keys is not None else {})]


def test_a_changed_item_pairs_with_the_most_alike_of_several():
    """Of two candidates that agree on at least half the fields, the one agreeing on more is the
    changed item and the other is extra; one expected item is never paired twice."""
    e = {"a": 1, "b": 2, "c": 3, "d": 4}
    two_alike, three_alike = {"a": 1, "b": 2, "c": 9, "d": 9}, {"a": 1, "b": 2, "c": 3, "d": 9}
    want = [
        {"path": "l[{'a': 1, 'b': 2, 'c': 3, 'd': 4}].d", "expected": 4, "actual": 9},
        {
            "path": "l[{'a': 1, 'b': 2, 'c': 9, 'd': 9}]",
            "expected": MISS,
            "actual": two_alike,
            "note": "l: extra item of l {'a': 1, 'b': 2, 'c': 9, 'd': 9}",
        },
    ]
    assert diffs({"l": [e]}, {"l": [two_alike, three_alike]}) == want
    assert diffs({"l": [e]}, {"l": [three_alike, two_alike]}) == want
    # and the other way round: one actual item, two expected ones alike to it
    assert diffs({"l": [two_alike, three_alike]}, {"l": [e]}) == [
        {"path": "l[{'a': 1, 'b': 2, 'c': 3, 'd': 9}].d", "expected": 9, "actual": 4},
        {
            "path": "l[{'a': 1, 'b': 2, 'c': 9, 'd': 9}]",
            "expected": two_alike,
            "actual": MISS,
            "note": "l: missing item of l {'a': 1, 'b': 2, 'c': 9, 'd': 9}",
        },
    ]


@pytest.mark.parametrize(
    "expected, actual",
    [
        ({"a": 1, "b": 2}, "text"),  # a mapping and a text
        ("text", {"a": 1, "b": 2}),
        ({"a": 1, "b": 2}, {"a": 1, "c": 2}),  # mappings of other fields
        ({}, {}),  # never: equal items matched before pairing
    ],
)
def test_only_mappings_of_the_same_fields_pair(expected, actual):
    got = diffs({"l": [expected, 0]}, {"l": [actual, 0]})
    if expected == actual:
        assert got == []
        return
    assert got == [
        {
            "path": f"l[{expected!r}]",
            "expected": expected,
            "actual": MISS,
            "note": f"l: missing item of l {expected!r}",
        },
        {"path": f"l[{actual!r}]", "expected": MISS, "actual": actual, "note": f"l: extra item of l {actual!r}"},
    ]


def test_empty_mappings_never_pair():
    assert diffs({"l": [{}]}, {"l": [{}, {}]}) == [
        {"path": "l[{}]", "expected": MISS, "actual": {}, "note": "l: extra item of l {}"},
    ]


def test_items_of_one_identity_pair_however_little_else_agrees():
    """Within a group of one identity (an id) items pair in order, field by field, even when only
    the identity agrees; anonymous items would not pair then."""
    assert diffs({"l": [{"id": 1, "a": 1, "b": 2, "c": 3}]}, {"l": [{"id": 1, "a": 9, "b": 8, "c": 7}]}) == [
        {"path": "l[1].a", "expected": 1, "actual": 9},
        {"path": "l[1].b", "expected": 2, "actual": 8},
        {"path": "l[1].c", "expected": 3, "actual": 7},
    ]


def test_the_same_items_in_another_order_keep_both_lists():
    assert diffs({"l": [1, 2, 3]}, {"l": [3, 1, 2]}) == [
        {"path": "l", "expected": [1, 2, 3], "actual": [3, 1, 2], "note": "l: the same items in a different order"}
    ]
    assert diffs({"a": {"l": ["x", "y"]}}, {"a": {"l": ["y", "x"]}}) == [
        {
            "path": "a.l",
            "expected": ["x", "y"],
            "actual": ["y", "x"],
            "note": "a.l: the same items in a different order",
        }
    ]


def test_a_missing_keyed_item_is_named_by_its_key_in_path_and_note():
    keys = {"l": ItemKey("title", "todo")}
    item = {"title": "a", "id": 7, "done": False}
    assert diffs({"l": [item]}, {"l": []}, keys) == [
        {"path": "l['a']", "expected": item, "actual": MISS, "note": "l: missing todo 'a'"}
    ]
    assert diffs({"l": []}, {"l": [item]}, keys) == [
        {"path": "l['a']", "expected": MISS, "actual": item, "note": "l: extra todo 'a'"}
    ]


DECLARED = {"app.things": ItemKey("name")}  # a mapping declared as a collection, no noun given


def test_a_declared_mapping_without_a_noun_names_its_keys_after_its_path():
    assert [str(d) for d in state_diff({"app": {"things": {"k1": 1}}}, {"app": {"things": {}}}, keys=DECLARED)] == [
        "app.things: missing thing 'k1'"
    ]
    assert [str(d) for d in state_diff({"app": {"things": {}}}, {"app": {"things": {"k2": 2}}}, keys=DECLARED)] == [
        "app.things: extra thing 'k2'"
    ]
    assert [str(d) for d in state_diff({"app": {"stuff": {"k1": 1}}}, {"app": {"stuff": {}}}, keys=DECLARED)] == [
        "app.stuff: missing key 'k1'"
    ]


def test_outside_change_names_a_declared_mappings_keys_after_its_path():
    initial = {"app": {"things": {"k1": 1, "k2": 2}}}
    expected = {"app": {"things": {"k1": 1, "k2": 3}}}
    got = outside_change(initial, expected, {"app": {"things": {"k2": 3}}}, keys=DECLARED)
    assert [d.as_dict() for d in got] == [
        {"path": "app.things.k1", "expected": 1, "actual": MISS, "note": "app.things: missing thing 'k1'"}
    ]
    got = outside_change(initial, expected, {"app": {"things": {"k1": 1, "k2": 3, "k9": 0}}}, keys=DECLARED)
    assert [d.as_dict() for d in got] == [
        {"path": "app.things.k9", "expected": MISS, "actual": 0, "note": "app.things: extra thing 'k9'"}
    ]


def test_outside_change_uses_the_apps_declared_keys_by_default():
    a = {"title": "a", "done": False, "notes": ""}
    b = {"title": "b", "done": False, "notes": ""}
    got = outside_change({"todo": {"items": [a]}}, {"todo": {"items": [a, b]}}, {"todo": {"items": [b]}})
    assert [str(d) for d in got] == ["todo.items: missing todo 'a'"]


def test_outside_change_counts_each_kept_anonymous_item_once():
    """Items without identity that the task keeps must all be there, as many times as kept: one
    item present cannot stand for two."""
    keep = outside_change({"l": ["x", "x"]}, {"l": ["x", "x", "y"]}, {"l": ["x", "y"]}, keys={})
    assert [d.as_dict() for d in keep] == [
        {"path": "l['x']", "expected": "x", "actual": MISS, "note": "l: missing item of l 'x'"}
    ]
    assert outside_change({"l": ["x", "x"]}, {"l": ["x", "x", "y"]}, {"l": ["y", "x", "x"]}, keys={}) == []
    # an item the task adds and the agent did not add is progress, not a side effect
    assert outside_change({"l": ["x"]}, {"l": ["x", "y"]}, {"l": ["x"]}, keys={}) == []
    assert outside_change({"l": ["x"]}, {"l": ["x", "y", "z"]}, {"l": ["z", "x"]}, keys={}) == []


class Text(str):
    """A text of another type than ``str`` (an identity's group is its JSON text, not its type)."""


@pytest.mark.parametrize("fields", ["id", ("id", "n")])
def test_an_identitys_group_is_its_json_text(fields):
    keys = {"l": ItemKey(fields, "row")}
    plain = {"id": "a", "n": 1, "v": 1}
    other = {"id": Text("a"), "n": 1, "v": 2}
    label = "'a'" if fields == "id" else "'a' 1"
    assert [d.as_dict() for d in state_diff({"l": [plain]}, {"l": [other]}, keys=keys)] == [
        {"path": f"l[{label}].v", "expected": 1, "actual": 2}
    ]


def test_identities_json_writes_are_grouped_by_their_own_text():
    # floats: each its own group (not one group for every identity json.dumps writes)
    assert [str(d) for d in state_diff({"l": [{"id": 1.5, "v": 1}]}, {"l": [{"id": 2.5, "v": 1}]}, keys={})] == [
        "l: missing item of l 1.5",
        "l: extra item of l 2.5",
    ]
    # mappings as identities: the same whatever the order of their keys
    assert (
        state_diff({"l": [{"id": {"b": 1, "a": 2}, "v": 1}]}, {"l": [{"id": {"a": 2, "b": 1}, "v": 1}]}, keys={}) == []
    )
    assert [
        str(d)
        for d in state_diff(
            {"l": [{"id": {"b": 1, "a": 2}, "v": 1}]}, {"l": [{"id": {"a": 2, "b": 1}, "v": 3}]}, keys={}
        )
    ] == ["l[{'b': 1, 'a': 2}].v: expected 1, got 3"]
    # and a value JSON cannot write is grouped by its text
    assert [
        str(d)
        for d in state_diff({"l": [{"id": frozenset({1}), "v": 1}]}, {"l": [{"id": frozenset({1}), "v": 2}]}, keys={})
    ] == ["l[frozenset({1})].v: expected 1, got 2"]


def test_a_declared_key_of_list_items_in_a_list_matches_any_position():
    keys = {"f.items[].tags": ItemKey("k", "label")}
    got = state_diff(
        {"f": {"items": [{"id": 1, "tags": [{"k": "a"}]}]}}, {"f": {"items": [{"id": 1, "tags": []}]}}, keys=keys
    )
    assert [d.as_dict() for d in got] == [
        {
            "path": "f.items[1].tags['a']",
            "expected": {"k": "a"},
            "actual": MISS,
            "note": "f.items[1].tags: missing label 'a'",
        }
    ]


def test_a_nouns_list_is_the_last_part_of_its_path():
    assert [str(d) for d in state_diff({"a": {"b": {"rows": [1]}}}, {"a": {"b": {"rows": []}}}, keys={})] == [
        "a.b.rows: missing row 1"
    ]
    assert [str(d) for d in state_diff({"a": {"b": {"data": [1]}}}, {"a": {"b": {"data": []}}}, keys={})] == [
        "a.b.data: missing item of data 1"
    ]
    assert [str(d) for d in state_diff(["x"], [], path="rows[0]", keys={})] == ["rows[0]: missing row 'x'"]
    assert [str(d) for d in state_diff(["x"], [], path="a.rows[0]", keys={})] == ["a.rows[0]: missing row 'x'"]
    assert [str(d) for d in state_diff(["x"], [], path="a.data[0]", keys={})] == ["a.data[0]: missing item of data 'x'"]
    two = {"l": ItemKey(("t", "n"))}  # a key without a noun: the noun from the path
    assert [str(d) for d in state_diff({"l": [{"t": "x", "n": 1}]}, {"l": []}, keys=two)] == [
        "l: missing item of l 'x' 1"
    ]
    assert [
        str(d)
        for d in state_diff(
            {"a": {"cards": [{"t": "x", "n": 1}]}}, {"a": {"cards": []}}, keys={"a.cards": ItemKey(("t", "n"))}
        )
    ] == ["a.cards: missing card 'x' 1"]


@pytest.mark.parametrize("a, b", [(math.inf, math.inf), (-math.inf, -math.inf), ([math.inf], [math.inf])])
def test_the_same_infinite_value_is_the_same(a, b):
    assert same(a, b) is True
    assert same(math.inf, -math.inf) is False


@pytest.mark.parametrize(
    "a, b, equal", [(1e-10, 0, True), (0, 1e-10, True), (3, 3.0000000001, True), (3, 3.001, False)]
)
def test_an_int_and_a_float_compare_within_a_billionth(a, b, equal):
    assert same(a, b) is equal
    assert same({"x": a}, {"x": b}) is equal


TODO_A = {"items": [{"id": "t1", "title": "Normalised Alone", "done": False, "notes": ""}]}
TODO_A_NORM = {"items": [{"title": "normalised alone", "done": False, "notes": ""}]}


def test_normalise_world_without_memo_gives_a_fresh_value_each_call():
    first, second = normalise_world({"todo": TODO_A}), normalise_world({"todo": TODO_A})
    assert first == second == {"todo": TODO_A_NORM}
    assert first["todo"] is not second["todo"]  # the caller may change it


def test_names_that_are_no_app_pass_through_in_any_order():
    state = {"zz": [1], "todo": TODO_A, "aa": {"x": "Y"}}
    assert normalise_world(state) == {"zz": [1], "todo": TODO_A_NORM, "aa": {"x": "Y"}}
    assert normalise_world(state, memo=True) == {"zz": [1], "todo": TODO_A_NORM, "aa": {"x": "Y"}}


def test_a_state_scored_as_it_began_takes_every_apps_normalisation_from_the_base():
    world = World()
    world.reset("default", 3)
    base = world.state
    fresh = normalise_world(copy.deepcopy(base))
    known = normalised_expected(base)
    for memo in (False, True):
        out = normalise_world(base, memo=memo, base=base)
        assert out == fresh and list(out) == list(base) and "banking" in out
        assert all(out[name] is known[name] for name in out)
        copied = normalise_world(copy.deepcopy(base), memo=memo, base=base)
        assert copied == fresh and all(copied[name] is known[name] for name in out)


def test_the_memo_keeps_working_past_its_bound():
    for n in range(300):
        state = {"todo": {"items": [{"id": "t1", "title": f"Memo Bound {n}", "done": False, "notes": ""}]}}
        want = {"todo": {"items": [{"title": f"memo bound {n}", "done": False, "notes": ""}]}}
        assert normalise_world(state, memo=True) == want
    assert normalise_world({"todo": TODO_A}, memo=True) == {"todo": TODO_A_NORM}
