"""Reading a page for the lexical agent: launchers, forms, options, rows and the items a goal
mentions."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from openapps_sim.agents.lexical_goal import (
    DATE_RE,
    EMAIL_RE,
    NUMBER_RE,
    TIME_RE,
    VERBS,
    content_stems,
    fold,
    verb_match,
)

from .page import TEXT_INPUT_ROLES, Element


def visible_text(nodes: list[Element]) -> str:
    """The page's text, folded, without what is typed into its search boxes."""
    return fold(
        " ".join(
            n.name
            for n in nodes
            if n.role not in ("InlineTextBox", "searchbox") and not any(a.role == "searchbox" for a in n.ancestors())
        )
    )


def page_path(obs: dict) -> str:
    return urlsplit(obs.get("url") or "").path or "/"


def page_key(obs: dict) -> str:
    parts = urlsplit(obs.get("url") or "")
    return parts.path + ("?" + parts.query if parts.query else "")


def url_path(el: Element) -> str | None:
    url = el.properties.get("url")
    if not url:
        return None
    return urlsplit(str(url)).path


def app_launchers(obs: dict, elements: list[Element]) -> list[tuple[Element, str, str]]:
    """Links to an app's front page (``/<app>/``) with their title and description."""
    out = []
    for el in elements:
        if el.role != "link":
            continue
        path = url_path(el)
        if not path or not re.fullmatch(r"/[^/]+/", path):
            continue
        title = next((d.name for d in el.descendants() if d.role == "heading"), "")
        desc = " ".join(d.name for d in el.descendants() if d.role == "paragraph" or d.role == "StaticText")
        if not title:
            continue
        out.append((el, title, desc))
    return out


def option_elements(el: Element) -> list[Element]:
    return [d for d in el.descendants() if d.role == "option"]


def form_of(el: Element) -> str | None:
    for a in el.ancestors():
        if a.role == "form":
            return a.node_id
    return None


MENTION_ROWS = {"listitem", "row", "cell", "gridcell", "article", "treeitem"}


def goal_mentions(nodes: list[Element], masked_goal: str) -> list[str]:
    """Texts of list rows and table cells that the goal mentions (e.g. a contact's name).

    Only names that read like names count: written the same way in the goal, at least four
    characters, and either several words or capitalised.
    """
    out: list[str] = []
    goal = unicodedata.normalize("NFKC", masked_goal)
    for n in nodes:
        if n.role not in ("StaticText", "link", "button") or not n.name or n.name in out:
            continue
        name = n.name.strip()
        if len(name) < 4 or not any(ch.isalpha() for ch in name):
            continue
        if " " not in name and not name[0].isupper():
            continue
        if not any(a.role in MENTION_ROWS for a in n.ancestors()):
            continue
        if re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", goal):
            out.append(name)
    return out


STOP_CONTAINERS = {
    "list",
    "table",
    "grid",
    "main",
    "RootWebArea",
    "tree",
    "listbox",
    "navigation",
    "rowgroup",
    "tablist",
    "banner",
    "contentinfo",
    "complementary",
    "search",
    "dialog",
    "region",
}


def row_distance(el: Element, fq: str, max_up: int = 4) -> int | None:
    """How many levels up the nearest ancestor whose text contains ``fq`` is (a row)."""
    for depth, a in enumerate(el.ancestors(), start=1):
        if depth > max_up or a.role in STOP_CONTAINERS:
            return None
        text = fold(a.text(limit=800))
        if len(text) > 600:
            return None  # a whole section, not a row
        if fq in text:
            return depth
    return None


def field_score(f: Element, q: str, verb: str, goal_stems: set[str], held: set[str], strict: bool) -> float | None:
    """How well the text field ``f`` fits the value ``q`` (a date or time only into a date or time
    field when ``strict``); None when it must not take it. ``held``: the items being edited."""
    label = fold(f.name)
    stems = content_stems(f.name)
    score = 0.0
    if any(fold(item) == fold(f.value) for item in held):
        score += 4  # the field holding the item being edited
    score += 1.5 * len(stems & goal_stems)
    is_search = "search" in label or f.role == "searchbox"
    if is_search and verb != "search":
        return None  # typing a message into a search box helps nobody
    if DATE_RE.match(q):
        fits = f.role in ("Date", "DateTime") or "date" in label or "day" in label
        if strict and not fits:
            return None
        score += 3 if fits else -1
    elif TIME_RE.match(q):
        fits = f.role == "InputTime" or "time" in label or "hour" in label
        if strict and not fits:
            return None
        score += 3 if fits else -1
    elif EMAIL_RE.match(q):
        score += 3 if "mail" in label or "to" in label.split() else 0
    elif NUMBER_RE.match(q):
        score += 2 if f.role == "spinbutton" or "qty" in label or "quantit" in label else 0
    elif any(k in label for k in ("date", "time")) or f.role in ("Date", "InputTime", "DateTime"):
        score -= 2
    if f.value and not score:
        score -= 0.5  # already holds something unrelated
    return score


def item_target(elements: list[Element], q: str, verb: str | None, fresh, need_match: bool = False) -> tuple:
    """The element to click for the item ``q`` (its own link, or a button of its row named like
    ``verb``) and whether it is named like the verb; ``fresh(action)``: not done on this page yet."""
    fq = fold(q)
    verb_words = VERBS[verb][1] if verb in VERBS else ()
    best: tuple | None = None
    for order, el in enumerate(elements):
        if el.role in TEXT_INPUT_ROLES:
            continue
        if not fresh(f"click({el.bid!r})"):
            continue
        own = fq in fold(el.name)
        distance = None if own else row_distance(el, fq)
        if not own and distance is None:
            continue
        score = 3.0 if own else 2.0 - 0.4 * distance
        label = fold(el.name).replace(fq, " ")  # the verb must not come from the item's own words
        match, opposite = verb_match(label, verb, verb_words)
        if match:
            score += 5
        elif opposite:
            score -= 4  # "Mark done" is the opposite of "mark as not done"
        elif verb not in ("open", "send") and el.role == "button":
            score -= 1  # a button that does something else on the row
        if need_match and not match:
            continue
        if fold(el.name) == fq:
            score += 1  # the item's own link
        if best is None or score > best[0]:
            best = (score, -order, el, match)
    return (best[2], best[3]) if best and best[0] > 0 else (None, False)


def select_offering(elements: list[Element], q: str) -> Element | None:
    """The drop-down that offers the value ``q``."""
    for el in elements:
        if el.role in ("combobox", "listbox") and any(fold(o) == fold(q) for o in el.option_names()):
            return el
    return None
