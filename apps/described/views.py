"""A described app's reading pages: the frame (header band, navigation), a collection in its
layout (list, cards or table) with search, filter, tabs and sort, and a record's page with its
actions. Forms are in :mod:`.forms`."""

from __future__ import annotations

from urllib.parse import urlencode

from openapps_sim.apps.described import words
from openapps_sim.apps.described.values import initials, show

from openapps_sim.appkit import AppContext
from openapps_sim.config.normalise import norm_text
from openapps_sim.web.components import app_search, flash, link_button, post_button
from openapps_sim.web.icons import svg
from openapps_sim.web.tags import H1, A, Div, Li, NotStr, P, Span, Table, Tbody, Td, Th, Thead, Tr, Ul

MESSAGES = ("saved", "deleted", "done", "settings_saved")


def frame(ctx: AppContext, active: str, *children, params: dict | None = None):
    """The page: the app's band (icon, title, navigation), a flash message, then ``children``."""
    desc, app = ctx.app.desc, ctx.app.name
    tabs = [
        A(
            words.coll_label(ctx, n),
            href=ctx.url(f"/c/{n}"),
            cls="active" if n == active else None,
            data_testid=f"{app}-nav-{n}",
        )
        for n, c in desc["collections"].items()
        if c["nav"]
    ]
    if desc["settings"]:
        tabs.append(
            A(
                words.ui(ctx, "settings"),
                href=ctx.url("/settings"),
                cls="active" if active == "settings" else None,
                data_testid=f"{app}-nav-settings",
            )
        )
    icon = NotStr(svg(ctx.app.icon_svg, 28, "#fff")) if ctx.app.icon_svg else None
    msg = (params or {}).get("msg")
    return ctx.page(
        Div(
            H1(icon, Span(words.app_title(ctx)), data_testid=f"{app}-heading"),
            Div(*tabs, cls="dapp-nav", role="navigation") if len(tabs) > 1 else None,
            cls="dapp-hero",
            style=f"--app-accent:{desc['accent']}",
        ),
        flash(words.ui(ctx, msg), f"{app}-flash") if msg in MESSAGES else None,
        *children,
        title=words.app_title(ctx),
    )


def matches(ctx: AppContext, coll: dict, record: dict, query: str) -> bool:
    """Whether a record's text fields hold every word of ``query`` (case and accents folded)."""
    texts = [str(record.get(f) or "") for f, s in coll["fields"].items() if s["type"] in ("text", "longtext")]
    hay = norm_text(" ".join(texts))
    return all(w in hay for w in norm_text(query).split())


def shown_records(ctx: AppContext, name: str, params: dict) -> list[dict]:
    """The records of collection ``name`` as the URL asks: searched, filtered, sorted."""
    coll = ctx.app.desc["collections"][name]
    records = list(ctx.state[name])
    query = str(params.get("q", "")).strip()
    if query:
        records = [r for r in records if matches(ctx, coll, r, query)]
    chosen = params.get("filter", "")
    by = coll["filter"] or coll["tabs"]
    if by and chosen:
        records = [r for r in records if r.get(by) == chosen]
    sort = str(params.get("sort", default_sort(coll)))
    field = sort.lstrip("-")
    if field in coll["fields"]:
        records.sort(key=lambda r: _sort_key(ctx, coll, field, r), reverse=sort.startswith("-"))
    return records


def default_sort(coll: dict) -> str:
    """The first sort field; newest first when it is a date."""
    if not coll["sort"]:
        return ""
    first = coll["sort"][0]
    return f"-{first}" if coll["fields"][first]["type"] == "date" else first


def _sort_key(ctx: AppContext, coll: dict, field: str, record: dict):
    value = record.get(field)
    if coll["fields"][field]["type"] in ("money", "number", "rating"):
        return (0, float(value or 0), "")
    return (0, 0.0, norm_text(show(ctx, coll, field, value)))


def _url(ctx: AppContext, name: str, params: dict, **change) -> str:
    query = {k: params[k] for k in ("q", "filter", "sort") if params.get(k)}
    query.update({k: v for k, v in change.items()})
    query = {k: v for k, v in query.items() if v}
    return ctx.url(f"/c/{name}") + (f"?{urlencode(query)}" if query else "")


def collection_page(ctx: AppContext, name: str, params: dict):
    desc, app = ctx.app.desc, ctx.app.name
    coll = desc["collections"][name]
    records = shown_records(ctx, name, params)
    new = (
        link_button(f"+ {words.ui(ctx, 'new')}", ctx.url(f"/c/{name}/new"), f"{app}-{name}-new")
        if coll["actions"]["create"]
        else None
    )
    flows = [
        link_button(
            words.own(ctx, f"flow.{f}", flow["label"]), ctx.url(f"/flow/{f}"), f"{app}-flow-{f}", "button secondary"
        )
        for f, flow in desc["flows"].items()
        if not flow["start"] and flow["creates"] == name
    ]
    search = app_search(ctx, str(params.get("q", "")), action=f"/c/{name}", cls="row grow") if coll["search"] else None
    body = (
        _layout(ctx, name, coll, records)
        if records
        else P(words.ui(ctx, "no_match" if params.get("q") else "empty"), cls="muted", data_testid=f"{app}-empty")
    )
    lower = (_filters(ctx, name, coll, params), _sorts(ctx, name, coll, params))
    return frame(
        ctx,
        name,
        _tabs(ctx, name, coll, params) if coll["tabs"] else None,
        _tools(Div(search, new, *flows, cls="dapp-tools") if search or new or flows else None, *lower),
        Div(
            Span(words.ui(ctx, "shown", n=len(records)), cls="muted small", data_testid=f"{app}-count"),
            body,
            cls="card stack",
            data_testid=f"{app}-{name}-list",
        ),
        params=params,
    )


def _tools(*parts):
    """The card of search, buttons, filters and sort links; none when the collection has none."""
    shown = [p for p in parts if p is not None]
    return Div(*shown, cls="card stack") if shown else None


def _tabs(ctx: AppContext, name: str, coll: dict, params: dict, field: str = ""):
    field, chosen, app = field or coll["tabs"], params.get("filter", ""), ctx.app.name
    links = [
        A(
            words.ui(ctx, "all"),
            href=_url(ctx, name, params, filter=""),
            cls=None if chosen else "active",
            data_testid=f"{app}-filter-all",
        )
    ]
    for c in coll["fields"][field]["choices"]:
        label = words.choice_label(ctx, name, field, c)
        links.append(
            A(
                label,
                href=_url(ctx, name, params, filter=c),
                cls="active" if chosen == c else None,
                data_testid=f"{app}-filter-{c}",
            )
        )
    return Div(*links, cls="dapp-tabs", role="tablist")


def _filters(ctx: AppContext, name: str, coll: dict, params: dict):
    if not coll["filter"] or coll["tabs"]:
        return None
    return Div(*_tabs(ctx, name, coll, params, coll["filter"]).children, cls="dapp-links")


def _sorts(ctx: AppContext, name: str, coll: dict, params: dict):
    if not coll["sort"]:
        return None
    current, app = str(params.get("sort", default_sort(coll))), ctx.app.name
    links = []
    for f in coll["sort"]:
        active = current.lstrip("-") == f
        flip = f"-{f}" if current == f else f
        arrow = (" ↓" if current.startswith("-") else " ↑") if active else ""
        links.append(
            A(
                words.field_label(ctx, name, f) + arrow,
                href=_url(ctx, name, params, sort=flip),
                cls="active" if active else None,
                data_testid=f"{app}-sort-{f}",
            )
        )
    return Div(Span(words.ui(ctx, "sort_by"), cls="muted small"), *links, cls="dapp-links")


def _layout(ctx: AppContext, name: str, coll: dict, records: list[dict]):
    if coll["layout"] == "table":
        return _table(ctx, name, coll, records)
    if coll["layout"] == "cards":
        return Div(*[_card(ctx, name, coll, r) for r in records], cls="dapp-cards")
    return Ul(*[_row(ctx, name, coll, r) for r in records], cls="plain dapp-list")


def _title_link(ctx: AppContext, name: str, coll: dict, record: dict, cls: str | None = None):
    return A(
        str(record[coll["title"]]),
        href=ctx.url(f"/c/{name}/{record['id']}"),
        cls=cls,
        data_testid=f"{ctx.app.name}-{name}-open-{record['id']}",
    )


def _star(ctx: AppContext, name: str, coll: dict, record: dict):
    field = coll["actions"]["star"]
    if not field:
        return None
    on = bool(record.get(field))
    label = words.ui(ctx, "unstar" if on else "star")
    return post_button(
        "★" if on else "☆",
        ctx.url(f"/c/{name}/{record['id']}/toggle/{field}"),
        f"{ctx.app.name}-{name}-star-{record['id']}",
        cls="dapp-star",
        title=label,
        about=str(record[coll["title"]]),
        hidden={"back": "list"},
    )


def _price(ctx: AppContext, coll: dict, record: dict, name: str):
    field = coll["price"]
    if not field:
        return None
    value = record.get(field)
    neg = isinstance(value, (int, float)) and value < 0
    testid = f"{ctx.app.name}-{name}-price-{record['id']}"
    return Span(
        show(ctx, coll, field, value), cls="dapp-price" + (" neg" if neg else ""), dir="ltr", data_testid=testid
    )


def _sub(ctx: AppContext, coll: dict, record: dict):
    return (
        Span(show(ctx, coll, coll["subtitle"], record.get(coll["subtitle"])), cls="dapp-sub")
        if coll["subtitle"]
        else None
    )


def _badge(ctx: AppContext, coll: dict, record: dict):
    field = coll["badge"]
    return (
        Span(show(ctx, coll, field, record.get(field)), cls="badge")
        if field and record.get(field) not in (None, "")
        else None
    )


def image(ctx: AppContext, coll: dict, record: dict):
    """The record's avatar: the initials of its title on the app's accent (an app with an
    ``image`` field; emoji need a font the machine may lack, letters never do)."""
    if not coll["image"]:
        return None
    accent = ctx.app.desc["accent"]
    return Span(initials(record[coll["title"]]), cls="dapp-img", aria_hidden="true", style=f"background:{accent}")


def _row(ctx: AppContext, name: str, coll: dict, record: dict):
    return Li(
        image(ctx, coll, record),
        Div(_title_link(ctx, name, coll, record), _sub(ctx, coll, record), cls="main"),
        _badge(ctx, coll, record),
        _price(ctx, coll, record, name),
        _star(ctx, name, coll, record),
        data_testid=f"{ctx.app.name}-{name}-row-{record['id']}",
    )


def _card(ctx: AppContext, name: str, coll: dict, record: dict):
    return Div(
        Div(image(ctx, coll, record), _star(ctx, name, coll, record), cls="dapp-line"),
        _title_link(ctx, name, coll, record, "title"),
        _sub(ctx, coll, record),
        Div(_badge(ctx, coll, record), _price(ctx, coll, record, name), cls="dapp-line"),
        cls="card",
        data_testid=f"{ctx.app.name}-{name}-row-{record['id']}",
    )


def _cell(ctx: AppContext, name: str, coll: dict, record: dict, field: str):
    """A table's cell: the title a link, the price with the test id a list's price has."""
    if field == coll["title"]:
        return Td(_title_link(ctx, name, coll, record))
    if field == coll["price"]:
        return Td(_price(ctx, coll, record, name))
    return Td(show(ctx, coll, field, record.get(field)))


def _table(ctx: AppContext, name: str, coll: dict, records: list[dict]):
    cols = coll["columns"] or [f for f in (coll["title"], coll["subtitle"], coll["badge"], coll["price"]) if f]
    if coll["price"] and coll["price"] not in cols:  # the price is always shown, as a list shows it
        cols = [*cols, coll["price"]]
    head = Tr(*[Th(words.field_label(ctx, name, f)) for f in cols])
    rows = []
    for r in records:
        cells = [_cell(ctx, name, coll, r, f) for f in cols]
        rows.append(Tr(*cells, data_testid=f"{ctx.app.name}-{name}-row-{r['id']}"))
    return Div(Table(Thead(head), Tbody(*rows)), cls="dapp-table")
