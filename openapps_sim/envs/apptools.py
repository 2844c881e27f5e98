"""App tools as actions: ``todo.add_item(title='Buy oat milk')`` calls the todo app's own
operation on the env's world (``World.call_tool``), instead of clicking through its pages.

An env's ``interface`` says which actions it takes:

* ``gui`` — BrowserGym actions only (an app-tool action is refused as a failed action);
* ``api`` — app tools, plus ``send_msg_to_user``, ``report_infeasible`` and ``noop`` (to answer
  or give up); page actions are refused;
* ``mixed`` — both.

An app tool is written as a Python call with keyword arguments and literal values; its result
(JSON) is in the observation's ``tool_result``. Every app with state has ``<app>.read()``.
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from dataclasses import dataclass

from openapps_sim.appkit import READ_OPERATION, Operation
from openapps_sim.envs.actions import ActionCheck, action_problem, classify_action, parse_code
from openapps_sim.errors import unknown_name

INTERFACES = ("gui", "api", "mixed")
DEFAULT_INTERFACE = "gui"  # a sweep's, an env's and an MCP reset's: page actions only
API_PAGE_FREE_ACTIONS = ("send_msg_to_user", "report_infeasible", "noop")


@dataclass(frozen=True)
class ToolCall:
    app: str
    tool: str
    args: dict


def check_interface(interface: str, source: str = "interface") -> str:
    if interface not in INTERFACES:
        raise unknown_name(source, "interface", interface, INTERFACES, what="interface", keep_order=True)
    return interface


def parse_tool_call(action: str) -> ToolCall | None:
    """The app tool an action string calls (``app.tool(key=value, ...)``), None for any other
    action. Raises ``ValueError`` for a dotted call that is not a well-formed tool call."""
    try:
        tree = parse_code(action.strip(), mode="eval")
    except SyntaxError:
        return None
    call = tree.body
    if not (
        isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
    ):
        return None
    if call.args:
        raise ValueError(
            f"app tools take named arguments only, e.g. {call.func.value.id}.{call.func.attr}(title='...')"
        )
    args = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise ValueError("app tools take named arguments only (no **kwargs)")
        try:
            args[kw.arg] = ast.literal_eval(kw.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as e:
            raise ValueError(f"argument {kw.arg!r} is not a literal value ({e})") from None
    return ToolCall(call.func.value.id, call.func.attr, args)


def action_name(action: str) -> str:
    """The function an action string calls (``click`` for ``click('12')``), or ''."""
    try:
        call = parse_code(action.strip(), mode="eval").body
    except SyntaxError:
        return ""
    return call.func.id if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else ""


def refusal(interface: str, action: str, call: ToolCall | None) -> str:
    """Why ``interface`` refuses ``action`` ('' when it takes it)."""
    if interface == "gui" and call is not None:
        return "app tools are off in the gui interface; act on the page"
    if interface == "api" and call is None and action_name(action) not in API_PAGE_FREE_ACTIONS:
        allowed = ", ".join(API_PAGE_FREE_ACTIONS)
        return f"the api interface takes app tools (app.tool(name=value, ...)) and {allowed}; not page actions"
    return ""


def check_action(
    action: str,
    obs: dict | None,
    action_space: str,
    max_actions: int = 1,
    interface: str = "gui",
    viewport: tuple[int, int] | None = None,
    space_name: str = "viewport",
) -> ActionCheck:
    """One action checked before it runs, as ``interface`` takes actions: app tools (named
    arguments, a known app and tool) where it takes those, page actions
    (:func:`~openapps_sim.envs.actions.classify_action`) where it takes those. The sweep's
    runner and the LLM agents use it alike."""
    if action_problem(action) or interface == "gui":  # what cannot be an action is never parsed
        return classify_action(action, obs, action_space, viewport, max_actions, space_name)
    try:
        call = parse_tool_call(action)
    except ValueError as e:
        return ActionCheck("bad_arguments", str(e))
    refused = refusal(interface, action, call)
    if refused:
        return ActionCheck("unknown_action", refused)
    if call is None:
        return classify_action(action, obs, action_space, viewport, max_actions, space_name)
    tools = app_tools()
    if call.tool not in tools.get(call.app, {}):
        known = ", ".join(f"{a}.{t}" for a, ts in tools.items() for t in ts)
        return ActionCheck("unknown_action", f"{call.app}.{call.tool} is not an app tool; allowed: {known}")
    return ActionCheck("valid", "", f"{call.app}.{call.tool}", dict(call.args))


def app_tools(apps: Collection[str] | None = None) -> dict[str, dict[str, Operation | None]]:
    """Every app's tools by app and name (``read`` is built in: None); of ``apps`` only, when
    given (a task's: :func:`task_tool_apps`)."""
    from openapps_sim.config.catalog import discover_apps

    out: dict[str, dict[str, Operation | None]] = {}
    for name, spec in discover_apps().items():
        if not spec.home and (apps is None or name in apps):
            out[name] = {READ_OPERATION: None, **spec.load_operations()}
    return out


def task_tool_apps(task_info: dict | None) -> tuple[str, ...] | None:
    """The apps whose tools an agent is shown for a task: the task's apps (``task_info["apps"]``:
    its family's, and the app a navigation goal ends on); the start page has no tools. None (every
    app) without a task. Every app's tools stay callable; the list names only these."""
    apps = (task_info or {}).get("apps")
    return tuple(a for a in apps if a != "start") if apps else None


def describe_tools(apps: Collection[str] | None = None) -> str:
    """The app tools as an agent reads them: one signature and description a line (of ``apps``
    only, when given)."""
    lines = []
    for app, tools in app_tools(apps).items():
        for name, op in tools.items():
            if op is None:
                lines.append(f"{app}.read() -- the {app} app's data (ids of its items)")
                continue
            sig = ", ".join(p.name + ": " + p.type + ("" if p.required else f" = {p.default!r}") for p in op.params)
            doc = " ".join(op.doc.split())
            lines.append(f"{app}.{name}({sig}) -- {doc}")
    return "\n".join(lines)


def tool_action(app: str, tool: str, args: dict) -> str:
    """The action string of a tool call (what the MCP server and the oracle send)."""
    inner = ", ".join(f"{k}={v!r}" for k, v in args.items())
    return f"{app}.{tool}({inner})"
