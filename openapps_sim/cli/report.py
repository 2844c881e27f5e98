"""``openapps report``: report.md and report.html for a results folder (docs/metrics.md).

The command imports the analysis (pandas) inside its function, so that ``openapps --help`` and
the other commands start without it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from openapps_sim.cli.args import count
from openapps_sim.errors import ConfigError


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("report", help="write report.md and report.html for a results folder")
    s.add_argument(
        "dir", help="a results folder of openapps sweep or openapps run --out, or a folder of such folders (runs/)"
    )
    s.add_argument("--paper", action="store_true", help="also write the OpenApps paper's views alone to paper.md")
    s.add_argument(
        "--summary",
        action="store_true",
        help="write only summary.md and summary.html: the headline, robustness, per variation, where it "
        "breaks, failures and the manifest (a long report at a glance)",
    )
    s.add_argument(
        "--loop-repeats",
        type=count(1000, low=2),
        default=2,
        help="a loop is a block repeated at least this often (paper: 2)",
    )
    s.add_argument(
        "--by",
        choices=["app_category"],
        default=None,
        help="also print success and the deviation within and across versions per agent and app category "
        "(the report always has the section) (default: the headline only)",
    )
    s.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from openapps_sim.analysis.report.analysis import headline_table
    from openapps_sim.analysis.report.load import load_results
    from openapps_sim.analysis.report.write import write_report
    from openapps_sim.sweeps.store import result_folders

    out = Path(args.dir)
    if not result_folders(out):
        raise ConfigError(
            str(out),
            "results.jsonl",
            "not found",
            "a folder written by openapps sweep or openapps run --out, or a folder of such folders",
        )
    md, html = write_report(
        out,
        min_repeats=getattr(args, "loop_repeats", 2),
        paper=getattr(args, "paper", False),
        summary_only=getattr(args, "summary", False),
    )
    if not getattr(args, "quiet", False):
        results = load_results(out)
        print(headline_table(results, min_repeats=getattr(args, "loop_repeats", 2)))
        if getattr(args, "by", None) == "app_category":
            from openapps_sim.analysis.metrics.appcategories import app_category_text

            print("\nBy app category:\n" + app_category_text(results, getattr(args, "loop_repeats", 2)))
        print(f"\nreport: {md}\n        {html}")
        if getattr(args, "paper", False):
            print(f"        {out / 'paper.md'}")
    return 0
