"""The reward's memos hand back what they kept, and only what they may: an expected state is
normalised once, an initial state's apps come from the memo of app states, a state scored
against a base takes the base's apps even where the memo has let them go, and the memo of app
states keeps its bound exactly (``make mutants`` runs these against ``taskkit/reward.py``)."""

from __future__ import annotations

import copy

import pytest

from openapps_sim.taskkit import reward
from openapps_sim.taskkit.reward import normalise_world, normalised_expected, state_diff
from openapps_sim.web.world import World


def todo(title: str) -> dict:
    return {"todo": {"items": [{"id": "t1", "title": title, "done": False, "notes": ""}]}}


def test_an_expected_state_is_normalised_once():
    state = todo("Once Only")
    first = normalised_expected(state)
    assert first == {"todo": {"items": [{"title": "once only", "done": False, "notes": ""}]}}
    assert normalised_expected(state) is first
    assert normalised_expected(state) is first  # the third call too: the entry is kept
    other = copy.deepcopy(state)
    assert normalised_expected(other) == first and normalised_expected(other) is not first


def test_an_initial_state_takes_its_apps_from_the_memo_of_app_states():
    state = todo("From The Memo")
    kept = normalise_world(copy.deepcopy(state), memo=True)
    got = normalised_expected(state)
    assert got == {"todo": {"items": [{"title": "from the memo", "done": False, "notes": ""}]}}
    assert got["todo"] is kept["todo"]


def test_the_memo_of_app_states_keeps_exactly_its_bound(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(reward, "NORMALISED_KEPT", 2)
    first = normalise_world(todo("One"), memo=True)
    second = normalise_world(todo("Two"), memo=True)
    third = normalise_world(todo("Three"), memo=True)  # lets "One" go
    assert third == {"todo": {"items": [{"title": "three", "done": False, "notes": ""}]}}
    assert normalise_world(todo("Three"), memo=True)["todo"] is third["todo"]
    assert normalise_world(todo("Two"), memo=True)["todo"] is second["todo"]
    again = normalise_world(todo("One"), memo=True)  # normalised anew, lets "Two" go
    assert again == {"todo": {"items": [{"title": "one", "done": False, "notes": ""}]}}
    assert again["todo"] is not first["todo"]
    assert normalise_world(todo("Two"), memo=True)["todo"] is not second["todo"]


def test_an_expected_state_takes_the_bases_apps_where_the_memo_let_them_go(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(reward, "NORMALISED_KEPT", 1)  # the memo keeps only the last app
    world = World()
    world.reset("default", 3)
    initial = world.draw_all()
    known = normalised_expected(initial)
    expected = copy.deepcopy(initial)
    expected["todo"]["items"] = []
    got = normalised_expected(expected, base=initial)
    assert got["todo"] == {"items": []}
    unchanged = [name for name in initial if name != "todo"]
    assert len(unchanged) >= 5 and "banking" in unchanged
    assert all(got[name] is known[name] for name in unchanged)


def test_each_nested_list_of_one_pattern_is_read_with_its_declared_key():
    expected = {"calendar": {"events": [{"title": "A", "invitees": ["x"]}, {"title": "B", "invitees": ["y"]}]}}
    actual = {"calendar": {"events": [{"title": "A", "invitees": ["x", "z"]}, {"title": "B", "invitees": ["y", "w"]}]}}
    assert [str(d) for d in state_diff(expected, actual)] == [
        "calendar.events['A'].invitees: extra invitee 'z'",
        "calendar.events['B'].invitees: extra invitee 'w'",
    ]


def test_the_second_list_of_a_pattern_keeps_its_declared_key():
    """The per-diff memo of path patterns hands the second order's lines the key it found for the
    first order's: both name their lines by product and options."""

    def orders(first: list, second: list) -> dict:
        return {"shop": {"orders": [{"id": "o1", "lines": first}, {"id": "o2", "lines": second}]}}

    def line(product: str, qty: int) -> dict:
        return {"product_id": product, "options": {}, "qty": qty}

    expected = orders([line("p1", 1), line("p2", 1)], [line("p3", 1), line("p4", 1)])
    actual = orders([line("p2", 1), line("p1", 2)], [line("p4", 1), line("p3", 2)])
    assert [str(d) for d in state_diff(expected, actual)] == [
        "shop.orders['o1'].lines['p1' {}].qty: expected 1, got 2",
        "shop.orders['o2'].lines['p3' {}].qty: expected 1, got 2",
    ]
