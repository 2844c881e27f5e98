"""The OpenApps paper's views as frames, with bootstrap intervals over tasks on every deviation
and ratio: per-task reliability in one version (Table 4), per-version reliability averaged over
tasks (Tables 5 and 6, Figure 6), within/across deviation per agent with intervals (Figures 5
and 10), any axis crossed with the variation (Table 7, Figure 9) and multi-step partial credit
(Table 9)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from openapps_sim.analysis.metrics.reliability import deviation_summary, safe_ratio, within_version_deviation
from openapps_sim.analysis.metrics.stats import group_seed, success_rate
from openapps_sim.analysis.metrics.table import Grouping, valid_episodes

MULTI_STEP = ("sequential", "conjunctive", "conditional", "hierarchical")
"""Family structures whose goal has several sub-goals (the paper's multi-step tasks, Table 9)."""


def _boot_rows(values: np.ndarray, n_boot: int, seed: list[int], level: float = 0.95) -> np.ndarray:
    """Bootstrap resamples of the rows of ``values`` (tasks x columns): the column means of each
    resample, NaNs ignored; shape (n_boot, columns)."""
    rng = np.random.default_rng(seed)
    n = len(values)
    idx = rng.integers(0, n, size=(n_boot, n))
    if not n:
        return np.full((n_boot, values.shape[1]), np.nan)
    return _nanmean(values[idx], axis=1)


def _nanmean(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """Mean ignoring NaN; NaN (quietly) where every value is NaN (no task had a deviation)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(values, axis=axis)


def _interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    ok = samples[~np.isnan(samples) & ~np.isinf(samples)]
    if not len(ok):
        return (float("nan"), float("nan"))
    a = (1 - level) / 2
    lo, hi = np.quantile(ok, [a, 1 - a])
    return float(lo), float(hi)


def deviation_intervals(
    df: pd.DataFrame,
    by: Sequence[str] = ("agent",),
    version: Sequence[str] = ("variation",),
    n_boot: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """Within/across std and MAD per ``by`` group (averaged over tasks, as
    :func:`agent_deviation`) with 95% bootstrap intervals over tasks for each of them and for the
    ratios ``std_ratio`` and ``mad_ratio`` (ratio of the resampled means). Columns: ``by``,
    ``tasks``, and for each statistic ``s``: ``s``, ``s_lo``, ``s_hi``."""
    by = list(by)
    ver = [c for c in version if c not in by]
    per = deviation_summary(df, [*by, "task"], ver)
    rows = []
    stats = ["within_std", "across_std", "within_mad", "across_mad"]
    for key, g in per.groupby(by, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        vals = g[stats].to_numpy(dtype=float)
        row = dict(zip(by, key, strict=True))
        row["tasks"] = len(g)
        means = _nanmean(vals) if len(vals) else np.full(4, np.nan)
        boot = _boot_rows(vals, n_boot, group_seed(seed, key))
        for i, s in enumerate(stats):
            row[s] = float(means[i])
            row[f"{s}_lo"], row[f"{s}_hi"] = _interval(boot[:, i])
        for name, num, den in (("std_ratio", 1, 0), ("mad_ratio", 3, 2)):
            row[name] = safe_ratio(means[num], means[den])
            with np.errstate(invalid="ignore", divide="ignore"):
                r = boot[:, num] / boot[:, den]
            row[f"{name}_lo"], row[f"{name}_hi"] = _interval(r)
        rows.append(row)
    return pd.DataFrame(rows)


def task_reliability(df: pd.DataFrame, version: str = "default") -> pd.DataFrame:
    """The paper's Table 4: per agent and task in one version, pass@1 over seeds (trials when
    recorded) and the std and MAD of the rewards. Columns: ``agent``, ``task``, ``n``,
    ``success_rate``, ``std``, ``mad``."""
    v = valid_episodes(df)
    v = v[v["variation"] == version]
    if v.empty:
        return pd.DataFrame(columns=["agent", "task", "n", "success_rate", "std", "mad"])
    d = within_version_deviation(v, ["agent", "task", "variation"])
    sr = success_rate(v, ["agent", "task", "variation"])
    out = sr.merge(d[["agent", "task", "variation", "std", "mad"]], on=["agent", "task", "variation"], how="left")
    return out[["agent", "task", "n", "success_rate", "std", "mad"]]


def version_reliability(
    df: pd.DataFrame, by: Sequence[str] = ("agent", "variation"), n_boot: int = 1000, seed: int = 0
) -> pd.DataFrame:
    """The paper's Tables 5 and 6 (and Figure 6): per agent and version, pass@1 over seeds
    averaged over tasks, and the std and MAD of the rewards over seeds averaged over tasks, each
    with a bootstrap interval over tasks. Columns: ``by``, ``tasks``, ``n``, and ``success_rate``,
    ``std``, ``mad`` each with ``_lo``/``_hi``."""
    by = list(by)
    v = valid_episodes(df)
    if v.empty:
        return pd.DataFrame()
    d = within_version_deviation(v, [*by, "task"])
    sr = success_rate(v, [*by, "task"])
    per = sr.merge(d[[*by, "task", "std", "mad"]], on=[*by, "task"], how="left")
    rows = []
    for key, g in per.groupby(by, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        vals = g[["success_rate", "std", "mad"]].to_numpy(dtype=float)
        row = {**dict(zip(by, key, strict=True)), "tasks": len(g), "n": int(g["n"].sum())}
        boot = _boot_rows(vals, n_boot, group_seed(seed, key))
        means = _nanmean(vals)
        for i, s in enumerate(("success_rate", "std", "mad")):
            row[s] = float(means[i])
            row[f"{s}_lo"], row[f"{s}_hi"] = _interval(boot[:, i])
        rows.append(row)
    return pd.DataFrame(rows)


def axis_grid(df: pd.DataFrame, axis: str, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Success per ``axis`` value x variation (the paper's Table 7 for the viewport, Figure 9
    for the temperature): pass@1 averaged over tasks in each cell. Columns: ``by``, ``axis``,
    ``variation``, ``tasks``, ``n``, ``success_rate``."""
    v = valid_episodes(df)
    if v.empty or axis not in v.columns:
        return pd.DataFrame()
    per = success_rate(v, [*by, axis, "variation", "task"])
    g = Grouping(per, [*by, axis, "variation"])
    return g.frame(tasks=g.n, n=g.sum(per["n"]).round().astype(int), success_rate=g.mean(per["success_rate"]))


def multi_step(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """The paper's Table 9 over the multi-step episodes (family structure in
    :data:`MULTI_STEP`): ``n``, ``success_rate``, ``partial_reward`` (mean share of sub-goals
    reached) and ``any_subgoal`` (share of episodes with at least one sub-goal reached)."""
    v = valid_episodes(df)
    if "structure" not in v.columns:
        return pd.DataFrame()
    v = v[v["structure"].isin(MULTI_STEP)]
    if v.empty:
        return pd.DataFrame()
    g = Grouping(v, list(by))
    partial = v["partial_reward"].to_numpy(dtype=float)
    return g.frame(
        n=g.n,
        success_rate=g.mean(v["success"].to_numpy(dtype=float)),
        partial_reward=g.mean(partial),
        any_subgoal=g.mean((partial > 0) | v["success"].to_numpy(dtype=bool)),
    )
