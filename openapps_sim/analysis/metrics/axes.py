"""Axes that varied in a sweep (variation, viewport, temperature ...) and breakdowns by them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from openapps_sim.analysis.doc.fmt import DASH, fmt_pct, fmt_rate_ci
from openapps_sim.analysis.metrics.stats import success_rate
from openapps_sim.analysis.metrics.table import STANDARD_AXES, UNSET, sort_key, valid_episodes
from openapps_sim.analysis.metrics.values import is_missing


def axis_label(value: Any) -> str:
    """How an axis value is shown: "unset" for missing, ``%g`` for numbers, else ``str``."""
    if is_missing(value):
        return UNSET
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.integer, np.floating)):
        return f"{float(value):g}"
    return str(value)


def varied_axes(df: pd.DataFrame, axes: Iterable[str] | None = None, within: Sequence[str] = ("agent",)) -> list[str]:
    """The axis columns that took more than one value among valid episodes.

    Candidates: :data:`STANDARD_AXES` plus ``axes``, in that order, if present. An axis counts
    as varied when it has more than one value (missing counts as a value) *within* one group of
    ``within`` (by default within one agent): a temperature set for an LLM agent and unset for
    the oracle, or one config per agent, is a property of the agents, not a swept axis.
    """
    v = valid_episodes(df)
    cands = list(dict.fromkeys([*STANDARD_AXES, *(axes or [])]))
    within = [w for w in within if w in v.columns]
    out = []
    for col in cands:
        if col not in v.columns or col in within or v.empty:
            continue
        labels = v[col].map(axis_label)
        if within:
            counts = labels.groupby([v[w] for w in within], dropna=False).nunique()
            varied = bool((counts > 1).any())
        else:
            varied = labels.nunique() > 1
        if varied:
            out.append(col)
    return out


def version_columns(df: pd.DataFrame, axes: Iterable[str] | None = None) -> list[str]:
    """The columns that define one *version* for within/across deviation.

    ``variation`` plus every other varied axis except ``agent_config`` (a property of the
    agent), so that the episodes of one cell differ only by seed.
    """
    return ["variation"] + [a for a in varied_axes(df, axes) if a not in ("variation", "agent_config")]


def axis_breakdown(
    df: pd.DataFrame,
    axes: Iterable[str] | None = None,
    by: Sequence[str] = ("agent",),
    ci: bool = True,
    n_boot: int = 2000,
    level: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Success rate per value of every varied axis (see :func:`varied_axes`), per ``by`` group.

    Long format: ``axis``, ``value`` (the :func:`axis_label`), the ``by`` columns, ``n``,
    ``successes``, ``success_rate`` and, with ``ci``, ``ci_low``/``ci_high``. Rows are ordered
    by axis, then value (numeric/area order, "default" first, "unset" last), then group.
    """
    v = valid_episodes(df)
    frames = []
    for axis in varied_axes(v, axes, within=by):
        tmp = v.copy()
        order = {axis_label(x): sort_key(x) for x in v[axis]}
        tmp["value"] = v[axis].map(axis_label)
        rates = success_rate(tmp, ["value", *by], ci, n_boot, level, seed)
        rates["_order"] = rates["value"].map(order)
        rates = rates.sort_values("_order", kind="stable").drop(columns="_order")
        rates.insert(0, "axis", axis)
        frames.append(rates)
    if not frames:
        cols = ["axis", "value", *by, "n", "successes", "success_rate", "mean_partial_reward"]
        return pd.DataFrame(columns=cols + (["ci_low", "ci_high"] if ci else []))
    return pd.concat(frames, ignore_index=True)


class Rows:
    """Rows of a frame found by the values of some columns (a dict built once)."""

    def __init__(self, frame: pd.DataFrame, *cols: str):
        self.cols = cols
        self.index: dict[tuple, dict] = {}
        for rec in frame.to_dict("records"):
            self.index.setdefault(tuple(axis_label(rec[c]) for c in cols), rec)

    def get(self, *values: Any) -> dict | None:
        return self.index.get(tuple(axis_label(v) for v in values))


def rate_rows(
    frame: pd.DataFrame, key: str, keys: Iterable[Any], agents: Sequence[str], ci: bool = True
) -> list[list[str]]:
    """A row per value of ``key`` in ``keys``, a cell per agent: its success rate (with the 95%
    interval when ``ci``) and ``(n=N)``, a dash where the agent has no row of that value."""
    lookup = Rows(frame, key, "agent")

    def cell(r: dict | None) -> str:
        if r is None:
            return DASH
        rate = fmt_rate_ci(r["success_rate"], r["ci_low"], r["ci_high"]) if ci else fmt_pct(r["success_rate"])
        return f"{rate} (n={int(r['n'])})"

    return [[str(k), *(cell(lookup.get(k, ag)) for ag in agents)] for k in keys]
