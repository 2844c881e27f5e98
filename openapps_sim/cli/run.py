"""``openapps run``: one episode, printed, and with ``--out`` added to a results folder.

Commands import what only they need (the runner with the browser stack, the results store)
inside their functions, so that ``openapps --help`` and the other commands start without it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

from openapps_sim.cli.agentflags import agent_choice
from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import EXIT_INFRASTRUCTURE, ConfigError, Problems, short_action_error
from openapps_sim.taskkit import get_family
from openapps_sim.taskkit.language import goal_languages

# the folders output_folder made during this command (the topmost new one of each path): a
# command that then fails on the user's input removes them again (main: discard_new_folders),
# so a mistake leaves nothing behind
_NEW_FOLDERS: list[Path] = []


def output_folder(path: str | Path, flag: str = "--out") -> Path:
    """The folder ``flag`` names, created if need be; a folder that cannot be is one sentence."""
    folder = Path(path)
    top = next((p for p in reversed([folder, *folder.parents]) if not p.exists()), None)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if top is not None:
            _NEW_FOLDERS.append(top)
    except OSError as e:
        raise ConfigError(
            flag, str(folder), f"cannot be created ({e.strerror or e})", "a folder you can write to"
        ) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(flag, str(folder), "is not writable", "a folder you can write to")
    return folder


def discard_new_folders(keep: bool = False) -> None:
    """Remove the folders :func:`output_folder` made since the last call, with what was written
    into them (``keep``: leave them, and forget them)."""
    while _NEW_FOLDERS:
        folder = _NEW_FOLDERS.pop()
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


def next_trial(spec, out: Path | None):
    """``spec`` as the next trial of its instance when ``out`` already holds a record of it, so
    that runs into one folder add up instead of replacing each other."""

    from openapps_sim.sweeps.store import read_folder

    if out is None:
        return spec
    seen = {r["episode_id"] for r in read_folder(out)[0]}
    while spec.episode_id in seen:
        spec = replace(spec, trial=spec.trial + 1)
    return spec


def cmd_run(args: argparse.Namespace) -> int:
    # the runner brings the browser stack (Playwright, BrowserGym): loaded only when a run starts
    from openapps_sim.sweeps.runner import Worker

    spec = _episode_spec(args)
    out = output_folder(args.out) if args.out else None
    spec = next_trial(spec, out)
    if spec.trial:
        print(f"{out} already holds this episode: recorded as trial {spec.trial}")
    worker = Worker(headless=not args.headed)
    try:
        result = worker.run(spec, out)
    except ConfigError:
        raise
    except Exception as exc:
        # infrastructure (model server, browser): its own exit code, and the partial record kept
        partial = getattr(exc, "partial", None)
        print(f"openapps: infrastructure error, not the agent's: {type(exc).__name__}: {exc}", file=sys.stderr)
        if out and partial is not None:
            _keep(out, partial.record, partial.trajectory)
            print(f"partial record ({partial.record['steps']} steps) written to {out}", file=sys.stderr)
        return EXIT_INFRASTRUCTURE
    finally:
        worker.close()
    rec, traj = result.record, result.trajectory
    _print_episode(args, rec, traj)
    if out:
        _keep(out, rec, traj)
        print(f"record appended to {out / 'results.jsonl'}, trajectory in {out / 'trajectories'}")
    return 0 if rec["success"] else 1


def _episode_spec(args: argparse.Namespace):
    """The episode ``openapps run`` asks for, its task, viewport, world, agent and output folder
    checked (every problem of the command line at once)."""
    from openapps_sim.sweeps.record import EpisodeSpec, parse_viewport  # with the runner, see cmd_run

    problems = Problems()
    problems.check(get_family, args.task)
    problems.check(parse_viewport, args.viewport, "--viewport")
    world = problems.check(
        WorldSpec.make, "openapps run", args.variation, args.seed, args.language, languages=goal_languages()
    )
    choice = problems.check(agent_choice, args)
    if args.out and (Path(args.out) / "manifest.json").is_file():
        problem = "holds a sweep (its manifest.json); a run's record there would be mixed into the sweep's results"
        problems.add(ConfigError("--out", args.out, problem, "a folder of openapps run --out, or a new one"))
    problems.raise_any()
    return EpisodeSpec(
        agent=choice.name,
        agent_config=choice.config,
        agent_overrides=tuple(sorted(choice.overrides.items())),
        label=choice.label,
        task=args.task,
        world=world,
        max_steps=args.max_steps,
        viewport=args.viewport,
        record_screenshots=bool(args.out and args.screenshots) and args.backend == "chromium",
        backend=args.backend,
        termination=args.termination,
    )


def _print_episode(args: argparse.Namespace, rec: dict, traj: dict) -> None:
    """The agent, the goal, every step with its reward and error (with ``--verbose`` the agent's
    thought too), and how the episode ended."""
    label = rec.get("label")
    print(f"agent: {label} ({rec['agent']})" if label else f"agent: {rec['agent']}")
    print(f"goal: {rec['goal']}")
    for i, step in enumerate(traj["steps"], 1):
        err = ""
        if step["error"]:
            full = args.verbose and short_action_error(step["error"]) != step["error"].strip()
            err = "   ! " + (
                step["error"].strip().replace("\n", "\n       ") if full else short_action_error(step["error"])
            )
        print(f"{i:>3}. {step['action']}  -> reward {step['reward']:.0f}{err}")
        thought = " ".join(str(step.get("reasoning") or "").split())
        if args.verbose and thought:
            print(f"     thought: {thought}")
    print(
        f"reward: {rec['reward']:.0f}  (partial {rec['partial_reward']:.2f}, {rec['steps']} steps, {rec['duration_s']:.1f} s)"
    )
    if rec.get("termination") == "agent":
        declared = (
            f"declared done ({rec['declared']}) at step {rec['declared_step']}"
            if rec["declared"]
            else "never declared done"
        )
        extra = ", a premature stop" if rec["premature_stop"] else ""
        if rec["overrun_steps"]:
            extra += (
                f", an overrun of {rec['overrun_steps']} step(s) after the goal held at step {rec['goal_met_step']}"
            )
        print(f"termination agent: {declared}{extra}")
    if rec.get("agent_error"):
        print(f"the agent raised (a failure of the agent, not an infrastructure error): {rec['agent_error']}")
    if not rec["success"]:
        print(traj["explanation"])


def _keep(out: Path, record: dict, trajectory: dict) -> None:
    """Append the record to the folder's results.jsonl (as a sweep does) and save the trajectory."""
    from openapps_sim.sweeps.store import ResultsWriter, save_trajectory

    save_trajectory(out, trajectory)
    writer = ResultsWriter(out / "results.jsonl")
    try:
        writer.write(record)
    finally:
        writer.close()
