"""Chromium's accessibility tree for a parsed page, without Chromium.

:func:`build` turns a :class:`~openapps_sim.envs.text.dom.Document` (with styles computed by
:mod:`~openapps_sim.envs.text.css`) into the dict ``Accessibility.getFullAXTree`` returns, as
the Chromium backend shows it (:mod:`openapps_sim.envs.pagetree`): the same roles, names,
values, states and order, ``browsergym_id`` from the server's ids, ``InlineTextBox`` nodes
left out. Ignored nodes are left out too — their children hang from the nearest kept
ancestor — so ``flatten_axtree_to_str`` (which prints no ignored node) reads the same text.

The rules are Chromium's for the HTML our apps write (HTML-AAM roles, the accessible name
computation, Chromium's choice of which generic containers to keep); the parity check
(``openapps parity``, ``tests/test_text_parity.py``) compares them with Chromium's tree page by
page and lists every difference.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urljoin, urlsplit

from openapps_sim.envs.text.dom import Document, Element, Text
from openapps_sim.envs.text.names import accessible_name, collapse, rendered_text
from openapps_sim.envs.text.roles import (
    control_value,
    is_focusable,
    role_of,
)
from openapps_sim.envs.text.widgets import date_fields, number_field, prop, time_fields


class _Builder:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.nodes: list[dict] = []
        self.counter = 0

    def node(self, role: str, parent: dict | None, name: str | None, *, internal: bool = False, el=None) -> dict:
        self.counter += 1
        node = {
            "nodeId": str(self.counter),
            "ignored": False,
            "role": {"type": "internalRole" if internal else "role", "value": role},
            "childIds": [],
        }
        if name is not None:
            node["name"] = {"type": "computedString", "value": name}
        node["properties"] = []
        if parent is not None:
            node["parentId"] = parent["nodeId"]
            parent["childIds"].append(node["nodeId"])
        if el is not None:
            node["backendDOMNodeId"] = el.index + 1
            if el.bid is not None:
                node["browsergym_id"] = el.bid
        self.nodes.append(node)
        return node


def build(doc: Document) -> dict:
    b = _Builder(doc)
    root = b.node("RootWebArea", None, doc.title, internal=True)
    prop(root, "focusable", "booleanOrUndefined", True)
    prop(root, "focused", "booleanOrUndefined", True)  # the document has the focus, whatever element has it
    prop(root, "url", "string", doc.url)
    _children(b, doc.root, root, 0)
    return {"nodes": b.nodes}


def _children(b: _Builder, el: Element, parent: dict, list_level: int) -> None:
    for child in el.children:
        if isinstance(child, Text):
            text = rendered_text(child.data, el.style).strip()
            if text:
                b.node("StaticText", parent, text, internal=True)
        else:
            _element(b, child, parent, list_level)


def _element(b: _Builder, el: Element, parent: dict, list_level: int) -> None:
    style = el.style
    if style is None or style.display == "none" or el.attrs.get("aria-hidden") == "true" or "inert" in el.attrs:
        return  # not rendered, hidden from assistive technology, or inert (under a modal)
    if el.tag in ("title", "desc") and el.parent is not None and el.parent.tag != "head":
        return  # an svg's title names its parent; it is not content
    if style.visibility in ("hidden", "collapse"):
        _children(b, el, parent, list_level)  # a visible descendant still shows
        return
    role = role_of(el, b.doc)
    if role == "LabelText" and _labels_a_check(el, b.doc):
        # Chromium drops a checkbox's or radio's label with its text (the text is the control's
        # name); a control inside the label stays
        for child in el.children:
            if not isinstance(child, Text):
                _element(b, child, parent, list_level)
        return
    if role is None:  # ignored: its content joins the parent
        _children(b, el, parent, list_level)
        return
    internal = role in INTERNAL_ROLES
    name = accessible_name(el, role, b.doc)
    node = b.node(role, parent, name, internal=internal, el=el)
    _properties(node, el, role, b.doc, list_level)
    value = control_value(el, role)
    if value and role != "spinbutton":
        node["value"] = {"type": "string", "value": value}
    if role in ("list", "DescriptionList"):
        list_level += 1
    if role == "listitem" and style.display == "list-item" and style.list_style_type not in ("none", ""):
        marker = _marker(el, style.list_style_type)
        if marker:
            m = b.node("ListMarker", node, marker, internal=True)
            b.node("StaticText", m, marker, internal=True)
    if role in ("textbox", "searchbox"):
        _text_control(b, el, node)
        return
    if role == "combobox" and el.tag == "select":
        _select_popup(b, el, node)
        return
    if role == "Date":
        date_fields(b, el, node, b.doc.focused is el)
    elif role == "InputTime":
        time_fields(b, el, node, b.doc.focused is el)
    elif role == "spinbutton" and el.tag == "input":
        number_field(b, el, node)
    if el.tag == "input":
        return
    _children(b, el, node, list_level)


@lru_cache(maxsize=4096)
def _join(base: str, href: str) -> str:
    """``urljoin(base, href)``; an absolute path on an http(s) page is the page's origin and the path."""
    if _PLAIN_PATH.fullmatch(href) is not None:
        origin = _origin(base)
        if origin is not None:
            path, _, query = href.partition("?")
            return origin + path + ("?" + query if query else "")
    return urljoin(base, href)


# an absolute path with no dot, ``;`` or fragment, and a query (urljoin keeps both as they are)
_PLAIN_PATH = re.compile(r"/(?!/)[A-Za-z0-9\-_~%!$&'()*+,=:@/]*(\?[!-\"$-~]*)?")


@lru_cache(maxsize=64)
def _origin(base: str) -> str | None:
    """``http://host`` of an http(s) URL whose host is plain, else None."""
    parts = urlsplit(base)
    plain = parts.scheme in ("http", "https") and _PLAIN_HOST.fullmatch(parts.netloc) is not None
    return f"{parts.scheme}://{parts.netloc}" if plain and base.startswith(f"{parts.scheme}://{parts.netloc}") else None


_PLAIN_HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]+)?")


INTERNAL_ROLES = {"LabelText", "DescriptionList", "Date", "InputTime", "StaticText", "ListMarker"}


def _labels_a_check(label: Element, doc: Document) -> bool:
    """Whether ``label``'s control (its ``for`` target, else the first control inside it) is a
    checkbox or a radio button."""
    target = label.attrs.get("for")
    if target is not None:
        control = doc.by_id.get(target)
    else:
        control = next((d for d in label.iter() if d.tag in ("input", "select", "textarea", "button")), None)
    return control is not None and control.tag == "input" and control.input_type in ("checkbox", "radio")


_INVALID_ROLES = frozenset(("button", "textbox", "searchbox", "checkbox", "radio", "combobox", "Date", "InputTime"))
_INVALID_ROLES |= {"spinbutton"}
_LIVE = {"alert": "assertive", "status": "polite", "log": "polite"}
_DISABLEABLE = ("button", "input", "select", "textarea", "option", "fieldset")
# the roles some property below depends on; any other role gets only focus, disabled, describedby
_ROLES_WITH_PROPERTIES = _INVALID_ROLES | {"listbox", "tablist", "heading", "listitem", "columnheader", "rowheader"}
_ROLES_WITH_PROPERTIES |= {"link", "alertdialog", "dialog"} | set(_LIVE)


def _plain_properties(node: dict, el: Element, focusable: bool, doc: Document) -> None:
    """:func:`_properties` of a role none of its role-specific properties reads: the same
    properties, in the same order."""
    if focusable:
        prop(node, "focusable", "booleanOrUndefined", True)
        if doc.focused is el:
            prop(node, "focused", "booleanOrUndefined", True)
    attrs = el.attrs
    if "disabled" in attrs and el.tag in _DISABLEABLE:
        prop(node, "disabled", "boolean", True)
    described = attrs.get("aria-describedby")
    if described:
        prop(node, "describedby", "idrefList", described)


def _properties(node: dict, el: Element, role: str, doc: Document, list_level: int) -> None:
    focusable = is_focusable(el, role)
    if role not in _ROLES_WITH_PROPERTIES:
        _plain_properties(node, el, focusable, doc)
        return
    if role in _INVALID_ROLES:
        prop(node, "invalid", "token", "false")
    if focusable:
        prop(node, "focusable", "booleanOrUndefined", True)
    if focusable and doc.focused is el and role not in ("Date", "InputTime"):
        prop(node, "focused", "booleanOrUndefined", True)
    if role in ("textbox", "searchbox"):
        prop(node, "editable", "token", "plaintext")
        prop(node, "settable", "booleanOrUndefined", True)
        prop(node, "multiline", "boolean", el.tag == "textarea")
        prop(node, "readonly", "boolean", "readonly" in el.attrs)
        prop(node, "required", "boolean", "required" in el.attrs)
    if role in ("spinbutton", "combobox", "listbox", "checkbox", "radio") and el.tag in (
        "input",
        "select",
    ):
        prop(node, "required", "boolean", "required" in el.attrs)
    if role in ("checkbox", "radio"):
        prop(node, "checked", "tristate", "true" if el.checked else "false")
    if role == "tablist":
        prop(node, "multiselectable", "boolean", el.attrs.get("aria-multiselectable") == "true")
        prop(node, "orientation", "token", el.attrs.get("aria-orientation") or "horizontal")
    if role == "combobox":
        prop(node, "hasPopup", "token", "menu")
        prop(node, "expanded", "booleanOrUndefined", False)
    if role == "heading":
        level = el.attrs.get("aria-level") or (el.tag[1] if el.tag in ("h1", "h2", "h3", "h4", "h5", "h6") else "2")
        prop(node, "level", "integer", int(level))
    if role == "listitem":
        prop(node, "level", "integer", max(list_level, 1))
    if role in ("columnheader", "rowheader"):
        prop(node, "readonly", "boolean", False)
        prop(node, "required", "boolean", False)
    if role == "link" or (role == "button" and el.input_type == "image"):
        href = el.attrs.get("href") if role == "link" else el.attrs.get("src")
        if href is not None:
            prop(node, "url", "string", _join(doc.url, href))
    if "disabled" in el.attrs and el.tag in _DISABLEABLE:
        prop(node, "disabled", "boolean", True)
    live = _LIVE.get(role)
    if live:
        prop(node, "live", "token", live)
        prop(node, "atomic", "boolean", role in ("alert", "status"))
        prop(node, "relevant", "token", "additions text")
    if role == "alertdialog" or role == "dialog":
        modal = el.attrs.get("aria-modal") == "true"
        prop(node, "modal", "boolean", modal)
    described = el.attrs.get("aria-describedby")
    if described:
        prop(node, "describedby", "idrefList", described)


_BULLETS = {"disc": "• ", "circle": "◦ ", "square": "▪ "}  # list-style-type -> Chromium's marker text


def _marker(el: Element, kind: str) -> str:
    if kind in _BULLETS:
        return _BULLETS[kind]
    if kind == "decimal":
        items = [c for c in el.parent.children if isinstance(c, Element) and c.tag == "li"] if el.parent else [el]
        return f"{items.index(el) + 1}. "
    return ""


def _text_control(b: _Builder, el: Element, node: dict) -> None:
    """A text field's inner editor: a generic holding the value, one ``StaticText`` per line
    with a ``LineBreak`` between lines, as Chromium shows it."""
    value = el.value or ""
    if not value:
        return
    inner = b.node("generic", node, "")
    if el.tag != "textarea":
        b.node("StaticText", inner, value, internal=True)
        return
    lines = value.split("\n")
    for i, line in enumerate(lines):
        if line:
            b.node("StaticText", inner, line, internal=True)
        if i < len(lines) - 1:
            b.node("LineBreak", inner, "\n", internal=True)


def _select_popup(b: _Builder, el: Element, node: dict) -> None:
    popup = b.node("MenuListPopup", node, "", internal=True)
    for opt in el.iter():
        if opt.tag != "option":
            continue
        label = opt.attrs.get("label") or collapse(opt.text_content())
        option = b.node("option", popup, label, el=opt)
        prop(option, "focusable", "booleanOrUndefined", True)
        prop(option, "selected", "booleanOrUndefined", opt.selected)
