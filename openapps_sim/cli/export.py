"""``openapps export``: sweep results to a training dataset (see docs/sweeps.md).

Commands import what only they need (pandas and Parquet) inside their functions, so that
``openapps --help`` and the other commands start without it.
"""

from __future__ import annotations

import argparse

from openapps_sim.cli.args import add_command
from openapps_sim.cli.run import output_folder

SUMMARY = "turn sweep results and trajectories into a Parquet dataset (one row per step)"
DESCRIPTION = (
    "Writes OUT/data/<split>-00000.parquet, OUT/README.md (the dataset card) and, with "
    "--images path, OUT/screenshots/. Loadable with pandas.read_parquet and datasets.load_dataset('parquet')."
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = add_command(sub, "export", SUMMARY, DESCRIPTION, cmd_export)
    s.add_argument(
        "runs",
        nargs="+",
        metavar="RUN_DIR",
        help="results folders of openapps sweep or openapps run --out, or folders of them (runs/)",
    )
    s.add_argument("--out", required=True, help="the dataset folder (new or empty)")
    s.add_argument(
        "--split",
        action="append",
        default=[],
        metavar="NAME=PATTERN[,PATTERN]",
        help="put app versions matching a glob (over the expression or any of its packs) in split NAME; "
        "repeatable; first match wins (e.g. --split test=german,random-*)",
    )
    s.add_argument("--rest", default="train", help="split of every other app version (default: train)")
    s.add_argument(
        "--images",
        default="path",
        choices=["path", "bytes", "none"],
        help="screenshots as files next to the data, as PNG bytes in the rows, or not at all (default: path)",
    )
    s.add_argument("--successes-only", action="store_true", help="leave out failed episodes (default: keep them)")


def cmd_export(args: argparse.Namespace) -> int:
    from openapps_sim.analysis.export import export_dataset, parse_splits

    output_folder(args.out)
    summary = export_dataset(
        args.runs,
        args.out,
        splits=parse_splits(args.split),
        rest=args.rest,
        images=args.images,
        include_failures=not args.successes_only,
    )
    for split, rows in summary["rows"].items():
        print(f"{split}: {summary['episodes'].get(split, 0)} episodes, {rows} rows")
    skipped = ", ".join(f"{n} ({why})" for why, n in summary["skipped"].items()) or "none"
    print(f"skipped: {skipped}")
    print(f"dataset: {summary['out']} ({summary['bytes'] / 1e6:.1f} MB)")
    return 0
