"""Calendar: a month view with a day agenda, search, and events to create, open, edit,
duplicate and delete.

The calendar's "today" is a fixed date in its configuration (``today``), never the wall clock,
so every run of a task sees the same month first.
"""

from __future__ import annotations

import calendar as pycal
import re
from datetime import date
from pathlib import Path
from urllib.parse import urlencode

from fastcore.xml import ft as _h
from fasthtml.common import (
    H1,
    H2,
    A,
    Aside,
    Button,
    Dd,
    Div,
    Dl,
    Dt,
    Form,
    Input,
    Label,
    P,
    Section,
    Span,
    Textarea,
    Ul,
)

from openapps_sim.appkit import AppContext, AppRoutes, AppSpec, ItemKey
from openapps_sim.config.normalise import norm_text
from openapps_sim.config.schema import Bool, Date, Enum, Int, ListOf, MapOf, Record, Str, Time

FIELDS = ("title", "date", "time", "description", "url", "invitees", "location")


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
        if _parse_date(text) is None:
            raise self.fail(value, source, path, f"{text!r} is not a date from {YEARS[0]} to {YEARS[1]}")
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
    error_date=Str("Please enter a valid date (YYYY-MM-DD)."),
    error_time=Str("Please enter a valid time (HH:MM), or leave it empty for an all-day event."),
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

CSS = """
.cal-head{display:flex;align-items:center;gap:var(--gap);flex-wrap:wrap;margin-bottom:var(--pad)}
.cal-head h1{margin:0;min-width:8.5em;text-align:center}
.cal-head .spacer{flex:1 1 auto}
.cal-head .button{padding:calc(var(--gap)*.5) var(--gap)}
.cal-search{display:flex;gap:calc(var(--gap)/2);max-width:100%}
.cal-search input{flex:0 1 12em;width:6em;min-width:0}
.layout-mobile .cal-grid th{font-size:.7em;padding:2px 0;white-space:nowrap;overflow:hidden}
.layout-desktop.app-calendar main{max-width:calc(var(--width) + 200px)}
.cal-layout{display:grid;grid-template-columns:minmax(0,2.4fr) minmax(0,1fr);gap:var(--pad);align-items:start}
.layout-mobile .cal-layout{grid-template-columns:1fr}
.cal-month{padding:calc(var(--pad)/2)}
table.cal-grid{table-layout:fixed;width:100%}
.cal-grid th{text-align:center;color:var(--muted);font-size:.8em;font-weight:600;padding:2px;border-bottom:var(--bw) solid var(--border)}
.cal-grid th.wk,.cal-grid td.wk{width:2.4em;color:var(--muted);font-size:.75em;text-align:center;vertical-align:middle}
.cal-grid td{vertical-align:top;height:5.8em;padding:3px;border:var(--bw) solid var(--border);overflow:hidden}
.cal-grid td.other{background:var(--background)}
.cal-grid td.other .cal-daynum{color:var(--muted);font-weight:400}
.cal-grid td.selected{box-shadow:inset 0 0 0 2px var(--accent)}
.cal-daynum{display:inline-block;min-width:1.9em;padding:0 .3em;text-align:center;border-radius:999px;
 text-decoration:none;font-weight:600;color:var(--text)}
.cal-daynum:hover{background:var(--border)}
.cal-grid td.today .cal-daynum{background:var(--primary);color:var(--on-primary)}
.cal-chip{display:block;font-size:.74em;line-height:1.35;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;
 text-decoration:none;color:var(--text);border-inline-start:3px solid var(--primary);padding:0 3px;margin-top:2px;
 background:var(--background);border-radius:2px}
.cal-chip.allday{background:var(--primary);color:var(--on-primary);border-inline-start-color:var(--primary)}
.cal-chip .t{color:var(--muted);margin-inline-end:3px}
.cal-more{display:block;font-size:.74em;color:var(--muted);margin-top:2px}
.cal-count{display:none}
.layout-mobile .cal-chip,.layout-mobile .cal-more{display:none}
.layout-mobile .cal-count{display:block;width:.5em;height:.5em;border-radius:50%;background:var(--accent);margin:2px auto 0}
.layout-mobile .cal-grid td{height:3.2em}
.cal-agenda h2{margin-bottom:calc(var(--gap)/2)}
.cal-agenda .date-head{font-weight:700;margin-top:var(--gap);font-size:.9em;color:var(--muted)}
.cal-agenda ul li{border-bottom:var(--bw) solid var(--border)}
.cal-agenda ul li:last-child{border-bottom:0}
.cal-agenda ul a{display:flex;flex-wrap:wrap;gap:0 var(--gap);padding:calc(var(--gap)*.75) 0;text-decoration:none;color:var(--text)}
.cal-agenda ul a:hover .cal-title{text-decoration:underline}
.cal-time{flex:none;min-width:4.6em;color:var(--muted);font-variant-numeric:tabular-nums}
.cal-what{flex:1 1 8em;unicode-bidi:plaintext;overflow-wrap:break-word}
.cal-title{font-weight:600;color:var(--primary)}
.cal-where{display:block;font-size:.85em;color:var(--muted)}
.cal-detail,.cal-form-card{max-width:48em}
.cal-detail h1{overflow-wrap:break-word;unicode-bidi:plaintext}
.cal-detail dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:calc(var(--gap)*.75) var(--pad);margin:var(--pad) 0}
.cal-detail dt{font-weight:600;color:var(--muted)}
.cal-detail dd{margin:0;overflow-wrap:break-word}
.layout-mobile .cal-detail dl{grid-template-columns:minmax(0,1fr);row-gap:2px}
.layout-mobile .cal-detail dd{margin-bottom:var(--gap)}
.cal-detail dd.desc{white-space:pre-wrap}
.cal-url{font-family:ui-monospace,monospace;font-size:.9em}
.cal-people{display:flex;flex-wrap:wrap;gap:4px}
.cal-person{border:var(--bw) solid var(--border);border-radius:999px;padding:0 .6em;font-size:.9em}
.cal-actions{display:flex;gap:var(--gap);flex-wrap:wrap;align-items:center}
.cal-actions form{margin:0}
.cal-form .field{margin-bottom:var(--pad)}
.cal-form input[type=text],.cal-form textarea{width:100%}
.cal-form .pair{display:flex;gap:var(--pad);flex-wrap:wrap}
.cal-form .hint{font-size:.85em;color:var(--muted);margin:2px 0 0 0}
"""

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d(\.\d+)?)?$")


# -- data -------------------------------------------------------------------------------------
YEARS = (1900, 2199)  # the range the calendar shows and accepts (keeps month arithmetic in range)


def _parse_date(text: object) -> date | None:
    raw = str(text or "").strip()
    if not re.match(r"^\d{4}-\d{2}-\d{2}$", raw):
        return None
    try:
        d = date.fromisoformat(raw)
    except ValueError:
        return None
    return d if YEARS[0] <= d.year <= YEARS[1] else None


def _parse_month(text: object) -> tuple[int, int] | None:
    m = _MONTH.match(str(text or "").strip())
    if not m:
        return None
    y, mo = int(m.group(1)), int(m.group(2))
    return (y, mo) if 1 <= mo <= 12 and YEARS[0] <= y <= YEARS[1] else None


def _clean_text(value: object) -> str:
    return str(value or "").replace("\r\n", "\n").replace("\r", "\n").strip()


def split_invitees(text: object) -> list[str]:
    """Invitee names from the comma-separated form field (also ';', new lines and CJK commas)."""
    parts = re.split(r"[,;\n，、；]", str(text or ""))
    return [" ".join(p.split()) for p in parts if p.strip()]


def make_event(eid: str, raw: dict) -> dict:
    return {
        "id": eid,
        "title": " ".join(str(raw["title"]).split()),
        "date": str(raw["date"]),
        "time": str(raw.get("time") or ""),
        "description": _clean_text(raw.get("description")),
        "url": _clean_text(raw.get("url")),
        "invitees": [" ".join(str(n).split()) for n in raw.get("invitees") or [] if str(n).strip()],
        "location": _clean_text(raw.get("location")),
    }


def initial_state(config: dict, rng) -> dict:
    events = [make_event(f"e{i + 1}", ev) for i, ev in enumerate(config["events"])]
    overrides = config.get("descriptions") or {}
    for ev in events:
        if ev["id"] in overrides:
            ev["description"] = _clean_text(overrides[ev["id"]].replace("{description}", ev["description"]))
    return {"events": events, "next_id": len(events) + 1}


def normalise(state: dict) -> dict:
    """Events compared as a multiset: ids and order do not matter, free text is folded."""
    rows = sorted(
        (
            norm_text(e["title"]),
            e["date"],
            e.get("time") or "",
            norm_text(e.get("description", "")),
            norm_text(e.get("url", "")),
            tuple(sorted(norm_text(n) for n in e.get("invitees", []) if norm_text(n))),
            norm_text(e.get("location", "")),
        )
        for e in state["events"]
    )
    return {
        "events": [
            {"title": t, "date": d, "time": tm, "description": ds, "url": u, "invitees": list(inv), "location": loc}
            for t, d, tm, ds, u, inv, loc in rows
        ]
    }


def event_sort_key(ev: dict) -> tuple:
    num = int(ev["id"][1:]) if ev["id"][1:].isdigit() else 0
    return (ev["date"], ev.get("time") or "", ev["title"].casefold(), num)


def _find(ctx: AppContext, eid: str) -> dict | None:
    return next((e for e in ctx.state["events"] if e["id"] == eid), None)


# -- formatting -------------------------------------------------------------------------------
def _today(ctx: AppContext) -> date:
    return _parse_date(ctx.config["today"]) or date(2026, 1, 1)


def _weekday_order(ctx: AppContext) -> list[int]:
    return [6, 0, 1, 2, 3, 4, 5] if ctx.config["week_start"] == "sunday" else [0, 1, 2, 3, 4, 5, 6]


def month_title(ctx: AppContext, y: int, m: int) -> str:
    return ctx.t("month_title", month=ctx.strings["month_names"][m - 1], year=y)


def long_date(ctx: AppContext, d: date) -> str:
    return ctx.t(
        "date_long",
        weekday=ctx.strings["weekday_names"][d.weekday()],
        month=ctx.strings["month_names"][d.month - 1],
        day=d.day,
        year=d.year,
    )


def show_time(ctx: AppContext, hhmm: str) -> str:
    if not hhmm:
        return ctx.t("all_day")
    if ctx.config["clock"] == "24h":
        return hhmm
    h, m = int(hhmm[:2]), hhmm[3:5]
    return f"{(h % 12) or 12}:{m} {ctx.t('am') if h < 12 else ctx.t('pm')}"


def _month_key(y: int, m: int) -> str:
    return f"{y:04d}-{m:02d}"


def _shift(y: int, m: int, delta: int) -> tuple[int, int]:
    n = y * 12 + (m - 1) + delta
    n = max(YEARS[0] * 12, min(YEARS[1] * 12 + 11, n))
    return n // 12, n % 12 + 1


def _q(path: str, **params: object) -> str:
    clean = {k: v for k, v in params.items() if v not in (None, "")}
    return path + ("?" + urlencode(clean) if clean else "")


# -- pages ------------------------------------------------------------------------------------
def routes(r: AppRoutes) -> None:
    @r.get("/")
    def index(ctx: AppContext, params: dict):
        today = _today(ctx)
        selected = _parse_date(params.get("day")) if params.get("day") != "today" else today
        ym = _parse_month(params.get("month")) or (
            (selected.year, selected.month) if selected else (today.year, today.month)
        )
        y, m = ym
        query = str(params.get("q") or "").strip()
        events = sorted(ctx.state["events"], key=event_sort_key)
        by_day: dict[str, list[dict]] = {}
        for ev in events:
            by_day.setdefault(ev["date"], []).append(ev)

        head = _header(ctx, y, m, query)
        grid = _month_grid(ctx, y, m, today, selected, by_day, query)
        if query:
            panel = _search_panel(ctx, events, query, y, m)
        elif selected:
            panel = _day_panel(ctx, selected, by_day.get(selected.isoformat(), []), y, m)
        else:
            panel = _month_panel(ctx, y, m, events)
        return ctx.page(
            head,
            Div(Section(grid, cls="card cal-month"), panel, cls="cal-layout"),
            title=f"{month_title(ctx, y, m)} · {ctx.config['title']}",
        )

    @r.get("/new")
    def new_form(ctx: AppContext, params: dict):
        source = _find(ctx, str(params.get("copy", ""))) if params.get("copy") else None
        if source:
            values = _form_values(source)
            heading = ctx.t("duplicate_heading")
        else:
            d = _parse_date(params.get("date")) or _today(ctx)
            values = {f: "" for f in FIELDS} | {"date": d.isoformat()}
            heading = ctx.t("new_heading")
        back = _day_href(_parse_date(values["date"]) or _today(ctx))
        return _form_page(ctx, heading, values, ctx.url("/new"), back, None)

    @r.post("/new")
    def create(ctx: AppContext, params: dict):
        values, error = _read_form(ctx, params)
        if error:
            back = _day_href(_parse_date(values["date"]) or _today(ctx))
            return _form_page(ctx, ctx.t("new_heading"), values, ctx.url("/new"), back, error)
        eid = f"e{ctx.state['next_id']}"
        ctx.state["next_id"] += 1
        ev = make_event(eid, _values_to_raw(values))
        ctx.state["events"].append(ev)
        ctx.log("add", id=eid, title=ev["title"], date=ev["date"], time=ev["time"])
        return ctx.redirect(_day_href(_parse_date(ev["date"])))

    @r.get("/event/{eid}")
    def detail(ctx: AppContext, params: dict):
        ev = _find(ctx, params["eid"])
        if not ev:
            return _not_found(ctx)
        d = _parse_date(ev["date"])
        eid = ev["id"]
        rows = [
            (ctx.t("field_date"), Span(long_date(ctx, d), data_testid="calendar-detail-date")),
            (ctx.t("field_time"), Span(show_time(ctx, ev["time"]), data_testid="calendar-detail-time")),
        ]
        if ev["location"]:
            rows.append((ctx.t("field_location"), Span(ev["location"], data_testid="calendar-detail-location")))
        if ev["url"]:
            rows.append((ctx.t("field_url"), Span(ev["url"], cls="cal-url", data_testid="calendar-detail-url")))
        people = (
            Div(*[Span(n, cls="cal-person") for n in ev["invitees"]], cls="cal-people")
            if ev["invitees"]
            else Span(ctx.t("nobody"), cls="muted")
        )
        rows.append((ctx.t("field_invitees"), Div(people, data_testid="calendar-detail-invitees")))
        items = []
        for label, value in rows:
            items += [Dt(label), Dd(value)]
        if ev["description"]:
            items += [
                Dt(ctx.t("field_description")),
                Dd(ev["description"], cls="desc", data_testid="calendar-detail-description"),
            ]
        return ctx.page(
            Div(
                H1(ev["title"], data_testid="calendar-detail-title"),
                Dl(*items),
                Div(
                    A(
                        ctx.t("edit"),
                        href=ctx.url(f"/event/{eid}/edit"),
                        cls="button",
                        data_testid=f"calendar-edit-{eid}",
                    ),
                    A(
                        ctx.t("duplicate"),
                        href=ctx.url(_q("/new", copy=eid)),
                        cls="button secondary",
                        data_testid=f"calendar-duplicate-{eid}",
                    ),
                    Form(
                        Button(
                            ctx.t("delete"),
                            type="submit",
                            cls="danger",
                            aria_label=f"{ctx.t('delete')}: {ev['title']}",
                            data_testid=f"calendar-delete-{eid}",
                        ),
                        method="post",
                        action=ctx.url(f"/event/{eid}/delete"),
                    ),
                    A(ctx.t("back"), href=ctx.url(_day_href(d)), cls="button secondary", data_testid="calendar-back"),
                    cls="cal-actions",
                ),
                cls="card cal-detail",
                data_testid="calendar-detail",
            ),
            title=f"{ev['title']} · {ctx.config['title']}",
        )

    @r.get("/event/{eid}/edit")
    def edit_form(ctx: AppContext, params: dict):
        ev = _find(ctx, params["eid"])
        if not ev:
            return _not_found(ctx)
        eid = ev["id"]
        return _form_page(
            ctx, ctx.t("edit_heading"), _form_values(ev), ctx.url(f"/event/{eid}/edit"), f"/event/{eid}", None
        )

    @r.post("/event/{eid}/edit")
    def edit(ctx: AppContext, params: dict):
        ev = _find(ctx, params["eid"])
        if not ev:
            return _not_found(ctx)
        eid = ev["id"]
        values, error = _read_form(ctx, params)
        if error:
            return _form_page(ctx, ctx.t("edit_heading"), values, ctx.url(f"/event/{eid}/edit"), f"/event/{eid}", error)
        new = make_event(eid, _values_to_raw(values))
        changed = {f: {"old": ev[f], "new": new[f]} for f in FIELDS if ev[f] != new[f]}
        if changed:
            for f in changed:
                ev[f] = new[f]
            ctx.log("edit", id=eid, title=ev["title"], changed=changed)
        return ctx.redirect(f"/event/{eid}")

    @r.post("/event/{eid}/delete")
    def delete(ctx: AppContext, params: dict):
        ev = _find(ctx, params["eid"])
        if not ev:
            return ctx.redirect("/")
        ctx.state["events"].remove(ev)
        ctx.log("delete", id=ev["id"], title=ev["title"], date=ev["date"], time=ev["time"])
        return ctx.redirect(_day_href(_parse_date(ev["date"])))


def _day_href(d: date | None) -> str:
    if d is None:
        return "/"
    return _q("/", month=_month_key(d.year, d.month), day=d.isoformat())


def _header(ctx: AppContext, y: int, m: int, query: str):
    py, pm = _shift(y, m, -1)
    ny, nm = _shift(y, m, 1)
    return Div(
        A(
            "‹",
            href=ctx.url(_q("/", month=_month_key(py, pm))),
            cls="button secondary",
            title=ctx.t("prev"),
            aria_label=ctx.t("prev"),
            data_testid="calendar-prev",
        ),
        H1(month_title(ctx, y, m), data_testid="calendar-month-label"),
        A(
            "›",
            href=ctx.url(_q("/", month=_month_key(ny, nm))),
            cls="button secondary",
            title=ctx.t("next"),
            aria_label=ctx.t("next"),
            data_testid="calendar-next",
        ),
        A(ctx.t("today"), href=ctx.url("/?day=today"), cls="button secondary", data_testid="calendar-today"),
        Span(cls="spacer"),
        Form(
            Input(type="hidden", name="month", value=_month_key(y, m)),
            Input(
                type="search",
                name="q",
                value=query,
                placeholder=ctx.t("search_placeholder"),
                aria_label=ctx.t("search_placeholder"),
                autocomplete="off",
                data_testid="calendar-search",
            ),
            Button(ctx.t("search_button"), type="submit", cls="secondary", data_testid="calendar-search-submit"),
            method="get",
            action=ctx.url("/"),
            cls="cal-search",
            role="search",
        ),
        A(ctx.t("new_event"), href=ctx.url("/new"), cls="button", data_testid="calendar-new"),
        cls="cal-head",
    )


def _month_grid(ctx, y, m, today, selected, by_day, query):
    order = _weekday_order(ctx)
    weeks = pycal.Calendar(firstweekday=order[0]).monthdatescalendar(y, m)
    week_nums = ctx.config["show_week_numbers"]
    head_cells = [_h("th", ctx.t("week"), cls="wk", scope="col")] if week_nums else []
    head_cells += [
        _h("th", ctx.strings["weekday_short"][i], scope="col", title=ctx.strings["weekday_names"][i]) for i in order
    ]
    limit = ctx.config["max_chips"]
    rows = []
    for week in weeks:
        cells = [_h("td", str(week[0].isocalendar()[1]), cls="wk")] if week_nums else []
        for d in week:
            iso = d.isoformat()
            day_events = by_day.get(iso, [])
            classes = []
            if d.month != m:
                classes.append("other")
            if d == today:
                classes.append("today")
            if selected and d == selected and not query:
                classes.append("selected")
            href = ctx.url(_day_href(d))
            chips = [
                _h(
                    "a",
                    _h("span", show_time(ctx, ev["time"]), cls="t") if ev["time"] else None,
                    ev["title"],
                    href=ctx.url(f"/event/{ev['id']}"),
                    cls="cal-chip" + ("" if ev["time"] else " allday"),
                    title=ev["title"],
                    data_testid=f"calendar-chip-{ev['id']}",
                )
                for ev in day_events[:limit]
            ]
            extra = len(day_events) - limit
            label = long_date(ctx, d)
            if day_events:
                label += f" ({len(day_events)})"
            cells.append(
                _h(
                    "td",
                    _h(
                        "a",
                        str(d.day),
                        href=href,
                        cls="cal-daynum",
                        aria_label=label,
                        aria_current="date" if d == today else None,
                        data_testid=f"calendar-day-{iso}",
                    ),
                    *chips,
                    _h("a", ctx.t("more", n=extra), href=href, cls="cal-more", data_testid=f"calendar-more-{iso}")
                    if extra > 0
                    else None,
                    _h("span", cls="cal-count", aria_hidden="true") if day_events else None,
                    cls=" ".join(classes) or None,
                )
            )
        rows.append(_h("tr", *cells))
    return _h(
        "table", _h("thead", _h("tr", *head_cells)), _h("tbody", *rows), cls="cal-grid", data_testid="calendar-grid"
    )


def _agenda_item(ctx: AppContext, ev: dict, with_date: bool = False):
    when = show_time(ctx, ev["time"])
    d = _parse_date(ev["date"])
    return _h(
        "li",
        _h(
            "a",
            _h("span", when, cls="cal-time"),
            _h(
                "span",
                _h("span", ev["title"], cls="cal-title"),
                _h("span", long_date(ctx, d), cls="cal-where") if with_date else None,
                _h("span", ev["location"], cls="cal-where") if ev["location"] else None,
                cls="cal-what",
            ),
            href=ctx.url(f"/event/{ev['id']}"),
            data_testid=f"calendar-event-{ev['id']}",
        ),
    )


def _day_panel(ctx: AppContext, d: date, events: list[dict], y: int, m: int):
    return Aside(
        H2(long_date(ctx, d), data_testid="calendar-day-heading"),
        Ul(*[_agenda_item(ctx, ev) for ev in events], cls="plain")
        if events
        else P(ctx.t("day_agenda_empty"), cls="muted", data_testid="calendar-day-empty"),
        Div(
            A(
                ctx.t("new_event"),
                href=ctx.url(_q("/new", date=d.isoformat())),
                cls="button",
                data_testid="calendar-new-on-day",
            ),
            A(
                ctx.t("show_month"),
                href=ctx.url(_q("/", month=_month_key(y, m))),
                cls="button secondary",
                data_testid="calendar-day-close",
            ),
            cls="cal-actions",
        ),
        cls="card cal-agenda stack",
        data_testid="calendar-agenda",
    )


def _month_panel(ctx: AppContext, y: int, m: int, events: list[dict]):
    prefix = _month_key(y, m) + "-"
    shown = [ev for ev in events if ev["date"].startswith(prefix)]
    body: list = []
    current = None
    group: list = []
    for ev in shown:
        if ev["date"] != current:
            if group:
                body.append(_h("ul", *group, cls="plain"))
            current, group = ev["date"], []
            body.append(_h("div", long_date(ctx, _parse_date(current)), cls="date-head"))
        group.append(_agenda_item(ctx, ev))
    if group:
        body.append(_h("ul", *group, cls="plain"))
    return Aside(
        H2(ctx.t("month_agenda", month=month_title(ctx, y, m))),
        *(body or [P(ctx.t("month_agenda_empty"), cls="muted")]),
        cls="card cal-agenda",
        data_testid="calendar-agenda",
    )


def _search_panel(ctx: AppContext, events: list[dict], query: str, y: int, m: int):
    needle = norm_text(query)
    found = [
        ev
        for ev in events
        if needle in norm_text(" ".join([ev["title"], ev["location"], ev["description"], " ".join(ev["invitees"])]))
    ]
    return Aside(
        H2(ctx.t("search_results", q=query)),
        Ul(*[_agenda_item(ctx, ev, with_date=True) for ev in found], cls="plain")
        if found
        else P(ctx.t("search_none", q=query), cls="muted", data_testid="calendar-search-none"),
        A(
            ctx.t("clear_search"),
            href=ctx.url(_q("/", month=_month_key(y, m))),
            cls="button secondary",
            data_testid="calendar-search-clear",
        ),
        cls="card cal-agenda stack",
        data_testid="calendar-agenda",
    )


# -- forms ------------------------------------------------------------------------------------
def _form_values(ev: dict) -> dict:
    out = {f: ev.get(f, "") for f in FIELDS}
    out["invitees"] = ", ".join(ev.get("invitees", []))
    return out


def _values_to_raw(values: dict) -> dict:
    raw = dict(values)
    raw["invitees"] = split_invitees(values.get("invitees", ""))
    return raw


def _read_form(ctx: AppContext, params: dict) -> tuple[dict, str | None]:
    def text(key: str) -> str:
        value = params.get(key, "")
        if isinstance(value, list):
            value = value[-1] if value else ""
        return str(value)

    values = {f: text(f) for f in FIELDS}
    values["title"] = " ".join(values["title"].split())
    values["date"] = values["date"].strip()
    values["time"] = values["time"].strip()
    if not values["title"]:
        return values, ctx.t("error_title")
    if _parse_date(values["date"]) is None:
        return values, ctx.t("error_date")
    if values["time"]:
        tm = _TIME.match(values["time"])
        if not tm:
            return values, ctx.t("error_time")
        values["time"] = f"{tm.group(1)}:{tm.group(2)}"
    return values, None


def _field(ctx: AppContext, name: str, control, hint: str | None = None):
    return Div(
        Label(ctx.t(f"field_{name}"), fr=f"cal-{name}"),
        control,
        P(hint, cls="hint", id=f"cal-{name}-hint") if hint else None,
        cls="field",
    )


def _form_page(ctx: AppContext, heading: str, values: dict, action: str, cancel: str, error: str | None):
    def text_input(name: str, **kw):
        return Input(
            type="text",
            name=name,
            id=f"cal-{name}",
            value=values.get(name, ""),
            autocomplete="off",
            data_testid=f"calendar-field-{name}",
            **kw,
        )

    return ctx.page(
        Div(
            H1(heading, data_testid="calendar-form-heading"),
            P(error, cls="error", role="alert", data_testid="calendar-form-error") if error else None,
            Form(
                _field(ctx, "title", text_input("title", required=True)),
                Div(
                    _field(
                        ctx,
                        "date",
                        Input(
                            type="date",
                            name="date",
                            id="cal-date",
                            value=values.get("date", ""),
                            required=True,
                            data_testid="calendar-field-date",
                        ),
                    ),
                    _field(
                        ctx,
                        "time",
                        Input(
                            type="time",
                            name="time",
                            id="cal-time",
                            value=values.get("time", ""),
                            aria_describedby="cal-time-hint",
                            data_testid="calendar-field-time",
                        ),
                        ctx.t("time_hint"),
                    ),
                    cls="pair",
                ),
                _field(ctx, "location", text_input("location")),
                _field(
                    ctx,
                    "invitees",
                    text_input("invitees", aria_describedby="cal-invitees-hint"),
                    ctx.t("invitees_hint"),
                ),
                _field(ctx, "url", text_input("url", placeholder=ctx.t("url_placeholder"), inputmode="url")),
                _field(
                    ctx,
                    "description",
                    Textarea(
                        values.get("description", ""),
                        name="description",
                        id="cal-description",
                        rows="4",
                        data_testid="calendar-field-description",
                    ),
                ),
                Div(
                    Button(ctx.t("save"), type="submit", data_testid="calendar-save"),
                    A(ctx.t("cancel"), href=ctx.url(cancel), cls="button secondary", data_testid="calendar-cancel"),
                    cls="cal-actions",
                ),
                method="post",
                action=action,
                cls="cal-form",
            ),
            cls="card cal-form-card",
        ),
        title=f"{heading} · {ctx.config['title']}",
    )


def _not_found(ctx: AppContext):
    return ctx.page(
        Div(
            P(ctx.t("not_found"), data_testid="calendar-not-found"),
            A(ctx.t("back"), href=ctx.url("/"), cls="button secondary", data_testid="calendar-back"),
            cls="card",
        ),
        status=404,
    )


APP = AppSpec(
    name="calendar",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes=routes,
    normalise=normalise,
    order=20,
    css=CSS,
    item_keys={"events": ItemKey("title", "event"), "events[].invitees": ItemKey((), "invitee")},
)

__all__ = ["APP", "long_date", "make_event", "month_title", "normalise", "split_invitees"]
