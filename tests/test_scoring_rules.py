"""``evaluate`` on real instances with hand-made states (no browser): success, partial credit,
answers, pages, order and infeasibility, every expectation written out (``make mutants`` runs
these against scoring.py)."""

from __future__ import annotations

import copy

import pytest

from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.taskkit.progress import as_events
from openapps_sim.web.world import World

FAMILIES = all_families()


def instance(family_id: str, seed: int = 0):
    world = World()
    world.reset("default", seed)
    return FAMILIES[family_id], instantiate(FAMILIES[family_id], world.state, world.config, seed)


def test_the_expected_state_succeeds_and_nothing_done_fails():
    fam, inst = instance("todo.add_item")
    ok = evaluate(fam, inst, copy.deepcopy(inst.expected))
    assert (ok.success, ok.reward, ok.partial, ok.diff, ok.outside) == (True, 1.0, 1.0, [], [])
    assert (ok.answer_ok, ok.declared_ok, ok.undeclared, ok.reported_infeasible) == (None, None, False, False)
    assert ok.intact and ok.explain() == "success: the whole state equals the expected state"
    nothing = evaluate(fam, inst, copy.deepcopy(inst.initial))
    assert (nothing.success, nothing.reward, nothing.partial) == (False, 0.0, 0.0)
    assert [str(d) for d in nothing.diff] == ["todo.items: missing todo 'defrost the freezer'"]
    assert nothing.outside == [] and nothing.intact
    assert nothing.explain() == "1 state difference(s):\n  todo.items: missing todo 'defrost the freezer'"


def test_destroying_what_the_task_leaves_alone_is_outside_and_earns_nothing():
    fam, inst = instance("multi.cart_and_reminder")
    state = copy.deepcopy(inst.expected)
    state["todo"]["items"] = [i for i in state["todo"]["items"] if not i.get("done")]  # the done todos deleted
    ev = evaluate(fam, inst, state)
    assert not ev.success and ev.partial == 0.0 and not ev.intact
    assert ev.subgoals == {"shop.add_to_cart": False, "todo.add_item": False}
    assert [str(d) for d in ev.outside] == [
        "todo.items: missing todo 'buy groceries for the week'",
        "todo.items: missing todo 'finish the quarterly report'",
    ]


def test_partial_credit_is_the_share_of_subgoals_held():
    fam, inst = instance("multi.cart_and_reminder")
    both = evaluate(fam, inst, copy.deepcopy(inst.expected))
    assert both.partial == 1.0 and both.subgoals == {"shop.add_to_cart": True, "todo.add_item": True}
    half = copy.deepcopy(inst.expected)
    half["todo"] = copy.deepcopy(inst.initial["todo"])  # the cart done, the reminder not
    ev = evaluate(fam, inst, half)
    assert not ev.success and ev.partial == 0.5 and ev.reward == 0.0
    assert ev.subgoals == {"shop.add_to_cart": True, "todo.add_item": False}
    none = evaluate(fam, inst, copy.deepcopy(inst.initial))
    assert none.partial == 0.0 and none.subgoals == {"shop.add_to_cart": False, "todo.add_item": False}


@pytest.mark.parametrize(
    "answer, ok", [("4", True), ("four", True), (" 4. ", True), ("5", False), ("", False), (None, False)]
)
def test_an_answer_family_needs_the_right_answer(answer, ok):
    fam, inst = instance("todo.count_open")
    assert inst.expected_answer == "4"
    ev = evaluate(fam, inst, copy.deepcopy(inst.expected), answer=answer)
    assert (ev.success, ev.answer_ok, ev.reward, ev.partial) == (ok, ok, float(ok), float(ok))
    if not ok:
        assert ev.explain() == "0 state difference(s):\n  the returned answer is missing or wrong"


@pytest.mark.parametrize(
    "url, page",
    [
        ("http://h:1/{app}/", None),
        ("http://h:1/{app}/product/p1", None),
        ("http://h:1/", "/"),
        ("http://h:1/todo/{app}/", "/todo/{app}/"),
        ("http://h:1/other/", "/other/"),
        (None, ""),
        ("about:blank", "about:blank"),
    ],
)
def test_a_navigation_goal_needs_the_page(url, page):
    fam, inst = instance("start.navigate_to_app")
    app = inst.params["app"]
    assert inst.expected_path == f"/{app}/"
    url, page = (None if v is None else v.format(app=app) for v in (url, page))
    ev = evaluate(fam, inst, copy.deepcopy(inst.expected), url=url)
    assert ev.success is (page is None)
    assert [str(d) for d in ev.diff] == ([] if page is None else [f"page: expected '/{app}/', got {page!r}"])


def test_an_ordered_goal_needs_the_operations_in_order():
    fam, inst = instance("todo.add_in_order")
    ops = [str(o) for o in inst.oracle_ops]
    assert ops == ["todo.add_item(title='Reply to the landlord')", "todo.add_item(title='Buy a gift for Tom')"]
    events = as_events(inst.oracle_ops)
    other = {"app": "todo", "op": "toggle_item", "args": {"id": "t1"}}
    for log, ok in (
        (events, True),
        ([other, events[0], other, events[1]], True),  # others may come between
        (events[::-1], False),
        (events[:1], False),
        ([], False),
        (None, False),
    ):
        ev = evaluate(fam, inst, copy.deepcopy(inst.expected), events=log)
        assert ev.success is ok, log
        assert [str(d) for d in ev.diff] == ([] if ok else [f"order: expected {ops!r}, got 'another order'"])


def test_infeasible_tasks_need_the_report_and_feasible_ones_must_not_get_it():
    fam, inst = instance("todo.tick_missing_item")
    assert inst.infeasible == "todo.tick_missing_item:Buy oat milk"
    reported = evaluate(fam, inst, copy.deepcopy(inst.expected), reported_infeasible=True)
    assert (reported.success, reported.declared_ok, reported.reported_infeasible) == (True, True, True)
    silent = evaluate(fam, inst, copy.deepcopy(inst.expected))
    assert (silent.success, silent.declared_ok, silent.reported_infeasible) == (False, False, False)
    assert silent.explain() == (
        "0 state difference(s):\n  the task cannot be done here: it had to be reported with report_infeasible"
    )
    fam, inst = instance("todo.add_item")
    wrong = evaluate(fam, inst, copy.deepcopy(inst.expected), reported_infeasible=True)
    assert (wrong.success, wrong.reward, wrong.partial, wrong.declared_ok) == (False, 0.0, 0.0, False)
    assert wrong.explain() == "0 state difference(s):\n  the agent reported the task infeasible, but it can be done"


def _with_extra_todos(titles: list[str]):
    """todo.add_item's instance evaluated on its initial state plus one todo per title."""
    fam, inst = instance("todo.add_item")
    state = copy.deepcopy(inst.initial)
    for n, title in enumerate(titles):
        state["todo"]["items"].append({**state["todo"]["items"][0], "id": f"x{n}", "title": title})
    return evaluate(fam, inst, state)


def _todo_adds(k: int) -> list[dict]:
    return [{"i": n, "app": "todo", "op": "add_item", "args": {"title": f"e{n}"}} for n in range(k)]


def test_explain_lists_at_most_limit_differences_and_the_last_events():
    ev = _with_extra_todos([f"extra {n}" for n in range(4)])
    assert len(ev.diff) == 5
    text = ev.explain(limit=2)
    assert text.splitlines() == [
        "5 state difference(s):",
        "  todo.items: missing todo 'defrost the freezer'",
        "  todo.items: extra todo 'extra 0'",
        "  ... and 3 more",
    ]
    assert ev.explain(limit=2, events=_todo_adds(3)).splitlines()[-4:] == [
        "event log (3 change(s) in this episode):",
        "  ... 1 earlier change(s)",
        "  #1 todo.add_item title='e1'",
        "  #2 todo.add_item title='e2'",
    ]
    assert ev.explain(limit=5, events=[]).splitlines()[-1] == "event log (0 change(s) in this episode):"


def test_explain_cuts_at_twelve_differences_by_default_and_not_at_exactly_the_limit():
    ev = _with_extra_todos([f"extra {n:02d}" for n in range(12)])
    assert len(ev.diff) == 13
    lines = ev.explain().splitlines()
    assert len(lines) == 14
    assert lines[0] == "13 state difference(s):" and lines[-2] == "  todo.items: extra todo 'extra 10'"
    assert lines[-1] == "  ... and 1 more"
    exact = ev.explain(limit=13).splitlines()  # exactly the limit: all of them, no "... and 0 more"
    assert len(exact) == 14 and exact[-1] == "  todo.items: extra todo 'extra 11'"
    assert ev.explain(limit=2, events=_todo_adds(2)).splitlines()[-3:] == [
        "event log (2 change(s) in this episode):",
        "  #0 todo.add_item title='e0'",
        "  #1 todo.add_item title='e1'",
    ]


def test_explain_of_a_goal_held_but_not_declared():
    from openapps_sim.taskkit.scoring import Evaluation

    ev = Evaluation(False, 0.0, 1.0, [], {}, undeclared=True)
    assert ev.explain() == "the whole state equals the expected state, but the agent has not declared the task done"
    assert ev.explain(events=[]).splitlines() == [
        "the whole state equals the expected state, but the agent has not declared the task done",
        "event log (0 change(s) in this episode):",
    ]


class JudgeRecorder:
    """A family whose judge records what ``evaluate`` hands it (the answer's language and the world)."""

    def __init__(self):
        self.seen = []

    def judge_answer(self, given, expected, lang, state):
        self.seen.append((given, expected, lang, state))
        return True


@pytest.mark.parametrize(
    "params, lang",
    [({"lang": "de", "answer": "4"}, "de"), ({"lang": "zh"}, "zh"), ({"answer": "4"}, "en"), ({}, "en"), (None, "en")],
)
def test_the_answer_is_judged_in_the_instances_language_against_the_world(params, lang):
    import dataclasses

    _, inst = instance("todo.count_open")
    inst = dataclasses.replace(inst, params=params)
    judge = JudgeRecorder()
    world = copy.deepcopy(inst.expected)
    ev = evaluate(judge, inst, world, answer="vier")
    assert ev.answer_ok is True and ev.success is True
    assert len(judge.seen) == 1
    given, expected, seen_lang, state = judge.seen[0]
    assert (given, expected, seen_lang) == ("vier", "4", lang)
    assert state is world


def test_a_german_instance_takes_german_number_words():
    world = World()
    world.reset("german", 0)
    fam = FAMILIES["todo.count_open"]
    inst = instantiate(fam, world.state, world.config, 0)
    assert inst.params["lang"] == "de" and inst.expected_answer == "4"
    assert evaluate(fam, inst, copy.deepcopy(inst.expected), answer="vier").success is True
    assert evaluate(fam, inst, copy.deepcopy(inst.expected), answer="fünf").success is False


def test_a_text_answer_naming_every_candidate_fails_against_the_world():
    """The judge sees the world: pasting the family's other candidates with the right one fails."""
    fam, inst = instance("todo.item_notes")
    right = "Leave Friday morning, back Sunday evening"
    assert inst.expected_answer == right
    assert evaluate(fam, inst, copy.deepcopy(inst.expected), answer=right).success is True
    pasted = "Milk, eggs, spinach, coffee beans\nSales figures are in the shared folder\n" + right
    assert evaluate(fam, inst, copy.deepcopy(inst.expected), answer=pasted).success is False
