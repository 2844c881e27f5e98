"""Calendar's pages: the month grid with its day, month and search panels, and an event's details."""

from __future__ import annotations

import calendar as pycal
from datetime import date
from urllib.parse import urlencode

from openapps_sim.apps.calendar.model import YEARS, event_sort_key, parse_date
from openapps_sim.apps.calendar.model import today as model_today

from openapps_sim.appkit import AppContext
from openapps_sim.config.normalise import norm_text
from openapps_sim.web.components import app_search, link_button, not_found_page, post_button
from openapps_sim.web.tags import (
    H1,
    H2,
    Aside,
    Dd,
    Div,
    Dl,
    Dt,
    P,
    Section,
    Span,
    Ul,
)
from openapps_sim.web.tags import ft as _h


# -- formatting -------------------------------------------------------------------------------
def today_of(ctx: AppContext) -> date:
    return model_today(ctx.config)


def weekday_order(ctx: AppContext) -> list[int]:
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


def month_key(y: int, m: int) -> str:
    return f"{y:04d}-{m:02d}"


def shift_month(y: int, m: int, delta: int) -> tuple[int, int]:
    n = y * 12 + (m - 1) + delta
    n = max(YEARS[0] * 12, min(YEARS[1] * 12 + 11, n))
    return n // 12, n % 12 + 1


def with_query(path: str, **params: object) -> str:
    clean = {k: v for k, v in params.items() if v not in (None, "")}
    return path + ("?" + urlencode(clean) if clean else "")


def day_href(d: date | None) -> str:
    if d is None:
        return "/"
    return with_query("/", month=month_key(d.year, d.month), day=d.isoformat())


def month_href(y: int, m: int) -> str:
    return with_query("/", month=month_key(y, m))


def _month_step(ctx: AppContext, y: int, m: int, delta: int):
    """The button to the month before (``delta`` -1) or after (+1)."""
    key, arrow = ("prev", "‹") if delta < 0 else ("next", "›")
    href = ctx.url(month_href(*shift_month(y, m, delta)))
    return link_button(arrow, href, f"calendar-{key}", "button secondary", title=ctx.t(key), aria_label=ctx.t(key))


def month_header(ctx: AppContext, y: int, m: int, query: str):
    return Div(
        _month_step(ctx, y, m, -1),
        H1(month_title(ctx, y, m), data_testid="calendar-month-label"),
        _month_step(ctx, y, m, 1),
        link_button(ctx.t("today"), ctx.url("/?day=today"), "calendar-today", cls="button secondary"),
        Span(cls="spacer"),
        app_search(ctx, query, cls="cal-search", button_cls="secondary", hidden={"month": month_key(y, m)}),
        link_button(ctx.t("new_event"), ctx.url("/new"), "calendar-new"),
        cls="cal-head",
    )


def _day_cell(ctx, d, m, today, selected, day_events: list, query):
    """One day of the month grid: its number (a link to the day), its first events as chips and
    how many more there are."""
    limit = ctx.config["max_chips"]
    iso = d.isoformat()
    classes = []
    if d.month != m:
        classes.append("other")
    if d == today:
        classes.append("today")
    if selected and d == selected and not query:
        classes.append("selected")
    href = ctx.url(day_href(d))
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
    return _h(
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


def month_grid(ctx, y, m, today, selected, by_day, query):
    order = weekday_order(ctx)
    weeks = pycal.Calendar(firstweekday=order[0]).monthdatescalendar(y, m)
    week_nums = ctx.config["show_week_numbers"]
    head_cells = [_h("th", ctx.t("week"), cls="wk", scope="col")] if week_nums else []
    head_cells += [
        _h("th", ctx.strings["weekday_short"][i], scope="col", title=ctx.strings["weekday_names"][i]) for i in order
    ]
    rows = []
    for week in weeks:
        cells = [_h("td", str(week[0].isocalendar()[1]), cls="wk")] if week_nums else []
        cells += [_day_cell(ctx, d, m, today, selected, by_day.get(d.isoformat(), []), query) for d in week]
        rows.append(_h("tr", *cells))
    return _h(
        "table", _h("thead", _h("tr", *head_cells)), _h("tbody", *rows), cls="cal-grid", data_testid="calendar-grid"
    )


def agenda_item(ctx: AppContext, ev: dict, with_date: bool = False):
    when = show_time(ctx, ev["time"])
    d = parse_date(ev["date"])
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


def day_panel(ctx: AppContext, d: date, events: list[dict], y: int, m: int):
    return Aside(
        H2(long_date(ctx, d), data_testid="calendar-day-heading"),
        Ul(*[agenda_item(ctx, ev) for ev in events], cls="plain")
        if events
        else P(ctx.t("day_agenda_empty"), cls="muted", data_testid="calendar-day-empty"),
        Div(
            link_button(ctx.t("new_event"), ctx.url(with_query("/new", date=d.isoformat())), "calendar-new-on-day"),
            link_button(ctx.t("show_month"), ctx.url(month_href(y, m)), "calendar-day-close", cls="button secondary"),
            cls="cal-actions",
        ),
        cls="card cal-agenda stack",
        data_testid="calendar-agenda",
    )


def month_panel(ctx: AppContext, y: int, m: int, events: list[dict]):
    prefix = month_key(y, m) + "-"
    shown = [ev for ev in events if ev["date"].startswith(prefix)]
    body: list = []
    current = None
    group: list = []
    for ev in shown:
        if ev["date"] != current:
            if group:
                body.append(_h("ul", *group, cls="plain"))
            current, group = ev["date"], []
            body.append(_h("div", long_date(ctx, parse_date(current)), cls="date-head"))
        group.append(agenda_item(ctx, ev))
    if group:
        body.append(_h("ul", *group, cls="plain"))
    return Aside(
        H2(ctx.t("month_agenda", month=month_title(ctx, y, m))),
        *(body or [P(ctx.t("month_agenda_empty"), cls="muted")]),
        cls="card cal-agenda",
        data_testid="calendar-agenda",
    )


def search_panel(ctx: AppContext, events: list[dict], query: str, y: int, m: int):
    needle = norm_text(query)
    found = [
        ev
        for ev in events
        if needle in norm_text(" ".join([ev["title"], ev["location"], ev["description"], " ".join(ev["invitees"])]))
    ]
    return Aside(
        H2(ctx.t("search_results", q=query)),
        Ul(*[agenda_item(ctx, ev, with_date=True) for ev in found], cls="plain")
        if found
        else P(ctx.t("search_none", q=query), cls="muted", data_testid="calendar-search-none"),
        link_button(ctx.t("clear_search"), ctx.url(month_href(y, m)), "calendar-search-clear", cls="button secondary"),
        cls="card cal-agenda stack",
        data_testid="calendar-agenda",
    )


# -- forms ------------------------------------------------------------------------------------


def month_page(ctx: AppContext, y: int, m: int, today: date, selected: date | None, query: str):
    events = sorted(ctx.state["events"], key=event_sort_key)
    by_day: dict[str, list[dict]] = {}
    for ev in events:
        by_day.setdefault(ev["date"], []).append(ev)

    head = month_header(ctx, y, m, query)
    grid = month_grid(ctx, y, m, today, selected, by_day, query)
    if query:
        panel = search_panel(ctx, events, query, y, m)
    elif selected:
        panel = day_panel(ctx, selected, by_day.get(selected.isoformat(), []), y, m)
    else:
        panel = month_panel(ctx, y, m, events)
    return ctx.page(
        head,
        Div(Section(grid, cls="card cal-month"), panel, cls="cal-layout"),
        title=f"{month_title(ctx, y, m)} · {ctx.config['title']}",
    )


def detail_page(ctx: AppContext, ev: dict):
    d = parse_date(ev["date"])
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
                link_button(ctx.t("edit"), ctx.url(f"/event/{eid}/edit"), f"calendar-edit-{eid}"),
                link_button(
                    ctx.t("duplicate"),
                    ctx.url(with_query("/new", copy=eid)),
                    f"calendar-duplicate-{eid}",
                    cls="button secondary",
                ),
                post_button(
                    ctx.t("delete"),
                    ctx.url(f"/event/{eid}/delete"),
                    f"calendar-delete-{eid}",
                    cls="danger",
                    about=ev["title"],
                ),
                link_button(ctx.t("back"), ctx.url(day_href(d)), "calendar-back", cls="button secondary"),
                cls="cal-actions",
            ),
            cls="card cal-detail",
            data_testid="calendar-detail",
        ),
        title=f"{ev['title']} · {ctx.config['title']}",
    )


def not_found(ctx: AppContext):
    return not_found_page(ctx, ctx.t("not_found"))
