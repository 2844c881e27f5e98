"""The questions file: JSON Lines, one question per line (the fields of
:class:`~openapps_sim.analysis.questions.kinds.Question`), checked when read: a bad line is one
``ConfigError`` naming the file, the line and key, and what is allowed."""

from __future__ import annotations

import json
from pathlib import Path

from openapps_sim.analysis.questions.kinds import CONCEPTS, Question
from openapps_sim.analysis.questions.options import MIN_OPTIONS
from openapps_sim.analysis.questions.registry import all_kinds
from openapps_sim.config.discovery import discover_apps
from openapps_sim.config.world import check_variation
from openapps_sim.errors import ConfigError, unknown_name

FIELDS = {
    "id": str,
    "kind": str,
    "concept": str,
    "app": str,
    "pack": str,
    "seed": int,
    "url": str,
    "family": str,
    "question": str,
    "options": list,
    "answer": int,
    "subject": dict,
}
MAX_OPTIONS = 5


def write_questions(path: Path, questions: list[Question]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for q in questions:
            f.write(json.dumps(q.as_dict(), ensure_ascii=False) + "\n")


def read_questions(path: Path) -> list[Question]:
    """The questions of ``path``; the first problem found is raised as a ConfigError."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(
            "--questions", str(path), "no such file", "a questions file written by openapps questions generate"
        )
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                out.append(parse_line(f"{path}:{n}", line))
    if not out:
        raise ConfigError(str(path), "", "holds no question", "one JSON object per line (openapps questions generate)")
    return out


def parse_line(source: str, line: str) -> Question:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as e:
        raise ConfigError(source, "", f"not JSON ({e.msg})", "one JSON object per line") from None
    if not isinstance(row, dict):
        raise ConfigError(source, "", f"expected a JSON object, got {type(row).__name__}", "one JSON object per line")
    for key, typ in FIELDS.items():
        value = row.get(key)
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            allowed = {str: "a string", int: "an integer", list: "a list", dict: "an object"}[typ]
            raise ConfigError(source, key, f"expected {allowed}, got {value!r}", allowed)
    check_row(source, row)
    return Question(**{k: row[k] for k in FIELDS})


def check_row(source: str, row: dict) -> None:
    kinds = all_kinds()
    if row["kind"] not in kinds:
        raise ConfigError(source, "kind", f"unknown kind {row['kind']!r}", ", ".join(sorted(kinds)))
    if row["concept"] not in CONCEPTS:
        raise ConfigError(source, "concept", f"unknown concept {row['concept']!r}", ", ".join(CONCEPTS))
    options = row["options"]
    if not MIN_OPTIONS <= len(options) <= MAX_OPTIONS or not all(isinstance(o, str) and o for o in options):
        raise ConfigError(
            source, "options", f"{len(options)} options", f"{MIN_OPTIONS} to {MAX_OPTIONS} non-empty strings"
        )
    if len(set(options)) != len(options):
        raise ConfigError(source, "options", "two options are the same", "distinct options")
    if not 0 <= row["answer"] < len(options):
        raise ConfigError(source, "answer", f"{row['answer']} is not an option's index", f"0 to {len(options) - 1}")
    apps = [a for a in discover_apps() if a != "start"]
    if row["app"] not in apps:
        raise unknown_name(source, "app", row["app"], apps, listing="openapps apps", what="app")
    check_variation(row["pack"], source, "pack")
    if not row["url"].startswith("/"):
        raise ConfigError(source, "url", f"{row['url']!r} is not a path of the world", "a path such as /todo/")
