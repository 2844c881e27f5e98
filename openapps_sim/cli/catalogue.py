"""Commands that show what is installed: variations, tasks, agents, fonts, and the doctor."""

from __future__ import annotations

import argparse
import sys
import time
from importlib import resources
from pathlib import Path

import yaml

from openapps_sim.agent import load_agent_class, registered_agents
from openapps_sim.cli.instances import DEFAULT_FLOOR, DEFAULT_SEEDS, below_floor, cap_notes, distinct_instances
from openapps_sim.cli.oraclesteps import matching, oracle_steps
from openapps_sim.cli.run import output_folder
from openapps_sim.config.catalog import compose
from openapps_sim.config.packs import list_packs, pack_description
from openapps_sim.config.sampler import write_samples
from openapps_sim.envs.browser import chromium_version, find_chromium
from openapps_sim.errors import BrowserNotFound
from openapps_sim.taskkit import ENGLISH_STYLES, all_families
from openapps_sim.web.fonts import WEB_FONTS, available, fetch, font_dir


def cmd_variations(args: argparse.Namespace) -> int:
    if args.action == "sample":
        output_folder(args.out)
        names = write_samples(args.n, args.seed, args.out)
        if args.check:
            for name in names:
                compose(str(Path(args.out) / f"{name}.yaml"))
        print(f"wrote {len(names)} packs to {args.out} ({names[0]} ... {names[-1]})")
        return 0
    if args.action == "show":
        print(yaml.safe_dump(compose(args.expression, args.set), allow_unicode=True, sort_keys=False))
        return 0
    packs = list_packs()
    width = max(len(n) for n in packs)
    for name in packs:
        print(f"{name:<{width}}  {pack_description(name)}")
    print(f"{'random-<seed>':<{width}}  a generated pack (colours, fonts, sizes, layout, language, descriptions)")
    return 0


def cmd_tasks(args: argparse.Namespace) -> int:
    fams = {f: all_families()[f] for f in matching(list(all_families()), args.match)}
    counts = distinct_instances(fams, args.seeds, args.variation) if args.seeds else {}
    rows = [
        (
            "id",
            "apps",
            "structure",
            "category",
            "phrasings",
            "languages",
            "max steps",
            f"instances/{args.seeds}" if args.seeds else "",
            "oracle steps" if args.oracle_steps else "",
        )
    ]
    structures: dict[str, int] = {}
    for fid, fam in fams.items():
        phrasings = fam.phrasings
        n = sum(len(v) for v in phrasings.values())
        en = sum(len(phrasings.get(s, [])) for s in ENGLISH_STYLES)
        structure = structure_label(fam)
        structures[structure] = structures.get(structure, 0) + 1
        rows.append(
            (
                fid,
                ",".join(fam.apps),
                structure,
                fam.category,
                f"{n} ({en} en)",
                ",".join(fam.languages()),
                str(fam.max_steps),
                str(counts.get(fid, "")),
                oracle_steps(fid, args.variation) if args.oracle_steps else "",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    print(f"\n{len(fams)} task families: " + ", ".join(f"{k} {v}" for k, v in sorted(structures.items())))
    if args.seeds:
        print(
            f"instances/{args.seeds}: distinct instances (start state, expected state, answer; phrasing left out) "
            f"over seeds 0..{args.seeds - 1} under {args.variation!r}; floors in docs/tasks.md"
        )
        low = below_floor(fams, counts) if args.seeds == DEFAULT_SEEDS else {}
        if low:
            print(f"below the floor of {DEFAULT_FLOOR}: " + ", ".join(f"{fid} {n}" for fid, (n, _) in low.items()))
    print(f"\nfamilies whose world holds fewer than {DEFAULT_FLOOR} instances per {DEFAULT_SEEDS} seeds, and why:")
    print("\n".join(cap_notes(fams)))
    return 0


def structure_label(fam) -> str:
    """The family's structure, with its levels of decision when it is hierarchical
    (``hierarchical/3``: three nested decisions on the way to the deepest leaf)."""
    levels = getattr(fam, "levels", 1)
    return f"{fam.structure}/{levels}" if fam.structure == "hierarchical" else fam.structure


def cmd_agents(args: argparse.Namespace) -> int:
    for name in registered_agents():
        print(f"{name:<12} {load_agent_class(name).summary()}")
    configs = Path(__file__).resolve().parent.parent / "agents" / "configs"
    try:
        configs = Path(str(resources.files("openapps_sim.agents"))) / "configs"
    except (ModuleNotFoundError, TypeError):
        pass
    if configs.is_dir():
        print("\nconfigs (--agent-config):")
        for p in sorted(configs.glob("*.yaml")):
            print(f"  {p.stem}")
    print("\nYour own agent: --agent package.module:ClassName")
    return 0


def cmd_fonts(args: argparse.Namespace) -> int:
    missing = fetch(quiet=args.quiet)
    if missing:
        print(
            f"could not fetch: {', '.join(missing)} (npm not found or the registry is unreachable); "
            "pages fall back to generic fonts",
            file=sys.stderr,
        )
    print(f"fonts in {font_dir()}")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    ok = True
    try:
        path = find_chromium()
        print(f"chromium (headless runs): {path} ({chromium_version(path)})")
        headed = find_chromium(headless=False)
        if headed != path:
            print(f"chromium (--headed runs): {headed}")
    except BrowserNotFound as e:
        print(f"chromium: MISSING - {e}")
        ok = False
    missing = [f for f in WEB_FONTS if not available(f)]
    print(
        f"fonts: {font_dir()} ({len(WEB_FONTS) - len(missing)}/{len(WEB_FONTS)} web fonts"
        + (f"; missing {', '.join(missing)}: run `openapps fonts`" if missing else "")
        + ")"
    )
    t0 = time.perf_counter()
    from openapps_sim.web.world import World  # loading the apps is part of the time shown

    w = World()
    print(f"apps: {', '.join(w.apps)} (world built in {(time.perf_counter() - t0) * 1000:.0f} ms)")
    return 0 if ok else 1
