"""A metric is one module: it computes its frame and says how the report shows it (``SHOWN``).
A new module under ``analysis/metrics/`` is in report.md, report.html and the summary without a
change anywhere else; the report's sections keep their order."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from openapps_sim.analysis import metrics
from openapps_sim.analysis.report.build import build, shown, summary
from openapps_sim.analysis.report.load import load_results
from openapps_sim.analysis.report.write import write_report

from .test_report import make_results_dir

NEW_METRIC = '''
"""Mean steps per agent: a metric written as one module."""

import pandas as pd

from openapps_sim.analysis.doc.blocks import Section, Shown, Table
from openapps_sim.analysis.metrics.table import valid_episodes


def mean_steps(df: pd.DataFrame) -> pd.DataFrame:
    return valid_episodes(df).groupby("agent", as_index=False)["steps"].mean()


def section(a) -> Section:
    rows = [[r["agent"], f"{r['steps']:.1f}"] for _, r in mean_steps(a.df).iterrows()]
    return Section("mean-steps", "Mean steps (a new metric)", [Table(["Agent", "Steps"], rows)])


SHOWN = [Shown(155, lambda d: section(d.a), summary=True)]
'''

FULL_ORDER = [
    *("headline", "robustness", "variation", "deviation", "fluctuation", "behaviour", "axes", "passk"),
    *("fig4", "table4", "table5", "grid", "table9", "table11", "rollups", "loopkinds", "paired", "tasks"),
    *("progress", "categories", "appcategories", "completion", "trajectories", "errors", "manifest"),
]


@pytest.fixture
def new_metric(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "mean_steps_metric.py").write_text(NEW_METRIC, encoding="utf-8")
    monkeypatch.setattr(metrics, "__path__", [*metrics.__path__, str(folder)])
    yield
    sys.modules.pop("openapps_sim.analysis.metrics.mean_steps_metric", None)


def _analysis(folder: Path):
    from openapps_sim.analysis.report.analysis import analyse

    return analyse(load_results(folder), n_boot=50)


def test_the_report_sections_keep_their_order(tmp_path: Path):
    a = _analysis(make_results_dir(tmp_path / "r"))
    anchors = [s.anchor for s in build(a).sections]
    assert anchors == FULL_ORDER
    assert [s.anchor for s in summary(a).sections] == [
        "headline",
        "robustness",
        "variation",
        "rollups",
        "errors",
        "manifest",
    ]
    orders = [s.order for s in shown()]
    assert len(orders) == len(set(orders))


def test_a_new_metric_is_one_module(tmp_path: Path, new_metric):
    folder = make_results_dir(tmp_path / "r")
    a = _analysis(folder)
    anchors = [s.anchor for s in build(a).sections]
    assert anchors.index("mean-steps") == anchors.index("categories") + 1
    assert "mean-steps" in [s.anchor for s in summary(a).sections]
    md_path, html_path = write_report(folder, n_boot=50)
    md = md_path.read_text(encoding="utf-8")
    assert "## Mean steps (a new metric)\n\n| Agent | Steps |\n| :--- | ---: |\n| alpha | 3.2 |\n| beta | 3.0 |" in md
    assert md.index("## Success by task category") < md.index("## Mean steps") < md.index("## How episodes ended")
    assert "Mean steps (a new metric)" in html_path.read_text(encoding="utf-8")
