"""Success by task category: the family's own ``category`` (edit, decision, math, multi-app, ...)
and SimuWoB's three classes of difficulty (Sec. 3.2.1 of the SimuWoB paper):

* **math-related** — information aggregation and calculation: ``math`` and ``count`` families;
* **long-horizon** — long chains of steps or more information involved: ``multi-app`` families
  and the ``sequential`` and ``hierarchical`` structures;
* **simple** — navigation and single operations: every other family.

The class is derived from the record's ``category`` and ``structure`` (both written by the
runner from the family), so results written before a family changed class keep the class they
were run as.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from openapps_sim.analysis.doc.blocks import P, Section, Shown, Table
from openapps_sim.analysis.doc.cells import Column, col, table_of
from openapps_sim.analysis.doc.fmt import fmt_count, fmt_num, fmt_rate_ci
from openapps_sim.analysis.metrics.stats import wilson_interval
from openapps_sim.analysis.metrics.table import Grouping, valid_episodes
from openapps_sim.analysis.metrics.values import is_missing

if TYPE_CHECKING:
    from openapps_sim.analysis.report.analysis import Analysis


SIMUWOB_CLASSES = ("simple", "long-horizon", "math-related")
MATH_CATEGORIES = frozenset({"math", "count"})
LONG_CATEGORIES = frozenset({"multi-app"})
LONG_STRUCTURES = frozenset({"sequential", "hierarchical"})
CATEGORY_COLUMNS = ["n", "successes", "sr", "ci_lo", "ci_hi", "mean_steps"]
UNKNOWN = "(unknown)"  # records without a category (written before the field)


def simuwob_class(category: object, structure: object) -> str:
    """SimuWoB's class of a family from its category and structure (see the module docstring)."""
    if is_missing(category) or not str(category):
        return UNKNOWN
    if category in MATH_CATEGORIES:
        return "math-related"
    if category in LONG_CATEGORIES or structure in LONG_STRUCTURES:
        return "long-horizon"
    return "simple"


def with_classes(df: pd.DataFrame) -> pd.DataFrame:
    """The valid episodes with ``category`` filled in and a ``simuwob_class`` column."""
    v = valid_episodes(df).copy()
    if v.empty:
        return v.assign(category=[], simuwob_class=[])
    cats = v["category"] if "category" in v.columns else pd.Series([None] * len(v), index=v.index)
    structs = v["structure"] if "structure" in v.columns else pd.Series([None] * len(v), index=v.index)
    v["simuwob_class"] = [simuwob_class(c, s) for c, s in zip(cats, structs, strict=True)]
    v["category"] = [UNKNOWN if is_missing(c) or not str(c) else str(c) for c in cats]
    return v


def _order(key: tuple, by: Sequence[str]) -> tuple:
    """SimuWoB's classes in the paper's order (simple, long-horizon, math-related), others by name."""
    return tuple(
        (SIMUWOB_CLASSES.index(k) if k in SIMUWOB_CLASSES else len(SIMUWOB_CLASSES), str(k))
        if b == "simuwob_class"
        else (0, str(k))
        for b, k in zip(by, key, strict=True)
    )


def category_success(df: pd.DataFrame, by: Sequence[str] = ("agent", "category")) -> pd.DataFrame:
    """Per group (e.g. agent × category, or agent × simuwob_class): episodes, successes, success
    rate with a 95% Wilson interval and the mean number of steps."""
    v = with_classes(df)
    by = list(by)
    if v.empty:
        return pd.DataFrame(columns=[*by, *CATEGORY_COLUMNS])
    g = Grouping(v, by)
    wins = g.sum(v["success"].astype(bool)).round().astype(int)
    ci = [wilson_interval(int(w), int(n)) for w, n in zip(wins, g.n, strict=True)]
    steps = pd.to_numeric(v["steps"], errors="coerce") if "steps" in v.columns else np.full(len(v), np.nan)
    out = g.frame(
        n=g.n,
        successes=wins,
        sr=wins / g.n,
        ci_lo=[lo for lo, _ in ci],
        ci_hi=[hi for _, hi in ci],
        mean_steps=g.mean(steps),
    )
    order = sorted(range(g.size), key=lambda i: _order(g.keys[i], by))
    return out.iloc[order].reset_index(drop=True)


NOTE = (
    "SimuWoB's classes: **math-related** (math and count families: aggregate and calculate), "
    "**long-horizon** (multi-app families and sequential or hierarchical structures: long chains of "
    "steps) and **simple** (every other family). Success with a 95% Wilson interval."
)
METRIC_TABLE: list[Column] = [
    ("Episodes", col("n", fmt_count)),
    ("Success [95% CI]", lambda r: fmt_rate_ci(r["sr"], r["ci_lo"], r["ci_hi"])),
    ("Mean steps", col("mean_steps", lambda x: fmt_num(x, 1))),
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
        columns = [("Agent", col("agent")), (label, col(column)), *METRIC_TABLE]
        blocks.append(Table(*table_of(frame, columns), ["l", "l", "r", "r", "r"], caption=caption))
    if blocks:
        blocks.insert(0, P(NOTE))
    return Section("categories", "Success by task category", blocks)


SHOWN = [Shown(150, lambda d: categories(d.a))]
