"""``openapps apps``: every app (hand-built or described from an ``app.yaml``) with its Google Play
category and task families, ``openapps apps check PATH`` for a description, and ``openapps apps
new DESCRIPTION`` for a model to write one (:mod:`openapps_sim.cli.appsnew`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from openapps_sim.cli.appcheck import family_problem
from openapps_sim.cli.appsnew import add_arguments as add_new_arguments
from openapps_sim.config.discovery import check_app_folder, discover_apps
from openapps_sim.errors import ConfigError


def app_rows() -> list[dict]:
    """One mapping per app of the start page's order: name, title, category, source, families."""
    from openapps_sim.config.catalog import base_config
    from openapps_sim.taskkit import all_families

    fams = all_families()
    config = base_config()
    rows = []
    for name, spec in discover_apps().items():
        if spec.home:
            continue  # the start page is the launcher, not an app
        families = sorted(fid for fid, fam in fams.items() if name in fam.apps)
        title = config[name].get("title", name)
        rows.append(
            {
                "name": name,
                "title": title,
                "category": spec.category,
                "source": getattr(spec, "source", "hand-built"),
                "families": families,
            }
        )
    return rows


def cmd_apps(args: argparse.Namespace) -> int:
    if args.action == "new":
        from openapps_sim.cli.appsnew import cmd_new

        return cmd_new(args)
    if args.action == "check":
        if not args.path:
            raise ConfigError(
                "openapps apps check", "PATH", "missing", "the folder of a described app (it holds app.yaml)"
            )
        spec = check_app_folder(Path(args.path))
        too_few = family_problem(spec, str(Path(args.path) / "app.yaml"))
        if too_few:
            raise too_few
        ops = spec.load_operations()
        print(f"{args.path}: app {spec.name!r} ({spec.category}) is valid: {len(ops)} operations")
        return 0
    rows = app_rows()
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    table = [("name", "category", "source", "families")]
    table += [(r["name"], r["category"], r["source"], str(len(r["families"]))) for r in rows]
    widths = [max(len(r[i]) for r in table) for i in range(4)]
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    categories = {r["category"] for r in rows}
    print(f"\n{len(rows)} apps in {len(categories)} categories; docs/apps/spec.md describes an app in one file")
    return 0


def add_parser(sub) -> None:
    s = sub.add_parser("apps", help="list the apps (category, source, families), or check a described app")
    s.add_argument(
        "action",
        nargs="?",
        choices=["list", "check", "new"],
        default="list",
        help="list (the listing, when left out), check PATH, or new DESCRIPTION (a model writes the app)",
    )
    s.add_argument(
        "path",
        nargs="?",
        default="",
        help="check: the folder holding app.yaml; new: what the app is for (default: none)",
    )
    s.add_argument("--json", action="store_true", help="print a JSON list of {name, title, category, source, families}")
    add_new_arguments(s)
    s.set_defaults(func=cmd_apps)
