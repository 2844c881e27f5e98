"""Reliability within and across app versions: deviations, their ratio, fluctuation, success
per version, and the combined per-agent summary."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from openapps_sim.analysis.metrics.axes import axis_label
from openapps_sim.analysis.metrics.breaks import loop_kind_rates
from openapps_sim.analysis.metrics.rates import (
    effort,
    error_summary,
    intent_misunderstanding_rate,
    invalid_rates,
    loop_rates,
)
from openapps_sim.analysis.metrics.stats import success_rate
from openapps_sim.analysis.metrics.table import (
    DEFAULT_CELL,
    STANDARD_AXES,
    Grouping,
    iter_groups,
    key_dict,
    row_codes,
    valid_episodes,
)
from openapps_sim.analysis.metrics.values import is_missing

WITHIN_OVER: tuple[str, ...] = ("seeds", "trials")
"""What a within-version deviation is taken over: the instances (seeds) of one version, or the
repeated trials of one instance (the paper's fixed-prompt repeats; sweeps with ``trials: k``)."""
DEVIATIONS = ("std", "mad")  # the two deviations compared within and across versions


INSTANCE_AXES: tuple[str, ...] = (*STANDARD_AXES, "backend")
"""Besides the cell and the seed, what makes two episodes runs of different instances: a run in
German, at another viewport or on another backend is not a repeat of the English one."""


def instance_keys(df: pd.DataFrame, cell: Sequence[str] = DEFAULT_CELL) -> list[str]:
    """The columns naming one instance: the ``cell`` columns, every other swept axis the frame
    has (:data:`INSTANCE_AXES`) and the seed; its episodes differ only by trial."""
    axes = [c for c in INSTANCE_AXES if c in df.columns and c not in cell]
    return [*cell, *axes, "seed"]


def has_trials(df: pd.DataFrame) -> bool:
    """Whether some instance (:func:`instance_keys`) of the valid episodes ran more than one trial."""
    v = valid_episodes(df)
    if "trial" not in v.columns or v.empty:
        return False
    keys = [c for c in instance_keys(v) if c in v.columns]
    return bool((v.groupby(keys, dropna=False)["trial"].nunique() > 1).any())


def within_version_deviation(
    df: pd.DataFrame, cell: Sequence[str] = DEFAULT_CELL, value: str = "reward", min_n: int = 2, over: str = "auto"
) -> pd.DataFrame:
    """Deviation of rewards *within* each cell (one agent, task and version).

    ``over="seeds"``: the deviation of the cell's rewards over its seeds (instances).
    ``over="trials"``: for each instance (:func:`instance_keys`: the cell, the seed and every
    other axis fixed) the deviation over its repeated trials (same goal text), then the mean
    over the cell's instances -- the paper's definition. ``"auto"`` (default) takes trials when :func:`has_trials`, else seeds.

    Columns: the ``cell`` columns, ``n`` (episodes), ``mean``, ``std`` (population), ``mad``,
    ``within_over`` (``seeds`` or ``trials``). A group (cell, or instance for trials) with fewer
    than ``min_n`` episodes has NaN ``std``/``mad``: the spread of one reward is 0 by
    construction and says nothing about reliability.
    """
    if over not in ("auto", *WITHIN_OVER):
        raise ValueError(f"over must be auto, seeds or trials, not {over!r}")
    v = valid_episodes(df)
    if over == "auto":
        over = "trials" if has_trials(v) else "seeds"
    r = v[value].to_numpy(dtype=float)
    g = Grouping(v, cell)
    if over == "seeds":
        ok = g.n >= min_n
        std, mad = np.where(ok, g.std(r), np.nan), np.where(ok, g.mad(r), np.nan)
    else:
        inst = Grouping(v, instance_keys(v, cell))
        ok = inst.n >= min_n
        per = inst.frame(std=np.where(ok, inst.std(r), np.nan), mad=np.where(ok, inst.mad(r), np.nan))
        back = Grouping(per, cell)  # same cell keys and order as ``g``
        std, mad = back.mean(per["std"]), back.mean(per["mad"])
    return g.frame(n=g.n, mean=g.mean(r), std=std, mad=mad, within_over=[over] * g.size)


def across_version_deviation(
    df: pd.DataFrame,
    unit: Sequence[str] = ("agent", "task"),
    version: Sequence[str] = ("variation",),
    value: str = "reward",
    min_n: int = 2,
) -> pd.DataFrame:
    """Deviation of the rewards of every version pooled, per unit (one agent on one task).

    The paper's "overall deviation across app variations": ``std({R_v1, R_v2, ...})`` over the
    ``n*d`` rewards of ``d`` versions. Columns: the ``unit`` columns, ``n``, ``n_versions``,
    ``mean``, ``std``, ``mad`` (NaN below ``min_n`` episodes).
    """
    v = valid_episodes(df)
    g = Grouping(v, unit)
    r = v[value].to_numpy(dtype=float)
    ok = g.n >= min_n
    n_versions = g.nunique(row_codes(v, version)) if version else np.ones(g.size, dtype=np.int64)
    return g.frame(
        n=g.n,
        n_versions=n_versions,
        mean=g.mean(r),
        std=np.where(ok, g.std(r), np.nan),
        mad=np.where(ok, g.mad(r), np.nan),
    )


def safe_ratio(num: float, den: float) -> float:
    """``num / den``; NaN when either is NaN or both are 0; inf when only ``den`` is 0."""
    if is_missing(num) or is_missing(den):
        return float("nan")
    if den == 0:
        return float("nan") if num == 0 else float("inf")
    return float(num / den)


def deviation_summary(
    df: pd.DataFrame,
    unit: Sequence[str] = ("agent", "task"),
    version: Sequence[str] = ("variation",),
    value: str = "reward",
) -> pd.DataFrame:
    """Within- versus across-version deviation per unit (by default per agent and task).

    ``within_std``/``within_mad``: the mean over the unit's versions of the per-version
    deviation (versions with a single episode are skipped); ``across_std``/``across_mad``: the
    deviation of all the unit's rewards pooled; ``std_ratio = across_std / within_std`` and
    ``mad_ratio`` likewise (the paper reports the reciprocal, within / across). With the same
    number of seeds in every version the pooled variance is the mean within variance plus the
    variance of the version means, so ``across_std >= within_std`` and the ratio is at least 1.
    """
    over = "trials" if has_trials(df) else "seeds"
    within = within_version_deviation(df, [*unit, *version], value, over=over)
    across = across_version_deviation(df, unit, version, value)
    g = Grouping(within, unit)  # same keys, same order as ``across``
    n = g.sum(within["n"])
    return g.frame(
        within_over=[over] * g.size,
        n=n.round().astype(int),
        n_versions=g.n,
        mean=g.sum(within["mean"] * within["n"]) / n if g.size else [],
        **_deviation_columns(
            {s: g.mean(within[s]) for s in DEVIATIONS}, {s: across[s].to_numpy(dtype=float) for s in DEVIATIONS}
        ),
    )


def _deviation_columns(within: dict[str, Any], across: dict[str, Any]) -> dict[str, Any]:
    """For each deviation (``std``, then ``mad``): ``within_<d>``, ``across_<d>`` and the ratio
    ``<d>_ratio = across / within``, the columns in the order the tables show them."""
    columns: dict[str, Any] = {}
    for d in DEVIATIONS:
        columns |= {f"within_{d}": within[d], f"across_{d}": across[d], f"{d}_ratio": _ratios(across[d], within[d])}
    return columns


def _ratios(num: Any, den: Any) -> np.ndarray:
    """Element-wise :func:`safe_ratio`."""
    return np.array(
        [safe_ratio(a, b) for a, b in zip(np.asarray(num, float), np.asarray(den, float), strict=True)], dtype=float
    )


def agent_deviation(
    df: pd.DataFrame,
    by: Sequence[str] = ("agent",),
    unit: Sequence[str] = ("task",),
    version: Sequence[str] = ("variation",),
    value: str = "reward",
) -> pd.DataFrame:
    """Within/across deviation averaged over tasks, per agent (the paper's Figure 5 / 10).

    For each ``by`` group: the mean over its units (tasks) of ``within_std``, ``across_std``,
    ``within_mad`` and ``across_mad`` from :func:`deviation_summary`, and the ratios of those
    means (a ratio of averages, so one task with zero within-deviation does not make it
    infinite).
    """
    per_unit = deviation_summary(df, [*by, *unit], version, value)
    g = Grouping(per_unit, by)
    mean = {side: {d: g.mean(per_unit[f"{side}_{d}"]) for d in DEVIATIONS} for side in ("within", "across")}
    over = "trials" if has_trials(df) else "seeds"
    return g.frame(units=g.n, within_over=[over] * g.size, **_deviation_columns(mean["within"], mean["across"]))


def version_label(values: Sequence[Any]) -> str:
    """A readable name for one version: its axis values joined by `` · ``."""
    return " · ".join(axis_label(v) for v in values)


def _tied(names: list[str], most: int = 3) -> str:
    extra = f" +{len(names) - most} more" if len(names) > most else ""
    return ", ".join(names[:most]) + extra


def fluctuation(
    df: pd.DataFrame, unit: Sequence[str] = ("agent", "task"), version: Sequence[str] = ("variation",)
) -> pd.DataFrame:
    """Largest minus smallest per-version success rate, per unit (the paper's Table 2).

    Columns: the ``unit`` columns, ``n_versions``, ``max_success``, ``best_version``,
    ``min_success``, ``worst_version``, ``fluctuation`` (NaN with fewer than two versions).
    Sorted by ``fluctuation``, largest first (ties in unit order). When several versions share
    the best (worst) rate they are all named, comma-separated (at most three, then "+N more").
    """
    rates = success_rate(df, [*unit, *version])
    g = Grouping(rates, unit)
    sr = rates["success_rate"].to_numpy(dtype=float)
    hi, lo = g.max(sr), g.min(sr)
    names = (
        [version_label(vals) for vals in zip(*(rates[c] for c in version), strict=True)]
        if version
        else [""] * len(rates)
    )
    best, worst = [], []
    for k, idx in enumerate(g.members()):
        best.append(_tied([names[i] for i in idx if sr[i] == hi[k]]))
        worst.append(_tied([names[i] for i in idx if sr[i] == lo[k]]))
    out = g.frame(
        n_versions=g.n,
        max_success=hi,
        best_version=best,
        min_success=lo,
        worst_version=worst,
        fluctuation=np.where(g.n >= 2, hi - lo, np.nan),
    )
    if len(out):
        out = out.sort_values("fluctuation", ascending=False, kind="stable", na_position="last").reset_index(drop=True)
    return out


def version_success(
    df: pd.DataFrame,
    by: Sequence[str] = ("agent",),
    version: Sequence[str] = ("variation",),
    unit: Sequence[str] = ("task",),
    drop_unsolved: bool = False,
) -> pd.DataFrame:
    """Average task success per version (the paper's Figure 4): mean over tasks of pass@1.

    With ``drop_unsolved=True`` tasks an agent never solves in any version are left out, as in
    the paper's Figure 4. Columns: ``by``, ``version`` columns, ``tasks``, ``success_rate``.
    """
    per = success_rate(df, [*by, *unit, *version])
    if drop_unsolved and len(per):
        u = Grouping(per, [*by, *unit])
        per = per.loc[(u.sum(per["successes"]) > 0)[u.gid]]
    g = Grouping(per, [*by, *version])
    return g.frame(tasks=g.n, success_rate=g.mean(per["success_rate"]))


def reliability_summary(
    df: pd.DataFrame,
    by: Sequence[str] = ("agent",),
    version: Sequence[str] = ("variation",),
    unit: Sequence[str] = ("task",),
    ci: bool = True,
    n_boot: int = 2000,
    level: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Every headline number per ``by`` group, in one frame.

    ``n``, ``successes``, ``success_rate``, ``ci_low``/``ci_high``, ``mean_partial_reward``;
    ``within_std``, ``across_std``, ``std_ratio``, ``within_mad``, ``across_mad``,
    ``mad_ratio`` (:func:`agent_deviation`; versions are ``version`` minus the ``by`` columns);
    ``loops_per_episode``, ``episodes_with_loops``, ``stuck_per_episode`` (loops in which a
    repetition changed nothing; NaN when the run did not record per-step changes);
    ``invalid_per_episode``,
    ``invalid_per_step``; ``intent_rate``; ``mean_steps``, ``mean_duration_s``,
    ``mean_tokens``, ``total_tokens``, ``total_cost_usd``; ``errors`` (infrastructure and
    model-service errors, excluded from everything else; split into ``infrastructure`` and
    ``model_service``); ``agent_errors`` (episodes the agent's own exception ended: scored, as
    failures).
    """
    by = list(by)
    base = success_rate(df, by, ci, n_boot, level, seed)
    if base.empty:
        return base
    ver = [c for c in version if c not in by]
    dev = agent_deviation(df, by, [u for u in unit if u not in by], ver).drop(columns=["units"])
    parts = [
        dev,
        loop_rates(df, by)[[*by, "loops_per_episode", "episodes_with_loops"]],
        _stuck_rates(df, by),
        invalid_rates(df, by)[[*by, "invalid_per_episode", "invalid_per_step"]],
        intent_misunderstanding_rate(df, by)[[*by, "rate"]].rename(columns={"rate": "intent_rate"}),
        effort(df, by)[[*by, "mean_steps", "mean_duration_s", "mean_tokens", "total_tokens", "total_cost_usd"]],
    ]
    out = base
    for part in parts:
        out = _merge(out, part, by)
    errs = error_summary(df, by)[[*by, "errors", "infrastructure", "model_service", "agent_errors"]]
    out = _merge(out, errs, by)
    for col in ("errors", "infrastructure", "model_service", "agent_errors"):
        out[col] = out[col].fillna(0).astype(int)
    return out


def _stuck_rates(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    kinds = loop_kind_rates(df, by)
    if kinds.empty:
        return pd.DataFrame(columns=[*by, "stuck_per_episode"])
    kinds.loc[kinds["unknown_per_episode"] > 0, "stuck_per_episode"] = np.nan
    return kinds[[*by, "stuck_per_episode"]]


def _merge(left: pd.DataFrame, right: pd.DataFrame, on: Sequence[str]) -> pd.DataFrame:
    """Left merge on ``on`` treating NaN keys as equal (pandas merges NaN with NaN)."""
    return left.merge(right, on=list(on), how="left", sort=False)


def apply_by(df: pd.DataFrame, by: Sequence[str], fn: Callable[[pd.DataFrame], dict]) -> pd.DataFrame:
    """``fn(rows) -> dict`` for each group of valid episodes, as a frame (a helper for custom
    metrics)."""
    v = valid_episodes(df)
    return pd.DataFrame([{**key_dict(by, key), **fn(g)} for key, g in iter_groups(v, by)])
