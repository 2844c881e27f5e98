"""Return-value tasks: the agent sends its answer with ``send_msg_to_user(...)`` and the
family's validator compares it with the value computed from the world (see docs/tasks.md,
"Answers").

Answer kinds and what counts as equal:

* ``number`` — the message must hold exactly one number (currency signs, units and thousands
  separators are ignored; ``12,5`` and ``12.5`` are the same; ``1.234,50`` and ``1,234.50`` too;
  a lone comma before exactly three digits is a thousands separator, a lone dot is decimal;
  small counts may be written as words in English, German, French, Spanish, Italian or Arabic;
  Arabic-Indic digits and the Arabic decimal separator ``٫`` count as digits and ``.``); equal
  within the family's ``tolerance``.
* ``time`` — ``14:30``, ``14.30``, ``14h30``, ``2:30 pm``, ``2 pm``; equal as minutes of the day.
* ``date`` — ISO ``2026-03-14``, ``14.03.2026``, ``14/03/2026`` (``03/14/2026`` when the first
  part cannot be a day-first date, or in English packs), ``March 14, 2026``, ``14 mars 2026``,
  ``14. März 2026``, ``14 marzo 2026``, ``14 مارس 2026`` (month names in English, German,
  French, Spanish, Italian and Arabic); equal as dates.
* ``text`` — normalised free text (see "Normalisation"); the expected text must equal the
  message or appear in it ("The last message was 'X'." passes), and no competing candidate may
  appear: another text the family's apps hold under the same key (another message, another
  note) of at least three words or twelve characters (:func:`names_a_rival`).
* ``json`` — the ``{...}`` objects of the message that hold a field of the family's
  ``answer_schema``: there must be one, and in each every field must be present and equal under
  its own kind (extra fields are ignored; a second, different answer object fails).

Times and dates: every time (date) the message names must be the expected one, so a list of
every event's time is no answer; a number answer holds exactly one number.
"""

from __future__ import annotations

import json
import re
from datetime import date

from openapps_sim.config.normalise import norm_text
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit import TaskFamily

KINDS = ("number", "time", "date", "text", "json")
_WORDS = {
    w: i
    for i, group in enumerate(
        [
            "zero null zéro cero zero صفر",
            "one eins un une ein eine uno una واحد واحدة",
            "two zwei deux dos due اثنان اثنين",
            "three drei trois tres tre ثلاثة ثلاث",
            "four vier quatre cuatro quattro أربعة أربع",
            "five fünf cinq cinco cinque خمسة خمس",
            "six sechs seis sei ستة ست",
            "seven sieben sept siete sette سبعة سبع",
            "eight acht huit ocho otto ثمانية ثماني",
            "nine neun neuf nueve nove تسعة تسع",
            "ten zehn dix diez dieci عشرة عشر",
            "eleven elf onze once undici",
            "twelve zwölf douze doce dodici",
        ]
    )
    for w in group.split()
}
# Arabic-Indic and Eastern Arabic-Indic digits, the Arabic decimal and thousands separators
_WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫٬", "01234567890123456789.,")
_NUM = re.compile(r"[-−]?\d[\d.,' \u00a0\u202f]*\d|[-−]?\d")
_MONTHS = {
    name: i % 12 + 1
    for i, name in enumerate(
        "january february march april may june july august september october november december "
        "januar februar märz april mai juni juli august september oktober november dezember "
        "janvier février mars avril mai juin juillet août septembre octobre novembre décembre "
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre "
        "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre "
        "يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر".split()
    )
}


def _one_number(token: str) -> float | None:
    t = re.sub(r"[' \u00a0\u202f]", "", token.replace("−", "-"))
    if "," in t and "." in t:  # the later one is the decimal separator
        dec = "," if t.rfind(",") > t.rfind(".") else "."
        t = t.replace("." if dec == "," else ",", "").replace(dec, ".")
    elif t.count(",") == 1 and len(t.split(",")[1]) != 3:  # decimal comma: 12,5 / 12,50
        t = t.replace(",", ".")
    elif "," in t:  # thousands: 1,234 / 1,234,567
        t = t.replace(",", "")
    elif t.count(".") > 1:
        t = t.replace(".", "")
    try:
        return float(t)
    except ValueError:
        return None


def parse_numbers(text: str) -> list[float]:
    """Every number in a message (digits in any common locale format, or a small number word)."""
    found = [v for v in (_one_number(m.group(0)) for m in _NUM.finditer(text)) if v is not None]
    if not found:
        found = [float(_WORDS[w]) for w in re.findall(r"[^\W\d_]+", text.lower()) if w in _WORDS]
    return found


_CLOCK = re.compile(r"(?<![\d.:])(\d{1,2})\s*(?::|\.|h)\s*(\d{2})(?!\.?\d)\s*(am|pm|a\.m\.|p\.m\.)?")
_HOUR = re.compile(r"(?<![\d.:])(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.|uhr|h)\b")


def _minutes(h: int, mi: int, ampm: str | None) -> int | None:
    if ampm and ampm.startswith("p") and h < 12:
        h += 12
    if ampm and ampm.startswith("a") and h == 12:
        h = 0
    return h * 60 + mi if h < 24 and mi < 60 else None


def parse_times(text: str) -> list[int]:
    """Minutes of the day of every time in a message (``14:30``, ``2:30 pm``, ``14h30``,
    ``7 pm``, ``19 Uhr``), in order; the day and month of a date (``14.03.2026``) are not a time."""
    t = text.lower()
    found: list[tuple[int, int]] = []
    taken: list[tuple[int, int]] = []
    for m in _CLOCK.finditer(t):
        value = _minutes(int(m.group(1)), int(m.group(2)), m.group(3))
        if value is not None:
            found.append((m.start(), value))
            taken.append(m.span())
    for m in _HOUR.finditer(t):
        if any(a <= m.start() < b for a, b in taken):
            continue
        value = _minutes(int(m.group(1)), 0, m.group(2))
        if value is not None:
            found.append((m.start(), value))
    return [v for _, v in sorted(found)]


def parse_time(text: str) -> int | None:
    """Minutes of the day of the (first) time in a message."""
    times = parse_times(text)
    return times[0] if times else None


def _date_patterns() -> list[tuple[re.Pattern, str]]:
    words = "|".join(sorted(_MONTHS, key=len, reverse=True))
    return [
        (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), "ymd"),
        (re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b"), "dmy"),
        (re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b"), "slash"),
        (re.compile(rf"\b({words})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})"), "mdy"),
        (re.compile(rf"\b(\d{{1,2}})\.?\s+({words})\s+(\d{{4}})"), "d_month_y"),
    ]


_DATES = _date_patterns()


def _date_of(m: re.Match, how: str, lang: str) -> date | None:
    g = m.groups()
    try:
        if how == "ymd":
            return date(int(g[0]), int(g[1]), int(g[2]))
        if how == "dmy":
            return date(int(g[2]), int(g[1]), int(g[0]))
        if how == "slash":
            a, b, y = int(g[0]), int(g[1]), int(g[2])
            month_first = b > 12 or (lang == "en" and a <= 12)
            return date(y, a, b) if month_first else date(y, b, a)
        if how == "mdy":
            return date(int(g[2]), _MONTHS[g[0]], int(g[1]))
        return date(int(g[2]), _MONTHS[g[1]], int(g[0]))
    except ValueError:
        return None


def parse_dates(text: str, lang: str = "en") -> list[date | None]:
    """Every date in a message (the formats of the module docstring), in order; an impossible
    date (``31.02.2026``) is None."""
    t = text.lower()
    found: list[tuple[int, date | None]] = []
    taken: list[tuple[int, int]] = []
    for pattern, how in _DATES:
        for m in pattern.finditer(t):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append(m.span())
            found.append((m.start(), _date_of(m, how, lang)))
    return [d for _, d in sorted(found, key=lambda x: x[0])]


def parse_date(text: str, lang: str = "en") -> date | None:
    """The (first) date in a message, in any of the formats listed in the module docstring."""
    for pattern, how in _DATES:  # the formats in order of precedence, as written
        m = pattern.search(text.lower())
        if m:
            return _date_of(m, how, lang)
    return None


def same_answer(kind: str, given: object, expected: object, tolerance: float = 1e-6, lang: str = "en") -> bool:
    """Whether ``given`` (the agent's text, or a JSON field value) matches ``expected``."""
    g = given if isinstance(given, str) else json.dumps(given) if not isinstance(given, (int, float)) else str(given)
    g, e = g.translate(_WESTERN), str(expected).translate(_WESTERN)
    if kind == "number":
        nums = parse_numbers(g)
        want = parse_numbers(e)
        return len(nums) == 1 and len(want) == 1 and abs(nums[0] - want[0]) <= tolerance + 1e-9
    if kind == "time":  # every time the message names must be the expected one (no competitor)
        times, want_t = parse_times(g), parse_time(e)
        return bool(times) and want_t is not None and all(t == want_t for t in times)
    if kind == "date":
        dates, want_d = parse_dates(g, lang), parse_date(e, "en")
        return bool(dates) and want_d is not None and all(d == want_d for d in dates)
    if kind == "text":
        gn, en = norm_text(g), norm_text(e)
        return bool(en) and (gn == en or en in gn)
    raise ValueError(f"unknown answer kind {kind!r}")


def json_objects(text: str) -> list[dict]:
    """Every top-level ``{...}`` JSON object of a message, in order."""
    out: list[dict] = []
    start = text.find("{")
    while start != -1:
        depth, end = 0, -1
        for i in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                try:
                    obj = json.loads(text[start : i + 1])
                except ValueError:
                    break
                if isinstance(obj, dict):
                    out.append(obj)
                    end = i + 1
                break
        start = text.find("{", end if end != -1 else start + 1)
    return out


def first_json_object(text: str) -> dict | None:
    found = json_objects(text)
    return found[0] if found else None


def _words_in(text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


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


# a rival shorter than this (in words and characters) may be an ordinary phrase of a sentence
# that wraps the answer ("ok", "thanks"), so it does not count as a competing candidate
_RIVAL_WORDS, _RIVAL_CHARS = 3, 12


def names_a_rival(given: str, expected: str, rivals: list[str]) -> bool:
    """Whether the message also gives a competing candidate: a rival text that appears in it
    outside the expected text (a rival inside the expected one, "See you" in "See you at 8",
    counts only where the expected text is not)."""
    g, e = norm_text(given), norm_text(expected)
    rest = g.replace(e, " \n ") if e else g
    for rival in rivals:
        r = norm_text(rival)
        if not r or r == e or (len(r.split()) < _RIVAL_WORDS and len(r) < _RIVAL_CHARS):
            continue
        if _words_in(rest if r in e else g, r):
            return True
    return False


def check_schema(family_id: str, schema: dict) -> None:
    """Raise :class:`ConfigError` when an answer schema names an unknown field kind."""
    if not schema:
        raise ConfigError(f"task {family_id}", "answer_schema", "a json answer needs at least one field", [])
    for name, kind in schema.items():
        if kind not in KINDS or kind == "json":
            raise ConfigError(
                f"task {family_id}",
                f"answer_schema.{name}",
                f"unknown kind {kind!r}",
                [k for k in KINDS if k != "json"],
            )


class AnswerFamily(TaskFamily):
    """A family whose result is a value the agent sends back; the world must stay unchanged.

    Subclasses set ``answer_kind`` (and ``answer_schema`` for ``json``, ``tolerance`` for
    numbers), implement ``sample`` and ``answer`` (the value as the oracle says it, formatted
    for the pack's language), and ``solve`` ends with ``ui.answer(...)``. Milestones: the pages
    that show the value (``answer_pages``).
    """

    returns_value = True
    structure = "answer"
    answer_kind = "text"
    answer_schema: dict[str, str] = {}
    tolerance = 1e-6

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

    def check_answer(self, given: str, expected: str, lang: str = "en") -> bool:
        if self.answer_kind != "json":
            return same_answer(self.answer_kind, given, expected, self.tolerance, lang)
        check_schema(self.id, self.answer_schema)
        want = json.loads(expected)
        fields = {norm_text(k) for k in self.answer_schema}
        # every object that answers (has a field of the schema) must be right: a second,
        # different object is a competing answer
        answers = [o for o in json_objects(given) if fields & {norm_text(k) for k in o}]
        return bool(answers) and all(self._json_ok(o, want, lang) for o in answers)

    def _json_ok(self, got: dict, want: dict, lang: str) -> bool:
        folded = {norm_text(k): v for k, v in got.items()}
        for name, kind in self.answer_schema.items():
            if norm_text(name) not in folded:
                return False
            if not same_answer(kind, folded[norm_text(name)], want[name], self.tolerance, lang):
                return False
        return True

    def judge_answer(self, given: str, expected: str, lang: str = "en", state: dict | None = None) -> bool:
        """:meth:`check_answer`, and for a text answer no competing candidate from the family's
        apps in ``state`` (the world when the answer is scored): pasting every message of every
        chat holds the right one too, but it is no answer."""
        if not self.check_answer(given, expected, lang):
            return False
        if self.answer_kind == "text" and state is not None:
            return not names_a_rival(given, expected, rival_texts(state, self.apps, expected))
        return True


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
