"""fastcore's ``to_xml``, the same bytes, written faster.

A page's HTML was about a tenth of a new page's text step in fastcore's ``_to_xml``: a call, a
generator and a string concatenation per node, ``hasattr(node, "__ft__")`` through ``FT``'s
``__getattr__``, and a ``_to_attr`` call per attribute. :func:`to_xml` here walks the tree once
into one list of strings, with the cases our pages have (``FT`` nodes, tuples, ``str``, ``int``,
``float``, ``None``, a ``NotStr`` of a ``str``; string, ``True`` and ``int`` attribute values) written out inline, and hands
any other node or attribute value to fastcore's own function for it, so what it writes is
fastcore's in every case: block tags on lines of their own indented by two per level, no indent
inside ``pre``/``code``/``script``/``textarea`` or an editable element, a lone text child on the
tag's line. tests/test_serialize.py compares it with fastcore's ``to_xml`` on real pages.
"""

from __future__ import annotations

from typing import Any

from fastcore import xml as _xml
from fastcore.foundation import L

from openapps_sim.web.bids import mark_bids, mark_piece, tag_kind

FT, NotStr, Safe = _xml.FT, _xml.NotStr, _xml.Safe
_BLOCK = frozenset(_xml._block_tags)
_NO_INDENT = frozenset(_xml._ws_significant)
_LISTY = (list, tuple, L, FT)


def _escape(s: str) -> str:
    """``html.escape(s, quote=False)``, with the common case (nothing to escape) first."""
    if "&" in s:
        s = s.replace("&", "&amp;")
    if "<" in s:
        s = s.replace("<", "&lt;")
    if ">" in s:
        s = s.replace(">", "&gt;")
    return s


def _attrs(attrs: dict) -> str:
    """fastcore's attribute text: ``' '.join(_to_attr(k, v) ...)`` over the attributes it writes."""
    parts = []
    for k, v in attrs.items():
        if v is None or v is False or (k[-1] == "_" and k != "_"):
            continue
        t = type(v)
        if t is str:
            if "&" in v or "<" in v or ">" in v:
                v = _escape(v)
        elif v is True:
            parts.append(str(k))
            continue
        elif t is int:
            v = str(v)
        else:
            parts.append(_xml._to_attr(k, v))
            continue
        if '"' in v:
            parts.append(f"{k}='{v.replace(chr(39), '&#39;')}'")
        else:
            parts.append(f'{k}="{v}"')
    return " ".join(parts)


def _node(elm: Any, lvl: int, indent: bool, out: list, marks: list | None = None) -> None:
    """fastcore's ``_to_xml(elm, lvl, indent)`` appended to ``out`` (with ``marks``: the element
    ids :func:`marked_xml` writes, ``marks[0]`` the next one)."""
    t = type(elm)
    if t is FT:
        _ft(elm, lvl, indent, out, marks)
    elif t is str:
        out.append(_escape(elm))
    elif t is tuple:
        for o in elm:
            _node(o, lvl, indent, out, marks)
    elif elm is None:
        pass
    elif t is int or t is float:
        out.append(str(elm))
    else:
        out.append(_chunk(_xml._to_xml(elm, lvl=lvl, indent=indent), marks))


def _ft(elm: FT, lvl: int, indent: bool, out: list, marks: list | None = None) -> None:
    tag, cs, attrs = elm.tag, elm.children, elm.attrs
    void = elm.void_
    if indent and (tag in _NO_INDENT or attrs.get("contenteditable") == "true"):
        indent = False
    sp, nl = (" " * lvl, "\n") if indent and tag in _BLOCK else ("", "")
    stag = tag
    if marks is not None:
        stag = _marked_tag(tag, cs, void, marks)
    if attrs:
        sattrs = _attrs(attrs)
        if sattrs:
            if marks is not None and "<" in sattrs:
                raise _Unsure
            stag = f"{stag} {sattrs}"
    stag_ = f"<{stag}>" if stag else ""
    cltag = "" if void else f"</{tag}>"
    if not cs:
        out.append(f"{sp}{stag_}{nl}" if void else f"{sp}{stag_}{cltag}{nl}")
        return
    if len(cs) == 1:
        c = cs[0]
        t = type(c)
        if t is str:
            out.append(f"{sp}{stag_}{_escape(c)}{cltag}{nl}")
            return
        if t is NotStr and type(c.s) is str:  # written as it is (fastcore: ``f"{c}"``, its ``s``)
            out.append(f"{sp}{stag_}{_chunk(c.s, marks)}{cltag}{nl}")
            return
        if t is not FT and not isinstance(c, _LISTY) and not hasattr(c, "__ft__"):
            out.append(f"{sp}{stag_}{_chunk(_xml._escape(c), marks)}{cltag}{nl}")
            return
    out.append(f"{sp}{stag_}{nl}")
    inner = lvl + 2 if indent else 0
    for c in cs:
        t = type(c)
        if t is FT:
            _ft(c, inner, indent, out, marks)
        elif t is str:
            out.append(_escape(c))
        elif t is NotStr and type(c.s) is str:
            out.append(_chunk(c.s, marks))
        else:
            _node(c, inner, indent, out, marks)
    if not void:
        out.append(f"{sp}{cltag}{nl}")


def _top(elm: Any, lvl: int, indent: bool) -> str:
    """What fastcore's ``to_xml`` writes of one of its arguments."""
    if isinstance(elm, (list, tuple, L, FT)) or hasattr(elm, "__ft__"):
        if type(elm) is list or hasattr(elm, "__ft__"):
            return _xml._to_xml(elm, lvl=lvl, indent=indent)
        out: list = []
        _node(elm, lvl, indent, out)
        return "".join(out)
    if isinstance(elm, bytes):
        return elm.decode("utf-8")
    return elm or ""


def to_xml(*elms: Any, lvl: int = 0, indent: bool = True, do_escape: bool = True) -> Safe:
    """``fastcore.xml.to_xml(*elms, lvl=lvl, indent=indent, do_escape=do_escape)``."""
    if not do_escape:
        return _xml.to_xml(*elms, lvl=lvl, indent=indent, do_escape=do_escape)
    return Safe("\n".join([_top(e, lvl, indent) for e in elms]))


class _Unsure(Exception):
    """A page :func:`marked_xml` cannot mark as :func:`~openapps_sim.web.bids.mark_bids` would
    while writing it (markup inside a raw-text element, a comment or a tag cut by a piece)."""


def marked_xml(elm: Any) -> str:
    """``mark_bids(to_xml(elm))``, the ids written with the tags (no second pass over the
    text): a tag :func:`~openapps_sim.web.bids.mark_bids` counts gets the next id right after
    its name; a piece of markup written as it is (a ``NotStr``) is marked as ``mark_bids``
    marks it, when it is whole in itself (its comments and raw-text elements closed inside it,
    no tag cut at its end); else the page is written, then marked."""
    marks = [0]
    out: list = []
    try:
        _node(elm, 0, True, out, marks)
    except _Unsure:
        return mark_bids(to_xml(elm))
    html = "".join(out)
    if "\u0130" in html:  # its lower case is two characters: mark_bids's offsets shift past it
        return mark_bids(to_xml(elm))
    return html


def _marked_tag(tag: str, children: tuple, void: bool, marks: list) -> str:
    """The start tag's name, with the next id when ``mark_bids`` counts it."""
    kind = _TAG_KINDS.get(tag)
    if kind is None:
        kind = tag_kind(tag)
        if len(_TAG_KINDS) < 1024:
            _TAG_KINDS[tag] = kind
    if kind == 0:
        return tag
    if kind == 2 or (kind == 3 and (void or not all(_plain_text(c) for c in children))):
        raise _Unsure  # mark_bids reads a raw-text element's content as text, to its end tag
    n = marks[0]
    marks[0] = n + 1
    return f'{tag} bid="{n}"'


_TAG_KINDS: dict[str, int] = {}  # tag -> 0: not counted, 1: counted, 2: unsure, 3: counted, raw text


def _plain_text(c: Any) -> bool:
    """``c`` is written as text with no markup in it."""
    t = type(c)
    return (t is str or (t is NotStr and type(c.s) is str)) and "<" not in str(c)


def _chunk(text: str, marks: list | None) -> str:
    """``text`` (markup written as it is), marked from id ``marks[0]`` on when it is whole."""
    if marks is None or "<" not in text:
        return text
    marked, marks[0], whole = mark_piece(text, marks[0])
    if not whole:
        raise _Unsure
    return marked
