"""What a task instance refers to, so that a live interruption's arrival (a message that really
arrives in the messenger) never lands there.

The rule (docs/variations.md, "Arrivals never touch the task"): an arrival goes into a mapping
of lists (the messenger's conversations, keyed by contact id) under a key the task does not
refer to, and into a plain list only when the task does not use that app. A key is referred to
when the instance's parameters name it anywhere (``contact_id``, ``source_id``, a part of a
multi-step family ...) or when the task changes what is stored under it (the expected state
differs from the initial one there). So no world-made change ever makes the goal's answer, its
target or its branch different from what the goal says.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from openapps_sim.config.catalog import drawn


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            yield from _strings(v)


def _mapping(app_state: Any, path: str) -> dict | None:
    node = app_state
    for part in [p for p in path.split(".") if p]:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, dict) else None


def arrival_rules(config: dict) -> list[dict]:
    """The arrivals (``{app, path, key, value}``) the world's enabled interruptions declare."""
    rules = (config.get("interruptions") or {}).values()
    return [r["arrival"] for r in rules if r.get("enabled", True) and (r.get("arrival") or {}).get("app")]


def task_keys(params: dict, initial: dict, expected: dict, config: dict) -> list[str]:
    """The keys of the collections the world's arrivals land in that the task refers to: named
    in ``params``, or changed between ``initial`` and ``expected``."""
    named = set(_strings(params))
    out: set[str] = set()
    for arrival in arrival_rules(config):
        app, path = arrival["app"], arrival.get("path", "")
        before = _mapping(drawn(initial.get(app)), path) or {}
        after = _mapping(drawn(expected.get(app)), path) or {}
        for key in set(before) | set(after):
            if key in named or before.get(key) != after.get(key):
                out.add(key)
    return sorted(out)
