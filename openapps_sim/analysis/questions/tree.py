"""A page's accessibility tree, read from its text form (the form text agents are shown) into
nodes with their role, name, element id, properties and ancestors."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

_LINE = re.compile(r"""^(\t*)(?:\[([^\]]+)\] )?(\S+)(?: ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"))?(.*)$""")
INTERACTIVE = ("button", "link", "textbox", "searchbox", "combobox", "checkbox", "switch", "tab", "radio", "slider")
LANDMARKS = ("banner", "navigation", "search", "main", "contentinfo", "complementary", "tablist")


@dataclass
class Node:
    index: int
    depth: int
    role: str
    name: str
    bid: str | None
    props: str
    parent: int | None
    children: list[int] = field(default_factory=list)

    def prop(self, key: str) -> str | None:
        """The value of ``key=...`` among the node's properties (quotes removed), else None."""
        m = re.search(rf"\b{re.escape(key)}=('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^,]+)", self.props)
        if not m:
            return None
        raw = m.group(1).strip()
        return _unquote(raw) if raw[:1] in "'\"" else raw


def _unquote(text: str) -> str:
    try:
        return str(ast.literal_eval(text))
    except (ValueError, SyntaxError):
        return text[1:-1]


class PageTree:
    """The nodes of one page, in document order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.nodes: list[Node] = []
        stack: list[Node] = []
        for line in text.splitlines():
            m = _LINE.match(line)
            if not m or not line.strip():
                continue
            depth = len(m.group(1))
            while stack and stack[-1].depth >= depth:
                stack.pop()
            parent = stack[-1].index if stack else None
            name = _unquote(m.group(4)) if m.group(4) else ""
            node = Node(len(self.nodes), depth, m.group(3), name, m.group(2), m.group(5), parent)
            self.nodes.append(node)
            if parent is not None:
                self.nodes[parent].children.append(node.index)
            stack.append(node)

    @property
    def title(self) -> str:
        return self.nodes[0].name if self.nodes else ""

    def ancestors(self, node: Node) -> list[Node]:
        out = []
        while node.parent is not None:
            node = self.nodes[node.parent]
            out.append(node)
        return out

    def descendants(self, node: Node) -> list[Node]:
        out: list[Node] = []
        for i in node.children:
            out.append(self.nodes[i])
            out += self.descendants(self.nodes[i])
        return out

    def main(self) -> Node | None:
        return next((n for n in self.nodes if n.role == "main"), None)

    def in_main(self) -> list[Node]:
        main = self.main()
        return self.descendants(main) if main is not None else []

    def landmark(self, node: Node) -> str | None:
        """The innermost landmark region holding ``node``."""
        return next((a.role for a in self.ancestors(node) if a.role in LANDMARKS), None)

    def interactive(self) -> list[Node]:
        return [n for n in self.nodes if n.bid and n.role in INTERACTIVE and n.name.strip()]

    def main_list(self) -> Node | None:
        """The first list of the main content that holds list items."""
        for n in self.in_main():
            if n.role == "list" and any(self.nodes[i].role == "listitem" for i in n.children):
                return n
        return None

    def entries(self) -> list[Node]:
        """The list items of :meth:`main_list`."""
        found = self.main_list()
        return [self.nodes[i] for i in found.children if self.nodes[i].role == "listitem"] if found else []

    def label(self, item: Node) -> str:
        """What names a list item: the first text of it that is not a control's, or the first
        named link's text (its first text, else its name)."""
        for n in self.descendants(item):
            if n.role == "link" and n.name.strip():
                return _first_text(self, n) or n.name.strip()
            inside = self.ancestors(n)[: self.ancestors(n).index(item)]
            if n.role == "StaticText" and n.name.strip() and not any(a.role in INTERACTIVE for a in inside):
                return n.name.strip()
        return ""


def _first_text(tree: PageTree, node: Node) -> str:
    texts = [n.name.strip() for n in tree.descendants(node) if n.role == "StaticText" and n.name.strip()]
    return texts[0] if texts else ""
