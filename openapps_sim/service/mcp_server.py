"""OpenApps-Sim as an MCP server (``openapps mcp``): tasks, resets, observations, actions and
rewards as tools, over stdio or streamable HTTP on 127.0.0.1.

Every MCP session (one client connection) gets its own :class:`EnvSession` — its own world,
browser context and episode — so two clients never share state. Actions are BrowserGym action
strings; the reward is the environment's own verdict, as ``gym.make``'s step gives it and a sweep
records it.
"""

from __future__ import annotations

import logging
import socket
import weakref
from collections.abc import Callable
from typing import Any

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.lowlevel.server import NotificationOptions
from mcp.types import Tool
from pydantic import ValidationError

from openapps_sim.errors import ConfigError, OpenAppsError
from openapps_sim.service.app_tools import register_app_tools
from openapps_sim.service.mcp_tools import TOOLS, UNSTRUCTURED
from openapps_sim.service.session import EnvSession

INSTRUCTIONS = """Offline web apps (todo, calendar, messenger, maps, shop, code editor) as tasks.
Call reset(task, variation, seed) to start an episode and read the goal; observe() shows the page
(accessibility tree with [bid] marks, or a screenshot); act(action) runs one BrowserGym action
such as click('12') or fill('7', 'milk'); get_reward() gives the episode's reward once it has
ended. Send the answer of a question task with act("send_msg_to_user('...')"). Each task and seed
can be attempted once per session.
reset's interface is 'gui' (page actions only) unless you choose 'api' or 'mixed': then the apps'
own tools are listed too (todo_add_item, calendar_create_event, shop_add_to_cart, ...; <app>_read
shows an app's data and ids); with interface='api' only the app tools (and act with
send_msg_to_user) work. Every tool's result is a typed object (see its output schema)."""


_PLAIN_TYPES = {
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false",
    "string": "text",
    "list": "a list",
    "dict": "an object",
}


def argument_error(tool: str, error: ValidationError) -> str:
    """A tool call whose arguments fail the tool's types, as one sentence per argument naming
    the tool, the argument and the type it takes (not pydantic's report with its URL)."""
    parts = []
    for item in error.errors():
        key = ".".join(str(p) for p in item.get("loc", ()) if p != tool + "Arguments") or "arguments"
        kind = str(item.get("type", ""))
        if kind == "missing":
            parts.append(f"{tool}: {key}: missing; allowed: a value for every required argument")
            continue
        wanted = next((words for name, words in _PLAIN_TYPES.items() if kind.startswith(name)), kind)
        parts.append(f"{tool}: {key}: expected {wanted}, got {item.get('input')!r}")
    return "; ".join(parts) or f"{tool}: arguments: {error}"


class OpenAppsMCP(FastMCP):
    """FastMCP whose errors are one sentence: argument types (see :func:`argument_error`) and
    this package's own errors without the SDK's "Error executing tool" in front; whose app tools
    (:attr:`app_tool_names`) are callable only in a session whose interface has them, and listed
    there only for the apps of the episode's task (``EnvSession.listed_tool_apps``);
    and which tells its clients when the tools it lists change (``tools.listChanged``)."""

    app_tool_names: dict[str, str] = {}  # set once, at build: each app tool with its app

    def _client_env(self) -> EnvSession | None:
        """The environment of the client whose request is being answered (None outside one)."""
        ctx = self.get_context()
        try:
            ctx.session  # noqa: B018 - raises outside a request
        except ValueError:
            return None
        return self.sessions.get(ctx)  # type: ignore[attr-defined]

    async def list_tools(self) -> list[Tool]:
        tools = await super().list_tools()
        env = self._client_env()
        listed = None if env is None else env.listed_tool_apps()
        if listed is None:
            return tools
        return [t for t in tools if t.name not in self.app_tool_names or self.app_tool_names[t.name] in listed]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        env = self._client_env() if name in self.app_tool_names else None
        if env is not None and not env.app_tools_allowed():
            raise ToolError(
                f"{name}: interface: the episode's interface is {env.interface!r}, which has no app tools; "
                "allowed: page actions through act, or reset with interface='api' or 'mixed'"
            )
        try:
            return await super().call_tool(name, arguments)
        except ToolError as e:
            if isinstance(e.__cause__, ValidationError):
                raise ToolError(argument_error(name, e.__cause__)) from None
            if isinstance(e.__cause__, OpenAppsError):  # already one sentence naming tool and key
                raise ToolError(str(e.__cause__)) from None
            raise


class _ClientGone(logging.Filter):
    """The SDK logs a traceback each time an HTTP client disconnects (its SSE stream closes);
    a client going away is not an error of the server."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream))


class _UnlistedAppTool(logging.Filter):
    """The SDK warns that a tool it did not list is called without checks; an app tool called in
    a gui session is refused before it runs (:class:`OpenAppsMCP`), which is the answer."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.getMessage().startswith("Tool '") and "not listed" in record.getMessage())


_UNLISTED = _UnlistedAppTool()


class Sessions:
    """The environment of each connected client, closed when its session goes away."""

    def __init__(self, headless: bool = True, evaluator: bool = False) -> None:
        self.headless = headless
        self.evaluator = evaluator
        self._by_id: dict[int, EnvSession] = {}

    def get(self, ctx: Context) -> EnvSession:
        key = id(ctx.session)
        found = self._by_id.get(key)
        if found is None:
            found = self._by_id[key] = EnvSession(headless=self.headless, evaluator=self.evaluator)
            weakref.finalize(ctx.session, self._forget, key)
        return found

    def _forget(self, key: int) -> None:
        session = self._by_id.pop(key, None)
        if session is not None:
            session.close_on_its_thread()

    def all(self) -> list[EnvSession]:
        """The environment of every connected client."""
        return list(self._by_id.values())

    def close_now(self) -> None:
        """Close every session's environment (at exit, on the browser thread)."""
        for key in list(self._by_id):
            session = self._by_id.pop(key)
            session.close_on_its_thread().result(timeout=30)

    def __len__(self) -> int:
        return len(self._by_id)


def build_server(host: str = "127.0.0.1", port: int = 8765, headless: bool = True, evaluator: bool = False) -> FastMCP:
    """The MCP server with every tool registered. ``evaluator``: ``get_reward`` also explains the
    reward (the state paths that differ, with the expected values), for an evaluator's client;
    off by default, because the client is usually the agent being evaluated."""
    mcp = OpenAppsMCP("openapps-sim", instructions=INSTRUCTIONS, host=host, port=port, log_level="WARNING")
    sessions = Sessions(headless=headless, evaluator=evaluator)
    mcp.sessions = sessions  # type: ignore[attr-defined]

    for tool in TOOLS:
        mcp.tool(structured_output=tool not in UNSTRUCTURED)(tool)
    mcp.app_tool_names = register_app_tools(mcp, sessions.get)
    _announce_tool_list_changes(mcp)
    logging.getLogger("mcp.server.lowlevel.server").addFilter(_UNLISTED)
    return mcp


def _announce_tool_list_changes(mcp: FastMCP) -> None:
    """The server's capabilities say that its tool list changes (a reset that chooses another
    interface sends ``notifications/tools/list_changed``); the SDK's FastMCP says it never does."""
    server = mcp._mcp_server  # the SDK's low-level server: every transport asks it for its options
    plain = server.create_initialization_options

    def with_tool_changes(notification_options=None, experimental_capabilities=None):  # noqa: ANN001, ANN202
        options = notification_options or NotificationOptions(tools_changed=True)
        return plain(options, experimental_capabilities)

    server.create_initialization_options = with_tool_changes


def serve_mcp(
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    headless: bool = True,
    evaluator: bool = False,
    announce: Callable[[str], None] | None = None,
) -> None:
    """Run the server until the client (stdio) or the process (HTTP) goes away. Over HTTP the
    port is bound first (a port in use is a :class:`ConfigError`; 0 picks a free one) and
    ``announce`` is called with the server's URL."""
    if transport not in ("stdio", "http"):
        raise ConfigError("--transport", "transport", f"unknown {transport!r}", "stdio, http")
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ConfigError("--host", "host", f"{host!r} is not a loopback address", "127.0.0.1, localhost, ::1")
    mcp = build_server(host=host, port=port, headless=headless, evaluator=evaluator)
    try:
        if transport == "stdio":
            mcp.run(transport="stdio")
        else:
            sock = bind_port(host, port)
            url = f"http://{host}:{sock.getsockname()[1]}/mcp"
            if announce:
                announce(url)
            anyio.run(_serve_http, mcp, sock)
    finally:
        mcp.sessions.close_now()  # type: ignore[attr-defined]


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (0: a free port); a port that cannot be had is a
    :class:`ConfigError` naming it (the MCP and OpenEnv servers bind before they announce)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise ConfigError(
            "--port", str(port), f"cannot listen on {host}:{port} ({e.strerror})", "a free port, or 0"
        ) from None
    return sock


async def _serve_http(mcp: FastMCP, sock: socket.socket) -> None:
    import uvicorn  # only an HTTP server needs it (stdio does not)

    logging.getLogger("mcp.server.streamable_http").addFilter(_ClientGone())
    config = uvicorn.Config(mcp.streamable_http_app(), log_level="warning", access_log=False)
    await uvicorn.Server(config).serve(sockets=[sock])
