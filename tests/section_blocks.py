"""A report section as plain data (headings, paragraph texts, table headers and cells) for tests
that write every expected cell out: a :class:`Cell` is its text, ``(text, html)`` where it is
drawn otherwise in HTML (a link, a swatch), or ``(text, "title: ...")`` where it has a hover title
(a heat-map cell)."""

from __future__ import annotations

from typing import Any

from openapps_sim.analysis.doc.blocks import Cell, Figure, Heading, P, Section, Table


def plain_cell(value: Any) -> Any:
    if isinstance(value, Cell):
        if value.html is not None:
            return (value.text, str(value.html))
        return (value.text, f"title: {value.title}") if value.title else value.text
    return value


def plain_block(b: Any) -> Any:
    if isinstance(b, P):
        return ("P", b.text, b.cls)
    if isinstance(b, Heading):
        return ("Heading", b.text)
    if isinstance(b, Table):
        rows = [[plain_cell(c) for c in row] for row in b.rows]
        return ("Table", list(b.headers), rows, None if b.align is None else list(b.align))
    if isinstance(b, Figure):
        return ("Figure", b.caption)
    return b


def plain(section: Section) -> tuple[str, str, list[Any]]:
    """``(anchor, title, blocks)`` of a section, every block as :func:`plain_block`."""
    return (section.anchor, section.title, [plain_block(b) for b in section.blocks])
