"""What the MCP reward and attempt tests share: a server in this process reached through the MCP
SDK's own client (in memory), and episodes played through it by the oracle, page actions through
``act`` or app tools through the ``<app>_<operation>`` tools, as a tool-calling agent would.

The oracle is privileged: it reads the instance's parameters and the observation the session's
environment holds (the test reaches into the server for them); everything it does goes through
the client."""

from __future__ import annotations

from contextlib import asynccontextmanager

from mcp.shared.memory import create_connected_server_and_client_session

from agents.oracle import OracleAgent
from openapps_sim.envs.apptools import parse_tool_call
from openapps_sim.service.mcp_server import build_server

from .test_mcp import _data, run_async

# every key an act (or app tool) result may have: none of them says how close the goal is
STEP_KEYS = {"reward", "done", "truncated", "category", "last_action_error", "tool_result", "url", "steps", "max_steps"}


def run(main) -> None:
    """:func:`tests.test_mcp.run_async`, a failure shown as itself rather than inside the task
    groups of the in-memory transport."""
    try:
        run_async(main)
    except Exception as group:  # noqa: BLE001 - re-raised, unwrapped
        failure: BaseException = group
        while len(getattr(failure, "exceptions", ())) == 1:
            failure = failure.exceptions[0]
        if failure is group:
            raise
        raise failure from None


def text_of(result) -> str:
    assert not result.isError, result.content
    return result.content[0].text


def error_of(result) -> str:
    assert result.isError, result.content
    return result.content[0].text


@asynccontextmanager
async def memory_server(evaluator: bool = False, **client_options):
    """A fresh MCP server in this process and one client session of it (``client_options``: the
    SDK's, e.g. ``message_handler``)."""
    server = build_server(evaluator=evaluator)
    try:
        async with create_connected_server_and_client_session(server, **client_options) as client:
            yield server, client
    finally:
        server.sessions.close_now()


def only_session(server):
    """The environment of the server's one client (the oracle's privileged view)."""
    (session,) = server.sessions.all()
    return session


async def reset(client, task: str, **kwargs) -> dict:
    return _data(await client.call_tool("reset", {"task": task, "backend": "text", **kwargs}))


async def reward(client) -> dict:
    return _data(await client.call_tool("get_reward", {}))


async def send(client, action: str, interface: str) -> dict:
    """One action: an app tool's action as that MCP tool (unless the interface is gui, where
    it goes through act and is refused), any other through act."""
    call = parse_tool_call(action) if interface != "gui" else None
    if call is not None:
        result = await client.call_tool(f"{call.app}_{call.tool}", dict(call.args))
    else:
        result = await client.call_tool("act", {"action": action})
    return _data(result)


def replace_declaration(action: str, wrong: str | None) -> str:
    """``wrong`` instead of the oracle's answer or report (None: the oracle's own)."""
    if wrong is not None and action.startswith(("send_msg_to_user(", "report_infeasible(")):
        return wrong
    return action


async def play(
    server,
    client,
    task: str,
    interface: str,
    *,
    wrong: str | None = None,
    first: str | None = None,
    watch=None,
    **kwargs,
):
    """Reset ``task`` on the text backend and let the oracle play it through the client until
    the episode ends; ``wrong`` replaces its final answer or report, ``first`` is an action sent
    before the oracle's first. ``watch(step_result)`` is awaited after every step that did not
    end the episode. Returns the last step's result."""
    started = await reset(client, task, interface=interface, **kwargs)
    session = only_session(server)
    oracle = OracleAgent()
    oracle.interface = interface
    oracle.reset(started["goal"], session.info["task_info"])
    for n in range(started["max_steps"]):
        action = first if n == 0 and first else replace_declaration(oracle.act(session.obs), wrong)
        step = await send(client, action, interface)
        assert step["category"] == "valid", (task, action, step)
        if step["done"]:
            return step
        if watch is not None:
            await watch(step)
    raise AssertionError(f"{task}: the episode did not end within {started['max_steps']} steps")
