"""What an agent did, from the raw facts of one record: loops in its actions and apps it opened
that its task does not need. Pure functions of lists; the one owner of these definitions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from openapps_sim.analysis.metrics.values import as_list

DEFAULT_MIN_REPEATS = 3
"""A loop is a block repeated at least this many times in a row (see :func:`find_loops`)."""


START_APP = "start"
"""The launcher page: visiting it never counts as opening an unneeded app."""


def find_loops(actions: Sequence[Any], min_repeats: int = DEFAULT_MIN_REPEATS) -> list[tuple[int, int, int]]:
    """The loops in an action sequence as ``(start, period, repeats)`` triples.

    A loop is a maximal run of consecutive actions made entirely of one block of ``period``
    actions repeated ``repeats >= min_repeats`` times. Scanning left to right, at each position
    the longest such run starting there is taken (ties: the shortest block); its actions are
    not reused, and the scan resumes after it. Actions are compared as strings with surrounding
    whitespace removed. Examples with ``min_repeats=3``::

        c c c            -> [(0, 1, 3)]           one loop
        c c c c c c      -> [(0, 1, 6)]           still one loop (maximal)
        a b a b a b      -> [(0, 2, 3)]           one loop of period 2
        c c c x c c c    -> [(0, 1, 3), (4, 1, 3)] two separate loops
        c c              -> []                    too few repeats
    """
    if min_repeats < 2:
        raise ValueError(f"min_repeats must be at least 2, got {min_repeats}")
    ids: dict[str, int] = {}
    seq = [ids.setdefault(str(a).strip(), len(ids)) for a in actions]
    n = len(seq)
    loops = []
    i = 0
    while i < n:
        best_cover, best_period = 0, 0
        for period in range(1, (n - i) // min_repeats + 1):
            if period * min_repeats > n - i or best_cover >= n - i:
                break
            j = i + period
            while j < n and seq[j] == seq[j - period]:
                j += 1
            repeats = (j - i) // period
            if repeats >= min_repeats and repeats * period > best_cover:
                best_cover, best_period = repeats * period, period
        if best_cover:
            loops.append((i, best_period, best_cover // best_period))
            i += best_cover
        else:
            i += 1
    return loops


def count_loops(actions: Sequence[Any], min_repeats: int = DEFAULT_MIN_REPEATS) -> int:
    """Number of loops in an episode's actions (see :func:`find_loops`)::

    >>> count_loops(["click(47)"] * 3)
    1
    >>> count_loops(["a", "b", "a", "b", "a", "b"])
    1
    >>> count_loops(["a", "a", "a", "x", "a", "a", "a"])
    2
    """
    return len(find_loops(actions, min_repeats))


def intent_misunderstood(
    apps_visited: Iterable[str] | None,
    task_apps: Iterable[str] | None,
    opened_by_interruptions: Iterable[str] | None = None,
) -> bool:
    """Whether the agent opened an app the task does not need.

    True when ``set(apps_visited) - set(task_apps) - {"start"}`` is not empty. The start page
    (the launcher) is always allowed, and so is each visit an interruption's button made
    (``opened_by_interruptions``: a banner whose only button opens the messenger); a later
    visit the agent makes to that app on its own counts again::

    >>> intent_misunderstood(["start", "todo", "messenger", "todo"], ["todo"], ["messenger"])
    False
    >>> intent_misunderstood(["todo", "messenger", "todo", "messenger"], ["todo"], ["messenger"])
    True
    """
    needed = set(as_list(task_apps)) | {START_APP}
    forced = Counter(as_list(opened_by_interruptions))
    for app in as_list(apps_visited):
        if app in needed:
            continue
        if forced[app] > 0:
            forced[app] -= 1
            continue
        return True
    return False
