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
  message or appear in it.
* ``json`` — the first ``{...}`` object of the message; every field of the family's
  ``answer_schema`` must be present and equal under its own kind (extra fields are ignored).
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


def parse_time(text: str) -> int | None:
    """Minutes of the day of the (first) time in a message."""
    t = text.lower()
    m = re.search(r"\b(\d{1,2})\s*(?::|\.|h)\s*(\d{2})\s*(am|pm|a\.m\.|p\.m\.)?", t)
    if m:
        h, mi, ampm = int(m.group(1)), int(m.group(2)), m.group(3)
    else:
        m = re.search(r"\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.|uhr|h)\b", t)
        if not m:
            return None
        h, mi, ampm = int(m.group(1)), 0, m.group(2)
    if ampm and ampm.startswith("p") and h < 12:
        h += 12
    if ampm and ampm.startswith("a") and h == 12:
        h = 0
    return h * 60 + mi if h < 24 and mi < 60 else None


def parse_date(text: str, lang: str = "en") -> date | None:
    """The (first) date in a message, in any of the formats listed in the module docstring."""
    t = text.lower()
    try:
        if m := re.search(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", t):
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if m := re.search(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", t):
            return date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        if m := re.search(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", t):
            a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
            month_first = b > 12 or (lang == "en" and a <= 12)
            return date(y, a, b) if month_first else date(y, b, a)
        words = "|".join(sorted(_MONTHS, key=len, reverse=True))
        if m := re.search(rf"\b({words})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})", t):
            return date(int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)))
        if m := re.search(rf"\b(\d{{1,2}})\.?\s+({words})\s+(\d{{4}})", t):
            return date(int(m.group(3)), _MONTHS[m.group(2)], int(m.group(1)))
    except ValueError:
        return None
    return None


def same_answer(kind: str, given: object, expected: object, tolerance: float = 1e-6, lang: str = "en") -> bool:
    """Whether ``given`` (the agent's text, or a JSON field value) matches ``expected``."""
    g = given if isinstance(given, str) else json.dumps(given) if not isinstance(given, (int, float)) else str(given)
    g, e = g.translate(_WESTERN), str(expected).translate(_WESTERN)
    if kind == "number":
        nums = parse_numbers(g)
        want = parse_numbers(e)
        return len(nums) == 1 and len(want) == 1 and abs(nums[0] - want[0]) <= tolerance + 1e-9
    if kind == "time":
        return parse_time(g) is not None and parse_time(g) == parse_time(e)
    if kind == "date":
        got = parse_date(g, lang)
        return got is not None and got == parse_date(e, "en")
    if kind == "text":
        gn, en = norm_text(g), norm_text(e)
        return bool(en) and (gn == en or en in gn)
    raise ValueError(f"unknown answer kind {kind!r}")


def first_json_object(text: str) -> dict | None:
    start = text.find("{")
    while start != -1:
        depth = 0
        for i in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                try:
                    obj = json.loads(text[start : i + 1])
                except ValueError:
                    break
                return obj if isinstance(obj, dict) else None
        start = text.find("{", start + 1)
    return None


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

    def apply(self, state, params):
        """Looking is no side effect: the expected state is the initial one."""

    def answer(self, state, params):
        return str(params["answer"])

    def oracle_ops(self, params, initial):
        """Looking changes nothing: the gold sequence is empty (W-LCS is 1 for an episode that
        changed nothing, else 0)."""
        return []

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
        got, want = first_json_object(given), json.loads(expected)
        if got is None:
            return False
        folded = {norm_text(k): v for k, v in got.items()}
        for name, kind in self.answer_schema.items():
            if norm_text(name) not in folded:
                return False
            if not same_answer(kind, folded[norm_text(name)], want[name], self.tolerance, lang):
                return False
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
