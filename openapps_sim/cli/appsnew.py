"""``openapps apps new "<what the app is for>" --agent-config CFG``: a model writes a described
app's ``app.yaml`` (docs/apps/spec.md, "Generating an app").

The model is told the format and a shipped example (:func:`~openapps_sim.config.discovery.app_guide`),
the description and the app's name, through the LLM agents' own client (an OpenAI-compatible or
an Anthropic server). Each round its answer is checked by :mod:`openapps_sim.cli.appcheck`: the
format check, then the oracle over every family derived from the app on the text backend; every
problem found is the next user message. The app is written to the output folder only when a
round passes both; otherwise nothing is written and the command exits 1 with the last problems.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from pathlib import Path

from openapps_sim.cli.appcheck import OracleRun, round_problems
from openapps_sim.config.world import check_variation
from openapps_sim.errors import ConfigError

SOURCE = "openapps apps new"
DEFAULT_ROUNDS = 4
ANSWER_TOKENS = 16000  # the most tokens of one answer, unless the agent config says
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
FENCE = re.compile(r"```(?:ya?ml)?[ \t]*\n(.*?)```", re.S)
SMALL_WORDS = {"a", "an", "the", "for", "to", "of", "and", "my", "app", "with", "in", "on", "that", "where", "your"}


def add_arguments(s: argparse.ArgumentParser) -> None:
    """The flags of ``openapps apps new`` (on the ``apps`` command's parser)."""
    s.add_argument(
        "--agent-config",
        default="",
        help="new: the model's agent config, openai or anthropic (default: none; required for new)",
    )
    s.add_argument("--name", default="", help="new: the app's name (default: from the description)")
    s.add_argument(
        "--out", default="", help="new: the folder to write NAME/app.yaml in (default: OPENAPPS_APPS's first)"
    )
    s.add_argument(
        "--rounds", default=str(DEFAULT_ROUNDS), help="new: rounds of asking the model and checking its answer"
    )
    s.add_argument("--seeds", default="1", help="new: the oracle plays seeds 0..N-1 of each family")
    s.add_argument("--variation", default="default", help="new: the app version (pack expression) the oracle plays")


def cmd_new(args: argparse.Namespace) -> int:
    description = " ".join(str(args.path or "").split())
    if not description:
        raise ConfigError(SOURCE, "DESCRIPTION", "missing", 'what the app is for, e.g. "a diary of my houseplants"')
    rounds = _count("--rounds", args.rounds, 1, 20)
    seeds = _count("--seeds", args.seeds, 1, 10)
    variation = check_variation(args.variation, SOURCE, "--variation")
    taken = _taken_names()
    name = _app_name(args.name, description, taken)
    out = _output_folder(args.out, name)
    model = _model(args.agent_config)
    run = OracleRun(name=name, seeds=seeds, variation=variation, taken=taken)
    where = f"{model.options['model']} at {model.endpoint()}" if hasattr(model, "endpoint") else "the model"
    print(f"asking {where} for app {name!r}: {description}", flush=True)
    found = _converse(model, name, description, rounds, run)
    if found is None:
        return 1
    out.mkdir(parents=True)
    (out / "app.yaml").write_text(found, encoding="utf-8")
    print(f"wrote {out / 'app.yaml'}")
    searched = [Path(p).expanduser().resolve() for p in os.environ.get("OPENAPPS_APPS", "").split(os.pathsep) if p]
    if out.parent.resolve() not in searched:
        print(f"add {out.parent} to OPENAPPS_APPS (the apps' search path) to serve it and list it in `openapps apps`")
    return 0


def _converse(model, name: str, description: str, rounds: int, run: OracleRun) -> str | None:
    """The rounds of asking and checking: the accepted app.yaml's text, or None (its problems printed)."""
    from openapps_sim.config.discovery import app_guide

    system = app_guide()
    ask = first_message(name, description)
    turns: list[tuple[str, str]] = []
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="openapps-new-") as tmp:
        for n in range(1, rounds + 1):
            text = model.complete(system, [("text", ask)], turns)[0]
            answer = yaml_of(text)
            problems, summary = round_problems(answer, Path(tmp) / f"round{n}", run)
            print(f"round {n}/{rounds}: {summary}", flush=True)
            for line in problems:
                print(f"  {line}")
            if not problems:
                return answer
            turns += [("assistant", text), ("user", feedback(problems))]
    print(f"no app written: round {rounds} of {rounds} still had {len(problems)} problems (above)")
    return None


def first_message(name: str, description: str) -> str:
    return (
        f"Write the app.yaml of a new app named {name!r} (leave out `name:` or write `name: {name}`).\n"
        f"What the app is for: {description}\n\n"
        "Answer with the whole file in one ```yaml block and nothing else."
    )


def feedback(problems: list[str]) -> str:
    """The next user message: every problem of the last answer."""
    lines = ["Your app.yaml has these problems:", *[f"- {p}" for p in problems]]
    lines += ["", "Answer with the whole corrected file in one ```yaml block and nothing else."]
    return "\n".join(lines)


def yaml_of(text: str) -> str:
    """The YAML of an answer: its first fenced block, or the whole answer when it has none."""
    match = FENCE.search(text)
    return (match.group(1) if match else text).strip() + "\n"


def _count(flag: str, text: str, low: int, high: int) -> int:
    try:
        value = int(str(text))
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ConfigError(SOURCE, flag, f"got {text!r}", f"a whole number from {low} to {high}")
    return value


def _taken_names() -> set[str]:
    from openapps_sim.config.discovery import discover_apps

    return set(discover_apps())


def _app_name(given: str, description: str, taken: set[str]) -> str:
    if given:
        if not NAME.match(given):
            raise ConfigError(SOURCE, "--name", f"{given!r} is no app name", "lowercase letters, digits and _")
        if given in taken:
            raise ConfigError(SOURCE, "--name", f"{given!r} is the name of another app", "a new name")
        return given
    words = [w for w in re.findall(r"[a-z][a-z0-9]*", description.lower()) if w not in SMALL_WORDS]
    base = "".join(words[:2])[:20] or "newapp"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}{n}", n + 1
    return name


def _output_folder(given: str, name: str) -> Path:
    """``OUT/NAME``: OUT is --out, or the first folder of the apps' search path ``OPENAPPS_APPS``."""
    first = next((p for p in os.environ.get("OPENAPPS_APPS", "").split(os.pathsep) if p), "")
    base = given or first
    if not base:
        raise ConfigError(
            SOURCE, "--out", "no folder given and OPENAPPS_APPS is not set", "--out DIR, or export OPENAPPS_APPS=DIR"
        )
    folder = Path(base).expanduser() / name
    if folder.exists():
        raise ConfigError(SOURCE, "--out", f"{folder} exists already", "a folder without an app of that name")
    return folder


def _model(config: str):
    """The model client of an LLM agent config (its ``complete(system, parts, turns)``); an answer
    may hold :data:`ANSWER_TOKENS` tokens unless the config sets ``max_tokens`` (an agent's default
    is one action's worth, far less than an app.yaml)."""
    from openapps_sim.agents import load_agent_config, make_agent

    if not config:
        raise ConfigError(
            SOURCE, "--agent-config", "missing", "an agent config of openai or anthropic (a path or name)"
        )
    options = load_agent_config(config)
    agent = make_agent(None, options)
    if not callable(getattr(agent, "complete", None)):
        source = options.get("__source__", config)
        raise ConfigError(source, "agent", f"{getattr(agent, 'name', '?')!r} asks no model", "openai, anthropic")
    if "max_tokens" not in options:
        agent = make_agent(None, options, options={"max_tokens": ANSWER_TOKENS})
    return agent
