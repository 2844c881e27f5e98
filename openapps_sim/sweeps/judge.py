"""Asking a model-based judge about recorded episodes (``openapps judge``, docs/judge.md).

The judge is any LLM agent's model, reached through that agent's own client: the config is
built with :func:`openapps_sim.agents.make_agent` (so its options, API key check, retries and
back-off are the agents'), and each question is one call of the agent's ``complete`` (the one
request code of the OpenAI-compatible and Anthropic agents). The prompt and the reading of the
reply are :mod:`openapps_sim.sweeps.judgeprompt`; an unreadable reply is asked again once.

Verdicts go to ``judge.jsonl``, one line per episode, written and read through
:mod:`openapps_sim.sweeps.store`, so a stopped run (a model service that failed after its
retries, Ctrl+C) goes on where it stopped: episodes with a verdict are not asked again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openapps_sim.agent import registered_agents
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.judgeprompt import SYSTEM, build_prompt, parse_verdict, reask_text
from openapps_sim.sweeps.store import ResultsWriter, read_records

VERDICTS = "judge.jsonl"
VERDICT_FIELDS = (
    "episode_id",
    "judge",
    "agent",
    "task",
    "variation",
    "seed",
    "success",
    "milestones",
    "reason",
    "reply",
    "replies",
    "reasked",
    "unparseable",
    "prompt_chars",
    "steps",
    "steps_left_out",
    "observations_cut",
    "tokens",
    "seconds",
)
"""What a line of ``judge.jsonl`` holds (docs/judge.md)."""


@dataclass(frozen=True)
class JudgeSettings:
    config: str  # an agent config: a YAML path or a name in agents/configs/
    agent: str | None = None  # the agent whose client is used (default: the config's ``agent``)
    max_prompt_chars: int = 24000


class Judge:
    """One judge model behind an LLM agent's client."""

    def __init__(self, settings: JudgeSettings) -> None:
        from openapps_sim.agents import load_agent_config, make_agent

        config = load_agent_config(settings.config)
        source = config["__source__"]
        name = settings.agent or config.get("agent")
        if not name:
            raise ConfigError(source, "agent", "no agent given", _chat_agents())
        client = make_agent(name, config)
        if not callable(getattr(client, "complete", None)):
            raise ConfigError(source, "agent", f"{name!r} has no model to ask, so it cannot judge", _chat_agents())
        self.client = client
        self.settings = settings
        self.identity = {"agent": name, "model": client.options.get("model"), "config": source}

    def ask(self, system: str, text: str, turns: list[tuple[str, str]]) -> tuple[str, dict, float]:
        """One request: the reply's text, its token counts and seconds (errors: the agent's)."""
        reply, usage, _attempts, seconds = self.client.complete(system, [("text", text)], turns)
        tokens = {k: int(usage.get(k) or 0) for k in ("prompt_tokens", "completion_tokens")}
        return reply, tokens, seconds

    def judge(self, record: dict, trajectory: dict) -> dict:
        """The verdict row of one episode (asked again once when the reply cannot be read)."""
        milestones = list((record.get("milestones") or {}).keys())
        steps = [s for s in trajectory.get("steps") or [] if isinstance(s, dict)]
        prompt = build_prompt(str(record.get("goal") or ""), steps, milestones, self.settings.max_prompt_chars)
        turns: list[tuple[str, str]] = []
        replies: list[str] = []
        tokens = {"prompt_tokens": 0, "completion_tokens": 0}
        seconds = 0.0
        while True:
            reply, used, took = self.ask(SYSTEM, prompt.text, turns)
            replies.append(reply)
            tokens = {k: tokens[k] + used[k] for k in tokens}
            seconds += took
            verdict = parse_verdict(reply, milestones)
            if verdict.readable or turns:
                break
            turns = [("assistant", reply), ("user", reask_text(verdict.problem, milestones))]
        row: dict[str, Any] = {k: record.get(k) for k in ("episode_id", "agent", "task", "variation", "seed")}
        row.update(
            judge=self.identity,
            success=verdict.success,
            milestones=verdict.milestones,
            reason=verdict.reason or verdict.problem,
            reply=replies[-1],
            replies=replies if len(replies) > 1 else None,
            reasked=len(replies) > 1,
            unparseable=not verdict.readable,
            prompt_chars=len(SYSTEM) + len(prompt.text),
            steps=prompt.steps,
            steps_left_out=prompt.steps_left_out,
            observations_cut=prompt.observations_cut,
            tokens=tokens,
            seconds=round(seconds, 3),
        )
        return row


def _chat_agents() -> str:
    """The agents that can judge: those with a model client (derived, not listed)."""
    from openapps_sim.agent import load_agent_class

    names = [n for n in registered_agents() if callable(getattr(load_agent_class(n), "complete", None))]
    return "a config of an LLM agent (" + ", ".join(sorted(names)) + ")"


def read_verdicts(out: Path, identity: dict) -> tuple[list[dict], list[str]]:
    """The verdicts already in ``out/judge.jsonl`` (and notes on damaged lines). A folder holds
    one judge model's verdicts: another model's are refused, naming the folder."""
    path = Path(out) / VERDICTS
    records, notes = read_records(path)
    rows = [{k: r.get(k) for k in VERDICT_FIELDS} for r in records]
    for row in rows:
        who = row.get("judge") or {}
        if (who.get("agent"), who.get("model")) != (identity["agent"], identity["model"]):
            raise ConfigError(
                "--out",
                str(out),
                f"holds verdicts of another judge ({who.get('agent')}, model {who.get('model')!r}); "
                f"one folder keeps one judge's verdicts",
                "another --out for this judge",
            )
    latest = {r["episode_id"]: r for r in rows}
    return list(latest.values()), notes


def judge_episodes(
    judge: Judge,
    episodes: Iterable[tuple[dict, dict]],
    out: Path,
    on_verdict: Callable[[dict], None] | None = None,
) -> int:
    """Judge each (record, trajectory), appending every verdict to ``out/judge.jsonl`` as soon
    as it is made (so a failure later loses nothing). Returns how many were judged."""
    writer = ResultsWriter(Path(out) / VERDICTS)
    judged = 0
    try:
        for record, trajectory in episodes:
            row = judge.judge(record, trajectory)
            writer.write(row)
            judged += 1
            if on_verdict is not None:
                on_verdict(row)
    finally:
        writer.close()
    return judged
