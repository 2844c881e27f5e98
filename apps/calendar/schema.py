"""Calendar's configuration section."""

from __future__ import annotations

from openapps_sim.apps.calendar.datefmt import format_problem
from openapps_sim.apps.calendar.model import YEARS, parse_date

from openapps_sim.config.schema import Bool, Date, Enum, Int, ListOf, MapOf, Record, Str, Time


class ExactList(ListOf):
    """A list of exactly ``size`` strings (month and weekday names)."""

    def __init__(self, size: int, default: list[str], doc: str = ""):
        super().__init__(Str(), default=default, doc=doc)
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


STRINGS = Record(
    prev=Str("Previous month"),
    next=Str("Next month"),
    today=Str("Today"),
    new_event=Str("New event"),
    month_title=Str("{month} {year}", doc="heading of the month view; {month} is a month name"),
    month_names=ExactList(
        12,
        [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ],
    ),
    weekday_names=ExactList(7, ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]),
    weekday_short=ExactList(7, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]),
    date_long=Str("{weekday}, {month} {day}, {year}", doc="a full date; {month} is a month name"),
    week=Str("Wk", doc="heading of the week-number column"),
    all_day=Str("All day"),
    am=Str("AM"),
    pm=Str("PM"),
    more=Str("+{n} more"),
    month_agenda=Str("Events in {month}"),
    month_agenda_empty=Str("No events this month."),
    day_agenda_empty=Str("No events on this day."),
    show_month=Str("Show the whole month"),
    search_placeholder=Str("Search events"),
    search_button=Str("Search"),
    search_results=Str("Events matching “{q}”"),
    search_none=Str("No events match “{q}”."),
    clear_search=Str("Clear search"),
    new_heading=Str("New event"),
    edit_heading=Str("Edit event"),
    duplicate_heading=Str("Duplicate event"),
    field_title=Str("Title"),
    field_date=Str("Date"),
    field_time=Str("Time"),
    field_description=Str("Description"),
    field_url=Str("Link"),
    field_invitees=Str("Invitees"),
    field_location=Str("Location"),
    date_format=DateFormat(
        "MM/DD/YYYY",
        doc="how the event form shows and reads a date (ISO YYYY-MM-DD is read in every language too)",
    ),
    date_placeholder=Str("MM/DD/YYYY", doc="the date field's placeholder: date_format in the language's letters"),
    time_placeholder=Str("HH:MM", doc="the time field's placeholder"),
    time_hint=Str("Leave empty for an all-day event."),
    invitees_hint=Str("Separate names with commas."),
    url_placeholder=Str("https://..."),
    save=Str("Save"),
    cancel=Str("Cancel"),
    edit=Str("Edit"),
    delete=Str("Delete"),
    duplicate=Str("Duplicate"),
    back=Str("Back to calendar"),
    nobody=Str("Nobody invited"),
    error_title=Str("Please enter a title."),
    error_date=Str("Please enter a valid date (MM/DD/YYYY or YYYY-MM-DD)."),
    error_time=Str("Please enter a valid time (HH:MM, e.g. 14:30), or leave it empty for an all-day event."),
    not_found=Str("This event does not exist (any more)."),
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
