"""The reward's equality and the decision rule, on hand-made states and event logs with every
expectation written out (no browser; ``make mutants`` runs these against reward.py, scoring.py
and progress.py)."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from openapps_sim.apps.maps import model as maps

from openapps_sim.appkit import ItemKey
from openapps_sim.taskkit.progress import Branching, Op, as_events
from openapps_sim.taskkit.reward import (
    StateDiff,
    describe_event,
    normalise_world,
    normalised_expected,
    outside_change,
    same,
    state_diff,
)

# --- same(): floats within 1e-9, nothing looser ---------------------------------------------


@pytest.mark.parametrize(
    "a, b, equal",
    [
        (52.5, 52.5, True),
        (52.5, 52.5 + 1e-12, True),
        (0.1 + 0.2, 0.3, True),  # float rounding
        (1, 1.0, True),  # an int and a float of the same value
        (1.0, 1, True),
        (52.5, 52.5 + 1e-6, False),
        (52.5, 52.51, False),  # one step of the maps' two decimals, ~1.1 km
        (52.5, 52.95, False),  # ~50 km north
        (13.4, 12.95, False),
        (0.0, 0.5, False),
        (0.0, -0.5, False),
        (10.0, 11.0, False),
        (2.5, "2.6", False),
        ("x", 2.5, False),  # a text that is no number
        (0.0, None, False),
        (1.0, True, True),  # Python's own equality first: True == 1.0
        ("a", "a", True),
        ("a", "A", False),
    ],
)
def test_same_compares_floats_within_a_billionth_only(a, b, equal):
    assert same(a, b) is equal
    assert same({"x": [a]}, {"x": [b]}) is equal  # the same inside mappings and lists


def test_same_needs_the_same_keys_and_lengths():
    assert same({"a": 1.0, "b": 2}, {"b": 2, "a": 1.0})
    assert not same({"a": 1.0}, {"a": 1.0, "b": 2})
    assert not same({"a": 1.0, "b": 2}, {"a": 1.0})
    assert not same([1.0, 2.0], [1.0, 2.0, 3.0])
    assert not same([1.0, 2.0, 3.0], [1.0, 2.0])
    assert not same([1.0, 2.0], [2.0, 1.0])
    assert not same({"a": 1.0}, [1.0])
    assert same([], []) and same({}, {})


def pins(lat: float, lon: float) -> dict:
    return {"saved": [{"id": "s9", "name": "Meeting point", "lat": lat, "lon": lon, "note": ""}]}


@pytest.mark.parametrize(
    "lat, lon, equal",
    [
        (52.5, 13.4, True),
        (52.503, 13.398, True),  # within the two-decimal rounding: the same place
        (52.51, 13.4, False),  # ~1.1 km north
        (52.95, 13.4, False),  # ~50 km north
        (52.05, 13.4, False),  # ~50 km south
        (52.5, 14.1, False),  # ~47 km east
        (52.5, 12.7, False),  # ~47 km west
        (-52.5, 13.4, False),  # the other hemisphere
        (52.5, 13.4 + 360, True),  # longitudes wrap
    ],
)
def test_a_map_pin_counts_as_the_place_only_within_rounding(lat, lon, equal):
    assert same(maps.normalise(pins(52.5, 13.4)), maps.normalise(pins(lat, lon))) is equal


# --- decisions: the leaf of the agent's FIRST operation --------------------------------------

TREE = Branching(
    {
        "done": [Op.of("todo", "delete_item", id="t1")],
        "open/full": [Op.of("todo", "toggle_item", id="t1")],
        "open/empty": [Op.of("shop", "add_to_cart", product_id="p1"), Op.of("todo", "add_item", title="buy")],
    },
    "open/empty",
)
DONE, FULL = TREE.branches["done"][0], TREE.branches["open/full"][0]
CART, ADD = TREE.branches["open/empty"]
OTHER = Op.of("messenger", "send", contact="c1", text="hi")


@pytest.mark.parametrize(
    "ops, chosen, flags",
    [
        ([CART], "open/empty", [True, True]),
        ([CART, DONE], "open/empty", [True, True]),  # a later wrong step does not change the decision
        ([CART, FULL, DONE], "open/empty", [True, True]),
        ([ADD, CART], "open/empty", [True, True]),
        ([DONE, CART], "done", [False, False]),  # a wrong first step is not undone by a right one
        ([FULL, CART, ADD], "open/full", [True, False]),
        ([FULL, DONE], "open/full", [True, False]),
        ([DONE, FULL, CART], "done", [False, False]),
        ([OTHER, CART], None, [False, False]),  # the first step was unrelated: no decision taken
        ([OTHER], None, [False, False]),
        ([], None, [False, False]),
    ],
)
def test_the_decision_is_the_leaf_of_the_first_operation(ops, chosen, flags):
    events = as_events(ops)
    assert TREE.chosen(events) == chosen
    assert TREE.decisions(events) == flags


def test_a_first_operation_on_several_leaves_counts_for_the_correct_one():
    shared = Op.of("todo", "toggle_item", id="t1")
    tree = Branching({"a": [shared], "b/x": [shared], "b/y": [Op.of("todo", "delete_item", id="t1")]}, "b/x")
    assert tree.chosen(as_events([shared])) == "b/x"
    assert tree.decisions(as_events([shared])) == [True, True]
    other = Branching({"a": [shared], "b/x": [shared], "c": [OTHER]}, "c")
    assert other.chosen(as_events([shared])) == "a"  # neither is correct: the first listed
    assert other.decisions(as_events([shared])) == [False]
    assert Branching({"a": [shared]}, "a").depth == 1 and TREE.depth == 2


# --- outside_change: what the task leaves alone must hold; its own change is free -------------

KEYS = {"todo.items": ItemKey("title", "todo")}


def todos(*titles: str, done: tuple[str, ...] = ()) -> dict:
    return {"todo": {"items": [{"title": t, "done": t in done} for t in titles]}}


def notes(*texts: str) -> dict:
    return {"notes": {"list": [{"t": t} for t in texts]}}


OUTSIDE = {
    # name: (initial, expected, actual, [(path, explanation), ...])
    "the task's change alone": (todos("a", "b"), todos("a", "b", "c"), todos("a", "b", "c"), []),
    "the change not made yet": (todos("a", "b"), todos("a", "b", "c"), todos("a", "b"), []),
    "a kept item deleted": (
        todos("a", "b"),
        todos("a", "b", "c"),
        todos("a", "c"),
        [("todo.items['b']", "todo.items: missing todo 'b'")],
    ),
    "an item no state holds": (
        todos("a", "b"),
        todos("a", "b", "c"),
        todos("a", "b", "c", "z"),
        [("todo.items['z']", "todo.items: extra todo 'z'")],
    ),
    "a field of a kept item changed": (
        todos("a", "b"),
        todos("a", "b", "c"),
        todos("a", "b", "c", done=("a",)),
        [("todo.items['a'].done", "todo.items['a'].done: expected False, got True")],
    ),
    "the task's own item left undone": (todos("a", "b"), todos("a", "b", done=("a",)), todos("a", "b"), []),
    "an item the task removes still there": (todos("a", "b"), todos("a"), todos("a", "b"), []),
    "everything removed": (todos("a", "b"), todos("a"), todos(), [("todo.items['a']", "todo.items: missing todo 'a'")]),
    "a kept item doubled": (
        todos("a", "b"),
        todos("a", "b", "c"),
        todos("a", "a", "b", "c"),
        [("todo.items['a']", "todo.items: todo 'a' is there 2 times, expected 1")],
    ),
    "items without identity: a kept one deleted": (
        notes("x", "y"),
        notes("x", "y", "z"),
        notes("y", "z"),
        [("notes.list[{'t': 'x'}]", "notes.list: missing item of list {'t': 'x'}")],
    ),
    "items without identity: extras are the change's": (notes("x"), notes("x", "z"), notes("x", "z", "w"), []),
    "keys of a mapping": (
        {"a": {"x": 1, "y": 2}},
        {"a": {"x": 1, "y": 3}},
        {"a": {"y": 3, "z": 4}},
        [("a.x", "a: missing key 'x'"), ("a.z", "a: extra key 'z'")],
    ),
    "a value the task changes is free, its neighbour is not": (
        {"a": {"x": 1}},
        {"a": {"x": 1, "n": 3}},
        {"a": {"x": 2, "n": 5}},
        [("a.x", "a.x: expected 1, got 2")],
    ),
    "items by id": (
        {"l": [{"id": 1, "v": 1}, {"id": 2, "v": 2}]},
        {"l": [{"id": 1, "v": 9}, {"id": 2, "v": 2}]},
        {"l": [{"id": 1, "v": 5}, {"id": 2, "v": 3}, {"id": 3, "v": 0}]},
        [("l[2].v", "l[2].v: expected 2, got 3"), ("l[3]", "l: extra item of l 3")],
    ),
}


@pytest.mark.parametrize("case", sorted(OUTSIDE))
def test_outside_change_names_only_what_the_task_leaves_alone(case):
    initial, expected, actual, want = OUTSIDE[case]
    assert [(d.path, str(d)) for d in outside_change(initial, expected, actual, KEYS)] == want


@pytest.mark.parametrize(
    "expected, actual, want",
    [
        (
            todos("a", "b"),
            todos("b", "c", "c"),
            ["todo.items: missing todo 'a'", "todo.items: extra todo 'c'", "todo.items: extra todo 'c'"],
        ),
        (todos("a", "b"), todos("a", "b", "b", "b"), ["todo.items: todo 'b' is there 3 times, expected 1"] * 2),
        (
            {"l": [{"t": "x", "n": 1, "m": 2}]},
            {"l": [{"t": "x", "n": 1, "m": 3}, {"t": "q", "n": 7, "m": 8}]},
            ["l[{'t': 'x', 'n': 1, 'm': 2}].m: expected 2, got 3", "l: extra item of l {'t': 'q', 'n': 7, 'm': 8}"],
        ),
        (todos("a", "b"), todos("b", "a"), ["todo.items: the same items in a different order"]),
    ],
)
def test_state_diff_explains_each_difference_once(expected, actual, want):
    assert [str(d) for d in state_diff(expected, actual, keys=KEYS)] == want


def test_an_event_is_described_on_one_line():
    event = {"i": 3, "app": "todo", "op": "add", "args": {"id": "t9", "title": "Buy oat milk"}}
    assert describe_event(event) == "#3 todo.add id='t9' title='Buy oat milk'"
    assert describe_event({}) == "#? ?.?"
    assert describe_event({"i": 1, "app": "a", "op": "b", "args": {"x": "y" * 100}}) == "#1 a.b x='" + "y" * 56 + "..."
    assert describe_event({"i": 2, "app": "a", "op": "b", "args": None}) == "#2 a.b"


def items(*rows: dict) -> dict:
    return {"todo": {"items": list(rows)}}


A1, A2, A3 = ({"title": "a", "meta": {"n": n}} for n in (1, 2, 3))
MISS = "<missing>"
OUTSIDE_RECORDS = {
    "an app the task makes": ({"a": None}, {"a": {"x": 1}}, {"a": {"x": 2}}, []),
    "a kept item: the task's field free, another one not": (
        {"l": [{"id": 1, "v": 1, "w": 1}]},
        {"l": [{"id": 1, "v": 2, "w": 1}]},
        {"l": [{"id": 1, "v": 3, "w": 5}]},
        [{"path": "l[1].w", "expected": 1, "actual": 5}],
    ),
    "two items of one name, the second changed": (
        items(A1, A2),
        items(A1, A2, {"title": "b"}),
        items(A1, A3, {"title": "b"}),
        [{"path": "todo.items['a'].meta.n", "expected": 2, "actual": 3}],
    ),
    "two items of one name, the task's change not made": (items(A1, A2), items(A1, A3), items(A1, A2), []),
    "an item without identity first, then a kept one deleted": (
        items({"x": 1}, {"title": "a"}, {"title": "b"}),
        items({"x": 1}, {"title": "a"}, {"title": "b"}, {"title": "c"}),
        items({"x": 1}, {"title": "a"}, {"title": "c"}),
        [
            {
                "path": "todo.items['b']",
                "expected": {"title": "b"},
                "actual": MISS,
                "note": "todo.items: missing todo 'b'",
            }
        ],
    ),
    "a kept item deleted, an unknown one added": (
        items({"title": "a"}),
        items({"title": "a"}, {"title": "c"}),
        items({"title": "c"}, {"title": "z"}),
        [
            {
                "path": "todo.items['a']",
                "expected": {"title": "a"},
                "actual": MISS,
                "note": "todo.items: missing todo 'a'",
            },
            {
                "path": "todo.items['z']",
                "expected": MISS,
                "actual": {"title": "z"},
                "note": "todo.items: extra todo 'z'",
            },
        ],
    ),
    "an item without its list's key, named by its content": (
        items({"id": "q1", "x": 1}),
        items({"id": "q1", "x": 1}, {"title": "c"}),
        items({"title": "c"}),
        [
            {
                "path": "todo.items[{'id': 'q1', 'x': 1}]",
                "expected": {"id": "q1", "x": 1},
                "actual": MISS,
                "note": "todo.items: missing todo {'id': 'q1', 'x': 1}",
            }
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(OUTSIDE_RECORDS))
def test_outside_change_records_what_was_expected_and_what_is_there(case):
    initial, expected, actual, want = OUTSIDE_RECORDS[case]
    assert [d.as_dict() for d in outside_change(initial, expected, actual, KEYS)] == want


OUTSIDE_SHAPES = {
    "a top-level key removed and one added": (
        {"a": 1, "b": 2},
        {"a": 1, "b": 3},
        {"b": 3, "c": 4},
        [
            {"path": "a", "expected": 1, "actual": MISS, "note": "state: missing key 'a'"},
            {"path": "c", "expected": MISS, "actual": 4, "note": "state: extra key 'c'"},
        ],
    ),
    "keys of mixed kinds": (
        {"m": {1: "x", "b": "y"}},
        {"m": {1: "x", "b": "z"}},
        {"m": {"b": "z", 2: "w"}},
        [
            {"path": "m.1", "expected": "x", "actual": MISS, "note": "m: missing key 1"},
            {"path": "m.2", "expected": MISS, "actual": "w", "note": "m: extra key 2"},
        ],
    ),
    "a mapping declared as a collection names its items": (
        {"files": {"tree": {"a.txt": 1, "b.txt": 2}}},
        {"files": {"tree": {"a.txt": 1, "b.txt": 2, "c.txt": 3}}},
        {"files": {"tree": {"b.txt": 2, "c.txt": 3, "d.txt": 4}}},
        [
            {"path": "files.tree.a.txt", "expected": 1, "actual": MISS, "note": "files.tree: missing file 'a.txt'"},
            {"path": "files.tree.d.txt", "expected": MISS, "actual": 4, "note": "files.tree: extra file 'd.txt'"},
        ],
    ),
    "a mapping gone": (
        {"a": {"x": 1, "y": 1}},
        {"a": {"x": 1, "y": 2}},
        {"a": None},
        [
            {"path": "a.x", "expected": 1, "actual": MISS, "note": "a: missing key 'x'"},
            {"path": "a.y", "expected": 2, "actual": MISS, "note": "a: missing key 'y'"},
        ],
    ),
    "a list gone": (
        {"l": [{"id": 1}]},
        {"l": [{"id": 1}, {"id": 2}]},
        {"l": None},
        [{"path": "l[1]", "expected": {"id": 1}, "actual": MISS, "note": "l: missing item of l 1"}],
    ),
    "a list the task replaces by a value": ({"l": [1]}, {"l": None}, {"l": [2]}, []),
    "a value the task replaces by a list": ({"l": None}, {"l": [1]}, {"l": [2]}, []),
}


@pytest.mark.parametrize("case", sorted(OUTSIDE_SHAPES))
def test_outside_change_over_mappings_and_lists_of_every_shape(case):
    initial, expected, actual, want = OUTSIDE_SHAPES[case]
    keys = {**KEYS, "files.tree": ItemKey((), "file")}
    assert [d.as_dict() for d in outside_change(initial, expected, actual, keys)] == want


def test_an_app_equal_but_of_other_types_is_not_taken_from_the_base():
    """1 == 1.0 == True, but their JSON texts differ: such an app is normalised itself; an app of
    the same JSON text takes the base's normalisation (the same object)."""
    base = {"todo": {"items": [{"id": "t1", "title": "a", "done": False, "notes": "", "n": 1}]}}
    known = normalised_expected(base)
    same_text = copy.deepcopy(base)
    assert normalise_world(same_text, memo=True, base=base)["todo"] is known["todo"]
    for other in (1.0, True):
        state = copy.deepcopy(base)
        state["todo"]["items"][0]["n"] = other
        assert state == base
        assert normalise_world(state, memo=True, base=base)["todo"] is not known["todo"], other


def test_state_diff_names_the_items_of_a_declared_mapping_and_keys_of_any_kind():
    keys = {"files.tree": ItemKey((), "file")}
    got = state_diff(
        {"files": {"tree": {"a.txt": 1, "b.txt": 2}}}, {"files": {"tree": {"b.txt": 3, "d.txt": 4}}}, keys=keys
    )
    assert [d.as_dict() for d in got] == [
        {"path": "files.tree.a.txt", "expected": 1, "actual": MISS, "note": "files.tree: missing file 'a.txt'"},
        {"path": "files.tree.b.txt", "expected": 2, "actual": 3},
        {"path": "files.tree.d.txt", "expected": MISS, "actual": 4, "note": "files.tree: extra file 'd.txt'"},
    ]
    assert [d.as_dict() for d in state_diff({1: "x", "b": "y"}, {"b": "y", 2: "w"}, keys={})] == [
        {"path": "1", "expected": "x", "actual": MISS, "note": "state: missing key 1"},
        {"path": "2", "expected": MISS, "actual": "w", "note": "state: extra key 2"},
    ]


X, Y = {"t": "x", "n": 1, "m": 2}, {"t": "y", "n": 5, "m": 6}
LIST_DIFFS = {
    "changed items pair with the most alike": (
        [X, Y],
        [{"t": "y", "n": 5, "m": 7}, {"t": "x", "n": 1, "m": 3}],
        [
            {"path": "l[{'t': 'x', 'n': 1, 'm': 2}].m", "expected": 2, "actual": 3},
            {"path": "l[{'t': 'y', 'n': 5, 'm': 6}].m", "expected": 6, "actual": 7},
        ],
    ),
    "one field of three alike: another item": (
        [{"a": 1, "b": 2, "c": 3}],
        [{"a": 1, "b": 9, "c": 9}],
        [
            {
                "path": "l[{'a': 1, 'b': 2, 'c': 3}]",
                "expected": {"a": 1, "b": 2, "c": 3},
                "actual": MISS,
                "note": "l: missing item of l {'a': 1, 'b': 2, 'c': 3}",
            },
            {
                "path": "l[{'a': 1, 'b': 9, 'c': 9}]",
                "expected": MISS,
                "actual": {"a": 1, "b": 9, "c": 9},
                "note": "l: extra item of l {'a': 1, 'b': 9, 'c': 9}",
            },
        ],
    ),
    "two fields of four alike: the same item changed": (
        [{"a": 1, "b": 2, "c": 3, "d": 4}],
        [{"a": 1, "b": 2, "c": 9, "d": 9}],
        [
            {"path": "l[{'a': 1, 'b': 2, 'c': 3, 'd': 4}].c", "expected": 3, "actual": 9},
            {"path": "l[{'a': 1, 'b': 2, 'c': 3, 'd': 4}].d", "expected": 4, "actual": 9},
        ],
    ),
    "plain values": (
        ["a", "b"],
        ["a", "c"],
        [
            {"path": "l['b']", "expected": "b", "actual": MISS, "note": "l: missing item of l 'b'"},
            {"path": "l['c']", "expected": MISS, "actual": "c", "note": "l: extra item of l 'c'"},
        ],
    ),
    "two alike items, one left": (
        [{"a": 1, "b": 2}, {"a": 1, "b": 3}],
        [{"a": 1, "b": 4}],
        [
            {"path": "l[{'a': 1, 'b': 2}].b", "expected": 2, "actual": 4},
            {
                "path": "l[{'a': 1, 'b': 3}]",
                "expected": {"a": 1, "b": 3},
                "actual": MISS,
                "note": "l: missing item of l {'a': 1, 'b': 3}",
            },
        ],
    ),
    "two of one id, one left and changed": (
        [{"id": 1, "v": 1}, {"id": 1, "v": 2}],
        [{"id": 1, "v": 3}],
        [
            {"path": "l[1].v", "expected": 1, "actual": 3},
            {"path": "l[1]", "expected": {"id": 1, "v": 2}, "actual": MISS, "note": "l: missing item of l 1"},
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(LIST_DIFFS))
def test_state_diff_pairs_list_items_field_by_field(case):
    expected, actual, want = LIST_DIFFS[case]
    assert [d.as_dict() for d in state_diff({"l": expected}, {"l": actual}, keys={})] == want


def test_long_values_are_cut_to_120_characters():
    exact = "x" * 118  # its repr is 120 characters: kept whole
    assert str(StateDiff("p", exact, "y" * 119)) == f"p: expected '{exact}', got '{'y' * 116}..."


def test_same_at_exactly_a_billionth():
    assert same(0.0, 1e-9) is True
    assert same(1.0, 1.0 + 2e-9) is False


@pytest.mark.parametrize(
    "expected, actual, keys, want",
    [
        ({"a": {"x": 1}}, {"a": None}, {}, [{"path": "a", "expected": {"x": 1}, "actual": None}]),
        ({"a": [1]}, {"a": None}, {}, [{"path": "a", "expected": [1], "actual": None}]),
        ({"a": None}, {"a": [1]}, {}, [{"path": "a", "expected": None, "actual": [1]}]),
    ],
)
def test_state_diff_of_a_mapping_or_list_against_a_value(expected, actual, keys, want):
    assert [d.as_dict() for d in state_diff(expected, actual, keys=keys)] == want


def test_state_diff_nouns_and_declared_keys():
    todo = {"todo": {"items": [{"title": "a", "done": False}]}}
    assert [str(d) for d in state_diff(todo, {"todo": {"items": []}})] == [
        "todo.items: missing todo 'a'"
    ]  # the apps' keys
    lists = state_diff({"a": {"lists": [{"tags": ["x"]}]}}, {"a": {"lists": [{"tags": ["y"]}]}}, keys={})
    assert [str(d) for d in lists] == ["a.lists: missing list {'tags': ['x']}", "a.lists: extra list {'tags': ['y']}"]
    nested = state_diff(
        {"f": {"x": {"items": [{"name": "n"}]}}},
        {"f": {"x": {"items": []}}},
        keys={"f.*.items": ItemKey("name", "entry")},
    )
    assert [str(d) for d in nested] == ["f.x.items: missing entry 'n'"]
    inner = state_diff({"a": [{"id": 1, "tags": [{"k": 1}]}]}, {"a": [{"id": 1, "tags": []}]}, keys={})
    assert [str(d) for d in inner] == ["a[1].tags: missing tag {'k': 1}"]
    long = state_diff({"l": [{"t": "x" * 100}]}, {"l": []}, keys={})
    assert [str(d) for d in long] == ["l: missing item of l {'t': '" + "x" * 70 + "..."]


def test_memo_normalisation_is_kept_per_typed_bytes_and_other_keys_pass_through():
    state = {"todo": {"items": [{"id": "t1", "title": "A", "done": False, "notes": ""}]}, "other": [1]}
    first = normalise_world(state, memo=True)
    assert first == {"todo": {"items": [{"title": "a", "done": False, "notes": ""}]}, "other": [1]}
    again = normalise_world(copy.deepcopy(state), memo=True)
    assert again["todo"] is first["todo"] and again["other"] == [1]
    changed = copy.deepcopy(state)
    changed["todo"]["items"][0]["title"] = "B"
    assert normalise_world(changed, memo=True)["todo"] == {"items": [{"title": "b", "done": False, "notes": ""}]}
    # an equal state of other types is not the state normalised before (0 == False in Python)
    retyped = copy.deepcopy(state)
    retyped["todo"]["items"][0]["done"] = 0
    assert normalise_world(retyped, memo=True)["todo"] is not first["todo"]
    # a state marshal cannot write is normalised anew, never from the memo
    unusual = copy.deepcopy(state)
    unusual["todo"]["items"][0]["tags"] = Fraction(1, 3)
    assert normalise_world(unusual, memo=True)["todo"] is not normalise_world(unusual, memo=True)["todo"]
