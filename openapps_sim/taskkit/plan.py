"""A family's plan run for real: the app's own operations applied to a copy of the initial state.

A task family states its change once, as a plan (``TaskFamily.plan``: a list of
:class:`~openapps_sim.taskkit.progress.Op`, each one call of an app's operation). The expected
state is what those operations make of the initial state, run here on a bare
:class:`~openapps_sim.appkit.WorldView` (the state, the configuration and an event log), so an
expectation can never drift from what the app does; the events they write are the ones the
oracle's episode writes.
"""

from __future__ import annotations

from typing import Any

from openapps_sim.appkit import AppContext, WorldView, call_operation
from openapps_sim.config.catalog import discover_apps
from openapps_sim.errors import unknown_name
from openapps_sim.taskkit.progress import Op


def run_plan(plan: list[Op], state: dict, config: dict, source: str = "plan") -> list[dict]:
    """Run every operation of ``plan`` on ``state`` (changed in place) in order; returns the
    events they logged. An unknown app or operation, or arguments the operation refuses, is a
    :class:`~openapps_sim.errors.ConfigError` naming ``source``."""
    apps = discover_apps()
    world = WorldView(config, state)
    for op in plan:
        if op.app not in apps:
            raise unknown_name(source, "app", op.app, apps)
        spec = apps[op.app]
        ops = spec.load_operations()
        if op.op not in ops:
            raise unknown_name(source, f"{op.app}.<operation>", op.op, ops)
        call_operation(AppContext(world, spec, None), ops[op.op], dict(op.args))
    return world.events


class Unread(dict):
    """The initial state a plan gets before anything was read: looking at it raises
    :class:`Unread.Needed`, so the API solution reads the world only for plans that need it."""

    class Needed(Exception):
        pass

    def _needed(self, *args: Any, **kwargs: Any) -> Any:
        raise Unread.Needed

    __getitem__ = get = __contains__ = __iter__ = __len__ = keys = items = values = _needed
