"""``openapps view RUNS...``: browse every episode of run folders in a local web page (see
docs/sweeps.md). The page is :mod:`openapps_sim.analysis.view`; this command checks the folders
and serves it with uvicorn, as ``openapps serve`` serves the apps."""

from __future__ import annotations

import argparse
from pathlib import Path

from openapps_sim.cli.args import add_command, listening_on, port
from openapps_sim.errors import ConfigError

RUN_FOLDERS = "a folder written by openapps sweep --out or openapps run --out, or a folder of such folders (runs/)"


SUMMARY = "browse every episode of run folders in a local web page"
DESCRIPTION = (
    "Serves a page over every episode of the run folders: filters by agent, task, app, version, "
    "outcome and failure kind, a search, each episode's steps (page image or tree, the exchange with the model), "
    "the state difference that decided its reward, and success flips side by side. Nothing leaves this machine."
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = add_command(sub, "view", SUMMARY, DESCRIPTION, cmd_view)
    s.add_argument("runs", nargs="+", metavar="RUN_DIR", help=f"run folders: each {RUN_FOLDERS}")
    s.add_argument("--port", type=port, default=0, help="TCP port; 0 picks a free one")
    s.add_argument("--host", default="127.0.0.1", help="address to bind")


def check_runs(runs: list[str]) -> list[Path]:
    """The run folders named, each checked to hold results (else one :class:`ConfigError`)."""
    from openapps_sim.sweeps.store import result_folders

    paths = [Path(r) for r in runs]
    for path in paths:
        if not path.exists():
            raise ConfigError("openapps view", str(path), "no such folder", RUN_FOLDERS)
        if not result_folders(path):
            raise ConfigError(str(path), "results.jsonl", "not found", RUN_FOLDERS)
    return paths


def cmd_view(args: argparse.Namespace) -> int:
    import uvicorn  # only the served page needs it

    from openapps_sim.analysis.view import build_app, load_episodes
    from openapps_sim.web.server import bind_socket

    episodes = load_episodes(check_runs(args.runs))
    with listening_on(args.host, args.port):
        sock = bind_socket(args.host, args.port)
    url = f"http://{args.host}:{sock.getsockname()[1]}/"
    folders = len(episodes.sources)
    print(f"openapps view: {len(episodes.rows)} episodes of {folders} run folder{'s' if folders != 1 else ''} at {url}")
    for note in episodes.notes:
        print(f"note: {note}")
    print("Press Ctrl+C to stop.", flush=True)
    config = uvicorn.Config(build_app(episodes), log_level="warning", access_log=False, lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])
    return 0
