"""Table cells the report's sections share: an agent named with its colour, a heat-map rate, and
the rows of a per-agent table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from openapps_sim.analysis.doc.blocks import Cell
from openapps_sim.analysis.doc.fmt import AGENT_COLOURS, DASH, fmt_pct, is_nan
from openapps_sim.analysis.doc.page import swatch

if TYPE_CHECKING:
    from openapps_sim.analysis.report.analysis import Analysis


def colours_of(agents: Sequence[str]) -> dict[str, str]:
    return {a: AGENT_COLOURS[i % len(AGENT_COLOURS)] for i, a in enumerate(agents)}


def agent_cell(a: Analysis, agent: str) -> Cell:
    return Cell(str(agent), swatch(str(agent), colours_of(a.agents).get(str(agent), "#888")))


def agent_rows(a: Analysis, frame: pd.DataFrame, columns: Sequence[tuple[str, Callable[[Any], Any]]]) -> list[list]:
    """One table row per row of ``frame``: its agent's cell, then each ``(column, format)`` of
    ``columns`` as ``format(value)``."""
    return [[agent_cell(a, r["agent"]), *(f(r[col]) for col, f in columns)] for _, r in frame.iterrows()]


def heat(rate: Any, n: Any = None, label: str | None = None) -> Cell:
    """A heat-map cell for a rate in [0, 1] (white to deep blue)."""
    if is_nan(rate):
        return Cell(DASH, cls="heat")
    lo, hi = (247, 251, 255), (8, 69, 148)
    t = max(0.0, min(1.0, float(rate)))
    r, g, b = (round(x + (y - x) * t) for x, y in zip(lo, hi, strict=True))
    title = f"{fmt_pct(rate)}" + (f" of {int(n)} episodes" if n is not None else "")
    return Cell(
        label or f"{100 * t:.0f}%",
        bg=f"rgb({r},{g},{b})",
        fg="#fff" if t > 0.55 else "#1d2430",
        title=title,
        cls="heat",
    )


def anchor(episode_id: Any) -> str:
    """The element id of an episode in the viewer (links from other sections point here)."""
    return f"ep-{episode_id}"


Column = tuple[str, Callable[[Any], Any]]
"""A table column: its header, and its cell made from a row of a frame."""


def col(key: str, fmt: Callable[[Any], Any] = str) -> Callable[[Any], Any]:
    """The cell ``fmt(row[key])``."""
    return lambda r: fmt(r[key])


def table_of(frame: pd.DataFrame, columns: Sequence[Column]) -> tuple[list[str], list[list[Any]]]:
    """The headers of ``columns`` and one row of their cells per row of ``frame``."""
    return [h for h, _ in columns], [[cell(r) for _, cell in columns] for _, r in frame.iterrows()]
