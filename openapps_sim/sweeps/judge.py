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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapps_sim.agent import registered_agents
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.judgeprompt import SYSTEM, Verdict, build_prompt, parse_verdict, reask_text
from openapps_sim.sweeps.judgewindow import judge_screens
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
    "windows",
    "images",
    "thumbnails",
)
"""What a line of ``judge.jsonl`` holds (docs/judge.md)."""


@dataclass
class Asked:
    """What one question (asked again at most once) got: the verdict, the raw replies, tokens, seconds."""

    verdict: Verdict = field(default_factory=Verdict)
    replies: list[str] = field(default_factory=list)
    tokens: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})
    seconds: float = 0.0


@dataclass(frozen=True)
class JudgeSettings:
    config: str  # an agent config: a YAML path or a name in agents/configs/
    agent: str | None = None  # the agent whose client is used (default: the config's ``agent``)
    max_prompt_chars: int = 24000
    screenshots: bool = False  # A3's sliding window over the screens (judgewindow.py), else the text prompt
    window: int = 3  # steps per window (with ``screenshots``)
    stride: int = 2  # steps from one window's start to the next's

    @property
    def sees(self) -> dict:
        """How the judge sees an episode, part of its identity (a folder keeps one judge's verdicts)."""
        if not self.screenshots:
            return {"sees": "text", "window": None, "stride": None}
        return {"sees": "screenshots", "window": self.window, "stride": self.stride}


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
        self.identity = {"agent": name, "model": client.options.get("model"), "config": source, **settings.sees}

    def ask(self, system: str, parts: list[tuple[str, str]], turns: list[tuple[str, str]]) -> tuple[str, dict, float]:
        """One request of message parts (``("text", str)``, ``("image", base64 PNG)``): the
        reply's text, its token counts and seconds (errors: the agent's)."""
        reply, usage, _attempts, seconds = self.client.complete(system, parts, turns)
        tokens = {k: int(usage.get(k) or 0) for k in ("prompt_tokens", "completion_tokens")}
        return reply, tokens, seconds

    def verdict(self, system: str, parts: list[tuple[str, str]], milestones: list[str]) -> Asked:
        """Ask, and ask again once in the same conversation when the reply cannot be read."""
        turns: list[tuple[str, str]] = []
        asked = Asked()
        while True:
            reply, used, took = self.ask(system, parts, turns)
            asked.replies.append(reply)
            asked.tokens = {k: asked.tokens[k] + used[k] for k in asked.tokens}
            asked.seconds += took
            asked.verdict = parse_verdict(reply, milestones)
            if asked.verdict.readable or turns:
                return asked
            turns = [("assistant", reply), ("user", reask_text(asked.verdict.problem, milestones))]

    def judge(self, record: dict, trajectory: dict, root: Path | None = None) -> dict:
        """The verdict row of one episode (``root``: the results folder the trajectory's
        screenshot paths are relative to, for a judge that sees)."""
        if self.settings.screenshots:
            return judge_screens(self, record, trajectory, Path(root or "."))
        milestones = list((record.get("milestones") or {}).keys())
        steps = [s for s in trajectory.get("steps") or [] if isinstance(s, dict)]
        prompt = build_prompt(str(record.get("goal") or ""), steps, milestones, self.settings.max_prompt_chars)
        asked = self.verdict(SYSTEM, [("text", prompt.text)], milestones)
        verdict, replies, tokens, seconds = asked.verdict, asked.replies, asked.tokens, asked.seconds
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
            windows=None,
            images=0,
            thumbnails=0,
        )
        return row


def describe_sight(sees: dict) -> str:
    """``text`` or ``screenshots, window 3, stride 2``."""
    if sees.get("sees") != "screenshots":
        return "text"
    return f"screenshots, window {sees.get('window')}, stride {sees.get('stride')}"


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
        sees = {k: who.get(k) for k in ("sees", "window", "stride")}
        sees["sees"] = sees["sees"] or "text"  # lines written before judges could see
        mine = {k: identity.get(k) for k in sees}
        if (who.get("agent"), who.get("model"), sees) != (identity["agent"], identity["model"], mine):
            raise ConfigError(
                "--out",
                str(out),
                f"holds verdicts of another judge ({who.get('agent')}, model {who.get('model')!r}, "
                f"{describe_sight(sees)}); "
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
    root: Path | None = None,
) -> int:
    """Judge each (record, trajectory), appending every verdict to ``out/judge.jsonl`` as soon
    as it is made (so a failure later loses nothing). Returns how many were judged."""
    writer = ResultsWriter(Path(out) / VERDICTS)
    judged = 0
    try:
        for record, trajectory in episodes:
            row = judge.judge(record, trajectory, root)
            writer.write(row)
            judged += 1
            if on_verdict is not None:
                on_verdict(row)
    finally:
        writer.close()
    return judged
