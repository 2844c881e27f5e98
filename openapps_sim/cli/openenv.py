"""``openapps openenv``: the environment as an OpenEnv server (the ``openenv`` extra).

The server module (and with it ``openenv-core``) is imported only when the command runs, so
``openapps --help`` and the other commands work without the extra.
"""

from __future__ import annotations

import argparse
import sys

from openapps_sim.cli.args import add_command, port, positive
from openapps_sim.errors import ConfigError

INSTALL = "pip install 'openapps-sim[openenv]'"


def idle_seconds(text: str) -> float | None:
    """``--idle-timeout``: seconds (0: never)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (0 or more; 0: never)")
    return value or None


SUMMARY = "serve the tasks over OpenEnv's protocol (WebSocket sessions for RL trainers; the openenv extra)"
DESCRIPTION = (
    "Serves OpenEnv's HTTP and WebSocket API (openenv-core's create_app) at http://HOST:PORT: "
    "each WebSocket session (/ws) is one environment with its own world. reset(task=..., variation=..., "
    "seed=..., backend='text'|'chromium', interface=..., termination=...), then step({'action': "
    '"click(\'12\')"}); reward and done are the environment\'s own verdict. docs/training.md, "OpenEnv".'
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = add_command(sub, "openenv", SUMMARY, DESCRIPTION, cmd_openenv)
    s.add_argument("--port", type=port, default=8000, help="TCP port, 0 for a free one (default: 8000)")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    s.add_argument("--max-sessions", type=positive, default=64, help="concurrent sessions at most (default: 64)")
    s.add_argument(
        "--idle-timeout",
        type=idle_seconds,
        default=600.0,
        help="close a session after this many seconds without a reset or step, 0 for never (default: 600)",
    )
    s.add_argument("--headed", action="store_true", help="show the Chromium backend's browsers (needs a display)")


def cmd_openenv(args: argparse.Namespace) -> int:
    try:
        from openapps_sim.service.openenv_server import serve_openenv
    except ImportError as e:
        raise ConfigError("openenv", "openenv-core", f"not installed ({e})", INSTALL) from None

    def announce(url: str) -> None:
        print(f"OpenApps-Sim OpenEnv server at {url} (sessions at {url.replace('http', 'ws', 1)}/ws)", file=sys.stderr)
        print("Press Ctrl+C to stop.", file=sys.stderr, flush=True)

    serve_openenv(
        host=args.host,
        port=args.port,
        headless=not args.headed,
        max_sessions=args.max_sessions,
        idle_timeout=args.idle_timeout,
        announce=announce,
    )
    return 0
