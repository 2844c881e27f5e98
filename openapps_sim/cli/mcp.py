"""``openapps mcp``: the environment as an MCP server.

Commands import what only they need (the MCP SDK and the browser stack) inside their functions,
so that ``openapps --help`` and the other commands start without it.
"""

from __future__ import annotations

import argparse
import sys

from openapps_sim.cli.args import add_command, port

SUMMARY = "serve tasks, observations, actions and rewards as MCP tools (stdio, or HTTP with --port)"
DESCRIPTION = (
    "Each MCP session gets its own world and browser. Without --port the server speaks "
    "MCP over stdio; with --port it serves streamable HTTP at http://127.0.0.1:PORT/mcp. The tools are the "
    "agent's: get_reward tells the reward, not why (the explanation names the expected values); start an "
    "evaluator's server with --evaluator to have it explained."
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = add_command(sub, "mcp", SUMMARY, DESCRIPTION, cmd_mcp)
    s.add_argument(
        "--port", type=port, default=None, help="serve streamable HTTP on this port, 0 for a free one (default: stdio)"
    )
    s.add_argument("--host", default="127.0.0.1", help="loopback address to bind with --port (default: 127.0.0.1)")
    s.add_argument("--headed", action="store_true", help="show the browsers (needs a display; use xvfb-run)")
    s.add_argument(
        "--evaluator",
        action="store_true",
        help="get_reward also explains the reward with the expected values: for an evaluator's client, never "
        "for the agent under test (default: off)",
    )


def cmd_mcp(args: argparse.Namespace) -> int:
    from openapps_sim.service.mcp_server import serve_mcp

    def announce(url: str) -> None:
        mode = "evaluator mode: get_reward explains the reward" if args.evaluator else "agent mode"
        print(f"OpenApps-Sim MCP server ({mode}) at {url}", file=sys.stderr)
        print("Press Ctrl+C to stop.", file=sys.stderr, flush=True)

    serve_mcp(
        "http" if args.port is not None else "stdio",
        host=args.host,
        port=args.port or 0,
        headless=not args.headed,
        evaluator=args.evaluator,
        announce=announce,
    )
    return 0
