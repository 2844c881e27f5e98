"""Calendar's configuration section."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.apps.calendar.datefmt import format_problem
from openapps_sim.apps.calendar.model import YEARS, parse_date

from openapps_sim.config.schema import Bool, Date, Enum, Int, ListOf, MapOf, Record, Str, Time
from openapps_sim.config.texts import texts


class ExactList(ListOf):
    """A list of exactly ``size`` strings (month and weekday names; their defaults are in
    strings.yaml)."""

    def __init__(self, size: int, doc: str = ""):
        super().__init__(Str(), doc=doc)
        self.size = size

    def describe(self) -> str:
        return f"a list of exactly {self.size} strings"

    def check(self, value, source, path):
        out = super().check(value, source, path)
        if len(out) != self.size:
            raise self.fail(value, source, path, f"expected exactly {self.size} names, got {len(out)}")
        return out


class RealDate(Date):
    """A YYYY-MM-DD date that exists in the calendar (no 2026-02-30)."""

    def check(self, value, source, path):
        text = super().check(value, source, path)
        if parse_date(text) is None:
            raise self.fail(value, source, path, f"{text!r} is not a date from {YEARS[0]} to {YEARS[1]}")
        return text


class DateFormat(Str):
    """The order a language writes a date in: YYYY, MM and DD apart by signs (DD.MM.YYYY)."""

    def describe(self) -> str:
        return "a date format such as DD.MM.YYYY, MM/DD/YYYY or YYYY/MM/DD"

    def check(self, value, source, path):
        text = super().check(value, source, path)
        problem = format_problem(text)
        if problem:
            raise self.fail(value, source, path, problem)
        return text


STRINGS = texts(
    Path(__file__).with_name("strings.yaml"),
    month_names=ExactList(12),
    weekday_names=ExactList(7),
    weekday_short=ExactList(7),
    date_format=DateFormat(),
)

EVENT = Record(
    title=Str(),
    date=RealDate(),
    time=Time("", doc="HH:MM; leave out for an all-day event"),
    description=Str(""),
    url=Str(""),
    invitees=ListOf(Str(), default=[]),
    location=Str(""),
)

SCHEMA = Record(
    strings=STRINGS,
    today=RealDate("2026-03-10", doc="the calendar's fixed today: the month shown first and the highlighted day"),
    week_start=Enum(["monday", "sunday"], "monday", doc="first day of the week in the month grid", vary=True),
    clock=Enum(["24h", "12h"], "24h", doc="how times are shown (times are always entered as HH:MM)", vary=True),
    max_chips=Int(3, lo=0, hi=20, doc="events listed in a month-grid cell before '+N more'"),
    show_week_numbers=Bool(False, doc="show ISO week numbers in the month grid", vary=True),
    events=ListOf(EVENT, default=[], doc="the events in the calendar (ids e1, e2 ... in this order)"),
    descriptions=MapOf(
        Str(),
        default={},
        doc="event id -> a description that replaces the event's own; '{description}' in it stands for the "
        "event's own description. Lets description packs compose with language and density packs.",
    ),
)
