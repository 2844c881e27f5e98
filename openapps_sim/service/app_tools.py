"""The apps' own operations as MCP tools, one per operation (``todo_add_item(title)``,
``shop_checkout(name, street, ...)``) plus ``<app>_read()``, generated from each app's
``operations`` module: adding an app adds its tools.

A tool call is one step of the session's episode, run as the app-tool action
``todo.add_item(title='...')`` (:mod:`openapps_sim.envs.apptools`): the same operation the app's
pages call, logged in the same event log, scored by the same full-state reward. The tools are
listed and callable only in a session whose interface has them (api, mixed; not gui):
:class:`openapps_sim.service.mcp_server.OpenAppsMCP`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from mcp.server.fastmcp import Context, FastMCP

from openapps_sim.appkit import PARAM_TYPES, Operation
from openapps_sim.envs.apptools import app_tools, tool_action
from openapps_sim.service.mcp_results import Step

_ANNOTATION = {"str": str, "int": int, "float": float, "bool": bool, "list[str]": list[str]}
assert set(_ANNOTATION) == set(PARAM_TYPES)


def _tool_function(get_session: Callable[[Context], Any], app: str, name: str, op: Operation | None):
    params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Context)]
    annotations: dict[str, Any] = {"ctx": Context, "return": Step}
    for p in op.params if op else ():
        ann = _ANNOTATION[p.type] if p.required else (_ANNOTATION[p.type] | None)
        default = inspect.Parameter.empty if p.required else p.default
        params.append(inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=ann))
        annotations[p.name] = ann

    async def tool(ctx: Context, **kwargs: Any) -> Step:
        env = get_session(ctx)
        args = {k: v for k, v in kwargs.items() if v is not None}
        return Step(**await env.call(env.act, tool_action(app, name, args)))

    tool.__signature__ = inspect.Signature(params, return_annotation=Step)  # type: ignore[attr-defined]
    tool.__annotations__ = annotations
    tool.__name__ = f"{app}_{name}"
    return tool


def description(app: str, name: str, op: Operation | None) -> str:
    if op is None:
        return f"The {app} app's data now (its items and their ids), as the reward sees it. One step."
    return f"{op.doc} One step of the episode, as the {app} app's own operation (same events as its pages)."


def register_app_tools(mcp: FastMCP, get_session: Callable[[Context], Any]) -> dict[str, str]:
    """Register every app's tools on ``mcp``; returns their names, each with its app."""
    names = {}
    for app, tools in app_tools().items():
        for name, op in tools.items():
            fn = _tool_function(get_session, app, name, op)
            mcp.add_tool(fn, name=fn.__name__, description=description(app, name, op))
            names[fn.__name__] = app
    return names
