"""The report's content, defined once: a section is a list of blocks (paragraphs, tables,
figures, folds) that :func:`to_markdown` writes as Markdown and :mod:`.page` draws as HTML
from FastHTML components. A section never builds text for one format only, except a
:class:`Figure` or :class:`Html` block (charts and the trajectory viewer) that Markdown leaves
out or replaces by its caption."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openapps_sim.analysis.doc.fmt import md_table


@dataclass(frozen=True)
class Cell:
    """A table cell: its text (Markdown and the HTML fallback), optionally drawn otherwise in HTML
    (``html``: a component, e.g. a link or a colour swatch), with a background (heat maps) and a
    hover title."""

    text: str
    html: Any = None
    bg: str = ""
    fg: str = ""
    title: str = ""
    cls: str = ""


def text_of(value: Any) -> str:
    return value.text if isinstance(value, Cell) else str(value)


@dataclass
class P:
    """A paragraph; ``**bold**`` is kept in Markdown and drawn bold in HTML."""

    text: str
    cls: str = ""


@dataclass
class Bullets:
    items: list[str]


@dataclass
class Heading:
    text: str


@dataclass
class Table:
    headers: Sequence[str]
    rows: Sequence[Sequence[Any]]
    align: Sequence[str] | None = None
    cls: str = ""
    caption: str = ""

    def aligned(self) -> list[str]:
        return list(self.align or ["l"] + ["r"] * (len(self.headers) - 1))


@dataclass
class Figure:
    """A chart (an SVG component) with its caption; Markdown keeps the caption only when
    ``md_caption`` is set (the numbers are in a table next to it)."""

    chart: Any
    caption: str
    md_caption: bool = False


@dataclass
class Figures:
    """Charts side by side (one under the other when ``stacked``: wide charts)."""

    figures: list[Figure]
    stacked: bool = False


@dataclass
class Fold:
    """A collapsible group (``details`` in HTML; a sub-heading and its blocks in Markdown)."""

    summary: Cell | str
    blocks: list[Any]
    open: bool = False
    md: bool = True
    id: str = ""


@dataclass
class Html:
    """A component only the HTML page shows (the trajectory viewer)."""

    node: Any


@dataclass
class Code:
    text: str
    lang: str = ""


@dataclass
class MdOnly:
    """A block only the Markdown shows (the HTML has it in another form, e.g. folded)."""

    block: Any


@dataclass
class Section:
    anchor: str
    title: str
    blocks: list[Any] = field(default_factory=list)
    md_title: str = ""  # the Markdown heading when it differs from the HTML one


@dataclass
class Draft:
    """What a section is drawn from: the :class:`~openapps_sim.analysis.report.analysis.Analysis`,
    how many rows a "largest" list shows, the versions paired with the baseline, the trajectory
    viewer and the episodes it shows (links elsewhere point only to those)."""

    a: Any
    top: int = 15
    pairs: Any = None
    viewer: Section = field(default_factory=lambda: Section("trajectories", "Trajectories"))
    shown: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Shown:
    """How a metric appears in the report. ``order`` places its section(s) among every module's
    (docs/metrics.md lists the numbers in use), ``draw`` builds them from a :class:`Draft`;
    ``summary`` and ``paper`` say whether ``summary.md`` and ``paper.md`` show them too. A module
    of ``analysis.metrics`` or ``analysis.report`` lists its own in ``SHOWN``."""

    order: int
    draw: Callable[[Draft], Section | list[Section]]
    summary: bool = False
    paper: bool = False


def _md_block(b: Any, level: int) -> list[str]:
    if isinstance(b, P):
        return [b.text, ""]
    if isinstance(b, Bullets):
        return [f"- {t}" for t in b.items] + [""] if b.items else []
    if isinstance(b, Heading):
        return [f"{'#' * level} {b.text}", ""]
    if isinstance(b, Table):
        out = [b.caption, ""] if b.caption else []
        rows = [[text_of(c) for c in r] for r in b.rows]
        return out + [md_table(list(b.headers), rows, [a.split()[0] for a in b.aligned()]), ""]
    if isinstance(b, Figure):
        return [b.caption, ""] if b.md_caption else []
    if isinstance(b, Figures):
        return [line for f in b.figures for line in _md_block(f, level)]
    if isinstance(b, Fold):
        if not b.md:
            return []
        out = [f"{'#' * level} {text_of(b.summary)}", ""]
        for inner in b.blocks:
            out += _md_block(inner, level + 1)
        return out
    if isinstance(b, Code):
        return [f"```{b.lang}", b.text, "```", ""]
    if isinstance(b, MdOnly):
        return _md_block(b.block, level)
    return []  # Html: the page only


def to_markdown(title: str, preface: list[Any], sections: list[Section]) -> str:
    """The whole report as Markdown: the title, the blocks before the sections, each section."""
    out = [f"# {title}", ""]
    for b in preface:
        out += _md_block(b, 2)
    for s in sections:
        blocks = [line for b in s.blocks for line in _md_block(b, 3)]
        if not blocks:
            continue
        out += [f"## {s.md_title or s.title}", ""] + blocks
    return "\n".join(out).rstrip() + "\n"
