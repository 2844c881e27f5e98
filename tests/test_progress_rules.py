"""The progress rules of ``taskkit/progress.py`` on hand-made events, states and URLs (no world, no
browser): paths, milestones, operations matching the event log, order, W-LCS, decisions and the
milestone summary. Every expectation is written out (``make mutants`` runs these against
progress.py in its ``scoring`` group)."""

from __future__ import annotations

import pytest

from openapps_sim.taskkit.progress import (
    Branching,
    MilestoneTracker,
    Op,
    as_events,
    compact_events,
    in_order,
    milestone_summary,
    page_milestone,
    state_milestone,
    url_path,
    weighted_lcs,
    wlcs,
)


@pytest.mark.parametrize(
    "url, path",
    [
        (None, "/"),
        ("", "/"),
        ("http://host:1/todo/?q=1", "/todo/?q=1"),
        ("http://host:1/a/b/c", "/a/b/c"),
        ("http://host:1", "/"),
        ("https://h/x://y/z", "/x://y/z"),
        ("/todo/", "/todo/"),
        ("about:blank", "about:blank"),
    ],
)
def test_url_path(url, path):
    assert url_path(url) == path


def test_page_and_state_milestones():
    page = page_milestone("chat open", "/messenger/chat/c3")
    assert page.name == "chat open"
    assert page.check({}, "/messenger/chat/c3") is True
    assert page.check({}, "/messenger/chat/c3/info") is True
    assert page.check({}, "/messenger/chat/c") is False
    assert page.check({}, "/todo/messenger/chat/c3") is False
    state = state_milestone("two items", lambda s: s["todo"]["items"][1:])
    assert state.name == "two items"
    assert state.check({"todo": {"items": ["a", "b"]}}, "/") is True  # a truthy list read as True
    assert state.check({"todo": {"items": ["a"]}}, "/todo/") is False


def test_an_operation_keeps_its_arguments_sorted_and_prints_them():
    op = Op.of("todo", "add_item", title="x", due="2026-01-02", done=False)
    assert op.app == "todo" and op.op == "add_item" and op.keys is None
    assert op.args == (("done", False), ("due", "2026-01-02"), ("title", "x"))
    assert str(op) == "todo.add_item(done=False, due='2026-01-02', title='x')"
    assert str(Op.of("todo", "clear")) == "todo.clear()"
    assert op.as_dict() == {"app": "todo", "op": "add_item", "args": {"done": False, "due": "2026-01-02", "title": "x"}}
    keyed = op.keyed("title", "due")
    assert keyed.keys == ("title", "due") and keyed.args == op.args and (keyed.app, keyed.op) == ("todo", "add_item")
    assert keyed.as_dict() == {
        "app": "todo",
        "op": "add_item",
        "args": {"done": False, "due": "2026-01-02", "title": "x"},
        "keys": ["title", "due"],
    }
    assert Op.from_dict({"app": "todo", "op": "clear"}) == Op("todo", "clear", (), None)
    assert Op.from_dict({"app": "todo", "op": "clear", "args": None, "keys": None}) == Op("todo", "clear", (), None)
    assert Op.from_dict({"app": "a", "op": "b", "args": {"y": 2, "x": 1}, "keys": ["x"]}) == Op(
        "a", "b", (("x", 1), ("y", 2)), ("x",)
    )


def test_an_operation_matches_app_op_and_every_recorded_argument():
    op = Op.of("todo", "edit_item", id="t1", title="Buy Milk")
    event = {"app": "todo", "op": "edit_item", "args": {"id": "t1", "title": "  buy   milk "}}
    assert op.matches(event)
    assert not op.matches({**event, "app": "shop"})  # the app differs, the operation agrees
    assert not op.matches({**event, "op": "delete_item"})  # the operation differs, the app agrees
    assert not op.matches({**event, "args": {"id": "t1", "title": "buy bread"}})  # one of two differs
    assert not op.matches({**event, "args": {"id": "t2", "title": "buy milk"}})
    assert op.matches({**event, "args": {"id": "t1"}})  # the log does not record the title
    assert op.matches({**event, "args": {"id": "t1", "title": "buy milk", "done": True}})  # extra logged argument
    assert op.matches({"app": "todo", "op": "edit_item", "args": None})
    assert op.matches({"app": "todo", "op": "edit_item"})
    assert not op.matches({"op": "edit_item", "args": {}})
    # numbers compare as numbers, not as text; a text never equals a number
    assert Op.of("shop", "set_qty", qty=2).matches({"app": "shop", "op": "set_qty", "args": {"qty": 2.0}})
    assert not Op.of("shop", "set_qty", qty=2).matches({"app": "shop", "op": "set_qty", "args": {"qty": "2"}})
    assert not Op.of("shop", "set_qty", qty="2").matches({"app": "shop", "op": "set_qty", "args": {"qty": 2}})
    keyed = op.keyed("id")
    assert keyed.matches({**event, "args": {"id": "t1", "title": "something else"}})
    assert not keyed.matches({**event, "args": {"id": "t9", "title": "buy milk"}})


def test_compact_events_keeps_the_agents_operations_only():
    log = [
        {"i": 0, "t": 1.5, "app": "todo", "op": "add_item", "args": {"title": "a"}},
        {"i": 1, "app": "messenger", "op": "arrival", "args": {"id": "m1"}, "by": "world"},
        {"i": 2, "app": "todo", "op": "clear", "args": None, "by": "agent"},
        {"i": 3, "app": "todo", "op": "toggle_item"},
    ]
    assert compact_events(log) == [
        {"app": "todo", "op": "add_item", "args": {"title": "a"}},
        {"app": "todo", "op": "clear", "args": {}},
        {"app": "todo", "op": "toggle_item", "args": {}},
    ]
    assert compact_events([]) == []


def test_in_order():
    a, b, c = (Op.of("todo", "add_item", title=t) for t in "abc")
    ea, eb, ec = as_events([a, b, c])
    other = {"app": "todo", "op": "toggle_item", "args": {"id": "t1"}}
    assert in_order([a, b, c], [ea, eb, ec])
    assert in_order([a, b, c], [other, ea, other, eb, ea, ec, ea, other])
    assert in_order([a, b], [ea, eb, ea, eb, ec])  # more after all are matched
    assert not in_order([a, b, c], [ea, ec, eb])
    assert not in_order([a, b, c], [ea, eb])
    assert not in_order([a, b, c], [eb, ec])
    assert not in_order([a, a], [ea])
    assert in_order([a, a], [ea, ea])
    assert in_order([], [ea]) and in_order([], [])
    assert not in_order([a], [])


def test_weighted_lcs_by_hand():
    def score(done: str, gold: str) -> float:
        return weighted_lcs(len(done), len(gold), lambda i, j: done[i] == gold[j])

    # denominators 1 + ... + N: 1, 3, 6, 10
    assert score("a", "a") == 1.0
    assert score("x", "a") == 0.0
    assert score("", "abc") == 0.0
    assert score("abc", "") == 0.0
    assert score("abc", "abc") == 1.0
    assert score("xab", "abc") == 0.5  # (1 + 2) / 6
    assert score("c", "abc") == 0.5  # 3 / 6
    assert score("b", "abc") == pytest.approx(1 / 3)  # 2 / 6
    assert score("a", "aa") == pytest.approx(2 / 3)  # the later of two equal gold steps
    assert score("bac", "abc") == pytest.approx(5 / 6)  # b, c: the latest longest
    assert score("abd", "abcd") == pytest.approx(7 / 10)  # 1 + 2 + 4
    assert score("dcba", "abcd") == 0.4  # one in common, the latest: 4 / 10
    assert score("aaaa", "ab") == pytest.approx(1 / 3)
    assert score("bbbb", "ab") == pytest.approx(2 / 3)
    assert score("abab", "ab") == 1.0
    assert score("acbd", "abcd") == pytest.approx(8 / 10)  # a, c, d beats a, b, d: 1 + 3 + 4
    assert score("zzzzzd", "abcd") == 0.4


def test_wlcs_on_events():
    a, b = Op.of("todo", "add_item", title="a"), Op.of("todo", "add_item", title="b")
    assert wlcs(as_events([b]), [a, b]) == pytest.approx(2 / 3)
    assert wlcs(as_events([a]), [a, b]) == pytest.approx(1 / 3)
    assert wlcs([], []) == 1.0 and wlcs(as_events([a]), []) == 0.0 and wlcs([], None) is None


def test_branching_chooses_by_the_first_operation():
    t1, t2 = Op.of("todo", "toggle_item", id="t1"), Op.of("todo", "delete_item", id="t1")
    cart = Op.of("shop", "add_to_cart", product_id="p1")
    br = Branching({"done": [t2], "open/full": [t1, t2], "open/empty": [cart, t1]}, "open/empty")
    assert br.depth == 2 and Branching({"busy": []}, "busy").depth == 1
    assert Branching({}, "a/b/c").depth == 3
    ev_t1, ev_t2, ev_cart = as_events([t1, t2, cart])
    other = {"app": "maps", "op": "drop_pin", "args": {}}
    assert br.chosen([]) is None
    assert br.chosen([other, ev_cart]) is None  # the first operation is unrelated
    assert br.chosen([ev_cart, ev_t2]) == "open/empty"
    assert br.chosen([ev_t2, ev_cart]) == "done"  # in "done" and "open/full": the first listed
    assert br.chosen([ev_t1]) == "open/empty"  # in "open/full" and the correct leaf: the correct one
    assert br.decisions([ev_t2]) == [False, False]
    assert br.decisions([ev_cart]) == [True, True]
    assert br.decisions([ev_t1]) == [True, True]
    assert br.decisions([other]) == [False, False]
    three = Branching({"a/b/c": [cart], "a/b/d": [t2], "a/x/c": [t1]}, "a/b/c")
    assert three.decisions(as_events([t2])) == [True, True, False]
    assert three.decisions(as_events([t1])) == [True, False, False]
    assert three.decisions(as_events([cart])) == [True, True, True]
    assert three.decisions([]) == [False, False, False]


def test_the_decision_step_is_the_first_step_with_a_correct_leaf_operation():
    t1, t2 = Op.of("todo", "toggle_item", id="t1"), Op.of("todo", "delete_item", id="t1")
    cart = Op.of("shop", "add_to_cart", product_id="p1")
    br = Branching({"done": [t2], "open": [cart, t1]}, "open")
    ev_t1, ev_t2, ev_cart = as_events([t1, t2, cart])
    assert br.decision_step([[], [ev_t2], [ev_t2, ev_t1], [ev_cart]]) == 2
    assert br.decision_step([[ev_cart]]) == 0
    assert br.decision_step([[], [ev_t2]]) is None
    assert br.decision_step([]) is None
    assert br.as_dict() == {
        "correct": "open",
        "branches": {
            "done": [{"app": "todo", "op": "delete_item", "args": {"id": "t1"}}],
            "open": [
                {"app": "shop", "op": "add_to_cart", "args": {"product_id": "p1"}},
                {"app": "todo", "op": "toggle_item", "args": {"id": "t1"}},
            ],
        },
    }


def test_a_milestone_tracker_keeps_the_first_intact_step():
    def raises(error):
        def check(state):
            raise error

        return check

    tracker = MilestoneTracker(
        [
            page_milestone("on todo", "/todo/"),
            state_milestone("two items", lambda s: len(s["items"]) == 2),
            state_milestone("key", raises(KeyError("x"))),
            state_milestone("index", raises(IndexError("x"))),
            state_milestone("type", raises(TypeError("x"))),
        ],
        first={"stale": 7},
    )
    assert tracker.first == {"on todo": None, "two items": None, "key": None, "index": None, "type": None}
    tracker.observe(1, {"items": [1, 2]}, "http://h:1/todo/", intact=False)  # not intact: nothing reached
    assert tracker.first == {"on todo": None, "two items": None, "key": None, "index": None, "type": None}
    tracker.observe(2, {"items": [1]}, "http://h:1/todo/x", intact=True)
    assert tracker.first == {"on todo": 2, "two items": None, "key": None, "index": None, "type": None}
    tracker.observe(3, {"items": [1, 2]}, "http://h:1/shop/", intact=True)
    tracker.observe(4, {"items": [1, 2]}, "http://h:1/todo/", intact=True)
    assert tracker.first == {"on todo": 2, "two items": 3, "key": None, "index": None, "type": None}
    failing = MilestoneTracker([state_milestone("value", raises(ValueError("x")))])
    with pytest.raises(ValueError):
        failing.observe(0, {}, None, intact=True)


def test_milestone_summary_by_hand():
    assert milestone_summary({"a": 2, "b": 5, "c": None, "d": None}, steps=9) == {
        "esar": 0.5,
        "first_milestone_step": 2,
        "steps_after_last_milestone": 4,
    }
    assert milestone_summary({"a": 0}, steps=3) == {
        "esar": 1.0,
        "first_milestone_step": 0,
        "steps_after_last_milestone": 3,
    }
    assert milestone_summary({"a": 6, "b": 1, "c": 4}, steps=6) == {
        "esar": 1.0,
        "first_milestone_step": 1,
        "steps_after_last_milestone": 0,
    }
    assert milestone_summary({}, steps=3) == {
        "esar": None,
        "first_milestone_step": None,
        "steps_after_last_milestone": None,
    }
    assert milestone_summary({"a": None}, steps=3) == {
        "esar": 0.0,
        "first_milestone_step": None,
        "steps_after_last_milestone": None,
    }


def test_as_events():
    assert as_events([Op.of("todo", "add_item", title="a", due=None), Op.of("todo", "clear")]) == [
        {"app": "todo", "op": "add_item", "args": {"due": None, "title": "a"}},
        {"app": "todo", "op": "clear", "args": {}},
    ]
