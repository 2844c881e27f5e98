"""Goal phrasings and task content per language: data files, found in the tasks package and in
the pack folders on the search path.

Adding a language adds files, never code:

* ``phrasings/<lang>.yaml`` — the goals: ``goals`` maps a family id to a list of
  templates (or to styles, each a list: English has ``plain``, ``casual`` and ``context``);
  ``clauses`` maps a single-app family id to one imperative clause and ``joiners`` says how
  multi-step goals join clauses (``first``, ``next`` with ``{clause}`` — ``{Clause}``
  capitalised — and ``end``).
* ``content/<lang>.yaml`` — what tasks bring into the world in that language: new todo
  titles, event titles, pin labels, messages, lines appended to files, how a date is written.

Both are read from ``tasks/`` of the package first, then from ``tasks/`` inside every pack
folder on the search path (``OPENAPPS_VARIATIONS``, see :mod:`openapps_sim.config.packs`), so a
language (or a phrasing for a family the package lacks) can come from outside the package. An
entry the package has is never shadowed, as a shipped pack name is never shadowed.

The goal languages are the phrasing files found; a task samples content in the world's
language (the pack's ``shell.lang``, or ``shell.content_lang`` when it sets one). What a
language lacks falls back to English, never a stop: a family without a goal in the language
gets an English goal, a content key missing (or a whole content file) the English content; each
fallback is logged once and noted in the instance (``Instance.fallbacks``, the task info's
``language_fallbacks``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import string
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from openapps_sim.config.packs import display_path, list_packs, read_yaml
from openapps_sim.errors import ConfigError

ENGLISH = "en"
log = logging.getLogger(__name__)


def package_tasks_dir() -> Path:
    return Path(str(resources.files("openapps_sim.tasks")))


def _search_key() -> str:
    return os.environ.get("OPENAPPS_VARIATIONS", "")


@lru_cache(maxsize=16)
def _task_dirs(search: str) -> tuple[Path, ...]:
    dirs = [package_tasks_dir()]
    for path in list_packs().values():
        if path.is_dir() and (path / "tasks").is_dir():
            dirs.append(path / "tasks")
    return tuple(dirs)


def task_dirs() -> tuple[Path, ...]:
    """Where phrasings and content are read, in order: the tasks package, then ``tasks/`` of
    every pack folder on the search path."""
    return _task_dirs(_search_key())


def _read(path: Path) -> dict:
    data = read_yaml(path) or {}
    if not isinstance(data, dict):
        raise ConfigError(display_path(path), "", "expected a mapping at the top level")
    return data


def _fill(into: dict, more: dict) -> dict:
    """``into`` with what ``more`` adds: keys ``into`` lacks, mappings filled key by key (the
    earlier file wins where both give a value)."""
    out = dict(into)
    for key, value in more.items():
        if key not in out or out[key] in (None, [], {}):
            out[key] = value
        elif isinstance(out[key], dict) and isinstance(value, dict):
            out[key] = _fill(out[key], value)
    return out


def files_of(kind: str, lang: str) -> list[Path]:
    """Every ``<kind>/<lang>.yaml`` found, in the order they are read."""
    return [p for d in task_dirs() if (p := d / kind / f"{lang}.yaml").is_file()]


@lru_cache(maxsize=128)
def _merged(kind: str, lang: str, search: str) -> dict:
    data: dict = {}
    for path in files_of(kind, lang):
        data = _fill(data, _read(path))
    return data


def phrasing_file(lang: str) -> dict:
    return _merged("phrasings", lang, _search_key())


def content_file(lang: str) -> dict:
    return _merged("content", lang, _search_key())


@lru_cache(maxsize=16)
def _languages(kind: str, search: str) -> tuple[str, ...]:
    found = {p.stem for d in task_dirs() for p in (d / kind).glob("*.yaml")}
    return tuple(sorted(found, key=lambda lang: (lang != ENGLISH, lang)))


def goal_languages() -> tuple[str, ...]:
    """Every language with a phrasing file (in the package or a pack folder), English first."""
    return _languages("phrasings", _search_key())


def content_languages() -> tuple[str, ...]:
    return _languages("content", _search_key())


def clear_cache() -> None:
    """Forget what was read (tests that write language files call it)."""
    _task_dirs.cache_clear()
    _merged.cache_clear()
    _styles.cache_clear()
    _languages.cache_clear()
    _warned.clear()


# -- fallbacks -------------------------------------------------------------------------------------
_notes: ContextVar[list[str] | None] = ContextVar("language_fallbacks", default=None)
_warned: set[str] = set()


@contextlib.contextmanager
def collect_fallbacks() -> Iterator[list[str]]:
    """Collect the notes of every English fallback taken inside the block (for one instance)."""
    notes: list[str] = []
    token = _notes.set(notes)
    try:
        yield notes
    finally:
        _notes.reset(token)


def note_fallback(note: str, group: str = "", summary: Callable[[], str] | None = None) -> None:
    """Add ``note`` to the instance being made and log it once per process; the notes of one
    ``group`` (one kind of fallback in one language) are logged once for all, as ``summary()``
    (which counts them), not once each."""
    key = group or note
    if key not in _warned:
        _warned.add(key)
        log.warning("%s", summary() if summary else note)
    notes = _notes.get()
    if notes is not None and note not in notes:
        notes.append(note)


def _where(kind: str, lang: str) -> str:
    """The files of ``kind`` in ``lang``, for notes: "in a.yaml, b.yaml" or "no file in ..."."""
    found = files_of(kind, lang)
    if found:
        return "in " + ", ".join(display_path(p) for p in found)
    return f"no {kind}/{lang}.yaml in {_looked_in()}"


def _looked_in() -> str:
    return " or ".join(display_path(d) for d in task_dirs())


# -- phrasings -------------------------------------------------------------------------------------
def family_styles(family_id: str, lang: str) -> dict[str, list[str]]:
    """The goal templates of a family in one language, by style (a language without styles has
    one style named after it)."""
    return {style: list(templates) for style, templates in _styles(family_id, lang, _search_key())}


@lru_cache(maxsize=8192)
def _styles(family_id: str, lang: str, search: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    entry = (_merged("phrasings", lang, search).get("goals") or {}).get(family_id)
    if not entry:
        return ()
    if isinstance(entry, list):
        return ((lang, tuple(str(t) for t in entry)),)
    return tuple((str(style), tuple(str(t) for t in templates)) for style, templates in entry.items() if templates)


def phrasing_fallback(family_id: str, lang: str, without: Callable[[], tuple[list[str], int]] | None = None) -> str:
    """Note that ``family_id`` has no goal in ``lang`` and gets an English one; returns English.
    The warning is one for the language: ``without()`` gives every family it has no goal for,
    and how many families there are."""

    def summary() -> str:
        missing, every = without() if without else ([family_id], 1)
        return (
            f"no {lang!r} goal phrasing for {len(missing)} of {every} task families "
            f"({_where('phrasings', lang)}); their goals are in English: {_some(missing)}"
        )

    where = _where("phrasings", lang)
    note_fallback(
        f"goal of {family_id}: no {lang!r} phrasing ({where}); the goal is in English", f"goal {lang}", summary
    )
    return ENGLISH


def _some(names: list[str], shown: int = 3) -> str:
    """The first ``shown`` names, and how many more."""
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def _content_keys(node: Any, prefix: str = "") -> list[str]:
    """The dotted keys of the content entries under ``node`` (what :func:`words` looks up)."""
    if not isinstance(node, dict):
        return [prefix]
    return [k for key, value in node.items() for k in _content_keys(value, f"{prefix}{key}.")]


def content_fallback(key: str, lang: str) -> None:
    """Note that ``lang`` has no content ``key`` and gets the English; the warning is one for
    the language, counting the English content entries it lacks."""

    def summary() -> str:
        every = [k.rstrip(".") for k in _content_keys(content_file(ENGLISH))]
        missing = [k for k in every if _lookup(content_file(lang), k) is None]
        return (
            f"no {lang!r} content for {len(missing)} of {len(every)} content entries ({_where('content', lang)}); "
            f"the English content is used: {_some(missing)}"
        )

    where = _where("content", lang)
    note_fallback(f"content {key}: none in {lang!r} ({where}); the English content is used", f"content {lang}", summary)


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


# -- content ---------------------------------------------------------------------------------------
def world_language(config: dict) -> str:
    return str((config.get("shell") or {}).get("lang") or ENGLISH)


def content_language(config: dict) -> str:
    """The language of the world's content: ``shell.content_lang`` (set by packs that translate
    only the interface), else ``shell.lang``."""
    return str((config.get("shell") or {}).get("content_lang") or world_language(config))


def _lookup(data: dict, key: str) -> Any:
    node: Any = data
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def words(config_or_lang: dict | str, key: str) -> Any:
    """Task content named ``key`` (``todo.new_items``...) in the world's language (or the
    language given). A language without it gets the English content, noted (see
    :func:`collect_fallbacks`); a key English lacks too is an error naming the files."""
    lang = config_or_lang if isinstance(config_or_lang, str) else content_language(config_or_lang)
    node = _lookup(content_file(lang), key)
    if node is not None:
        return node
    if lang != ENGLISH:
        node = _lookup(content_file(ENGLISH), key)
        if node is not None:
            content_fallback(key, lang)
            return node
    english = ", ".join(display_path(p) for p in files_of("content", ENGLISH)) or "tasks/content/en.yaml"
    raise ConfigError(english, key, "missing: tasks need it to bring content into a world, and English is the fallback")


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


_DOUBLED_STOP = re.compile(r"""([.!?…])(['"’”»«“„]+)\.(?=\s|$)""")


def tidy_punctuation(goal: str) -> str:
    """A quoted value that ends its own sentence ends the goal's too: ``schick 'Ich habe die
    Schlüssel gelassen.'.`` loses the stop after the quote (``... gelassen.'``)."""
    return _DOUBLED_STOP.sub(r"\1\2", goal)
