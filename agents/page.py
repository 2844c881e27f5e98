"""The page as the non-LLM agents read it: elements of the accessibility tree with bids."""

from __future__ import annotations

from dataclasses import dataclass, field

INTERACTIVE_ROLES = {
    "button",
    "link",
    "textbox",
    "searchbox",
    "combobox",
    "checkbox",
    "radio",
    "switch",
    "menuitem",
    "tab",
    "option",
    "spinbutton",
    "slider",
    "listbox",
    "Date",
    "InputTime",
    "DateTime",
}
TEXT_INPUT_ROLES = {"textbox", "searchbox", "combobox", "spinbutton", "Date", "InputTime", "DateTime"}
ROW_ROLES = {"listitem", "row", "article", "gridcell", "treeitem", "option", "group", "region", "form"}


@dataclass
class Element:
    node_id: str
    role: str
    name: str
    bid: str | None
    value: str = ""
    parent: Element | None = None
    children: list[Element] = field(default_factory=list)
    properties: dict = field(default_factory=dict)
    visible: bool = True
    clickable: bool = False

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def text(self, limit: int = 4000) -> str:
        """The element's own name plus every descendant's name (depth first)."""
        parts: list[str] = []
        stack = [self]
        size = 0
        while stack and size < limit:
            node = stack.pop()
            if node.name and node.role not in ("InlineTextBox",):
                parts.append(node.name)
                size += len(node.name)
            stack.extend(reversed(node.children))
        return " ".join(parts)

    def descendants(self):
        """Every element below this one, breadth first."""
        queue = list(self.children)
        while queue:
            node = queue.pop(0)
            yield node
            queue.extend(node.children)

    def option_names(self) -> list[str]:
        """The names of the options below this element (a drop-down's choices), breadth first."""
        return [d.name for d in self.descendants() if d.role == "option" and d.name]

    def container(self, roles=ROW_ROLES) -> Element | None:
        """The nearest ancestor that looks like a row, card or form."""
        for node in self.ancestors():
            if node.role in roles:
                return node
        return None

    @property
    def disabled(self) -> bool:
        return bool(self.properties.get("disabled"))


def _value(field_: dict | None):
    if not isinstance(field_, dict):
        return None
    return field_.get("value")


def page_elements(obs: dict) -> list[Element]:
    """Every non-ignored node of the observation's accessibility tree, in document order."""
    tree = obs.get("axtree_object") or {}
    nodes = tree.get("nodes") or []
    extra = obs.get("extra_element_properties") or {}
    by_id: dict[str, Element] = {}
    raw_by_id = {n["nodeId"]: n for n in nodes}
    for n in nodes:
        role = str(_value(n.get("role")) or "")
        props = {}
        for p in n.get("properties") or []:
            props[p.get("name")] = _value(p.get("value"))
        bid = n.get("browsergym_id")
        info = extra.get(bid, {}) if bid is not None else {}
        el = Element(
            node_id=n["nodeId"],
            role=role,
            name=str(_value(n.get("name")) or ""),
            bid=str(bid) if bid is not None else None,
            value=str(_value(n.get("value")) or ""),
            properties=props,
            visible=(info.get("visibility", 1.0) or 0) > 0 if info else True,
            clickable=bool(info.get("clickable")) if info else False,
        )
        el._ignored = bool(n.get("ignored"))  # type: ignore[attr-defined]
        by_id[n["nodeId"]] = el
    for n in nodes:
        el = by_id[n["nodeId"]]
        for cid in n.get("childIds") or []:
            child = by_id.get(cid)
            if child is not None:
                child.parent = el
                el.children.append(child)
    # document order: depth-first from the roots
    roots = [by_id[n["nodeId"]] for n in nodes if not n.get("parentId") or n.get("parentId") not in raw_by_id]
    ordered: list[Element] = []
    stack = list(reversed(roots))
    seen = set()
    while stack:
        node = stack.pop()
        if node.node_id in seen:
            continue
        seen.add(node.node_id)
        if not node._ignored:  # type: ignore[attr-defined]
            ordered.append(node)
        stack.extend(reversed(node.children))
    return ordered


def interactive_elements(obs: dict) -> list[Element]:
    """Elements an agent can act on: interactive roles with a bid, not disabled (elements below
    the fold count: actions scroll them into view)."""
    return [e for e in page_elements(obs) if e.bid is not None and e.role in INTERACTIVE_ROLES and not e.disabled]
