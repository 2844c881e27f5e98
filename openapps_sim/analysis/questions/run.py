"""Asking an agent the questions of a file, page by page, and writing its answers and scores.

Questions are asked grouped by world (pack, seed) so each world is reset once; each question's
page is opened in the environment of the chosen backend (text: the accessibility tree;
Chromium: the screenshot too, for agents that read screenshots). ``answers.jsonl`` gets one
line per question as it is answered; ``questions.json`` and ``questions.md`` the scores
(:mod:`.scores`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import groupby
from pathlib import Path

from openapps_sim.analysis.questions.answer import ActChooser, ChatChooser, Chooser, OracleChooser, RandomChooser
from openapps_sim.analysis.questions.kinds import Question
from openapps_sim.analysis.questions.pages import PageSource
from openapps_sim.analysis.questions.scores import scores, write_scores
from openapps_sim.errors import ConfigError

ANSWERS = "answers.jsonl"


def make_chooser(name: str, config: str | None = None, options: dict | None = None, seed: int = 0) -> Chooser:
    """The chooser of agent ``name``: the oracle, the random chooser, an LLM agent's client, or
    any other agent through ``act``."""
    if name == "oracle":
        return OracleChooser()
    if name == "random":
        return RandomChooser(seed)
    from openapps_sim.agents import make_agent  # the agents plug-in, found by name at run time

    agent = make_agent(name, config, options=options or None)
    if callable(getattr(agent, "complete", None)):
        return ChatChooser(agent)
    return ActChooser(agent, seed)


def needs_screenshots(chooser: Chooser, backend: str) -> bool:
    """Whether the chooser reads screenshots; only Chromium has them (else a ConfigError)."""
    wants = chooser.screenshot
    only = wants and not chooser.tree
    if only and backend != "chromium":
        raise ConfigError(
            "--backend", backend, f"agent {chooser.name!r} reads screenshots only, and the text backend has none",
            "chromium",
        )  # fmt: skip
    return wants and backend == "chromium"


def answer_row(q: Question, chooser: Chooser, reply) -> dict:
    return {
        "id": q.id,
        "kind": q.kind,
        "concept": q.concept,
        "app": q.app,
        "pack": q.pack,
        "seed": q.seed,
        "agent": chooser.name,
        "n_options": len(q.options),
        "answer": q.answer,
        "choice": reply.choice,
        "correct": reply.choice == q.answer,
        "reply": reply.text[:500],
        "tokens": reply.tokens,
    }


def ask_all(
    questions: list[Question],
    chooser: Chooser,
    backend: str = "text",
    on_answer: Callable[[dict], None] | None = None,
) -> list[dict]:
    """Every question asked of ``chooser`` on its page; one answer row per question."""
    src = PageSource(backend, screenshots=needs_screenshots(chooser, backend))
    rows = []
    ordered = sorted(questions, key=lambda q: (q.pack, q.seed))
    try:
        for (pack, seed), group in groupby(ordered, key=lambda q: (q.pack, q.seed)):
            for q in group:
                src.open(pack, seed)
                reply = chooser.choose(q, src.show(q.url), src)
                row = answer_row(q, chooser, reply)
                rows.append(row)
                if on_answer:
                    on_answer(row)
    finally:
        src.close()
    return rows


def run_questions(questions: list[Question], chooser: Chooser, out: Path, backend: str = "text") -> dict:
    """Ask, write ``answers.jsonl`` (line by line) and the scores; returns the scores."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ANSWERS, "w", encoding="utf-8") as f:

        def keep(row: dict) -> None:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            f.flush()

        rows = ask_all(questions, chooser, backend, keep)
    summary = scores(rows)
    write_scores(out, summary)
    return summary
