"""The ``openapps`` command.

Commands import what only they need (the web server, the sweep runner, pandas for reports)
inside their functions, so that ``openapps --help`` and the other commands start without it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import sys
from importlib.metadata import version
from pathlib import Path

from openapps_sim.cli import apps, export, judge, mcp, offline, openenv, questions, report, view
from openapps_sim.cli.agentflags import LLM_DEFAULT, add_agent_flags, agent_choice, chosen, repeat_flags
from openapps_sim.cli.args import (
    HelpFormatter,
    Parser,
    check_display,
    count,
    listening_on,
    port,
    positive,
    seed,
    shipped_specs,
)
from openapps_sim.cli.args import variation as pack_expression
from openapps_sim.cli.catalogue import cmd_agents, cmd_doctor, cmd_fonts, cmd_tasks, cmd_variations
from openapps_sim.cli.parity import add_parser as add_parity_parser
from openapps_sim.cli.run import cmd_run, discard_new_folders, output_folder
from openapps_sim.config.discovery import require_apps
from openapps_sim.config.limits import MAX_SAMPLE, MAX_SEEDS, MAX_STEPS, MAX_WORKERS, VIEWPORT_SIDES
from openapps_sim.errors import (
    EXIT_INFRASTRUCTURE,
    BrowserNotFound,
    ConfigError,
    InfrastructureError,
    OpenAppsError,
)
from openapps_sim.gcsettings import tune_gc
from openapps_sim.taskkit.language import goal_languages


def cmd_serve(args: argparse.Namespace) -> int:
    from openapps_sim.web.server import serve

    def announce(url: str, ms: float) -> None:
        print(
            f"OpenApps-Sim serving variation {args.variation!r}, seed {args.seed} at {url}/  (started in {ms:.0f} ms)"
        )
        if args.explore:
            print(f"Explore app versions at http://explore.localhost:{url.rsplit(':', 1)[1]}/_explore/")
        print("Press Ctrl+C to stop.", flush=True)

    with listening_on(args.host, args.port):
        serve(args.host, args.port, args.variation, args.seed, args.set, announce=announce, explore=args.explore)
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from openapps_sim.sweeps.spec import load_spec
    from openapps_sim.sweeps.store import read_results
    from openapps_sim.sweeps.sweep import check_before_running, run_sweep

    spec = load_spec(args.spec)
    if chosen(args):  # your agent in place of the spec's LLM agents
        spec = spec.with_agent(agent_choice(args, default=LLM_DEFAULT).entry())
    if args.backend:  # the one backend to run, instead of the spec's backends
        spec = dataclasses.replace(spec, backends=[args.backend])
    check_before_running(spec)  # every pack and agent problem at once, before counting episodes composes worlds
    out = Path(args.out or f"runs/{spec.name}")
    print(
        f"sweep {spec.name}: agents {', '.join(_agent_names(spec.agents))}; {len(spec.episodes())} episodes "
        f"({len(spec.agents)} agents x {len(spec.tasks)} tasks x {len(spec.variations)} variations x {len(spec.seeds)} seeds"
        f"{' x ' + str(len(spec.viewports)) + ' viewports' if len(spec.viewports) > 1 else ''}"
        f"{' x ' + str(spec.trials) + ' trials' if spec.trials > 1 else ''}) -> {out}"
    )
    from openapps_sim.sweeps.executors import SweepInterrupted

    try:
        summary = run_sweep(
            spec,
            out,
            args.workers,
            args.executor,
            args.resume,
            progress=not args.quiet,
            headless=not args.headed,
            limit=args.limit,
            ray_at=args.ray_address,
        )
    except SweepInterrupted as stop:
        done = len(read_results(out / "results.jsonl"))
        print(
            f"openapps: sweep {stop}; {done} episodes are recorded in {out}. Continue with:\n"
            f"  openapps sweep {args.spec} --out {out} --resume{_executor_flags(args)}"
            f"{' ' + repeat_flags(args) if chosen(args) else ''}",
            file=sys.stderr,
        )
        return 128 + stop.signum
    print(json.dumps(summary))
    if not args.no_report:
        return report.cmd_report(argparse.Namespace(dir=str(out), quiet=False))
    return 0


def _executor_flags(args: argparse.Namespace) -> str:
    """The executor flags given, as they would be typed again (to resume a sweep)."""
    words = ["--executor", args.executor] if args.executor != "local" else []
    words += ["--ray-address", args.ray_address] if args.ray_address else []
    return "".join(f" {shlex.quote(w)}" for w in words)


def _agent_names(agents: list[dict]) -> list[str]:
    """Each agent of a spec as results will name it: ``label (name)``, or its name."""
    return [f"{a['label']} ({a['name']})" if a.get("label") else a["name"] for a in agents]


def cmd_gallery(args: argparse.Namespace) -> int:
    from openapps_sim.cli.gallery import build_gallery

    index = build_gallery(
        output_folder(args.out), packs=args.packs, apps=args.apps, width=args.width, height=args.height
    )
    print(f"gallery: {index}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="openapps",
        description="Offline apps, variations, tasks, agents and sweeps for UI agents.",
        formatter_class=HelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"openapps-sim {version('openapps-sim')}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_serve(sub)
    _add_catalogue(sub)
    _add_run(sub)
    _add_sweep(sub)
    add_parity_parser(sub)
    _add_report_and_tools(sub)
    apps.add_parser(sub)
    export.add_parser(sub)
    judge.add_parser(sub)
    mcp.add_parser(sub)
    openenv.add_parser(sub)
    offline.add_parser(sub)
    questions.add_parser(sub)
    view.add_parser(sub)
    for parser in sub.choices.values():
        parser.formatter_class = HelpFormatter
    return p


def _add_serve(sub) -> None:
    """``openapps serve``."""
    s = sub.add_parser("serve", help="serve the apps for interactive browsing")
    s.add_argument(
        "--variation", type=pack_expression, default="default", help="pack expression, e.g. dark_theme+german"
    )
    s.add_argument("--seed", type=seed, default=0, help="world seed (generated content, ids)")
    s.add_argument("--port", type=port, default=0, help="TCP port; 0 picks a free one")
    s.add_argument("--host", default="127.0.0.1", help="address to bind")
    s.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help='override one config value, e.g. todo.title="Super Todo"',
    )
    s.add_argument(
        "--explore",
        action="store_true",
        help="add a control page at http://explore.localhost:PORT/_explore/ to compose packs, switch the "
        "running world and compare two versions side by side (default: off)",
    )
    s.set_defaults(func=cmd_serve)


def _add_catalogue(sub) -> None:
    """``openapps variations``, ``tasks`` and ``agents``."""
    s = sub.add_parser("variations", help="list, show or sample variation packs")
    s.add_argument("action", nargs="?", default="list", choices=["list", "show", "sample"], help="what to do")
    s.add_argument("expression", nargs="?", default="default", help="for show: a pack expression")
    s.add_argument("--n", type=count(MAX_SAMPLE), default=10, help="for sample: how many packs to write")
    s.add_argument("--seed", type=seed, default=0, help="for sample: the first generated seed")
    s.add_argument("--out", default="sampled-packs", help="for sample: the folder to write the packs to")
    s.add_argument("--check", action="store_true", help="for sample: validate every written pack")
    s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="for show: override one value")
    s.set_defaults(func=cmd_variations)

    s = sub.add_parser("tasks", help="list the task families and their distinct instances")
    s.add_argument(
        "--seeds",
        type=count(MAX_SEEDS, low=0),
        default=0,
        help="also count distinct instances over seeds 0..N-1 (100 takes about half a minute of CPU; "
        "default: 0, not counted)",
    )
    s.add_argument("--variation", type=pack_expression, default="default", help="pack expression to instantiate under")
    s.add_argument(
        "--oracle-steps",
        action="store_true",
        help="also run the oracle once per family (text backend) and show its steps",
    )
    s.add_argument(
        "--match", action="append", default=[], metavar="PATTERN", help="only the ids matching (e.g. 'shop.*')"
    )
    s.set_defaults(func=cmd_tasks)

    s = sub.add_parser("agents", help="list the agents and their configs")
    s.set_defaults(func=cmd_agents)


def _add_run(sub) -> None:
    """``openapps run``."""
    s = sub.add_parser("run", help="run one episode and print it")
    s.add_argument(
        "--agent", default=None, help="registry name or package.module:Class (default: the config's agent, else oracle)"
    )
    s.add_argument("--agent-config", default=None, help="a YAML path or a name in agents/configs/")
    s.add_argument("--task", required=True, help="a task family id (openapps tasks lists them)")
    s.add_argument("--variation", default="default", help="pack expression of the app version")
    s.add_argument("--seed", type=seed, default=0, help="task seed (which instance)")
    s.add_argument("--max-steps", type=count(MAX_STEPS), default=None, help="step budget (default: the family's)")
    s.add_argument("--viewport", default="1280x720", help="browser viewport WIDTHxHEIGHT")
    s.add_argument(
        "--language",
        default="auto",
        choices=[*goal_languages(), "auto"],
        help="goal language (a tasks/phrasings/<lang>.yaml), or auto: the world's language, the packs' shell.lang "
        "(default: auto)",
    )
    s.add_argument("--headed", action="store_true", help="show the browser (needs a display: use xvfb-run)")
    s.add_argument(
        "--out", default=None, help="write the record, trajectory and screenshots here (default: print the result only)"
    )
    s.add_argument(
        "--no-screenshots",
        dest="screenshots",
        action="store_false",
        help="with --out: record no screenshots (default: screenshots are recorded)",
    )
    s.add_argument(
        "--verbose",
        action="store_true",
        help="print the agent's thought at every step and a failed action's whole error, Playwright's call log "
        "included (default: one line per step and error)",
    )
    s.add_argument(
        "--backend",
        choices=["chromium", "text"],
        default="chromium",
        help="chromium: a real headless browser; text: no browser, the same accessibility tree (default: chromium)",
    )
    s.add_argument(
        "--termination",
        choices=["auto", "agent"],
        default="auto",
        help="auto: the episode ends once the state is right (the paper's); agent: only when the agent declares it "
        "is done (send_msg_to_user or report_infeasible) or its step budget is spent (default: auto)",
    )
    add_agent_flags(s)
    s.set_defaults(func=cmd_run)


def _add_sweep(sub) -> None:
    """``openapps sweep``."""
    specs = ", ".join(shipped_specs())
    s = sub.add_parser(
        "sweep",
        help="run a sweep spec and write its report",
        description=f"Run every episode of a sweep spec. Shipped specs: {specs}.",
    )
    s.add_argument("spec", help=f"a YAML spec path, or a shipped spec: {specs}")
    s.add_argument(
        "--workers", type=count(MAX_WORKERS), default=None, help="worker processes (default: the spec's workers)"
    )
    s.add_argument("--executor", default="local", choices=["local", "ray"], help="where workers run")
    s.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDRESS",
        help="with --executor ray, join this running Ray cluster: HOST:PORT, or auto "
        "(default: $RAY_ADDRESS, else a local Ray)",
    )
    s.add_argument(
        "--backend",
        choices=["chromium", "text"],
        default=None,
        help="run every episode on this backend (docs/backends.md) (default: the spec's backends)",
    )
    s.add_argument("--out", default=None, help="results folder (default: runs/<spec name>)")
    s.add_argument("--resume", action="store_true", help="continue a stopped sweep in --out")
    s.add_argument(
        "--limit", type=positive, default=None, help="run at most this many pending episodes (default: all of them)"
    )
    s.add_argument("--quiet", action="store_true", help="no progress line")
    s.add_argument("--no-report", action="store_true", help="do not write the report at the end")
    s.add_argument("--headed", action="store_true", help="show the browsers (needs a display: use xvfb-run)")
    add_agent_flags(s, sweep=True)
    s.set_defaults(func=cmd_sweep)


def _add_report_and_tools(sub) -> None:
    """``openapps report``, ``gallery``, ``fonts`` and ``doctor``."""
    report.add_parser(sub)

    s = sub.add_parser("gallery", help="screenshot every app under every pack into a side-by-side page")
    s.add_argument("--out", default="gallery", help="folder for the screenshots and index.html")
    s.add_argument("--packs", nargs="*", default=None, help="pack expressions (default: every shipped pack)")
    s.add_argument("--apps", nargs="*", default=None, help="apps to show (default: all)")
    s.add_argument(
        "--width",
        type=count(VIEWPORT_SIDES[1], VIEWPORT_SIDES[0]),
        default=1280,
        help="viewport width for desktop packs",
    )
    s.add_argument(
        "--height",
        type=count(VIEWPORT_SIDES[1], VIEWPORT_SIDES[0]),
        default=800,
        help="viewport height for desktop packs",
    )
    s.set_defaults(func=cmd_gallery)

    s = sub.add_parser("fonts", help="fetch the web fonts into the local cache (from the npm registry)")
    s.add_argument("--quiet", action="store_true", help="print nothing")
    s.set_defaults(func=cmd_fonts)

    s = sub.add_parser("doctor", help="check the browser, fonts and apps")
    s.set_defaults(func=cmd_doctor)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    tune_gc()
    discard_new_folders(keep=True)
    try:
        check_display(args)
        if (args.command, getattr(args, "action", None)) != ("apps", "check"):
            require_apps()  # a broken app.yaml: its problems, not a traceback (checking another app is fine)
        return args.func(args)
    except BrokenPipeError:
        # the reader went away (openapps variations show ... | head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ConfigError, BrowserNotFound) as e:
        discard_new_folders()  # a mistake in the input writes nothing
        for line in str(e).splitlines():  # every problem of the input (ConfigErrors), one line each
            print(f"openapps: error: {line}", file=sys.stderr)
        return 2
    except InfrastructureError as e:
        print(f"openapps: infrastructure error: {e}", file=sys.stderr)
        return EXIT_INFRASTRUCTURE
    except OpenAppsError as e:
        print(f"openapps: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
