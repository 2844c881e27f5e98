"""The report's section on success by task category: per agent and SimuWoB class (simple,
long-horizon, math-related; :mod:`openapps_sim.analysis.metrics.categories`), and per agent and
the family's own category."""

from __future__ import annotations

import pandas as pd

from openapps_sim.analysis.metrics.categories import category_success
from openapps_sim.analysis.report.analysis import Analysis
from openapps_sim.analysis.report.blocks import P, Section, Table
from openapps_sim.analysis.report.fmt import fmt_num, fmt_rate_ci

NOTE = (
    "SimuWoB's classes: **math-related** (math and count families: aggregate and calculate), "
    "**long-horizon** (multi-app families and sequential or hierarchical structures: long chains of "
    "steps) and **simple** (every other family). Success with a 95% Wilson interval."
)
METRIC_HEADERS = ["Episodes", "Success [95% CI]", "Mean steps"]


def category_rows(frame: pd.DataFrame, by: list[str]) -> list[list[str]]:
    return [
        [
            *(str(r[b]) for b in by),
            str(int(r["n"])),
            fmt_rate_ci(r["sr"], r["ci_lo"], r["ci_hi"]),
            fmt_num(r["mean_steps"], 1),
        ]
        for _, r in frame.iterrows()
    ]


def categories(a: Analysis) -> Section:
    """Success per agent and SimuWoB class, then per agent and family category."""
    blocks: list = []
    for caption, column, label in (
        ("By SimuWoB class.", "simuwob_class", "Class"),
        ("By the family's category.", "category", "Category"),
    ):
        frame = category_success(a.df, ["agent", column])
        if frame.empty:
            continue
        headers = ["Agent", label, *METRIC_HEADERS]
        blocks.append(
            Table(headers, category_rows(frame, ["agent", column]), ["l", "l", "r", "r", "r"], caption=caption)
        )
    if blocks:
        blocks.insert(0, P(NOTE))
    return Section("categories", "Success by task category", blocks)
