"""Dates and times as a language writes them in the event form.

The form's date and time fields are text fields, not the browser's native ``<input type=date>``
(Chromium draws that in its own UI locale, "03/10/2026" and "--:-- --" on a German page). A
language pack names its order of day, month and year in ``strings.date_format`` (``DD.MM.YYYY``,
``MM/DD/YYYY``, ``YYYY/MM/DD``); the form shows a date that way and reads it back, and it also
takes ISO ``YYYY-MM-DD`` (a four-digit first number) in every language. Times are shown
``HH:MM`` and read as ``HH:MM``, ``H:MM``, ``14h30`` or a 12-hour time with the pack's (or the
English) AM / PM marker. These are pure functions, shared by the form and the oracle's scripts.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from openapps_sim.apps.calendar.model import parse_date

TOKENS = ("YYYY", "MM", "DD")
_FORMAT_RE = re.compile(
    r"^(YYYY|MM|DD)([^A-Za-z0-9]{1,3})(YYYY|MM|DD)([^A-Za-z0-9]{1,3})(YYYY|MM|DD)([^A-Za-z0-9]{0,3})$"
)
# three numbers apart by dots, slashes, dashes, spaces or the CJK year / month signs
_DATE_RE = re.compile(r"^(\d{1,4})\s*[./\-\s年月]\s*(\d{1,2}|\d{4})\s*[./\-\s年月]\s*(\d{1,4})\s*[.日]?$")
_TIME_RE = re.compile(r"^(\d{1,2})\s*[:.hH時时]\s*(\d{2})(?::\d{2})?\s*[分]?\s*(.*)$")


def format_problem(fmt: str) -> str | None:
    """Why ``fmt`` is not a date format (None when it is): YYYY, MM and DD once each, apart."""
    m = _FORMAT_RE.match(fmt)
    if not m or sorted(m.group(1, 3, 5)) != sorted(TOKENS):
        return "write YYYY, MM and DD once each, apart by one to three signs (DD.MM.YYYY, MM/DD/YYYY)"
    return None


def _ascii_digits(text: str) -> str:
    """Any script's decimal digits (Arabic-Indic ٠١٢, full-width ０１２) as ASCII ones."""
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in text)


def format_date(iso: str, fmt: str) -> str:
    """An ISO date written in ``fmt`` ("2026-03-10", "DD.MM.YYYY" -> "10.03.2026"); text that is
    not an ISO date (a user's mistake shown back on the form) is returned as it is."""
    d = parse_date(iso)
    if d is None:
        return str(iso)
    return fmt.replace("YYYY", f"{d.year:04d}").replace("MM", f"{d.month:02d}").replace("DD", f"{d.day:02d}")


def read_date(text: object, fmt: str) -> str | None:
    """The ISO date a user wrote in ``fmt`` or as ISO YYYY-MM-DD; None when it is not a date."""
    raw = _ascii_digits(" ".join(str(text or "").split()))
    if parse_date(raw):
        return raw
    m = _DATE_RE.match(raw)
    if not m:
        return None
    parts = m.group(1, 2, 3)
    if len(parts[0]) == 4:  # ISO order, whatever the separators: 2026/3/10, 2026年3月10日
        order = ("YYYY", "MM", "DD")
    else:
        order = tuple(re.findall(r"YYYY|MM|DD", fmt))
    values = dict(zip(order, parts, strict=True))
    if len(values.get("YYYY", "")) != 4 or any(len(values.get(k, "")) > 2 for k in ("MM", "DD")):
        return None
    try:
        d = date(int(values["YYYY"]), int(values["MM"]), int(values["DD"]))
    except (KeyError, ValueError):
        return None
    return d.isoformat() if parse_date(d.isoformat()) else None


def read_time(text: object, markers: tuple[str, str] = ("AM", "PM")) -> str | None:
    """The HH:MM a user wrote: 14:30, 9:05, 14.30, 14h30, or 2:30 PM with ``markers`` (the
    pack's AM and PM) or the English ones; None when it is not a time."""
    raw = _ascii_digits(" ".join(str(text or "").split()))
    m = _TIME_RE.match(raw)
    if not m:
        return None
    h, mi, rest = int(m.group(1)), int(m.group(2)), m.group(3).strip().casefold().replace(".", "").replace(" ", "")
    am = {"am", markers[0].casefold().replace(".", "").replace(" ", "")}
    pm = {"pm", markers[1].casefold().replace(".", "").replace(" ", "")}
    if rest:
        if not 1 <= h <= 12 or rest not in am | pm:
            return None
        h = h % 12 + (12 if rest in pm else 0)
    if h > 23 or mi > 59:
        return None
    return f"{h:02d}:{mi:02d}"
