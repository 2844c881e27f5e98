"""Accessible names as Chromium computes them, and text as it renders.

The order is the accessible name computation's: ``aria-labelledby``, ``aria-label``, the
host language's label (``<label>``, ``alt``, an svg's ``<title>``, a button's ``value``,
a table's ``<caption>``, a fieldset's ``<legend>``), the element's contents for roles named
by their contents, then ``title`` and a field's ``placeholder``. Text from contents is the
rendered text: collapsed white space (unless ``white-space`` keeps it), ``text-transform``
applied, and a space between pieces that sit in different boxes (block-level or
inline-block children), none between inline pieces.
"""

from __future__ import annotations

import re
from functools import lru_cache

from openapps_sim.envs.text.dom import Document, Element, Text
from openapps_sim.envs.text.roles import NAME_FROM_CONTENTS, control_value, role_of

# containers Chromium does not read into a name from contents (a cell holding a delete form is
# named by its link alone)
_SKIPPED_IN_NAMES = frozenset({"form", "nav", "main", "header", "footer", "aside", "search", "navigation", "banner"})
_WS = re.compile(r"[ \t\n\r\f]+")


def collapse(text: str, keep: bool = False) -> str:
    return text if keep else _WS.sub(" ", text).strip()


def transform(text: str, how: str) -> str:
    if how == "uppercase":
        return text.upper()
    if how == "lowercase":
        return text.lower()
    if how == "capitalize":
        return re.sub(r"(^|\s)(\S)", lambda m: m.group(1) + m.group(2).upper(), text)
    return text


def rendered_text(data: str, style) -> str:
    """A text node's text as Chromium's ``StaticText`` names it."""
    ws = style.white_space if style is not None else "normal"
    if ws in ("pre", "pre-wrap", "break-spaces"):
        text = data
    elif ws == "pre-line":
        text = "\n".join(_WS.sub(" ", line).strip() for line in data.split("\n"))
    else:
        text = _collapsed(data) if len(data) <= _SHORT else _WS.sub(" ", data)
    return transform(text, style.text_transform if style is not None else "none")


_SHORT = 200  # texts this short (indentation, labels: the same on many pages) are collapsed once


@lru_cache(maxsize=8192)  # at most about 8192 x 2 short strings
def _collapsed(data: str) -> str:
    return _WS.sub(" ", data)


def accessible_name(el: Element, role: str, doc: Document) -> str:
    labelled = el.attrs.get("aria-labelledby")
    if labelled:
        parts = [_subtree_text(doc.by_id[i], doc, set()) for i in labelled.split() if i in doc.by_id]
        name = collapse(" ".join(p for p in parts if p))
        if name:
            return name
    label = el.attrs.get("aria-label")
    if label and label.strip():
        return collapse(label)
    native = _native_label(el, role, doc)
    if native:
        return native
    if role in NAME_FROM_CONTENTS:
        name = collapse(_contents(el, doc, {id(el)}))
        if name:
            return name
    title = el.attrs.get("title")
    if title and title.strip():
        return collapse(title)
    if el.tag in ("input", "textarea"):
        placeholder = el.attrs.get("placeholder")
        if placeholder and placeholder.strip():
            return collapse(placeholder)
    return ""


def _native_label(el: Element, role: str, doc: Document) -> str:
    tag = el.tag
    if tag in ("input", "textarea", "select") and el.input_type not in ("submit", "reset", "button", "image"):
        texts = []
        if el.attrs.get("id"):
            for lab in doc.labels_for(el.attrs["id"]):
                texts.append(_label_text(lab, el, doc))
        wrapper = next((a for a in el.ancestors() if a.tag == "label"), None)
        if wrapper is not None and not wrapper.attrs.get("for"):
            texts.append(_label_text(wrapper, el, doc))
        return collapse(" ".join(t for t in texts if t))
    if tag == "input":
        kind = el.input_type
        if kind in ("submit", "reset", "button"):
            if "value" in el.attrs:
                return collapse(el.attrs.get("value"))
            return {"submit": "Submit", "reset": "Reset"}.get(kind, "")
        if kind == "image":
            return collapse(el.attrs.get("alt") or el.attrs.get("value") or "") or "Submit"
    if tag == "img":
        return collapse(el.attrs.get("alt") or "")
    if tag in ("svg", "g") or el.parent is not None and el.parent.tag == "svg" and tag == "a":
        title = next((c for c in el.children if isinstance(c, Element) and c.tag == "title"), None)
        if title is not None:
            return collapse(title.text_content())
    if tag == "table":
        caption = next((c for c in el.children if isinstance(c, Element) and c.tag == "caption"), None)
        if caption is not None:
            return collapse(_contents(caption, doc, set()))
    if tag == "fieldset":
        legend = next((c for c in el.children if isinstance(c, Element) and c.tag == "legend"), None)
        if legend is not None:
            return collapse(_contents(legend, doc, set()))
    return ""


def _label_text(label: Element, control: Element, doc: Document) -> str:
    return _contents(label, doc, {id(control)}, control=control)


def _subtree_text(el: Element, doc: Document, seen: set) -> str:
    label = el.attrs.get("aria-label")
    if label and label.strip():
        return label
    return _contents(el, doc, seen)


def _hidden(el: Element) -> bool:
    style = el.style
    return style is None or style.display == "none" or el.attrs.get("aria-hidden") == "true" or "inert" in el.attrs


def _contents(el: Element, doc: Document, seen: set, control: Element | None = None) -> str:
    out: list[str] = []
    for child in el.children:
        if isinstance(child, Text):
            out.append(rendered_text(child.data, el.style))
            continue
        if id(child) in seen or _hidden(child) or child.tag in ("title", "desc", "style", "script"):
            continue
        if child.style.visibility in ("hidden", "collapse"):
            continue
        seen.add(id(child))
        if _SKIPPED_IN_NAMES.intersection((child.tag, child.attrs.get("role") or "")):
            continue
        piece = _child_text(child, doc, seen)
        if not child.style.inline:
            piece = f" {piece} "
        out.append(piece)
    return "".join(out)


def _child_text(child: Element, doc: Document, seen: set) -> str:
    label = child.attrs.get("aria-label")
    if label and label.strip():
        return label
    if child.tag in ("input", "textarea", "select"):
        role = role_of(child, doc) or ""
        if child.tag == "input" and child.input_type in ("submit", "reset", "button", "image"):
            return _native_label(child, role, doc)
        return control_value(child, role)
    if child.tag in ("img", "svg"):
        return _native_label(child, "", doc)
    text = _contents(child, doc, seen)
    if not text.strip() and child.attrs.get("title"):
        return child.attrs.get("title")
    return text
