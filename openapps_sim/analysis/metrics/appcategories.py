"""Results by app category: each episode's app category is the Google Play category of the apps
its task needs (a hand-built app's declared ``category``, a described app's ``category:``, as
``openapps apps`` lists them); success, and the deviation of rewards within versus across
versions, per agent and app category (``openapps report --by app_category``, the report's
section "By app category", the export's ``app_category`` column).

A task of several apps of different categories is in the category of them all, joined
(``Finance + Productivity``); a task of the start page alone is ``(start page)``; an app that is
not on the search path any more is ``(unknown)``. (A record's ``category`` is its task family's
kind, edit or math: :mod:`.categories`.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import pandas as pd

from openapps_sim.analysis.doc.blocks import P, Section, Shown, Table
from openapps_sim.analysis.doc.cells import Column, col, table_of
from openapps_sim.analysis.doc.fmt import fmt_count, fmt_rate_ci, fmt_ratio, fmt_std, text_table
from openapps_sim.analysis.metrics.reliability import reliability_summary
from openapps_sim.analysis.metrics.values import is_missing

if TYPE_CHECKING:
    from openapps_sim.analysis.report.analysis import Analysis

UNKNOWN = "(unknown)"
START = "(start page)"
COLUMN = "app_category"
JOIN = " + "


def app_categories() -> dict[str, str]:
    """Every app's category by name ('' for the start page), as discovered now."""
    from openapps_sim.config.discovery import discover_apps

    return {name: ("" if spec.home else spec.category) for name, spec in discover_apps().items()}


def app_category(task_apps: Iterable[str] | None, task: str, categories: Mapping[str, str]) -> str:
    """The app category of an episode: its task's apps' categories (the task id's app when the
    record names none), joined in name order."""
    apps = [str(a) for a in task_apps or []] or [str(task).split(".")[0]]
    found = {categories.get(a, UNKNOWN) for a in apps} - {""}
    return JOIN.join(sorted(found)) if found else START


def with_app_category(df: pd.DataFrame, categories: Mapping[str, str] | None = None) -> pd.DataFrame:
    """``df`` with an ``app_category`` column (:func:`app_category` of each row)."""
    cats = app_categories() if categories is None else categories
    apps = df["task_apps"] if "task_apps" in df.columns else pd.Series([None] * len(df), index=df.index)
    tasks = df["task"] if "task" in df.columns else pd.Series([""] * len(df), index=df.index)
    values = [
        app_category(None if is_missing(a) else a, t, cats) for a, t in zip(apps.tolist(), tasks.tolist(), strict=True)
    ]
    return df.assign(**{COLUMN: values})


def by_app_category(
    df: pd.DataFrame,
    version: Sequence[str] = ("variation",),
    categories: Mapping[str, str] | None = None,
    n_boot: int = 2000,
    seed: int = 0,
) -> pd.DataFrame:
    """Per agent and app category: ``n``, ``success_rate`` with ``ci_low``/``ci_high``, and
    ``within_std``, ``across_std``, ``std_ratio``, ``within_mad``, ``across_mad``, ``mad_ratio``
    (over each category's tasks, versions as in the headline:
    :func:`~openapps_sim.analysis.metrics.reliability.reliability_summary`)."""
    summary = reliability_summary(
        with_app_category(df, categories), ["agent", COLUMN], version, n_boot=n_boot, seed=seed
    )
    if summary.empty:
        return summary
    return summary.sort_values(["agent", COLUMN], kind="stable").reset_index(drop=True)


TABLE: list[Column] = [
    ("Agent", col("agent")),
    ("App category", col(COLUMN)),
    ("Episodes", col("n", fmt_count)),
    ("Success [95% CI]", lambda r: fmt_rate_ci(r["success_rate"], r.get("ci_low"), r.get("ci_high"))),
    ("Within std", col("within_std", fmt_std)),
    ("Across std", col("across_std", fmt_std)),
    ("Across/within std", col("std_ratio", fmt_ratio)),
    ("Within MAD", col("within_mad", fmt_std)),
    ("Across MAD", col("across_mad", fmt_std)),
]
NOTE = (
    "An episode's app category is the Google Play category of the apps its task needs (several "
    "joined with +). Within: the deviation of rewards over the seeds (or trials) of one version, "
    "across: over every version pooled; both averaged over the category's tasks, as in the headline."
)


def app_category_text(df: pd.DataFrame, min_repeats: int = 2, n_boot: int = 2000, seed: int = 0) -> str:
    """The table of a results table, for a terminal (``openapps report --by app_category``)."""
    from openapps_sim.analysis.metrics.axes import version_columns
    from openapps_sim.analysis.metrics.table import prepare
    from openapps_sim.analysis.report.analysis import distinguish_agent_configs

    p = prepare(distinguish_agent_configs(df), min_repeats)
    frame = by_app_category(p, version_columns(p), n_boot=n_boot, seed=seed)
    if frame.empty:
        return "no scored episodes"
    return text_table(*table_of(frame, TABLE), ["l", "l", "r", "r", "r", "r", "r", "r", "r"])


def app_category_section(a: Analysis) -> Section:
    frame = by_app_category(a.df, a.version, n_boot=a.n_boot, seed=a.seed)
    if frame.empty:
        return Section("appcategories", "By app category", [P("No scored episodes.")])
    headers, rows = table_of(frame, TABLE)
    return Section("appcategories", "By app category", [P(NOTE), Table(headers, rows, ["l", "l"] + ["r"] * 7)])


SHOWN = [Shown(157, lambda d: app_category_section(d.a))]
