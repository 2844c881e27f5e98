"""``report.html``: the report's sections (:mod:`.build`) drawn as one self-contained page of
FastHTML components (see :mod:`.page`)."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.analysis.report.analysis import Analysis
from openapps_sim.analysis.report.blocks import Html
from openapps_sim.analysis.report.build import Report, build
from openapps_sim.analysis.report.page import howto, note, render_page


def report_html(r: Report) -> str:
    before = [*[Html(note(n)) for n in r.notes], Html(howto(r.how_to_read))]
    return render_page(r.title, r.subtitle, r.cards, before, r.sections)


def render_html(
    a: Analysis,
    results_dir: Path,
    top: int = 15,
    max_trajectories: int = 40,
    screenshot_width: int = 960,
    screenshot_budget_bytes: int = 16_000_000,
) -> str:
    return report_html(build(a, results_dir, top, max_trajectories, screenshot_width, screenshot_budget_bytes))
