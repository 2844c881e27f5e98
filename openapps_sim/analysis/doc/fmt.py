"""Formatting numbers, intervals and tables for Markdown and the terminal; the report's colours."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

AGENT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#6F6F6F", "#B8A000", "#000000"]
"""The Okabe-Ito palette (distinguishable with the common colour-vision deficiencies)."""


WITHIN_COLOUR = "#56B4E9"


ACROSS_COLOUR = "#D55E00"


DASH = "–"


def is_nan(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def fmt_pct(x: Any, digits: int = 1) -> str:
    """0.6667 -> "66.7%"."""
    return DASH if is_nan(x) else f"{100 * float(x):.{digits}f}%"


def fmt_share(x: Any) -> str:
    """0.6667 -> "66.7": a percentage whose sign is in the column's header."""
    return DASH if is_nan(x) else f"{100 * float(x):.1f}"


def fmt_ci(lo: Any, hi: Any) -> str:
    """A percentage interval without the % signs: "[33.3, 100.0]"."""
    return DASH if is_nan(lo) or is_nan(hi) else f"[{100 * float(lo):.1f}, {100 * float(hi):.1f}]"


def fmt_rate_ci(rate: Any, lo: Any, hi: Any) -> str:
    return fmt_pct(rate) if is_nan(lo) else f"{fmt_pct(rate)} {fmt_ci(lo, hi)}"


def fmt_count(x: Any) -> str:
    """A count held as a number: 3.0 -> "3"."""
    return str(int(x))


def fmt_num(x: Any, digits: int = 2) -> str:
    return DASH if is_nan(x) else f"{float(x):.{digits}f}"


def fmt_std(x: Any) -> str:
    """Deviations of 0/1 rewards: three decimals."""
    return fmt_num(x, 3)


def fmt_interval(
    value: Any,
    ci: Mapping | None,
    stat: str,
    fmt: Callable[[Any], str] = fmt_std,
    ends: Callable[[Any], str] | None = None,
) -> str:
    """``fmt(value)``, followed by ``[lo, hi]`` (``ci``'s ``<stat>_lo`` and ``<stat>_hi``, written by
    ``ends``, else ``fmt``) when the value and its interval are numbers."""
    lo = None if ci is None else ci.get(f"{stat}_lo")
    if is_nan(value) or is_nan(lo):
        return fmt(value)
    ends = ends or fmt
    return f"{fmt(value)} [{ends(lo)}, {ends(ci[f'{stat}_hi'])}]"


def fmt_ratio(x: Any) -> str:
    if is_nan(x):
        return DASH
    return "∞" if math.isinf(float(x)) else f"{float(x):.2f}×"


def fmt_seconds(x: Any) -> str:
    return DASH if is_nan(x) else f"{float(x):.1f} s"


def md_head(title: str, *paragraphs: str) -> list[str]:
    """The lines a Markdown page opens with: ``# title``, then each paragraph (or heading),
    each followed by a blank line."""
    out = [f"# {title}", ""]
    for paragraph in paragraphs:
        out += [paragraph, ""]
    return out


def md_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: Sequence[str] | None = None) -> str:
    """A GitHub-flavoured Markdown table (``|`` in cells escaped)."""
    align = align or ["l"] + ["r"] * (len(headers) - 1)
    marks = {"l": ":---", "r": "---:", "c": ":---:"}

    def cell(v: Any) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(cell(h) for h in headers) + " |", "| " + " | ".join(marks[a] for a in align) + " |"]
    out += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(out)


def text_table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], align: Sequence[str] | None = None, rule: bool = True
) -> str:
    """A plain-text table with aligned columns, for a terminal (a line of dashes under the header
    unless ``rule`` is false)."""
    align = align or ["l"] + ["r"] * (len(headers) - 1)
    cells = [[str(h) for h in headers]] + [[str(v) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r: Sequence[str]) -> str:
        return "  ".join(
            v.ljust(w) if a == "l" else v.rjust(w) for v, w, a in zip(r, widths, align, strict=True)
        ).rstrip()

    return "\n".join([line(cells[0])] + ["  ".join("-" * w for w in widths)] * rule + [line(r) for r in cells[1:]])
