"""Goal phrasings and task content per language, read from data files of the tasks package.

Adding a language adds files, never code:

* ``tasks/phrasings/<lang>.yaml`` — the goals: ``goals`` maps a family id to a list of
  templates (or to styles, each a list: English has ``plain``, ``casual`` and ``context``);
  ``clauses`` maps a single-app family id to one imperative clause and ``joiners`` says how
  multi-step goals join clauses (``first``, ``next`` with ``{clause}`` — ``{Clause}``
  capitalised — and ``end``).
* ``tasks/content/<lang>.yaml`` — what tasks bring into the world in that language: new todo
  titles, event titles, pin labels, messages, lines appended to files, how a date is written.

The goal languages are the phrasing files present; a task samples content in the world's
language (the pack's ``shell.lang``, or ``shell.content_lang`` when it sets one).
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from openapps_sim.errors import ConfigError

ENGLISH = "en"


def _tasks_dir() -> Path:
    return Path(str(resources.files("openapps_sim.tasks")))


def _read(kind: str, lang: str) -> dict:
    from openapps_sim.config.packs import display_path, read_yaml

    path = _tasks_dir() / kind / f"{lang}.yaml"
    if not path.is_file():
        return {}
    data = read_yaml(path) or {}
    if not isinstance(data, dict):
        raise ConfigError(display_path(path), "", "expected a mapping at the top level")
    return data


@lru_cache(maxsize=64)
def phrasing_file(lang: str) -> dict:
    return _read("phrasings", lang)


@lru_cache(maxsize=64)
def content_file(lang: str) -> dict:
    return _read("content", lang)


@lru_cache(maxsize=1)
def goal_languages() -> tuple[str, ...]:
    """Every language with a phrasing file, English first."""
    found = sorted(p.stem for p in (_tasks_dir() / "phrasings").glob("*.yaml"))
    return tuple(sorted(found, key=lambda lang: (lang != ENGLISH, lang)))


@lru_cache(maxsize=1)
def content_languages() -> tuple[str, ...]:
    found = sorted(p.stem for p in (_tasks_dir() / "content").glob("*.yaml"))
    return tuple(sorted(found, key=lambda lang: (lang != ENGLISH, lang)))


def family_styles(family_id: str, lang: str) -> dict[str, list[str]]:
    """The goal templates of a family in one language, by style (a language without styles has
    one style named after it)."""
    entry = (phrasing_file(lang).get("goals") or {}).get(family_id)
    if not entry:
        return {}
    if isinstance(entry, list):
        return {lang: [str(t) for t in entry]}
    return {str(style): [str(t) for t in templates] for style, templates in entry.items() if templates}


def clause(family_id: str, lang: str) -> str | None:
    value = (phrasing_file(lang).get("clauses") or {}).get(family_id)
    return str(value) if value else None


def joiners(lang: str) -> dict[str, list[dict]]:
    """How multi-step goals join their clauses in ``lang``, by style."""
    value = phrasing_file(lang).get("joiners") or []
    if isinstance(value, list):
        return {lang: value} if value else {}
    return {str(style): list(items) for style, items in value.items() if items}


def join_clauses(joiner: dict, clauses: list[str]) -> str:
    def put(template: str, text: str) -> str:
        return template.replace("{Clause}", text[:1].upper() + text[1:]).replace("{clause}", text)

    first, rest = clauses[0], clauses[1:]
    return put(str(joiner["first"]), first) + "".join(put(str(joiner["next"]), c) for c in rest) + str(joiner["end"])


def world_language(config: dict) -> str:
    return str((config.get("shell") or {}).get("lang") or ENGLISH)


def content_language(config: dict) -> str:
    """The language of the world's content: ``shell.content_lang`` (set by packs that translate
    only the interface), else ``shell.lang``."""
    return str((config.get("shell") or {}).get("content_lang") or world_language(config))


def words(config_or_lang: dict | str, key: str) -> Any:
    """Task content named ``key`` (``todo.new_items``...) in the world's language (or the
    language given). A language without it is an error naming the file to add it to."""
    lang = config_or_lang if isinstance(config_or_lang, str) else content_language(config_or_lang)
    data = content_file(lang)
    node: Any = data
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    if node is None:
        where = f"tasks/content/{lang}.yaml"
        have = ", ".join(content_languages())
        problem = "no such file" if not data else "missing"
        raise ConfigError(where, key, f"{problem}: tasks need it to bring content in language {lang!r}", have)
    return node


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


_DOUBLED_STOP = re.compile(r"""([.!?…])(['"’”»«“„]+)\.(?=\s|$)""")


def tidy_punctuation(goal: str) -> str:
    """A quoted value that ends its own sentence ends the goal's too: ``schick 'Ich habe die
    Schlüssel gelassen.'.`` loses the stop after the quote (``... gelassen.'``)."""
    return _DOUBLED_STOP.sub(r"\1\2", goal)
