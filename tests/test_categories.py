"""Success by task category (issue 25, point 7): the family's category and SimuWoB's classes
(simple, long-horizon, math-related), in the metrics and in both report formats."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from openapps_sim.analysis.metrics.categories import SIMUWOB_CLASSES, category_success, simuwob_class
from openapps_sim.analysis.report.write import write_report
from openapps_sim.taskkit import all_families

from .test_report import md_section, record


def _episodes() -> list[dict]:
    out = []
    for seed, ok in enumerate([True, True, False]):
        out.append(record("alpha", "default", seed, ok, task="todo.add_item", category="edit", structure="single"))
    for seed, ok in enumerate([True, False]):
        out.append(
            record("alpha", "default", 10 + seed, ok, task="multi.x", category="multi-app", structure="sequential")
        )
    out.append(record("alpha", "default", 20, False, task="todo.count", category="count", structure="answer"))
    out.append(record("alpha", "default", 21, True, task="shop.total", category="math", structure="answer", steps=7))
    out.append(record("alpha", "default", 22, True, error="browser died", category="math", structure="answer"))
    return out


def test_simuwob_classes_of_every_family():
    assert simuwob_class("math", "answer") == simuwob_class("count", "answer") == "math-related"
    assert simuwob_class("multi-app", "conjunctive") == "long-horizon"
    assert simuwob_class("decision", "hierarchical") == simuwob_class("order", "sequential") == "long-horizon"
    assert simuwob_class("edit", "single") == simuwob_class("navigate", "single") == "simple"
    assert simuwob_class(None, "single") == "(unknown)"
    classes = {simuwob_class(f.category, f.structure) for f in all_families().values()}
    assert classes == set(SIMUWOB_CLASSES), "every class has shipped families, none is unknown"


def test_success_by_category_and_class():
    df = pd.DataFrame(_episodes())
    by_class = category_success(df, ["agent", "simuwob_class"])
    assert list(by_class["simuwob_class"]) == ["simple", "long-horizon", "math-related"]
    row = by_class.set_index("simuwob_class").loc["math-related"]
    assert (row["n"], row["successes"]) == (2, 1), "the infrastructure error is left out"
    assert row["ci_lo"] < 0.5 < row["ci_hi"] and math.isclose(row["mean_steps"], 5.0)
    by_cat = category_success(df).set_index("category")
    assert math.isclose(by_cat.loc["edit", "sr"], 2 / 3) and by_cat.loc["count", "sr"] == 0.0
    older = pd.DataFrame([record("alpha", "default", 0, True)])  # no category field
    assert list(category_success(older)["category"]) == ["(unknown)"]


def test_the_report_groups_success_by_category(tmp_path: Path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _episodes()))
    md_path, html_path = write_report(run)
    md = md_section(md_path.read_text(encoding="utf-8"), "Success by task category")
    assert "| alpha | long-horizon | 2 | 50.0% [" in md and "| alpha | multi-app | 2 | 50.0% [" in md
    assert "SimuWoB" in md
    html = html_path.read_text(encoding="utf-8")
    assert 'id="categories"' in html and "math-related" in html
