"""The pages of ``openapps view`` that list episodes, as FastHTML components: the frame every page
shares, the filtered episode table and the list of success flips."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from fasthtml.common import (
    H1,
    A,
    B,
    Button,
    Div,
    Form,
    Header,
    Input,
    Label,
    Link,
    Main,
    Meta,
    Nav,
    Option,
    P,
    Script,
    Select,
    Span,
    Table,
    Tbody,
    Td,
    Th,
    Thead,
    Tr,
)

from openapps_sim.analysis.doc.fmt import fmt_pct
from openapps_sim.analysis.doc.page import badge, document
from openapps_sim.analysis.view.episodes import FAILURE, FILTERS, SUCCESS, Episodes, Flip
from openapps_sim.analysis.view.style import CSS

PAGE_SIZE = 200
FILTER_NAMES = {
    "agent": "Agent",
    "task": "Task",
    "app": "App",
    "variation": "Version",
    "outcome": "Outcome",
    "failure": "Failure kind",
}
GOAL_CHARS = 140
SCROLL_TREES = (
    "document.querySelectorAll('pre.tree mark').forEach(function(m){"
    "var p=m.parentElement;p.scrollTop=Math.max(0,m.offsetTop-p.clientHeight/3);});"
)
"""The page's one script (inline): each tree scrolled to the line of the element its action addressed."""


def query_string(query: Mapping[str, str], **changes: Any) -> str:
    """``?a=1&b=2`` of the filters and search in ``query`` (empty ones left out), with ``changes``."""
    merged = {k: v for k, v in {**dict(query), **changes}.items() if v not in (None, "")}
    kept = {k: str(merged[k]) for k in (*FILTERS, "q", "page") if k in merged}
    return "?" + urlencode(kept) if kept else ""


def episode_url(key: str, query: Mapping[str, str] | None = None) -> str:
    return f"/episode/{key}" + query_string({k: v for k, v in (query or {}).items() if k != "page"})


def flip_url(flip: Flip) -> str:
    return "/flip?" + urlencode({"won": flip.won, "lost": flip.lost})


def outcome_badge(row: Mapping) -> Any:
    kinds = {SUCCESS: "ok", FAILURE: "bad"}
    return badge(str(row["outcome"]), kinds.get(row["outcome"], "warn"))


def frame(title: str, here: str, episodes: Episodes, *content: Any) -> str:
    """A whole page: the bar on top (the lists and the run folders shown), then ``content``."""
    links = [("/", "Episodes", "episodes"), ("/flips", f"Success flips ({len(episodes.flips)})", "flips")]
    nav = Nav(*[A(text, href=href, cls="here" if name == here else "") for href, text, name in links])
    runs = ", ".join(str(p) for p in episodes.sources)
    top = Header(A("OpenApps-Sim · episodes", href="/", cls="brand"), nav, Span(runs, cls="runs"), cls="top")
    head = [
        Meta(name="viewport", content="width=device-width, initial-scale=1"),
        Link(rel="icon", href="data:,"),  # no request for /favicon.ico
    ]
    return document(f"{title} · openapps view", CSS, top, Main(*content, cls="view"), Script(SCROLL_TREES), head=head)


def filter_form(episodes: Episodes, query: Mapping[str, str]) -> Any:
    """One select per filter (each value with its count) and the search box; a choice applies
    at once (and with the button when scripts are off)."""
    fields = []
    for name, text in FILTER_NAMES.items():
        picked = str(query.get(name) or "")
        options = [Option(f"any {text.lower()}", value="", selected=not picked)]
        options += [
            Option(f"{value or '(none)'} ({n})", value=value, selected=value == picked)
            for value, n in episodes.choices(name, query)
            if value or name != "failure"
        ]
        select = Select(*options, name=name, id=f"f-{name}", onchange="this.form.submit()")
        fields.append(Label(text, select, fr=f"f-{name}"))
    search = Input(
        type="search", name="q", id="f-q", value=str(query.get("q") or ""), placeholder="goal, action, reply…"
    )
    fields.append(Label("Search", search, fr="f-q"))
    return Form(
        *fields,
        Div(Button("Apply", type="submit"), A("Clear", href="/", cls="clear"), cls="go"),
        method="get",
        action="/",
        cls="filters",
    )


def episode_rows(episodes: Episodes, keys: list[str], query: Mapping[str, str]) -> Any:
    head = ["Outcome", "Agent", "Task", "Version", "Seed", "Steps", "Why it failed", "Goal"]
    rows = []
    for key in keys:
        row = episodes.rows[key]
        url = episode_url(key, query)
        goal = str(row.get("goal") or "")
        goal = goal if len(goal) <= GOAL_CHARS else goal[: GOAL_CHARS - 1] + "…"
        rows.append(
            Tr(
                Td(outcome_badge(row)),
                Td(row["label"], cls="l"),
                Td(A(str(row.get("task")), href=url), cls="l"),
                Td(str(row.get("variation")), cls="l"),
                Td(str(row.get("seed"))),
                Td(str(row.get("steps"))),
                Td(row["failure"], cls="why"),
                Td(A(goal, href=url), cls="goal"),
                id=f"row-{key.replace('/', '-')}",
            )
        )
    return Div(Table(Thead(Tr(*[Th(h, cls="l") for h in head])), Tbody(*rows), cls="episodes"), cls="scroll")


def list_page(episodes: Episodes, query: Mapping[str, str]) -> str:
    """Every episode the filters and search admit, ``PAGE_SIZE`` to a page."""
    keys = episodes.select(query)
    try:
        page = max(1, int(query.get("page") or 1))
    except ValueError:
        page = 1
    shown = keys[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    solved = sum(1 for k in keys if episodes.rows[k]["outcome"] == SUCCESS)
    scored = sum(1 for k in keys if episodes.rows[k]["outcome"] in (SUCCESS, FAILURE))
    total = len(episodes.rows)
    summary = f"{len(keys)} of {total} episodes" + (
        f" · {solved} of {scored} scored solved ({fmt_pct(solved / scored, 0)})" if scored else ""
    )
    pager = []
    if page > 1:
        pager.append(A("← previous", href="/" + query_string(query, page=page - 1)))
    if page * PAGE_SIZE < len(keys):
        pager.append(A("next →", href="/" + query_string(query, page=page + 1)))
    if len(keys) > PAGE_SIZE:
        pager.insert(0, Span(f"{(page - 1) * PAGE_SIZE + 1}–{(page - 1) * PAGE_SIZE + len(shown)}", cls="meta"))
    content: list[Any] = [filter_form(episodes, query), P(B(summary), cls="count", id="count")]
    content += [P(n, cls="note") for n in episodes.notes]
    if shown:
        content += [episode_rows(episodes, shown, query), Div(*pager, cls="pager")]
    else:
        content.append(Div("No episode matches these filters.", cls="empty"))
    return frame("Episodes", "episodes", episodes, *content)


def flips_page(episodes: Episodes) -> str:
    """Every success flip, each opening the two versions' episodes side by side."""
    intro = P(
        "One agent on one task and seed (and trial) that succeeded in one app version and failed in another; every "
        "version is paired with its group's baseline (default when it ran). Open one to see both episodes side by side."
    )
    if not episodes.flips:
        return frame("Success flips", "flips", episodes, H1("Success flips"), intro, Div("No flips.", cls="empty"))
    head = ["Agent", "Task", "Seed", "Solved in", "Failed in", ""]
    rows = []
    for flip in episodes.flips:
        won, lost = episodes.rows[flip.won], episodes.rows[flip.lost]
        rows.append(
            Tr(
                Td(won["label"], cls="l"),
                Td(str(won.get("task")), cls="l"),
                Td(str(won.get("seed"))),
                Td(str(won.get("variation")), cls="l"),
                Td(str(lost.get("variation")), " ", Span(lost["failure"], cls="meta"), cls="l"),
                Td(A("side by side", href=flip_url(flip)), cls="l"),
            )
        )
    table = Div(Table(Thead(Tr(*[Th(h, cls="l") for h in head])), Tbody(*rows), cls="episodes"), cls="scroll")
    return frame("Success flips", "flips", episodes, H1(f"Success flips ({len(episodes.flips)})"), intro, table)
