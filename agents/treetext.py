"""Shortening the accessibility-tree text to a character budget without losing a control.

Cutting the tree at the budget loses whatever comes last, and on dense pages that is what
an agent needs (the message box and Send button of a long chat, the event links of a full
month). :func:`shorten_tree` instead drops, in this order, until the text fits:

1. static text that only repeats the name of the element it sits in (a link named
   ``'Sam Taylor 18:05 Are you home?'`` followed by ``StaticText 'Sam Taylor'`` ...);
2. the host part of ``url='http://host:port/path'`` (the prompt names the page once);
3. the names of containers (table cells, rows) whose controls carry the same words;
4. the non-interactive lines of list items beyond the first ``list_window`` of a list
   (their links and buttons stay);
5. static text and other non-interactive lines far from any control: first those more than
   3 lines from the nearest control, then 2, 1, then all of them but headings;
6. the ``url=`` of links (they are clicked by their id);
7. only then, if the controls alone do not fit, the end of the text — the note says how many
   controls were lost.

Interactive elements (a ``[bid]`` with a role an agent acts on) are never dropped before
step 5. The returned note says what was dropped, for the model to read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .page import INTERACTIVE_ROLES

_LINE = re.compile(r"^(\t*)(?:\[([^\]]+)\] )?(\S+)(?: (['\"])(.*?)\4)?")
_URL_HOST = re.compile(r"url='https?://[^/']+(/[^']*)?'")
LIST_ROLES = {"list", "listbox", "table", "grid", "rowgroup", "feed", "tree", "menu", "tablist"}
KEEP_ROLES = {"RootWebArea", "heading", "dialog", "alertdialog", "alert", "form"}


@dataclass
class _Line:
    text: str
    depth: int
    bid: str | None
    role: str
    name: str
    keep: bool = True

    @property
    def interactive(self) -> bool:
        return self.bid is not None and self.role in INTERACTIVE_ROLES


def _parse(text: str) -> list[_Line]:
    out = []
    for raw in text.splitlines():
        m = _LINE.match(raw)
        if not m:
            out.append(_Line(raw, len(raw) - len(raw.lstrip("\t")), None, "", ""))
            continue
        out.append(_Line(raw, len(m.group(1)), m.group(2), m.group(3), m.group(5) or ""))
    return out


def _size(lines: list[_Line]) -> int:
    return sum(len(ln.text) + 1 for ln in lines if ln.keep)


def _drop_repeated_text(lines: list[_Line]) -> int:
    """Static text whose words are already in an enclosing element's name."""
    n = 0
    stack: list[_Line] = []
    for ln in lines:
        while stack and stack[-1].depth >= ln.depth:
            stack.pop()
        if ln.role == "StaticText" and ln.name and any(ln.name in a.name for a in stack if a.name):
            ln.keep = False
            n += 1
        stack.append(ln)
    return n


def _drop_container_names(lines: list[_Line]) -> int:
    """Blank the name of a non-interactive element (a table cell, a row) with controls inside:
    its name is the text of its children, which the prompt shows anyway."""
    n = 0
    for i, ln in enumerate(lines):
        if (
            ln.keep
            and not ln.interactive
            and ln.name
            and ln.role not in KEEP_ROLES
            and _has_kept_control_below(lines, i)
        ):
            quote = ln.text[ln.text.find(ln.role) + len(ln.role) + 1]
            ln.text = ln.text.replace(f"{quote}{ln.name}{quote}", "''", 1)
            n += 1
    return n


def _drop_long_lists(lines: list[_Line], window: int) -> int:
    """Non-interactive lines inside the items of a list beyond its first ``window`` items."""
    n = 0
    for i, ln in enumerate(lines):
        if ln.role not in LIST_ROLES:
            continue
        item_depth = ln.depth + 1
        items = 0
        for sub in lines[i + 1 :]:
            if sub.depth <= ln.depth:
                break
            if sub.depth == item_depth:
                items += 1
            if items > window and not sub.interactive and sub.keep:
                sub.keep = False
                n += 1
    return n


def _drop_far_text(lines: list[_Line], distance: int, limit: int) -> int:
    """Non-interactive lines more than ``distance`` lines from a control (headings, forms and
    containers of controls stay), from the end of the page backwards... until the text fits."""
    controls = [i for i, ln in enumerate(lines) if ln.interactive]
    if not controls:
        return 0
    nearest = [len(lines)] * len(lines)
    last = -(10**9)
    for i in range(len(lines)):
        if lines[i].interactive:
            last = i
        nearest[i] = i - last
    last = 10**9
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].interactive:
            last = i
        nearest[i] = min(nearest[i], last - i)
    n = 0
    size = _size(lines)
    for i, ln in enumerate(lines):
        if size <= limit:
            break
        if not ln.keep or ln.interactive or ln.role in KEEP_ROLES or nearest[i] <= distance:
            continue
        if ln.bid is not None and _has_kept_control_below(lines, i):
            continue  # a container of controls keeps the indentation readable
        ln.keep = False
        size -= len(ln.text) + 1
        n += 1
    return n


def _has_kept_control_below(lines: list[_Line], i: int) -> bool:
    depth = lines[i].depth
    for sub in lines[i + 1 :]:
        if sub.depth <= depth:
            return False
        if sub.interactive:
            return True
    return False


def shorten_tree(text: str, limit: int, list_window: int = 10) -> tuple[str, str]:
    """``text`` fitted into ``limit`` characters, and a note on what was dropped ("" if nothing).

    ``limit`` 0 means no limit.
    """
    if not limit or len(text) <= limit:
        return text, ""
    lines = _parse(text)
    done: list[str] = []
    n = _drop_repeated_text(lines)
    if n:
        done.append(f"{n} static texts that repeat their element's name")
    if _size(lines) > limit:
        for ln in lines:
            ln.text = _URL_HOST.sub(lambda m: f"url='{m.group(1) or '/'}'", ln.text)
        done.append("the host of every url (paths stay)")
    if _size(lines) > limit:
        n = _drop_container_names(lines)
        if n:
            done.append(f"the names of {n} containers whose controls carry the same words")
    if _size(lines) > limit:
        n = _drop_long_lists(lines, list_window)
        if n:
            done.append(f"{n} text lines of list items after the first {list_window} of a list (their controls stay)")
    for distance in (3, 2, 1, 0):
        if _size(lines) <= limit:
            break
        n = _drop_far_text(lines, distance, limit)
        if n:
            done.append(f"{n} text lines more than {distance} lines away from any control")
    if _size(lines) > limit:
        for ln in lines:
            ln.text = re.sub(r", url='[^']*'", "", ln.text)
        done.append("every url (links are clicked by their id)")
    kept = [ln for ln in lines if ln.keep]
    out = "\n".join(ln.text for ln in kept)
    if len(out) > limit:
        cut = out[:limit]
        lost = sum(1 for ln in kept if ln.interactive and f"[{ln.bid}]" not in cut)
        out = cut
        done.append(f"the end of the page, with {lost} elements you could act on")
    note = "(shortened to fit the prompt: dropped " + "; ".join(done) + ")"
    return out, note
