"""The whole report, defined once: the title, the overview cards, the notes and "how to read
this", then every section in order, drawn as Markdown (:func:`openapps_sim.analysis.doc.blocks.to_markdown`)
and as HTML (:func:`openapps_sim.analysis.doc.page.render_page`) from the same list."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapps_sim.analysis import metrics, report
from openapps_sim.analysis.doc.blocks import Bullets, Draft, Html, P, Section, Shown, to_markdown
from openapps_sim.analysis.doc.page import howto, note, render_page
from openapps_sim.analysis.metrics.breaks import flip_ids, paired_versions
from openapps_sim.analysis.report import sections
from openapps_sim.analysis.report.analysis import Analysis
from openapps_sim.analysis.report.rows import HOW_TO_READ, overview_facts, report_title
from openapps_sim.analysis.report.trajectories import trajectory_section


@dataclass
class Report:
    title: str
    subtitle: str
    cards: list[tuple[str, str]]
    notes: list[str]
    how_to_read: list[str]
    sections: list[Section] = field(default_factory=list)

    def markdown(self) -> str:
        """The report as Markdown (the trajectory viewer and charts are the page's only)."""
        return to_markdown(self.title, preface(self), self.sections)

    def html(self) -> str:
        """The report as one self-contained page of FastHTML components."""
        before = [*[Html(note(n)) for n in self.notes], Html(howto(self.how_to_read))]
        return render_page(self.title, self.subtitle, self.cards, before, self.sections)


def how_to_read(a: Analysis) -> list[str]:
    items = [t.format(min_repeats=a.min_repeats) for t in HOW_TO_READ]
    if len(a.version) > 1:
        items.append(
            f"A *version* here is one combination of {', '.join(a.version)} (every axis that varied), so the "
            "episodes of one version differ only by seed."
        )
    return items


def shown() -> list[Shown]:
    """The ``SHOWN`` of every module of ``analysis.metrics`` and ``analysis.report``, in order: a
    new metric module is in the report by being there."""
    found: list[Shown] = []
    for package in (metrics, report):
        for info in pkgutil.iter_modules(package.__path__):
            found += getattr(importlib.import_module(f"{package.__name__}.{info.name}"), "SHOWN", [])
    return sorted(found, key=lambda s: s.order)


def draw(d: Draft, keep: Callable[[Shown], bool] = lambda s: True) -> list[Section]:
    """The sections of every :class:`Shown` that ``keep`` keeps, drawn from ``d``."""
    out: list[Section] = []
    for s in shown():
        if keep(s):
            drawn = s.draw(d)
            out += drawn if isinstance(drawn, list) else [drawn]
    return out


def build(
    a: Analysis,
    results_dir: Path | None = None,
    top: int = 15,
    max_trajectories: int = 40,
    screenshot_width: int = 960,
    screenshot_budget_bytes: int = 16_000_000,
) -> Report:
    """Every section of the report; the trajectory viewer only with a ``results_dir``."""
    r = Report(report_title(a), _subtitle(a), overview_facts(a), list(a.notes), how_to_read(a))
    if a.valid.empty:
        r.sections = _unscored_sections(a)
        return r
    d = Draft(a, top, paired_versions(a.df, a.baseline))
    if results_dir is not None:
        d.viewer, d.shown = trajectory_section(
            a,
            results_dir,
            max_trajectories,
            screenshot_width,
            screenshot_budget_bytes,
            first=flip_ids(d.pairs, max(1, max_trajectories // 4)),
            pairs=d.pairs,
        )
    r.sections = draw(d)
    return r


def _subtitle(a: Analysis) -> str:
    sub = []
    if a.manifest.get("version"):
        sub.append(f"openapps-sim {a.manifest.get('version')}")
    if a.manifest.get("git_commit"):
        sub.append(f"commit {str(a.manifest['git_commit'])[:10]}")
    if a.manifest.get("spec_hash"):
        sub.append(f"spec {a.manifest['spec_hash']}")
    return " · ".join(sub)


def _unscored_sections(a: Analysis) -> list[Section]:
    """A report with no scored episode: why, the errors and the manifest."""
    return [
        Section(
            "none",
            "No scored episodes",
            [P("No scored episodes: every recorded episode is an infrastructure or model-service error (see below).")],
        ),
        sections.errors(a),
        sections.manifest(a),
    ]


SUMMARY_NOTE = (
    "A summary: the headline, robustness, success per variation, where it breaks, failures and the "
    "manifest. `openapps report {folder}` writes the full report (report.md, report.html) with every "
    "other view and the trajectories."
)


def summary(a: Analysis, folder: str = "DIR") -> Report:
    """The report's first sections only (``openapps report DIR --summary`` writes them to
    ``summary.md`` and ``summary.html``): what a long report says at a glance."""
    r = Report(report_title(a) + " — summary", _subtitle(a), overview_facts(a), list(a.notes), how_to_read(a))
    r.notes.insert(0, SUMMARY_NOTE.format(folder=folder))
    if a.valid.empty:
        r.sections = _unscored_sections(a)
        return r
    r.sections = draw(Draft(a), lambda s: s.summary)
    return r


def paper_only(a: Analysis) -> Report:
    """The paper's views alone (``openapps report DIR --paper`` writes them to ``paper.md``)."""
    r = Report(report_title(a) + " — the OpenApps paper's views", "", overview_facts(a), list(a.notes), how_to_read(a))
    if not a.valid.empty:
        r.sections = draw(Draft(a), lambda s: s.paper)
    return r


def preface(r: Report) -> list[Any]:
    """The blocks before the sections, for Markdown."""
    out: list[Any] = [P(" · ".join(f"{k}: **{v}**" for k, v in r.cards))]
    out += [P(f"> Note: {n}") for n in r.notes]
    out += [P("## How to read this"), Bullets(r.how_to_read)]
    return out
