"""Kinds whose answer is read from the world's state: which entry is marked (done, flagged,
read, paused...), what a row's toggle button does, how many entries there are or are still
open, what the cart badge says. Entries are asked about only when the page shows their name.

Every described app is covered through its description (its home collection, the title field
and the boolean fields its rows toggle); the hand-built todo and shop apps by their own state.
"""

from __future__ import annotations

from dataclasses import dataclass

from openapps_sim.analysis.questions.kinds import CountKind, Kind, Page, kind
from openapps_sim.analysis.questions.options import same
from openapps_sim.config.normalise import norm_text


@dataclass(frozen=True)
class Flag:
    """A yes/no field of an app's list entries: the records, their title field and the field."""

    collection: str
    field: str
    label: str
    title: str


def home_flags(page: Page) -> list[Flag]:
    """The toggled yes/no fields of the entries listed on the app's home page."""
    if page.app == "todo" and page.url.rstrip("/") == "/todo":
        return [Flag("items", "done", "done", "title")]
    desc = getattr(page.apps.get(page.app), "desc", None)
    if not desc or page.url.rstrip("/") != f"/{page.app}":
        return []
    name = desc.get("home")
    coll = (desc.get("collections") or {}).get(name) or {}
    toggles = (coll.get("actions") or {}).get("toggle") or []
    fields = coll.get("fields") or {}
    out = []
    for f in toggles if isinstance(toggles, list) else [toggles]:
        if (fields.get(f) or {}).get("type") == "boolean":
            out.append(Flag(name, f, str(fields[f].get("label") or f.replace("_", " ")), coll["title"]))
    return out


def records(page: Page, flag: Flag) -> list[dict]:
    return [r for r in (page.state.get(page.app) or {}).get(flag.collection) or [] if isinstance(r, dict)]


def shown(page: Page) -> set[str]:
    """Every name and text of the page, normalised."""
    return {norm_text(n.name) for n in page.tree.nodes if n.name.strip()}


def visible_records(page: Page, flag: Flag) -> list[dict]:
    on_page = shown(page)
    return [r for r in records(page, flag) if norm_text(str(r.get(flag.title, ""))) in on_page]


def has_button(page: Page, title: str) -> bool:
    """Whether the page shows a button about the entry ``title`` (a row's action, named
    ``<label>: <title>``)."""
    end = norm_text(f": {title}")
    return any(n.role == "button" and norm_text(n.name).endswith(end) for n in page.tree.nodes)


def buttoned_records(page: Page, flag: Flag) -> list[dict]:
    """The visible entries that have a button of their own on the page."""
    return [r for r in visible_records(page, flag) if has_button(page, str(r.get(flag.title, "")))]


def flag_rows(page: Page) -> list[tuple[Flag, list[dict]]]:
    """Each toggled field of the home page's entries with the visible entries that have a
    button of their own."""
    return [(flag, buttoned_records(page, flag)) for flag in home_flags(page)]


def flag_of(page: Page, subject: dict) -> Flag | None:
    return next((f for f in home_flags(page) if f.field == subject["field"]), None)


def record_by_id(page: Page, flag: Flag, rid: str) -> dict | None:
    return next((r for r in records(page, flag) if str(r.get("id")) == rid), None)


class FlagKind(Kind):
    """A kind about a yes/no field of the listed entries: its question names the field's label
    as ``{label}``."""

    def text(self, page, subject):
        return self.question.format(**subject, label=flag_of(page, subject).label)


@kind("marked", "state")
class Marked(FlagKind):
    """Which of the listed entries is marked (done, flagged, paused...): one marked entry among
    unmarked ones; an entry whose name a marked entry shares is never a distractor."""

    question = "Which of these entries is marked {label!r}?"

    def subjects(self, page):
        out = []
        for flag, rows in flag_rows(page):
            on = [r for r in rows if r.get(flag.field) is True]
            if on and len(rows) - len(on) >= 2:
                out += [{"field": flag.field, "id": str(r.get("id"))} for r in on[:4]]
        return out

    def truth(self, page, subject):
        flag = flag_of(page, subject)
        rec = record_by_id(page, flag, subject["id"]) if flag else None
        return str(rec.get(flag.title, "")) if rec and rec.get(flag.field) is True else ""

    def candidates(self, page, subject):
        flag = flag_of(page, subject)
        return [str(r.get(flag.title, "")) for r in visible_records(page, flag) if r.get(flag.field) is not True]

    def also_true(self, page, subject, option):
        flag = flag_of(page, subject)
        return any(r.get(flag.field) is True and same(str(r.get(flag.title, "")), option) for r in records(page, flag))


ACTIONS = ("turns {label} on", "turns {label} off", "deletes the entry", "opens the entry's own page")


@kind("button_action", "interaction")
class ToggleAction(FlagKind):
    """What a row's toggle button does: turn its yes/no field on or off (by the entry's state)."""

    question = "What does the {label!r} toggle button of the entry {title!r} do when pressed?"

    def subjects(self, page):
        out = []
        for flag, rows in flag_rows(page):
            out += [{"field": flag.field, "id": str(r.get("id")), "title": str(r.get(flag.title))} for r in rows[:3]]
        return out

    def truth(self, page, subject):
        flag = flag_of(page, subject)
        rec = record_by_id(page, flag, subject["id"]) if flag else None
        if rec is None:
            return ""
        return ACTIONS[1 if rec.get(flag.field) is True else 0].format(label=repr(flag.label))

    def candidates(self, page, subject):
        flag = flag_of(page, subject)
        return [a.format(label=repr(flag.label)) for a in ACTIONS]


@kind("marked_count", "counting")
class MarkedCount(CountKind, FlagKind):
    """How many listed entries are marked (done, flagged, read...), from the state."""

    question = "How many entries are marked {label!r}?"

    def subjects(self, page):
        flags = home_flags(page)  # only when every entry is on the page, with its button
        return [{"field": f.field} for f in flags if records(page, f) and buttoned_records(page, f) == records(page, f)]

    def truth(self, page, subject):
        flag = flag_of(page, subject)
        return str(sum(1 for r in records(page, flag) if r.get(flag.field) is True)) if flag else ""


@kind("badge", "element_content")
class CartBadge(CountKind):
    """The number the shop's cart badge shows: the quantities in the cart, from the state."""

    question = "What number does the cart's badge show?"

    def subjects(self, page):
        return [{}] if page.app == "shop" and page.url.rstrip("/") == "/shop" else []

    def truth(self, page, subject):
        cart = (page.state.get("shop") or {}).get("cart") or []
        return str(sum(int(line.get("qty") or 0) for line in cart if isinstance(line, dict)))
