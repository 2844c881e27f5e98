"""``openapps parity``: does the text backend show what Chromium shows?

Runs the oracle (or another agent) on each task x variation x seed under Chromium, replays its
actions under the text backend in the same world, and compares every observation as agents read
it (:mod:`openapps_sim.sweeps.parity`). Prints one line per episode, every difference found,
and the totals; ``--out`` writes them as JSON. Exit status 1 when anything differs.

Commands import what only they need (the parity runner and its browser) inside their functions,
so that ``openapps --help`` and the other commands start without it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

from openapps_sim.cli.args import seed, variation
from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import Problems
from openapps_sim.taskkit import all_families, get_family

DEFAULT_VARIATIONS = ("default", "german", "arabic+mobile", "dense", "interrupt_mixed", "palette_nord+large_text")


def add_parser(sub) -> None:
    s = sub.add_parser("parity", help="compare the text backend's observations with Chromium's, step by step")
    s.add_argument("--tasks", nargs="*", default=None, help="task families (default: every family)")
    s.add_argument(
        "--variations",
        nargs="*",
        type=variation,
        default=list(DEFAULT_VARIATIONS),
        help=f"pack expressions (default: {' '.join(DEFAULT_VARIATIONS)})",
    )
    s.add_argument("--seeds", nargs="*", type=seed, default=[0], help="task seeds (default: 0)")
    s.add_argument("--agent", default="oracle", help="the agent whose actions are compared (default: oracle)")
    s.add_argument("--out", default=None, help="write the result as JSON to this file (default: print only)")
    s.set_defaults(func=cmd_parity)


def cmd_parity(args: argparse.Namespace) -> int:
    from openapps_sim.envs.browser import browsers_kept_open
    from openapps_sim.sweeps.parity import Parity, check

    tasks = args.tasks or sorted(all_families())
    problems = Problems()
    for task in tasks:
        problems.check(get_family, task)
    problems.raise_any()
    variations = list(dict.fromkeys(args.variations))  # two spellings of one version: one
    total = Parity()
    failed: list[str] = []
    t0 = time.perf_counter()
    with browsers_kept_open():  # one browser for every episode, not a launch each
        for variation, task, seed in itertools.product(variations, tasks, args.seeds):
            try:
                # variation and seed: checked (and written one way) as the command line was read
                result = check(task, WorldSpec(variation, seed), agent=args.agent)
            except Exception as exc:  # noqa: BLE001 - reported, the check goes on
                failed.append(f"{task} {variation} seed {seed}: {type(exc).__name__}: {exc}")
                print(f"{task} {variation} seed {seed}: could not run ({type(exc).__name__}: {exc})", flush=True)
                continue
            total.add(result)
            state = "identical" if not result.differences else f"{len(result.differences)} difference(s)"
            print(f"{task} {variation} seed {seed}: {result.identical}/{result.pages} pages, {state}", flush=True)
            for d in result.differences:
                print("    " + d.line().replace("\n", "\n    "), flush=True)
    print(
        f"parity: {total.identical}/{total.pages} observations identical ({100 * total.share:.2f}%), "
        f"{total.rewards_equal}/{total.episodes} final rewards equal, {len(total.differences)} difference(s), "
        f"{len(failed)} episode(s) not run, {time.perf_counter() - t0:.0f} s"
    )
    if args.out:
        payload = {
            "pages": total.pages,
            "identical": total.identical,
            "episodes": total.episodes,
            "rewards_equal": total.rewards_equal,
            "differences": [d.__dict__ for d in total.differences],
            "not_run": failed,
        }
        Path(args.out).write_text(json.dumps(payload, indent=1, ensure_ascii=False))
    return 0 if not total.differences and not failed else 1
