"""The whole report, defined once: the title, the overview cards, the notes and "how to read
this", then every section in order, drawn as Markdown (:func:`openapps_sim.analysis.doc.blocks.to_markdown`)
and as HTML (:func:`openapps_sim.analysis.doc.page.render_page`) from the same list."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapps_sim.analysis.doc.blocks import Bullets, Html, P, Section, to_markdown
from openapps_sim.analysis.doc.page import howto, note, render_page
from openapps_sim.analysis.metrics import breaks, paper
from openapps_sim.analysis.metrics.breaks import paired_versions
from openapps_sim.analysis.metrics.categories import categories
from openapps_sim.analysis.metrics.completion import completion
from openapps_sim.analysis.metrics.progress import progress_section
from openapps_sim.analysis.metrics.robustness import robustness_section
from openapps_sim.analysis.report import headline, sections
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
    pairs = paired_versions(a.df, a.baseline)
    viewer, shown = Section("trajectories", "Trajectories"), set()
    if results_dir is not None:
        viewer, shown = trajectory_section(
            a,
            results_dir,
            max_trajectories,
            screenshot_width,
            screenshot_budget_bytes,
            first=breaks.flip_ids(pairs, max(1, max_trajectories // 4)),
            pairs=pairs,
        )
    r.sections = [
        headline.headline(a),
        robustness_section(a),
        sections.per_variation(a),
        sections.deviation(a),
        sections.fluctuations(a, top),
        sections.behaviour(a),
        sections.axes(a),
        sections.pass_k(a),
        *paper.paper_sections(a),
        breaks.rollups_section(a),
        breaks.loops(a),
        breaks.paired(a, pairs, shown),
        sections.tasks(a),
        progress_section(a),
        categories(a),
        completion(a),
        viewer,
        sections.errors(a),
        sections.manifest(a),
    ]
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
    r.sections = [
        headline.headline(a),
        robustness_section(a),
        sections.per_variation(a),
        breaks.rollups_section(a),
        sections.errors(a),
        sections.manifest(a),
    ]
    return r


def paper_only(a: Analysis) -> Report:
    """The paper's views alone (``openapps report DIR --paper`` writes them to ``paper.md``)."""
    r = Report(report_title(a) + " — the OpenApps paper's views", "", overview_facts(a), list(a.notes), how_to_read(a))
    if not a.valid.empty:
        r.sections = [sections.deviation(a), sections.fluctuations(a, 15), *paper.paper_sections(a)]
    return r


def preface(r: Report) -> list[Any]:
    """The blocks before the sections, for Markdown."""
    out: list[Any] = [P(" · ".join(f"{k}: **{v}**" for k, v in r.cards))]
    out += [P(f"> Note: {n}") for n in r.notes]
    out += [P("## How to read this"), Bullets(r.how_to_read)]
    return out
