"""A report depends on which episodes a folder holds, not on the order a sweep's workers wrote
them: bootstrap intervals resample rows by position, so the rows are put in one order first."""

from __future__ import annotations

import shutil
from pathlib import Path

from openapps_sim.analysis.report.load import load_results
from openapps_sim.analysis.report.write import write_report

from .test_report import make_results_dir


def _report(folder: Path) -> str:
    write_report(folder)
    return (folder / "report.md").read_text(encoding="utf-8")


def test_report_is_the_same_whatever_order_the_records_were_written_in(tmp_path: Path):
    first = make_results_dir(tmp_path / "a", torn=False)
    second = tmp_path / "b"
    shutil.copytree(first, second)
    lines = (second / "results.jsonl").read_text(encoding="utf-8").splitlines()
    (second / "results.jsonl").write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    assert list(load_results(first)["episode_id"]) == list(load_results(second)["episode_id"])
    assert _report(first) == _report(second)
