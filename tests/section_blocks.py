"""A report section as plain data (headings, paragraph texts, table headers and cells) for tests
that write every expected cell out: a :class:`Cell` is its text, ``(text, html)`` where it is
drawn otherwise in HTML (a link, a swatch), or ``(text, "title: ...")`` where it has a hover title
(a heat-map cell)."""

from __future__ import annotations

import pickle
from typing import Any

import pandas as pd

from openapps_sim.analysis.doc.blocks import Cell, Figure, Heading, P, Section, Table
from openapps_sim.analysis.report.analysis import Analysis, analyse


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


ANALYSES: dict[bytes, Analysis] = {}


def analysed(df: pd.DataFrame, **options: Any) -> Analysis:
    """``analyse(df, **options)``, once per process for the same table and options. ``make
    mutants`` forks every mutant's tests from the process that ran them once, so a mutant of a
    section function reuses the analysis made there (seconds per mutant, not minutes on a loaded
    machine); a mutant of a metric that ``analyse`` itself computes is left to that module's rule
    tests, which call it directly."""
    key = pickle.dumps((df, sorted(options.items())))
    if key not in ANALYSES:
        ANALYSES[key] = analyse(df, **options)
    return ANALYSES[key]
