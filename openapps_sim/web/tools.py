"""App tools: an app's operations (``AppSpec.load_operations``) called on a world
(``World.call_tool``), the same functions the route handlers call, so a
state change logs the same events whether a page or a tool made it. Every app with state also
has the built-in ``read`` tool: its state as the reward sees it before normalising."""

from __future__ import annotations

import json
from typing import Any

from openapps_sim.appkit import READ_OPERATION, AppContext, WorldView, call_operation
from openapps_sim.errors import ConfigError, unknown_name
from openapps_sim.taskkit.statecopy import copy_state
from openapps_sim.web.bounded import run_bounded

SOURCE = "app tool"


def tool_apps(world: WorldView) -> list[str]:
    """The apps that have tools (every app but the home page)."""
    return [name for name, spec in world.apps.items() if not spec.home]


def run_tool(world: WorldView, app: object, op: object, args: object) -> Any:
    """Run ``<app>.<op>(**args)`` on ``world``; returns its JSON-ready result."""
    if not isinstance(app, str) or app not in tool_apps(world):
        raise unknown_name(SOURCE, "app", str(app), tool_apps(world), listing="openapps apps", noun="apps")
    if not isinstance(args, dict):
        raise ConfigError(SOURCE, "args", f"expected an object of named arguments, got {args!r}")
    spec = world.apps[app]
    if op == READ_OPERATION:
        if args:
            raise ConfigError(f"{app}.read", ", ".join(args), "unknown argument", "(no arguments)")
        return copy_state(world.app_state(app))  # a whole copy, in under half deepcopy's time
    ops = spec.load_operations()
    if not isinstance(op, str) or op not in ops:
        raise unknown_name(SOURCE, f"{app}.<tool>", str(op), [READ_OPERATION, *ops])
    what = f"the {app} app's tool {op}"  # one that raises or runs too long is an AppFault
    result = run_bounded(what, call_operation, AppContext(world, spec, None), ops[op], args)
    return json.loads(json.dumps(result, ensure_ascii=False))
