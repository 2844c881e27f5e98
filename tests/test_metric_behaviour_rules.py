"""Loops in an action sequence and apps opened that a task does not need, every answer written
out (``make mutants`` runs these against ``analysis/metrics/behaviour.py``)."""

from __future__ import annotations

import pytest

from openapps_sim.analysis.metrics.behaviour import DEFAULT_MIN_REPEATS, START_APP, find_loops, intent_misunderstood


@pytest.mark.parametrize(
    "actions, min_repeats, loops",
    [
        ("a a a a a a", 3, [(0, 1, 6)]),  # the longest run, of the shortest block
        ("a b a b a b a", 3, [(0, 2, 3)]),  # a trailing half block is no repeat
        ("a a a b a a a b a a a b", 3, [(0, 4, 3)]),  # a longer block covering more wins
        ("a a a a b b b", 3, [(0, 1, 4), (4, 1, 3)]),  # the scan resumes after a loop
        ("x a a a", 3, [(1, 1, 3)]),
        ("a b c a b c a b c", 3, [(0, 3, 3)]),
        ("a b c a b c", 2, [(0, 3, 2)]),
        ("a a b b a a b b", 2, [(0, 4, 2)]),  # the whole block twice covers more than "a a"
        ("a a a a", 4, [(0, 1, 4)]),
        ("a a a", 4, []),
        ("a b a b a b", 4, []),
        ("", 3, []),
    ],
)
def test_find_loops_by_value(actions, min_repeats, loops):
    assert find_loops(actions.split(), min_repeats) == loops


def test_loops_compare_actions_as_stripped_text():
    assert find_loops([" click(1)", "click(1) ", "click(1)"]) == [(0, 1, 3)]
    assert find_loops([1, "1", 1.0]) == []  # "1.0" is another action
    assert find_loops([7, 7, 7]) == [(0, 1, 3)]
    assert DEFAULT_MIN_REPEATS == 3 and find_loops("a a".split()) == [] and find_loops("a a a".split()) == [(0, 1, 3)]


@pytest.mark.parametrize("min_repeats", [1, 0, -2])
def test_a_loop_needs_two_repeats_at_least(min_repeats):
    with pytest.raises(ValueError, match=rf"^min_repeats must be at least 2, got {min_repeats}$"):
        find_loops(["a", "a"], min_repeats)


def test_intent_counts_each_forced_visit_once():
    assert START_APP == "start"
    assert not intent_misunderstood(["start", "todo", "start"], ["todo"])
    assert intent_misunderstood(["messenger", "messenger"], ["todo"], ["messenger"])  # the second is the agent's
    assert not intent_misunderstood(["messenger", "todo", "messenger"], ["todo"], ["messenger", "messenger"])
    assert intent_misunderstood(["maps"], ["todo"], ["messenger"])
    assert not intent_misunderstood(None, ["todo"])
    assert intent_misunderstood(["todo"], None)
    assert not intent_misunderstood(["start"], None, None)
    assert not intent_misunderstood(("todo", "maps"), ("maps", "todo"))


def test_a_longer_block_covering_as_much_loses_to_the_shorter():
    """Six a then x: blocks of 1 (six times) and 2 (three times) cover the same six actions."""
    assert find_loops("a a a a a a x".split()) == [(0, 1, 6)]
    assert find_loops("x a b a b a b a b a b a b y".split()) == [(1, 2, 6)]


def test_loop_triples_are_integers():
    loops = find_loops("a a a b c b c b c".split())
    assert loops == [(0, 1, 3), (3, 2, 3)]
    assert [tuple(type(x) for x in loop) for loop in loops] == [(int, int, int)] * 2
