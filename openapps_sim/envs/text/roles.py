"""Which accessibility role an element gets, whether Chromium keeps it, and its value.

Roles follow HTML-AAM as Chromium implements it (``<header>`` is ``banner``, ``<label>`` is
``LabelText``, ``<input type=date>`` is ``Date`` ...). An element without a role of its own is
*generic*, and Chromium keeps a generic container only when it carries something: a name
attribute, focusability, a live region, or when it is a block whose children are all
inline-level (a "paragraph" of text); spans and layout-only containers are ignored.
"""

from __future__ import annotations

from openapps_sim.envs.text.dom import Document, Element, option_value

ARIA_ROLES = {
    "alert",
    "alertdialog",
    "application",
    "article",
    "banner",
    "button",
    "cell",
    "checkbox",
    "columnheader",
    "combobox",
    "complementary",
    "contentinfo",
    "definition",
    "dialog",
    "document",
    "feed",
    "figure",
    "form",
    "generic",
    "grid",
    "gridcell",
    "group",
    "heading",
    "img",
    "link",
    "list",
    "listbox",
    "listitem",
    "log",
    "main",
    "marquee",
    "math",
    "menu",
    "menubar",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "meter",
    "navigation",
    "none",
    "note",
    "option",
    "paragraph",
    "presentation",
    "progressbar",
    "radio",
    "radiogroup",
    "region",
    "row",
    "rowgroup",
    "rowheader",
    "scrollbar",
    "search",
    "searchbox",
    "separator",
    "slider",
    "spinbutton",
    "status",
    "switch",
    "tab",
    "table",
    "tablist",
    "tabpanel",
    "term",
    "textbox",
    "timer",
    "toolbar",
    "tooltip",
    "tree",
    "treegrid",
    "treeitem",
}
# Chromium's names for a few ARIA roles
_CHROMIUM_ROLE = {"img": "image", "presentation": "none"}

_TAG_ROLE = {
    "button": "button",
    "nav": "navigation",
    "main": "main",
    "aside": "complementary",
    "form": "form",
    "search": "search",
    "p": "paragraph",
    "ul": "list",
    "ol": "list",
    "li": "listitem",
    "table": "table",
    "thead": "rowgroup",
    "tfoot": "rowgroup",
    "tr": "row",
    "td": "cell",
    "label": "LabelText",
    "dl": "DescriptionList",
    "dt": "term",
    "dd": "definition",
    "textarea": "textbox",
    "fieldset": "group",
    "legend": "generic",
    "strong": "strong",
    "em": "emphasis",
    "code": "code",
    "time": "time",
    "mark": "mark",
    "hr": "separator",
    "article": "article",
    "blockquote": "blockquote",
    "figure": "figure",
    "pre": "generic",
    "sub": "subscript",
    "sup": "superscript",
    "del": "deletion",
    "ins": "insertion",
    "details": "group",
    "dialog": "dialog",
    "progress": "progressbar",
    "meter": "meter",
}
_INPUT_ROLE = {
    "text": "textbox",
    "email": "textbox",
    "tel": "textbox",
    "url": "textbox",
    "password": "textbox",
    "search": "searchbox",
    "checkbox": "checkbox",
    "radio": "radio",
    "submit": "button",
    "reset": "button",
    "button": "button",
    "image": "button",
    "number": "spinbutton",
    "range": "slider",
    "date": "Date",
    "time": "InputTime",
    "datetime-local": "DateTime",
    "month": "DateTime",
    "week": "DateTime",
    "color": "ColorWell",
    "file": "button",
}
# attributes that make Chromium keep an otherwise ignored container
_KEEP_ATTRS = frozenset(("aria-label", "aria-labelledby", "aria-describedby", "aria-live", "title", "tabindex", "role"))


def role_of(el: Element, doc: Document) -> str | None:
    """The role Chromium gives ``el``, or None when it leaves the element out (ignored)."""
    explicit = el.attrs.get("role")
    if explicit:
        for token in explicit.split():
            if token in ARIA_ROLES:
                if token in ("none", "presentation") and not is_focusable(el, token):
                    return None
                return _CHROMIUM_ROLE.get(token, token)
    tag = el.tag
    if tag == "a":
        return "link" if "href" in el.attrs else _generic(el)
    if tag == "input":
        return _INPUT_ROLE.get(el.input_type, "textbox")
    if tag == "select":
        return "listbox" if "multiple" in el.attrs or int(el.attrs.get("size") or 1) > 1 else "combobox"
    if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
        return "heading"
    if tag == "header" or tag == "footer":
        inside = any(a.tag in ("article", "aside", "main", "nav", "section") for a in el.ancestors())
        if inside:
            return _generic(el)
        return "banner" if tag == "header" else "contentinfo"
    if tag == "section":
        return "region" if el.attrs.get("aria-label") or el.attrs.get("aria-labelledby") else _generic(el)
    if tag == "th":
        return "rowheader" if el.attrs.get("scope") == "row" else "columnheader"
    if tag == "img":
        return None if el.attrs.get("alt") == "" else "image"
    if tag == "svg":
        return "image" if _svg_named(el) else None
    if tag in ("html", "body", "tbody", "g", "path", "rect", "circle", "line", "polyline", "polygon", "ellipse"):
        return "group" if tag == "g" and (_svg_named(el) or _kept(el)) else None
    if tag == "text":
        return "generic"  # an svg <text>
    if tag in _TAG_ROLE:
        return _TAG_ROLE[tag]
    return _generic(el)


def _svg_named(el: Element) -> bool:
    return bool(el.attrs.get("aria-label") or any(isinstance(c, Element) and c.tag == "title" for c in el.children))


def _kept(el: Element) -> bool:
    return not _KEEP_ATTRS.isdisjoint(el.attrs) or is_focusable(el, "generic")


def _generic(el: Element) -> str | None:
    """``generic`` when Chromium keeps this container, else None."""
    if _kept(el):
        return "generic"
    style = el.style
    if style is not None and style.display in ("block", "list-item", "flow-root") and el.children:
        return "generic"
    return None


def is_focusable(el: Element, role: str) -> bool:
    if el.tag in ("button", "input", "select", "textarea") and (
        "disabled" in el.attrs or any(a.tag == "fieldset" and "disabled" in a.attrs for a in el.ancestors())
    ):
        return False
    if "tabindex" in el.attrs:
        return True
    if el.tag == "a":
        return "href" in el.attrs
    return el.tag in ("button", "select", "textarea") or (el.tag == "input" and el.input_type != "hidden")


def control_value(el: Element, role: str) -> str:
    """What Chromium reports as the node's ``value``."""
    if role in ("textbox", "searchbox") and el.tag in ("input", "textarea"):
        return el.value or ""
    if role == "combobox" and el.tag == "select":
        chosen = next((o for o in el.iter() if o.tag == "option" and o.selected), None)
        return " ".join(chosen.text_content().split()) if chosen is not None else ""
    if role == "spinbutton":
        return el.value or ""
    if role in ("Date", "InputTime"):
        return el.value or ""
    return ""


NAME_FROM_CONTENTS = {
    "button",
    "cell",
    "checkbox",
    "columnheader",
    "gridcell",
    "heading",
    "link",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "rowheader",
    "switch",
    "tab",
    "tooltip",
    "treeitem",
    "term",
    "MenuListOption",
}

__all__ = ["NAME_FROM_CONTENTS", "control_value", "is_focusable", "option_value", "role_of"]
