"""``openapps offline``: score an agent step by step against gold trajectories (the oracle's
demonstrations), in goal-only and step-by-step instruction modes (docs/offline.md).

Commands import what only they need (the replaying sweep machinery, pandas) inside their
functions, so that ``openapps --help`` and the other commands start without it.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
from pathlib import Path

from openapps_sim.agent import registered_agents
from openapps_sim.cli.args import add_command, positive, seed, shipped_specs, variation
from openapps_sim.cli.run import output_folder
from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError, Problems
from openapps_sim.taskkit import all_families, unknown_task

MODE_CHOICES = {"goal": ("goal",), "steps": ("steps",), "both": ("goal", "steps")}


SUMMARY = "score an agent step by step against the oracle's demonstrations (exact, type and grounding match)"
DESCRIPTION = (
    "At every step of a gold trajectory, ask the agent for the next action on the recorded "
    "observation and compare it with the gold action (DAC-Bench's offline evaluation). The gold is "
    "replayed (a results folder) or generated (a spec, or --tasks) on the browser-free text backend."
)


def add_parser(sub) -> None:
    s = add_command(sub, "offline", SUMMARY, DESCRIPTION, cmd_offline)
    s.add_argument(
        "gold",
        nargs="?",
        default=None,
        help="a results folder of openapps sweep with the oracle's episodes (e.g. runs/demonstrations), a sweep "
        "spec (YAML path or shipped name) whose episodes the oracle runs here, or nothing with --tasks (default: none; then --tasks is needed)",
    )
    s.add_argument("--agent", default=None, help="registry name or package.module:Class (default: the config's agent)")
    s.add_argument("--agent-config", default=None, help="a YAML path or a name in agents/configs/ (default: none)")
    s.add_argument(
        "--tasks", nargs="+", default=None, help="only these task families (ids or globs such as todo.*) (default: all)"
    )
    s.add_argument(
        "--variations",
        nargs="+",
        type=variation,
        default=None,
        help="only these app versions (default: all; with no GOLD: default)",
    )
    s.add_argument(
        "--seeds",
        nargs="+",
        type=seed,
        default=None,
        help="only these task seeds (default: all; with no GOLD: 0)",
    )
    s.add_argument(
        "--mode",
        choices=sorted(MODE_CHOICES),
        default="both",
        help="goal: the goal only; steps: the goal plus a short instruction per step; both",
    )
    s.add_argument("--limit", type=positive, default=None, help="score at most this many gold episodes (default: all)")
    s.add_argument("--out", default=None, help="folder for offline.json and offline.md (default: runs/offline-<agent>)")
    s.add_argument("--quiet", action="store_true", help="no line per episode (default: off)")


def _agent_name(args: argparse.Namespace) -> str:
    if args.agent:
        return args.agent
    if args.agent_config:
        from openapps_sim.agents import load_agent_config

        name = load_agent_config(args.agent_config).get("agent")
        if name:
            return name
    raise ConfigError("--agent", "", "no agent given", ", ".join(registered_agents()))


def _check_tasks(patterns: list[str] | None) -> None:
    problems = Problems()
    for pattern in patterns or []:
        if not fnmatch.filter(list(all_families()), pattern):
            problems.add(unknown_task("--tasks", pattern, pattern))
    problems.raise_any()


def _keep(args: argparse.Namespace):
    def keep(key) -> bool:
        if args.tasks and not any(fnmatch.fnmatchcase(key.task, p) for p in args.tasks):
            return False
        if args.variations and key.world.variation not in args.variations:
            return False
        return not (args.seeds is not None and key.world.seed not in args.seeds)

    return keep


def gold_source(args: argparse.Namespace, notes: list[str]):
    """The gold episodes the arguments name (a generator), and a label for them."""
    from openapps_sim.sweeps import gold

    keep = _keep(args)
    if args.gold is None:
        if not args.tasks:
            raise ConfigError("GOLD", "", "no gold trajectories given", f"{gold.FOLDER_HELP}, a sweep spec, or --tasks")
        tasks = sorted({t for p in args.tasks for t in fnmatch.filter(list(all_families()), p)})
        keys = [
            gold.GoldKey(task=t, world=WorldSpec(v, s, "en"))  # v, s: checked as the command line was read
            for t in tasks
            for v in (args.variations or ["default"])
            for s in (args.seeds if args.seeds is not None else [0])
        ]
        return gold.from_episodes(keys, args.limit, notes), f"the oracle run here on {len(keys)} episodes (--tasks)"
    path = Path(args.gold)
    if path.is_dir():
        return gold.from_folder(path, keep, args.limit, notes), str(path)
    if path.suffix in (".yaml", ".yml") or args.gold in shipped_specs():
        from openapps_sim.sweeps.spec import load_spec

        spec = load_spec(args.gold)
        keys = list(
            dict.fromkeys(
                gold.GoldKey(e.task, e.world, e.style, e.interface, e.viewport, e.max_steps) for e in spec.episodes()
            )
        )
        keys = [k for k in keys if keep(k)]
        return gold.from_episodes(
            keys, args.limit, notes
        ), f"the oracle run here on spec {spec.name} ({len(keys)} episodes)"
    raise ConfigError(
        "GOLD",
        args.gold,
        "no such results folder or sweep spec",
        f"{gold.FOLDER_HELP}, a sweep spec (YAML path), or a shipped spec: {', '.join(shipped_specs())}",
    )


def cmd_offline(args: argparse.Namespace) -> int:
    from openapps_sim.analysis.offline import paper_text, summarise, text_table, write_offline
    from openapps_sim.sweeps.offline import OfflineSettings, check_agent, make_offline_agent, run_offline

    name = _agent_name(args)
    modes = MODE_CHOICES[args.mode]
    check_agent(name, modes)
    settings = OfflineSettings(name, args.agent_config, modes)
    make_offline_agent(settings, "gui")  # a bad config fails now, before any gold is built
    _check_tasks(args.tasks)
    out = output_folder(args.out or f"runs/offline-{name.replace(':', '-').replace('/', '-')}")
    notes: list[str] = []
    episodes, label = gold_source(args, notes)
    gold_steps = {"episodes": 0, "steps": 0}

    def progress(episode, rows) -> None:
        gold_steps["episodes"] += 1
        gold_steps["steps"] += len(episode.steps)
        if args.quiet:
            return
        scores = []
        for mode in modes:
            mine = [r for r in rows if r["mode"] == mode and not r["idle"]]
            scores.append(f"{mode} EM {sum(r['exact'] for r in mine)}/{len(mine)}")
        k = episode.key
        print(
            f"[{gold_steps['episodes']}] {k.task} ({k.world.variation}, seed {k.world.seed}): {', '.join(scores)}",
            flush=True,
        )

    rows = run_offline(episodes, settings, progress)
    for note in notes:
        print(f"left out: {note}", file=sys.stderr)
    if not rows:
        raise ConfigError(
            "GOLD", str(args.gold or "--tasks"), "no gold episode to score after the filters and the replay checks"
        )
    summary = summarise(rows, list(modes))
    result = {
        "agent": name,
        "agent_config": args.agent_config,
        "gold": label,
        "modes": list(modes),
        "episodes": gold_steps["episodes"],
        "gold_steps": gold_steps["steps"],
        "idle_steps": sum(1 for r in rows if r["idle"] and r["mode"] == modes[0]),
        "summary": summary,
        "notes": notes,
        "steps": rows,
    }
    print(
        f"\noffline: {name} against {label}: {gold_steps['episodes']} gold episodes, {gold_steps['steps']} steps, "
        f"{result['idle_steps']} of them idle (changed nothing: replayed, not scored); in %"
    )
    print(text_table(summary, list(modes)))
    print(f"\n{paper_text(summary, list(modes))}")
    js, md = write_offline(out, result)
    print(f"\nwritten: {js}\n         {md}")
    return 0
