"""Helpers for the generic task-family tests."""

from __future__ import annotations

from openapps_sim.taskkit.reward import normalise_world
from openapps_sim.taskkit.statecopy import copy_state


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path, node


def _set(node, path, value):
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def with_side_effect(state: dict, app: str) -> dict:
    """A copy of ``state`` with one unrelated change in ``app`` that normalisation keeps."""
    base = normalise_world({app: state[app]})  # each app normalises on its own
    for path, value in _leaves(state[app]):
        if isinstance(value, bool):
            candidate = not value
        elif isinstance(value, str) and value:
            candidate = value + " (changed)"
        elif isinstance(value, (int, float)):
            candidate = value + 7
        else:
            continue
        changed = {**state, app: copy_state(state[app])}  # the other apps are not changed
        _set(changed[app], path, candidate)
        if normalise_world({app: changed[app]}) != base:
            return changed
    raise AssertionError(f"found no leaf of {app!r} whose change survives normalisation")
