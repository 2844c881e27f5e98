"""``openapps judge``: a model-based judge rates each recorded episode of a results folder
(success and essential states, from its steps), calibrated against the full-state truth
(docs/judge.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from openapps_sim.cli.args import add_command, positive
from openapps_sim.errors import ConfigError, InfrastructureError

WINDOW, STRIDE = 3, 2  # A3's best: windows of 3-4 steps, moved by 2


SUMMARY = "rate recorded episodes with a model-based judge and measure it against the full-state truth"
DESCRIPTION = (
    "Ask a model (any OpenAI-compatible or Anthropic server, through the LLM agents' client) whether "
    "each recorded episode succeeded and which essential states it reached, from its steps; write the "
    "verdicts (judge.jsonl, resumable) and the judge's accuracy, precision and recall against the "
    "full-state check (judge.md, judge.json)."
)


def add_parser(sub) -> None:
    from openapps_sim.sweeps.judgeprompt import MIN_PROMPT_CHARS

    s = add_command(sub, "judge", SUMMARY, DESCRIPTION, cmd_judge)
    s.add_argument("results", help="a results folder of openapps sweep or openapps run --out (or a folder of them)")
    s.add_argument(
        "--agent-config", required=True, help="the judge: an LLM agent config, a YAML path or a name in agents/configs/"
    )
    s.add_argument("--agent", default=None, help="the agent whose client is used (default: the config's agent)")
    s.add_argument(
        "--out", default=None, help="folder for judge.jsonl, judge.json and judge.md (default: RESULTS/judge-<config>)"
    )
    s.add_argument(
        "--max-prompt-chars",
        type=positive,
        default=24000,
        help=f"bound on a prompt's characters (system prompt included); longer trajectories are cut with a "
        f"marker (default: 24000; at least {MIN_PROMPT_CHARS})",
    )
    s.add_argument(
        "--screenshots",
        action="store_true",
        help="show the judge the screens (Chromium runs) through A3's sliding window of steps, one request per "
        "window (default: off, the whole trajectory as text)",
    )
    s.add_argument(
        "--window", type=int, default=None, help="with --screenshots: steps per window (default: 3; A3 found 3-4 best)"
    )
    s.add_argument(
        "--stride",
        type=int,
        default=None,
        help="with --screenshots: steps from one window's start to the next's, at most --window (default: 2)",
    )
    s.add_argument("--limit", type=positive, default=None, help="judge at most this many new episodes (default: all)")
    s.add_argument("--quiet", action="store_true", help="no line per episode (default: off)")


def _sight(args: argparse.Namespace) -> None:
    """--window and --stride: whole numbers, a stride no longer than the window (else steps
    between windows would be shown in none); only with --screenshots."""
    if not args.screenshots:
        for flag, value in (("--window", args.window), ("--stride", args.stride)):
            if value is not None:
                raise ConfigError(flag, str(value), "given without --screenshots", f"{flag} with --screenshots")
        return
    args.window = WINDOW if args.window is None else args.window
    args.stride = min(STRIDE, args.window) if args.stride is None else args.stride
    if args.window < 1:
        raise ConfigError("--window", str(args.window), "below 1", "a whole number of steps, 1 or more (A3: 3-4)")
    if not 1 <= args.stride <= args.window:
        raise ConfigError(
            "--stride",
            str(args.stride),
            "below 1" if args.stride < 1 else f"longer than --window {args.window}: steps between windows unseen",
            f"a whole number of steps from 1 to --window ({args.window}); A3: 2",
        )


def _check_screens(results: Path, episodes: list[dict]) -> None:
    """--screenshots on a folder whose episodes recorded no screen is one sentence."""
    from openapps_sim.analysis.report.load import load_trajectory
    from openapps_sim.sweeps.judgewindow import has_screens

    for ep in episodes:
        trajectory = load_trajectory(results, ep["episode_id"])
        if trajectory is not None and has_screens(trajectory):
            return
    raise ConfigError(
        "--screenshots",
        str(results),
        "its episodes recorded no screenshot or thumbnail (a text-backend run records none)",
        "a run on the chromium backend (openapps sweep with backends: [chromium], best with "
        "record_screenshots: true; openapps run --backend chromium --out DIR --screenshots), or no --screenshots",
    )


def _pending(results: Path, episodes: list[dict], done: set[str], limit: int | None, notes: list[str], screens: bool):
    """(record, trajectory) of the episodes still to judge, in the results' order (``screens``:
    only those that recorded a screen)."""
    from openapps_sim.analysis.report.load import load_trajectory
    from openapps_sim.sweeps.judgewindow import has_screens

    missing = blind = 0
    count = 0
    for ep in episodes:
        if ep["episode_id"] in done:
            continue
        if limit is not None and count >= limit:
            return
        trajectory = load_trajectory(results, ep["episode_id"])
        if trajectory is None:
            missing += 1
            continue
        if screens and not has_screens(trajectory):
            blind += 1
            continue
        count += 1
        yield ep, trajectory
    if missing:
        notes.append(f"{missing} episode(s) have no trajectory file (trajectories/<episode_id>.json): not judged")
    if blind:
        notes.append(f"{blind} episode(s) recorded no screen (text backend): not judged with --screenshots")


def _line(n: int, row: dict, truth: dict) -> str:
    said = {True: "success", False: "failure", None: "no verdict"}[row["success"]]
    real = "success" if truth["success"] else "failure"
    extra = " (asked again)" if row["reasked"] else ""
    return f"[{n}] {row['agent']} {row['task']} ({row['variation']}, seed {row['seed']}): judge {said}, truth {real}{extra}"


def _folders(args: argparse.Namespace) -> tuple[Path, Path]:
    """The results folder (checked) and the judge's output folder (default: RESULTS/judge-<config>,
    with the window for a judge that sees), after checking the flags."""
    from openapps_sim.sweeps.judgeprompt import MIN_PROMPT_CHARS

    if args.max_prompt_chars < MIN_PROMPT_CHARS:
        raise ConfigError("--max-prompt-chars", str(args.max_prompt_chars), "too small", f"{MIN_PROMPT_CHARS} or more")
    _sight(args)
    results = Path(args.results)
    if not results.is_dir():
        raise ConfigError(
            "RESULTS", str(results), "no such folder", "a results folder of openapps sweep or openapps run --out"
        )
    name = f"judge-{Path(args.agent_config).stem}"
    if args.screenshots:
        name += f"-screens-w{args.window}-s{args.stride}"
    return results, Path(args.out or results / name)


def cmd_judge(args: argparse.Namespace) -> int:
    from openapps_sim.analysis.judge import judge_result, judgeable_episodes, text_table, write_judge
    from openapps_sim.cli.run import output_folder
    from openapps_sim.sweeps.judge import VERDICTS, Judge, JudgeSettings, describe_sight, judge_episodes, read_verdicts

    results, out = _folders(args)
    settings = JudgeSettings(
        args.agent_config, args.agent, args.max_prompt_chars, args.screenshots, args.window, args.stride
    )
    judge = Judge(settings)
    episodes, notes = judgeable_episodes(results)
    if args.screenshots:
        _check_screens(results, episodes)
    out = output_folder(out)
    verdicts, damaged = read_verdicts(out, judge.identity)
    notes += damaged
    done = {v["episode_id"] for v in verdicts}
    truth = {ep["episode_id"]: ep for ep in episodes}
    new: list[dict] = []

    def progress(row: dict) -> None:
        new.append(row)
        if not args.quiet:
            print(_line(len(done) + len(new), row, truth[row["episode_id"]]), flush=True)

    print(
        f"judge {judge.identity['model']} ({judge.identity['agent']}, sees {describe_sight(judge.identity)}): "
        f"{len(episodes)} episodes in {results}, "
        f"{len(done & set(truth))} already judged in {out / VERDICTS}"
    )
    try:
        pending = _pending(results, episodes, done, args.limit, notes, args.screenshots)
        judge_episodes(judge, pending, out, progress, results)
    except InfrastructureError as e:
        raise InfrastructureError(
            f"{e}; {len(done) + len(new)} verdicts are kept in {out / VERDICTS}; run the same command again to judge the rest"
        ) from None
    verdicts += new
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    result = judge_result(str(results), judge.identity, args.max_prompt_chars, episodes, verdicts, notes)
    print(
        f"\njudged {result['verdicts']} of {result['episodes']} episodes ({len(new)} now); "
        f"{result['unparseable']} unreadable replies, {result['reasked']} asked again; in %"
    )
    print(text_table(result["summary"]))
    js, md = write_judge(out, result)
    print(f"\nwritten: {out / VERDICTS}\n         {js}\n         {md}")
    return 0
