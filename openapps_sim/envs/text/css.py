"""The part of CSS the accessibility tree depends on, computed without a layout engine.

Chromium's accessibility tree changes with a handful of computed properties: ``display``
(``none`` removes a subtree; block or inline decides which containers are kept and where
names get spaces), ``visibility``, ``text-transform`` (names read transformed text),
``white-space`` (how text collapses) and ``list-style-type`` (list markers). This module
parses a style sheet once (cached by its text), keeps the rules that set those properties or a
custom property, with their media queries (against the viewport width), specificity and source
order, and matches selectors; :mod:`~openapps_sim.envs.text.cascade` computes the properties per
element (cascade, inheritance and ``var()``).

Selectors: type, ``*``, ``.class``, ``#id``, attributes, ``:root``, ``:first-child``,
``:last-child``, ``:not(<compound>)``, ``:focus``, descendant, child and sibling combinators;
``:hover``/``:active`` never match (no pointer); anything else never matches (:data:`UNSUPPORTED`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from openapps_sim.envs.text.dom import Element

PROPERTIES = ("display", "visibility", "text-transform", "white-space", "list-style-type")
INHERITED = ("visibility", "text-transform", "white-space", "list-style-type")
UNSUPPORTED: Counter = Counter()
UA_DISPLAY = {
    **dict.fromkeys(
        "html body div p ul ol dl dd dt h1 h2 h3 h4 h5 h6 form header footer main nav section aside article "
        "pre blockquote figure figcaption fieldset legend details summary address hr hgroup search menu".split(),
        "block",
    ),
    **dict.fromkeys("head style script title meta link template base noscript datalist".split(), "none"),
    "li": "list-item",
    "table": "table",
    "tr": "table-row",
    "td": "table-cell",
    "th": "table-cell",
    "thead": "table-header-group",
    "tbody": "table-row-group",
    "tfoot": "table-footer-group",
    "caption": "table-caption",
    **dict.fromkeys("button input select textarea img svg meter progress video canvas".split(), "inline-block"),
}
FLEX_OR_GRID = ("flex", "inline-flex", "grid", "inline-grid")
# the children of a flex or grid container are block-level (CSS Display: "blockification")
BLOCKIFIED = {
    "inline": "block",
    "inline-block": "block",
    "inline-flex": "flex",
    "inline-grid": "grid",
    "contents": "contents",
}
UA_DEFAULTS = {"visibility": "visible", "text-transform": "none", "white-space": "normal", "list-style-type": "disc"}


@dataclass
class Style:
    display: str = "inline"
    visibility: str = "visible"
    text_transform: str = "none"
    white_space: str = "normal"
    list_style_type: str = "disc"

    @property
    def inline(self) -> bool:
        return self.display in ("inline", "contents")


# -- parsing -------------------------------------------------------------------------------------
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_SIMPLE = re.compile(
    r"(?P<tag>\*|[a-zA-Z][\w-]*)|\.(?P<cls>[\w-]+)|#(?P<id>[\w-]+)"
    r"|\[(?P<attr>[\w-]+)\s*(?:(?P<op>[~|^$*]?=)\s*(?P<val>\"[^\"]*\"|'[^']*'|[^\]\s]+))?\s*\]"
    r"|::?(?P<pseudo>[\w-]+)(?:\((?P<arg>[^)]*)\))?"
)


@dataclass
class Compound:
    tag: str | None
    ids: tuple
    classes: tuple
    attrs: tuple  # (name, op, value)
    pseudos: tuple  # (name, arg)
    ok: bool = True  # False: uses something unsupported, never matches


@dataclass
class Rule:
    parts: list  # [(combinator, Compound)], rightmost last; combinator of the first is ""
    specificity: tuple
    order: int
    decls: dict


def _compound(text: str) -> tuple[Compound, tuple[int, int, int]]:
    tag = None
    ids: list = []
    classes: list = []
    attrs: list = []
    pseudos: list = []
    ok = True
    pos = 0
    a = b = c = 0
    while pos < len(text):
        m = _SIMPLE.match(text, pos)
        if not m:
            ok = False
            break
        pos = m.end()
        if m.group("tag"):
            if m.group("tag") != "*":
                tag = m.group("tag").lower()
                c += 1
        elif m.group("cls"):
            classes.append(m.group("cls"))
            b += 1
        elif m.group("id"):
            ids.append(m.group("id"))
            a += 1
        elif m.group("attr"):
            val = m.group("val")
            if val and val[0] in "\"'":
                val = val[1:-1]
            attrs.append((m.group("attr").lower(), m.group("op"), val))
            b += 1
        else:
            name, arg = m.group("pseudo").lower(), m.group("arg")
            if (
                name in ("before", "after", "marker", "placeholder", "selection")
                or text[m.start() : m.start() + 2] == "::"
            ):
                ok = False  # a pseudo-element: no element of the tree matches it
            elif name not in ("root", "first-child", "last-child", "not", "focus", "hover", "active", "focus-visible"):
                UNSUPPORTED[name] += 1
                ok = False
            pseudos.append((name, arg))
            b += 1
    return Compound(tag, tuple(ids), tuple(classes), tuple(attrs), tuple(pseudos), ok), (a, b, c)


def _selector(text: str) -> tuple[list, tuple] | None:
    tokens = re.split(r"\s*([>+~])\s*|\s+", text.strip())
    parts = []
    spec = [0, 0, 0]
    combinator = ""
    for tok in tokens:
        if tok is None or tok == "":
            continue
        if tok in (">", "+", "~"):
            combinator = tok
            continue
        comp, s = _compound(tok)
        spec = [spec[i] + s[i] for i in range(3)]
        parts.append((combinator or (" " if parts else ""), comp))
        combinator = ""
    if not parts:
        return None
    return parts, tuple(spec)


def declarations(body: str) -> dict:
    out = {}
    for decl in body.split(";"):
        name, sep, value = decl.partition(":")
        name = name.strip().lower()
        if not sep:
            continue
        if name in PROPERTIES or name.startswith("--"):
            out[name] = value.replace("!important", "").strip()
        elif name == "list-style":
            kinds = [v for v in value.split() if v not in ("inside", "outside") and not v.startswith("url(")]
            if kinds:
                out["list-style-type"] = kinds[0]
    return out


def _blocks(css: str):
    """(prelude, body) for every top-level block, recursing into ``@media`` with its condition."""
    i, n = 0, len(css)
    while i < n:
        brace = css.find("{", i)
        if brace < 0:
            return
        prelude = css[i:brace].strip()
        depth, j = 1, brace + 1
        while j < n and depth:
            if css[j] == "{":
                depth += 1
            elif css[j] == "}":
                depth -= 1
            j += 1
        yield prelude, css[brace + 1 : j - 1]
        i = j


class StyleSheet:
    def __init__(self, css: str) -> None:
        self.rules: list[tuple[str | None, Rule]] = []  # (media condition, rule)
        order = 0
        for media, prelude, body in self._flat(_COMMENT.sub("", css), None):
            decls = declarations(body)
            if not decls:
                continue
            for sel in prelude.split(","):
                parsed = _selector(sel)
                if parsed is None:
                    continue
                parts, spec = parsed
                order += 1
                self.rules.append((media, Rule(parts, spec, order, decls)))
        pseudos = [f"{n}({a})" for _, rule in self.rules for _, comp in rule.parts for n, a in comp.pseudos]
        self.reads_focus = any("focus" in p for p in pseudos)  # else a focus change changes no style

    def _flat(self, css: str, media: str | None):
        for prelude, body in _blocks(css):
            if prelude.startswith("@media"):
                yield from self._flat(body, prelude[6:].strip())
            elif prelude.startswith("@"):
                continue
            else:
                yield media, prelude, body

    @lru_cache(maxsize=8)  # noqa: B019 - sheets live in the module cache below
    def active(self, width: int) -> tuple[dict, list]:
        """Rules that apply at this viewport width, indexed by their rightmost compound's key."""
        index: dict = {}
        universal: list = []
        for media, rule in self.rules:
            if media is not None and not media_matches(media, width):
                continue
            last = rule.parts[-1][1]
            if not last.ok:
                continue
            if last.ids:
                index.setdefault(("#", last.ids[0]), []).append(rule)
            elif last.classes:
                index.setdefault((".", last.classes[0]), []).append(rule)
            elif last.tag:
                index.setdefault(("t", last.tag), []).append(rule)
            else:
                universal.append(rule)
        return index, universal


_MEDIA_WIDTH = re.compile(r"\(\s*(min|max)-width\s*:\s*([\d.]+)px\s*\)")


def media_matches(condition: str, width: int) -> bool:
    cond = condition.strip().lower()
    if cond.startswith("screen and"):
        cond = cond[len("screen and") :]
    if cond in ("screen", "all"):
        return True
    tests = _MEDIA_WIDTH.findall(cond)
    rest = _MEDIA_WIDTH.sub("", cond).replace("and", "").strip()
    if not tests or rest:
        return False  # print, prefers-*: not this page
    return all((width >= float(v)) if k == "min" else (width <= float(v)) for k, v in tests)


@lru_cache(maxsize=64)
def stylesheet(css: str) -> StyleSheet:
    return StyleSheet(css)


# -- matching -------------------------------------------------------------------------------------
def matches_compound(el: Element, comp: Compound, focused: Element | None) -> bool:
    if comp.tag is not None and el.tag != comp.tag:
        return False
    if comp.ids and el.attrs.get("id") not in comp.ids:
        return False
    if comp.classes:
        have = el.attrs.get("class", "").split()
        if any(c not in have for c in comp.classes):
            return False
    for name, op, val in comp.attrs:
        got = el.attrs.get(name)
        if got is None or not _attr_ok(got, op, val):
            return False
    for name, arg in comp.pseudos:
        if not _pseudo_ok(el, name, arg, focused):
            return False
    return True


def _attr_ok(got: str, op: str | None, val: str | None) -> bool:
    if op is None:
        return True
    if op == "=":
        return got == val
    if op == "~=":
        return val in got.split()
    if op == "^=":
        return got.startswith(val)
    if op == "$=":
        return got.endswith(val)
    if op == "*=":
        return val in got
    return got == val or got.startswith(val + "-")


def _siblings(el: Element) -> list[Element]:
    return [c for c in el.parent.children if isinstance(c, Element)] if el.parent else [el]


def _pseudo_ok(el: Element, name: str, arg: str | None, focused: Element | None) -> bool:
    if name == "root":
        return el.parent is None
    if name == "first-child":
        return _siblings(el)[0] is el
    if name == "last-child":
        return _siblings(el)[-1] is el
    if name in ("focus", "focus-visible"):
        return el is focused
    if name == "not":
        comp, _ = _compound(arg or "")
        return comp.ok and not matches_compound(el, comp, focused)
    return False  # hover, active


def matches(el: Element, parts: list, focused: Element | None) -> bool:
    comb, comp = parts[-1]
    if not matches_compound(el, comp, focused):
        return False
    if len(parts) == 1:
        return True
    rest = parts[:-1]
    if comb == ">":
        return el.parent is not None and matches(el.parent, rest, focused)
    if comb == " ":
        return any(matches(a, rest, focused) for a in el.ancestors())
    sibs = _siblings(el)
    i = sibs.index(el)
    if comb == "+":
        return i > 0 and matches(sibs[i - 1], rest, focused)
    return any(matches(s, rest, focused) for s in sibs[:i])
