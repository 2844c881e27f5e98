"""A small DOM for the text backend: elements, text, and the live state of form controls.

The server's pages are well-formed HTML written by FastHTML, so libxml2's HTML parser (lxml)
builds the same element tree Chromium does, with two corrections made here: a ``<tr>`` that is
a direct child of a ``<table>`` gets the ``<tbody>`` Chromium inserts, and tags and attribute
names are lower case. Each element keeps what a browser keeps beside its attributes: the value
of a text field, whether a box is checked, which options are selected.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.html
from browsergym.core.constants import BROWSERGYM_ID_ATTRIBUTE as BID_ATTRIBUTE

_CHECKABLE = ("checkbox", "radio")
_CONTROL_TAGS = frozenset(("input", "textarea", "select", "option"))
_LEADING_NEWLINE_DROPPED = ("pre", "textarea", "listing")
_SVG_ATTRIBUTES = {
    name.lower(): name
    for name in """attributeName attributeType baseFrequency baseProfile calcMode clipPathUnits
    diffuseConstant edgeMode filterUnits glyphRef gradientTransform gradientUnits kernelMatrix
    kernelUnitLength keyPoints keySplines keyTimes lengthAdjust limitingConeAngle markerHeight
    markerUnits markerWidth maskContentUnits maskUnits numOctaves pathLength patternContentUnits
    patternTransform patternUnits pointsAtX pointsAtY pointsAtZ preserveAlpha preserveAspectRatio
    primitiveUnits refX refY repeatCount repeatDur requiredExtensions requiredFeatures
    specularConstant specularExponent spreadMethod startOffset stdDeviation stitchTiles
    surfaceScale systemLanguage tableValues targetX targetY textLength viewBox viewTarget
    xChannelSelector yChannelSelector zoomAndPan""".split()
}
_SVG_TAGS = {
    name.lower(): name
    for name in """clipPath feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix
    feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG
    feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight
    feSpecularLighting feSpotLight feTile feTurbulence foreignObject linearGradient radialGradient
    textPath""".split()
}


class Text:
    """A text node: its characters only (no link to its parent, so a text node is never part of
    a reference cycle; every reader walks down from an element)."""

    __slots__ = ("data",)

    def __init__(self, data: str) -> None:
        self.data = data


class Element:
    __slots__ = ("tag", "attrs", "children", "parent", "style", "value", "checked", "selected", "index", "svg")

    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.children: list[Element | Text] = []
        self.parent = parent
        self.style = None  # computed by css.compute_styles
        self.value: str | None = None  # live value of a text control
        self.checked = False
        self.selected = False
        self.index = 0  # document order
        self.svg = tag == "svg" or (parent is not None and parent.svg)  # in the SVG namespace

    @property
    def bid(self) -> str | None:
        return self.attrs.get(BID_ATTRIBUTE)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def has(self, name: str) -> bool:
        return name in self.attrs

    @property
    def input_type(self) -> str:
        if self.tag != "input":
            return ""
        t = (self.attrs.get("type") or "text").strip().lower()
        return t or "text"

    def iter(self):
        """This element and its descendant elements, in document order."""
        stack = [self]
        while stack:
            el = stack.pop()
            yield el
            stack.extend(c for c in reversed(el.children) if isinstance(c, Element))

    def ancestors(self):
        el = self.parent
        while el is not None:
            yield el
            el = el.parent

    def closest(self, tag: str) -> Element | None:
        el: Element | None = self
        while el is not None and el.tag != tag:
            el = el.parent
        return el

    def text_content(self) -> str:
        out: list[str] = []
        stack: list[Element | Text] = [self]
        while stack:
            node = stack.pop()
            if isinstance(node, Text):
                out.append(node.data)
            else:
                stack.extend(reversed(node.children))
        return "".join(out)

    def __repr__(self) -> str:
        return f"<{self.tag} bid={self.bid}>"


class Document:
    """A parsed page: its root element, elements by bid and by id, and what is focused."""

    def __init__(self, root: Element, url: str, elements: list[Element] | None = None) -> None:
        """``elements``: every element under ``root`` in document order, ``index`` set (as
        :func:`parse` makes them); else found here."""
        self.root = root
        self.url = url
        if elements is None:
            elements = list(root.iter())
            for i, el in enumerate(elements):
                el.index = i
        self.elements = elements
        self.by_bid: dict[str, Element] = {}
        self.by_id: dict[str, Element] = {}
        by_bid, by_id = self.by_bid, self.by_id
        styles: list[str] = []
        self.autofocus: Element | None = None
        # what actions change: the live state of these elements, the focus, the URL's fragment
        self.controls: list[Element] = []
        self.details: list[Element] = []
        for el in elements:  # one pass: ids, style text, controls (each control's state its own)
            attrs = el.attrs
            if attrs:
                bid = attrs.get(BID_ATTRIBUTE)
                if bid is not None and bid not in by_bid:
                    by_bid[bid] = el
                if "id" in attrs and attrs["id"] not in by_id:
                    by_id[attrs["id"]] = el
                if self.autofocus is None and "autofocus" in attrs:
                    self.autofocus = el
            tag = el.tag
            if tag in _CONTROL_TAGS:
                self.controls.append(el)
                if tag != "option":
                    init_control(el)
            elif tag == "style":
                styles.append(el.text_content())
            elif tag == "details":
                self.details.append(el)
        self.title = ""
        head = next((c for c in root.children if isinstance(c, Element) and c.tag == "head"), None)
        if head is not None:
            title = next((c for c in head.children if isinstance(c, Element) and c.tag == "title"), None)
            if title is not None:
                self.title = " ".join(title.text_content().split())
        self.stylesheet = "".join(styles)
        self.focused: Element | None = self.autofocus
        self._details_open = tuple(d.attrs.get("open") for d in self.details)
        self.styled_focus: Element | None = None  # the focus the styles were computed with
        self.observed: dict[tuple, Any] = {}  # live_state() -> what was observed in it
        self.source: tuple[str, int] | None = None  # (HTML, viewport width) it was parsed and styled from
        self.labels: dict[str, list[Element]] | None = None  # label elements by their ``for``, once asked

    def labels_for(self, id_: str) -> list[Element]:
        """The ``<label>`` elements whose ``for`` is ``id_``, in document order (no action
        changes a ``for``: the list is made once per page)."""
        if self.labels is None:
            self.labels = {}
            for el in self.elements:
                if el.tag == "label":
                    target = el.attrs.get("for")
                    if target is not None:
                        self.labels.setdefault(target, []).append(el)
        return self.labels.get(id_, [])

    def release(self) -> None:
        """For a page no tab shows any more: every element's ``parent`` link is cut, so that
        the tree (whose links up and down make cycles) is freed as soon as nothing holds it,
        by reference counting, instead of waiting for the garbage collector to find it."""
        for el in self.elements:
            el.parent = None

    def live_state(self) -> tuple:
        """Everything actions change on a parsed page (what the observation depends on beyond
        the HTML): the URL, the focus, the controls' values, checks and selections, and which
        ``<details>`` are open."""
        return (
            self.url,
            self.focused.index if self.focused is not None else -1,
            tuple((el.value, el.checked, el.selected) for el in self.controls),
            tuple(d.attrs.get("open") for d in self.details),
        )

    def restore(self, url: str) -> bool:
        """Back to the state the page was parsed in (what loading the same HTML at ``url``
        gives): controls as their attributes say, the autofocus element focused. False
        (nothing done) when an action changed an attribute (a ``<details>`` opened), which a
        fresh parse alone restores exactly."""
        if tuple(d.attrs.get("open") for d in self.details) != self._details_open:
            return False
        for el in self.controls:
            if el.tag != "option":
                init_control(el)
        self.focused = self.autofocus
        self.url = url
        return True


def init_control(el: Element) -> None:
    if el.tag == "input":
        if el.input_type in _CHECKABLE:
            el.checked = el.has("checked")
        el.value = el.attrs.get("value", "")
    elif el.tag == "textarea":
        el.value = el.text_content()
    elif el.tag == "select":
        options = [o for o in el.iter() if o.tag == "option"]
        chosen = [o for o in options if o.has("selected")]
        multiple = el.has("multiple")
        for o in options:
            o.selected = False
        if chosen:
            for o in chosen if multiple else chosen[-1:]:
                o.selected = True
        elif options and not multiple:
            enabled = next((o for o in options if not o.has("disabled")), options[0])
            enabled.selected = True


def option_value(option: Element) -> str:
    if option.has("value"):
        return option.attrs["value"]
    return " ".join(option.text_content().split())


# attributes libxml2's HTML parser fills with their own name when written bare (``checked``
# reads "checked"); the browser reads a bare attribute as "" (Chromium's DOM snapshot too)
_NAMED_BOOLEANS = ("checked", "compact", "declare", "defer", "disabled", "ismap", "multiple")
_NAMED_BOOLEANS += ("nohref", "noresize", "noshade", "nowrap", "readonly", "selected")


def parse(html: str, url: str) -> Document:
    tree = lxml.html.document_fromstring(html)
    elements: list[Element] = []
    return Document(_convert(tree, None, _Source(html), elements), url, elements)


_SPELLED = {n: re.compile(rf"{n}\s*=\s*[\"']?{n}\b") for n in _NAMED_BOOLEANS}
_NAMED = frozenset(_NAMED_BOOLEANS)


class _Source:
    """The HTML being converted: whether a named boolean reads "" (it is not spelled out
    anywhere in the page), asked only of an attribute the parser filled with its own name."""

    __slots__ = ("html", "lower", "spelled")

    def __init__(self, html: str) -> None:
        self.html = html
        self.lower: str | None = None
        self.spelled: dict[str, bool] = {}

    def bare(self, name: str) -> bool:
        spelled = self.spelled.get(name)
        if spelled is None:
            if self.lower is None:
                self.lower = self.html.lower()
            spelled = self.spelled[name] = _spelled_out(name, self.lower)
        return not spelled


def _spelled_out(name: str, lower: str) -> bool:
    """Whether ``lower`` has ``name="name"`` (quoted or not) with ``name`` starting a word: the
    search of ``\\bname\\s*=...`` with the word boundary checked by hand, so that the search
    runs on the pattern's leading letters (about 3x faster on a page of 25 kB)."""
    pattern, pos = _SPELLED[name], 0
    while (found := pattern.search(lower, pos)) is not None:
        start = found.start()
        if start == 0 or not (lower[start - 1].isalnum() or lower[start - 1] == "_"):
            return True
        pos = start + 1
    return False


def _convert(node, parent: Element | None, source: _Source, elements: list[Element]) -> Element:
    """``node`` and its subtree as :class:`Element` and :class:`Text` (one walk), each element
    appended to ``elements`` (document order) with its ``index``: the named booleans the
    parser filled with their own name read "" again unless the page spells one out."""
    tag = node.tag.lower()
    items = node.items()
    if items:
        attrs = {k.lower(): v for k, v in items}
        for k, v in attrs.items():
            if v == k and k in _NAMED and source.bare(k):
                attrs[k] = ""  # a value changed, no key added: the iteration goes on
    else:
        attrs = {}
    el = Element(tag, attrs, parent)
    el.index = len(elements)
    elements.append(el)
    if el.svg:  # the HTML parser gives SVG attributes and tags their camel case back
        el.attrs = {_SVG_ATTRIBUTES.get(k, k): v for k, v in el.attrs.items()}
        el.tag = _SVG_TAGS.get(tag, tag)
    kids = el.children
    text = node.text
    if text and el.tag in _LEADING_NEWLINE_DROPPED and text[0] == "\n":
        text = text[1:]  # the HTML parser drops a newline right after these start tags
    if text:
        kids.append(Text(text))
    table = el.tag == "table"
    for child in node:
        child_tag = child.tag
        if type(child_tag) is str:
            if table and child_tag.lower() == "tr":
                body = _tbody_for_row(el, elements)
                body.children.append(_convert(child, body, source, elements))
            else:
                kids.append(_convert(child, el, source, elements))
        tail = child.tail
        if tail:
            kids.append(Text(tail))
    return el


def _tbody_for_row(table: Element, elements: list[Element]) -> Element:
    """Chromium puts rows written directly in a table into a ``<tbody>`` (one per run of rows):
    the one a row of ``table`` goes into (made before the row, so it comes first in document
    order)."""
    last = table.children[-1] if table.children else None
    if isinstance(last, Element) and last.tag == "tbody" and last.attrs.get("__implied"):
        return last
    body = Element("tbody", {"__implied": "1"}, table)
    body.index = len(elements)
    elements.append(body)
    table.children.append(body)
    return body
