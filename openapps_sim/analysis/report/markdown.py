"""``report.md``: the report's sections (:mod:`.build`) as Markdown."""

from __future__ import annotations

from openapps_sim.analysis.report.analysis import Analysis
from openapps_sim.analysis.report.blocks import to_markdown
from openapps_sim.analysis.report.build import Report, build, preface


def report_markdown(r: Report) -> str:
    return to_markdown(r.title, preface(r), r.sections)


def render_markdown(a: Analysis, top: int = 15) -> str:
    """The whole report as Markdown (no trajectory viewer: it lives in the HTML)."""
    return report_markdown(build(a, None, top))
