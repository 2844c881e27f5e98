"""Return-value tasks: the agent sends its answer with ``send_msg_to_user(...)`` and the
family's validator compares it with the value computed from the world (see docs/tasks.md,
"Answers").

Answers are matched by type, with one rule for every language and script: every value of the
answer's type the reply holds (:mod:`.answervalues`) must be the expected one, so a hedge between
two candidates fails ("4 or five", "9:30 or 1030", "half past nine or ten o'clock"), while a
value of another type is context ("3 open items as of 14:30" answers a count).

* ``number`` — every number of the reply (digits of any script with any common separators,
  number words of the pack's language and English) equals the expected one within the family's
  tolerance (``tolerance``, or ``relative_tolerance`` of the expected value when larger); times
  and dates are not numbers.
* ``time`` — every time of day (``14:30``, ``2:30 pm``, ``14h30``, ``19 Uhr``, ``1430``,
  ``half past two``, ``下午两点半``...) is the expected one; dates are not times.
* ``date`` — every date (ISO, ``14.03.2026``, ``14/03/2026``, ``March 14, 2026``,
  ``14 de marzo de 2026``, ``2026年3月14日``; a date without a year matches on day and month).
* ``text`` — normalised free text (see "Normalisation"); the expected text must equal the
  message or appear in it ("The last message was 'X'." passes), and no competing candidate may
  appear (:func:`names_a_rival`).
* ``json`` — the reply is one JSON object and nothing else (white space aside), no key twice,
  exactly the fields of the family's ``answer_schema``, each a number or a string (never a
  boolean, list or object) equal under its own kind.
"""

from __future__ import annotations

import json
import re

from openapps_sim.config.normalise import norm_text
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit import TaskFamily
from openapps_sim.taskkit.answervalues import values
from openapps_sim.taskkit.numberwords import unspaced

KINDS = ("number", "time", "date", "text", "json")


def parse_numbers(text: str, lang: str = "en") -> list[float]:
    """Every number in a message, in order (times and dates left out)."""
    return values("number", text, lang)


def parse_times(text: str, lang: str = "en") -> list[int]:
    """Minutes of the day of every time in a message, in order (dates left out)."""
    return values("time", text, lang)


def parse_dates(text: str, lang: str = "en") -> list[tuple[int | None, int, int] | None]:
    """``(year, month, day)`` of every date in a message, in order; the year None where the
    message names none, an impossible date (``31.02.2026``) None."""
    return values("date", text, lang)


def _same_day(got: tuple | None, want: tuple | None) -> bool:
    if got is None or want is None:
        return False
    return got[1:] == want[1:] and (got[0] is None or want[0] is None or got[0] == want[0])


def same_answer(
    kind: str, given: object, expected: object, tolerance: float = 1e-6, lang: str = "en", relative: float = 0.0
) -> bool:
    """Whether ``given`` (the agent's text, or a JSON field value) matches ``expected``: every
    value of ``kind`` it holds is the expected one, and it holds one."""
    if isinstance(given, bool) or not isinstance(given, (str, int, float)):
        return False
    g, e = str(given), str(expected)
    if kind == "text":
        gn, en = norm_text(g), norm_text(e)
        return bool(en) and (gn == en or en in gn)
    if kind not in ("number", "time", "date"):
        raise ValueError(f"unknown answer kind {kind!r}")
    got, want = values(kind, g, lang), values(kind, e, lang)
    if not got or len(set(want)) != 1:
        return False
    if kind == "number":
        allowed = max(tolerance, relative * abs(want[0])) + 1e-9
        return all(abs(v - want[0]) <= allowed for v in got)
    if kind == "date":
        return all(_same_day(v, want[0]) for v in got)
    return all(v == want[0] for v in got)


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("a key given twice")
    return dict(pairs)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is no JSON number")


def strict_json(text: str) -> dict | None:
    """The reply as one JSON object and nothing else around it (white space aside); None when it
    is not, or gives a key twice (which of two values would be the answer?)."""
    try:
        obj = json.loads(str(text).strip(), object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def words_of(text: str) -> int:
    """How many words ``text`` has, in any script: a run of letters and digits of a spaced
    script is one, each character of a script written without spaces (Chinese) is one."""
    n = 0
    for m in re.finditer(r"[^\W_]+", text):
        wide = sum(1 for c in m.group(0) if unspaced(c))
        n += wide + (1 if wide < len(m.group(0)) else 0)
    return n


def _strings(node: object, key: str = "") -> list[tuple[str, str]]:
    """(key, text) of every string value under a mapping key, anywhere in ``node``."""
    if isinstance(node, str):
        return [(key, node)] if key else []
    if isinstance(node, dict):
        return [pair for k, v in node.items() for pair in _strings(v, str(k))]
    if isinstance(node, (list, tuple)):
        return [pair for v in node for pair in _strings(v, key)]
    return []


def rival_texts(state: dict, apps: tuple[str, ...] | list[str], expected: str) -> list[str]:
    """The competing candidates of a text answer: the other texts the apps hold under the same
    key as the expected one (another message's ``text``, another item's ``notes``, another
    place's ``note``...). Empty when the expected text is not stored as such (a computed value)."""
    want = norm_text(expected)
    pairs = [pair for app in apps for pair in _strings(state.get(app, {}))]
    keys = {k for k, v in pairs if norm_text(v) == want}
    out = {norm_text(v) for k, v in pairs if k in keys}
    return sorted(t for t in out if t and t != want)


# a rival shorter than this (in words of any script and characters) may be an ordinary phrase
# of a sentence that wraps the answer ("ok", "thanks", "好的"): it competes only where it stands
# alone, quoted or on a line of its own
_RIVAL_WORDS, _RIVAL_CHARS = 3, 12
_ALONE = re.compile(r"[\n\r\"“”„«»「」『』‘’]|(?<![^\W\d_])'|'(?![^\W\d_])")


def names_a_rival(given: str, expected: str, rivals: list[str]) -> bool:
    """Whether the message also gives a competing candidate: a rival text that appears in it
    outside the expected text (a rival inside the expected one, "See you" in "See you at 8",
    counts only where the expected text is not), in any script and with or without spaces
    around it; a short rival only where it stands alone."""
    g, e = norm_text(given), norm_text(expected)
    rest = g.replace(e, " \n ") if e else g
    alone = {norm_text(part) for part in _ALONE.split(str(given))}
    for rival in rivals:
        r = norm_text(rival)
        if not r or r == e:
            continue
        if words_of(r) < _RIVAL_WORDS and len(r) < _RIVAL_CHARS:
            if r in alone:
                return True
        elif r in (rest if r in e else g):  # as written, glued to its neighbours or not
            return True
    return False


def check_schema(family_id: str, schema: dict) -> None:
    """Raise :class:`ConfigError` when an answer schema names an unknown field kind."""
    allowed = ", ".join(k for k in KINDS if k != "json")
    if not schema:
        raise ConfigError(f"task {family_id}", "answer_schema", "a json answer needs at least one field", allowed)
    for name, kind in schema.items():
        if kind not in KINDS or kind == "json":
            raise ConfigError(f"task {family_id}", f"answer_schema.{name}", f"unknown kind {kind!r}", allowed)


class AnswerFamily(TaskFamily):
    """A family whose result is a value the agent sends back; the world must stay unchanged.

    Subclasses set ``answer_kind`` (and ``answer_schema`` for ``json``, ``tolerance`` and
    ``relative_tolerance`` for numbers), implement ``sample`` and ``answer`` (the value as the oracle says it, formatted
    for the pack's language), and ``solve`` ends with ``ui.answer(...)``. Milestones: the pages
    that show the value (``answer_pages``).
    """

    returns_value = True
    structure = "answer"
    answer_kind = "text"
    answer_schema: dict[str, str] = {}
    tolerance = 1e-6
    relative_tolerance = 0.0  # a number answer may be off by this share of the expected value

    def plan(self, params, initial):
        """Looking changes nothing: the expected state is the initial one and the gold sequence
        is empty (W-LCS is 1 for an episode that changed nothing, else 0)."""
        return []

    def answer(self, state, params):
        return str(params["answer"])

    def solve_api(self, params, api):
        """Read the data of the family's apps with their ``read`` tools, then answer."""
        state = {}
        for app in self.apps:
            state[app] = api.result((yield api.read(app)))
        yield api.answer(self.answer(state, params))

    def answer_pages(self, params: dict) -> list[str]:
        """Path prefixes of the pages that show what the answer needs (navigation milestones)."""
        return [f"/{a}" for a in self.apps]

    def milestones(self, params, initial=None, expected=None):
        from openapps_sim.taskkit.progress import page_milestone

        return [page_milestone(f"page {p}", p) for p in self.answer_pages(params)]

    def answer_spec(self) -> dict:
        """The answer's type and JSON Schema, as the agent is told them (:func:`answer_spec`)."""
        return answer_spec(self.answer_kind, self.answer_schema)

    def check_answer(self, given: str, expected: str, lang: str = "en") -> bool:
        if self.answer_kind != "json":
            return same_answer(self.answer_kind, given, expected, self.tolerance, lang, self.relative_tolerance)
        check_schema(self.id, self.answer_schema)
        got, want = strict_json(given), json.loads(expected)
        if got is None or set(got) != set(self.answer_schema):
            return False
        return all(
            same_answer(kind, got[name], want[name], self.tolerance, lang, self.relative_tolerance)
            for name, kind in self.answer_schema.items()
        )

    def judge_answer(self, given: str, expected: str, lang: str = "en", state: dict | None = None) -> bool:
        """:meth:`check_answer`, and for a text answer no competing candidate from the family's
        apps in ``state`` (the world when the answer is scored): pasting every message of every
        chat holds the right one too, but it is no answer."""
        if not self.check_answer(given, expected, lang):
            return False
        if self.answer_kind == "text" and state is not None:
            return not names_a_rival(given, expected, rival_texts(state, self.apps, expected))
        return True


# the JSON Schema of the value each kind of answer asks for (a json answer: its fields' kinds)
_VALUE_SCHEMAS = {
    "number": {"type": "number"},
    "time": {"type": "string", "format": "time", "description": "a time of day, e.g. 14:30"},
    "date": {"type": "string", "format": "date", "description": "a date, e.g. 2026-03-14"},
    "text": {"type": "string"},
}


def answer_spec(kind: str, schema: dict[str, str] | None = None) -> dict:
    """What an agent is told of the answer it must send: its ``type`` (the answer kind) and the
    JSON Schema of the value (a ``json`` answer: an object with exactly the fields of
    ``schema``, each a number or a string; every other kind: one value of that type, sent as the
    message's text)."""
    if kind != "json":
        return {"type": kind, "schema": dict(_VALUE_SCHEMAS[kind])}
    fields = {name: dict(_VALUE_SCHEMAS[k]) for name, k in (schema or {}).items()}
    return {
        "type": "json",
        "schema": {"type": "object", "properties": fields, "required": list(fields), "additionalProperties": False},
    }


class ActAnswerFamily(AnswerFamily):
    """Act, then answer (SimuWoB's return-value tasks that change state): the family's ``plan``
    changes the world, and the answer is a value of the world **after** it (``answer`` is given
    the expected state), so it cannot be known before acting. Success needs both: the complete
    state equal to the expected one and the right answer. The page script acts, then reads the
    value off the page it ends on; the API solution runs the plan, reads the apps and answers."""

    plan = TaskFamily.plan
    milestones = TaskFamily.milestones

    def solve_api(self, params, api):
        yield from TaskFamily.solve_api(self, params, api)
        yield from AnswerFamily.solve_api(self, params, api)


def pack_lang(config: dict) -> str:
    """The language of the active pack (``shell.lang``), e.g. ``de``."""
    return str(config.get("shell", {}).get("lang", "en"))


def format_number(value: float, lang: str, digits: int = 0) -> str:
    """A number as a speaker of ``lang`` writes it: ``12.50`` in English, ``12,50`` where the
    language's content file says the decimal separator is a comma (``number.decimal`` in
    ``tasks/content/<lang>.yaml``; the oracle answers in the pack's format)."""
    from openapps_sim.taskkit.language import content_file

    text = f"{value:.{digits}f}"
    decimal = str((content_file(lang).get("number") or {}).get("decimal", "."))
    return text.replace(".", decimal)
