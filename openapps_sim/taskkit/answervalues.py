"""The values of each answer type a reply holds: numbers, times of day and dates, each with
where it stands (see docs/tasks.md, "Answers").

One reading for every language and script. The reply is folded (:func:`numberwords.fold`: lower
case, no accents, any decimal digit as ASCII, the Arabic separators as ``.`` and ``,``) and its
number words are written as digits (:mod:`.numberwords`); then dates are read, then times (with
the dates left out), then numbers (with dates and times left out). So a date or a time is
context to a number answer, never a second number, and a date is context to a time answer.

A form that is a time only where a time is asked (``14.30``, ``1430``) is a number otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openapps_sim.taskkit.numberwords import fold, word_numbers


@dataclass(frozen=True)
class Value:
    start: int
    end: int
    value: object
    sure: bool = True  # False: a time only where a time is asked (14.30, 1430)


def canonical(text: str, lang: str, articles: bool = False) -> str:
    """``text`` folded, its number words written as digits (a word that also means "a" only
    when ``articles`` or when no word follows it)."""
    t = fold(text)
    out, pos = [], 0
    for w in word_numbers(t, lang):
        if w.article and not articles:
            continue
        before, after = t[w.start - 1 : w.start], t[w.end : w.end + 1]
        touching = bool(out) and pos == w.start  # the word before, written as digits, ends here (三四)
        pad_l = " " if touching or before[:1].isdigit() or before in (".", ",") else ""
        pad_r = " " if after[:1].isdigit() or after in (".", ",") else ""
        out += [t[pos : w.start], pad_l, str(w.value), pad_r]
        pos = w.end
    out.append(t[pos:])
    return "".join(out)


def _mask(text: str, found: list[Value]) -> str:
    chars = list(text)
    for v in found:
        chars[v.start : v.end] = " " * (v.end - v.start)
    return "".join(chars)


def _free(found: list[Value], start: int, end: int) -> bool:
    return not any(v.start < end and start < v.end for v in found)


# -- dates -------------------------------------------------------------------------------------

_MONTH_NAMES = (
    "january february march april may june july august september october november december "
    "januar februar marz april mai juni juli august september oktober november dezember "
    "janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre "
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre "
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre "
    "يناير فبراير مارس ابريل مايو يونيو يوليو اغسطس سبتمبر اكتوبر نوفمبر ديسمبر"
).split()
MONTHS = {fold(name): i % 12 + 1 for i, name in enumerate(_MONTH_NAMES)}
_MW = "|".join(sorted(MONTHS, key=len, reverse=True))
_DATE_FORMS = [
    (re.compile(r"(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]?"), "ymd"),
    (re.compile(r"(?<![\d.])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)"), "ymd"),
    (re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?!\d)"), "dmy"),
    (re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?!\d)"), "slash"),
    (re.compile(rf"\b({_MW})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}})\b)?"), "mdy"),
    (
        re.compile(rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th|er)?\.?\s+(?:de\s+)?({_MW})\b(?:\s+(?:de\s+)?(\d{{4}})\b)?"),
        "dmy_word",
    ),
    (re.compile(r"(?<!\d)(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "md"),
]


def _ymd(m: re.Match, how: str, lang: str) -> tuple[int | None, int, int]:
    g = m.groups()
    if how == "ymd":
        return int(g[0]), int(g[1]), int(g[2])
    if how == "dmy":
        return int(g[2]), int(g[1]), int(g[0])
    if how == "slash":
        a, b = int(g[0]), int(g[1])
        month_first = b > 12 or (lang == "en" and a <= 12)
        return (int(g[2]), a, b) if month_first else (int(g[2]), b, a)
    if how == "mdy":
        return (int(g[2]) if g[2] else None), MONTHS[g[0]], int(g[1])
    if how == "md":
        return None, int(g[0]), int(g[1])
    return (int(g[2]) if g[2] else None), MONTHS[g[1]], int(g[0])


def dates_in(t: str, lang: str) -> list[Value]:
    """Every date in canonical ``t``: ``(year, month, day)``, the year None where the reply
    names none (``March 14``, ``3月14日``); an impossible date (``31.02.2026``) is None."""
    found: list[Value] = []
    for pattern, how in _DATE_FORMS:
        for m in pattern.finditer(t):
            if _free(found, *m.span()):
                y, mo, d = _ymd(m, how, lang)
                ok = 1 <= mo <= 12 and 1 <= d <= 31 and not (mo == 2 and d > 29)
                found.append(Value(m.start(), m.end(), (y, mo, d) if ok else None))
    return sorted(found, key=lambda v: v.start)


# -- times -------------------------------------------------------------------------------------

# a time followed by "midnight" in any language (12:00 midnight, 0 h minuit) is in the morning
_AM = (
    r"a\.?\s?m\.?|vormittags|morgens|du matin|de la manana|di mattina|del mattino|in the morning|صباحا|صباح|ص"
    r"|midnight|mitternacht|minuit|medianoche|mezzanotte|منتصف الليل"
)
_PM = (
    r"p\.?\s?m\.?|nachmittags|abends|du soir|de l'apres-midi|de la tarde|de la noche|di sera|della sera"
    r"|del pomeriggio|in the evening|in the afternoon|at night|مساء|م"
)
_HALF = r"y media|e mezza|e mezzo|et demie|半|y cuarto|e un quarto|et quart|一刻|1刻|三刻|3刻"
_MARK = rf"(?:\s*(?P<half>{_HALF}))?(?:\s*(?:(?P<am>{_AM})|(?P<pm>{_PM}))(?![^\W\d_]))?"
_ZH = r"(?:(?P<zam>上午|早上|早晨|凌晨|半夜|午夜)|(?P<zpm>下午|晚上|傍晚|夜里)|中午)?\s*"
_TIME_FORMS = [  # (pattern, sure): the word forms first, the forms they hold after them
    (r"\b(?P<half>half|quarter)\s+past\s+(?P<h>\d{1,2})\b", True),
    (r"\b(?:quarter\s+to|viertel\s+vor)\s+(?P<to>\d{1,2})\b", True),
    (r"(?<![\d.:,])(?P<to>\d{1,2})\s+(?:heures?\s+moins\s+le\s+quart|menos\s+cuarto|meno\s+un\s+quarto)", True),
    (r"\bhalb\s+(?P<halb>\d{1,2})\b", True),
    (r"\bviertel\s+nach\s+(?P<h>\d{1,2})\b(?P<q>)", True),
    (r"(?P<noon>\bnoon\b|\bmidday\b|\bmittags?\b|\bmidi\b|\bmediodia\b|\bmezzogiorno\b|中午12点?)", True),
    (  # 半夜 and 午夜 before an hour are a prefix (半夜2点: 2 am)
        r"(?P<midnight>\bmidnight\b|\bmitternacht\b|\bminuit\b|\bmedianoche\b|\bmezzanotte\b|منتصف الليل"
        r"|(?:午夜|半夜)(?!\s*\d))",
        True,
    ),
    (rf"(?<![\d.:,]){_ZH}(?P<h>\d{{1,2}})\s*:\s*(?P<m>\d{{2}})(?!\d){_MARK}", True),
    (rf"(?<![\d.:,])(?P<h>\d{{1,2}})\s*h\s*(?P<m>\d{{2}})(?!\d){_MARK}", True),
    (rf"{_ZH}(?P<h>\d{{1,2}})\s*[点點时時](?:\s*(?P<m>\d{{1,2}})(?!\s*刻)\s*分?)?{_MARK}", True),
    (
        rf"(?<![\d.:,])(?P<hm>\d{{1,4}})\s*(?:uhr|heures?|hrs?|hours|o'clock|o’clock|h)(?![^\W\d_])"
        rf"(?:\s*(?P<m>\d{{2}})(?!\d))?{_MARK}",
        True,
    ),
    (rf"(?<![\d.:,])(?P<h>\d{{1,2}})\s*(?:(?P<am>{_AM})|(?P<pm>{_PM}))(?![^\W\d_])", True),
    (rf"(?:\ba las|\ba la|\balle|\ball'|\bdalle|الساعة)\s*(?P<h>\d{{1,2}})(?:\s*[:.h]\s*(?P<m>\d{{2}}))?{_MARK}", True),
    (r"(?<![\d.:,])(?P<h>\d{1,2})\.(?P<m>\d{2})(?!\d|[.,]\d)", False),
    (r"(?<![\d.:,/-])(?P<hm>\d{4})(?![\d.,:/-])", False),
]
_TIMES = [(re.compile(p), sure) for p, sure in _TIME_FORMS]
_QUARTERS = {"半": 30, "y media": 30, "e mezza": 30, "e mezzo": 30, "et demie": 30, "half": 30}


def _clock(g: dict) -> tuple[int, int] | None:
    """(hour, minute) of a matched time form, before am / pm."""
    if g.get("noon") is not None:
        return 12, 0
    if g.get("midnight") is not None:
        return 0, 0
    if g.get("halb"):
        return (int(g["halb"]) - 1) % 24, 30
    if g.get("to"):
        return (int(g["to"]) - 1) % 24, 45
    if "q" in g and g.get("h"):
        return int(g["h"]), 15
    if g.get("hm"):
        n = int(g["hm"])
        h, minute = (n // 100, n % 100) if n >= 100 else (n, int(g.get("m") or 0))
    else:
        h, minute = int(g["h"]), int(g.get("m") or 0)
    half = g.get("half")
    if half:
        minute = _QUARTERS.get(half, 45 if "三" in half or "3" in half else 15)
    return h, minute


def _day_minutes(g: dict) -> int | None:
    hm = _clock(g)
    if hm is None:
        return None
    h, mi = hm
    if (g.get("pm") or g.get("zpm")) and h < 12:
        h += 12
    if (g.get("am") or g.get("zam")) and h == 12:
        h = 0
    return h * 60 + mi if 0 <= h < 24 and 0 <= mi < 60 else None


def times_in(t: str, dates: list[Value] | None = None) -> list[Value]:
    """Every time of day in canonical ``t`` (minutes of the day), dates left out."""
    t = _mask(t, dates or [])
    found: list[Value] = []
    for pattern, sure in _TIMES:
        for m in pattern.finditer(t):
            start, end = m.span()
            if end > start and _free(found, start, end):
                minutes = _day_minutes(m.groupdict())
                if minutes is not None:
                    found.append(Value(start, end, minutes, sure))
    return sorted(found, key=lambda v: v.start)


# -- numbers -----------------------------------------------------------------------------------

_NUM = re.compile(r"(?:(?<![\w.,])[-−])?(?<![\d.,])(?:\d{1,3}(?:[ \u00a0\u202f']\d{3})+(?!\d)|\d+)(?:[.,]\d+)*")


def one_number(token: str) -> float | None:
    """A numeral as written in any common locale: ``1,234.50`` = ``1.234,50`` = ``1 234,50``; a
    lone comma before exactly three digits is a thousands separator, a lone dot is decimal."""
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


def numbers_in(t: str, context: list[Value]) -> list[Value]:
    """Every number in canonical ``t`` outside the ``context`` spans (dates, times)."""
    t = _mask(t, context)
    out = []
    for m in _NUM.finditer(t):
        value = one_number(m.group(0))
        if value is not None:
            out.append(Value(m.start(), m.end(), value))
    return out


def _read(kind: str, t: str, lang: str) -> list[Value]:
    dates = dates_in(t, lang)
    if kind == "date":
        return dates
    times = times_in(t, dates)
    if kind == "time":
        return times
    return numbers_in(t, dates + [v for v in times if v.sure])


def values(kind: str, text: str, lang: str = "en") -> list:
    """Every value of ``kind`` (``number``, ``time``, ``date``) ``text`` holds, in order. A word
    that also means "a" counts where no word follows it, or where nothing else of the kind is
    there (``Only one item is open``)."""
    found = _read(kind, canonical(text, lang), lang)
    if not found:
        found = _read(kind, canonical(text, lang, articles=True), lang)
    return [v.value for v in found]
