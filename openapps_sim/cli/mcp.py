"""``openapps mcp``: the environment as an MCP server."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser(
        "mcp",
        help="serve tasks, observations, actions and rewards as MCP tools (stdio, or HTTP with --port)",
        description="Each MCP session gets its own world and browser. Without --port the server speaks "
        "MCP over stdio; with --port it serves streamable HTTP at http://127.0.0.1:PORT/mcp.",
    )
    s.add_argument("--port", type=int, default=None, help="serve streamable HTTP on this port (default: stdio)")
    s.add_argument("--host", default="127.0.0.1", help="loopback address to bind with --port (default: 127.0.0.1)")
    s.add_argument("--headed", action="store_true", help="show the browsers (needs a display; use xvfb-run)")
    s.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from openapps_sim.errors import ConfigError
    from openapps_sim.service.mcp_server import serve_mcp

    if args.port is not None and not 0 < args.port < 65536:
        raise ConfigError("--port", "port", f"{args.port} is not a TCP port", "1-65535")
    serve_mcp("http" if args.port else "stdio", host=args.host, port=args.port or 0, headless=not args.headed)
    return 0
