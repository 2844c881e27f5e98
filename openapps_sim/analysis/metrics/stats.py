"""Statistics: bootstrap and Wilson intervals, success rate with intervals, population std,
mean absolute deviation, pass@k and pass^k estimators."""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from openapps_sim.analysis.metrics.table import DEFAULT_CELL, Grouping, frame_of, iter_groups, key_dict, valid_episodes


def bootstrap_ci(
    values: Sequence[float] | np.ndarray, n_boot: int = 2000, level: float = 0.95, seed: int | Sequence[int] = 0
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``.

    Draws ``n_boot`` resamples of the episodes with replacement (each the size of the
    original), takes each resample's mean and returns the ``(1-level)/2`` and
    ``(1+level)/2`` quantiles. Deterministic for a given ``seed``. An empty input gives
    ``(nan, nan)``; a constant input (all successes, all failures, one episode) gives a
    zero-width interval -- see :func:`wilson_interval` for a binomial interval that does not
    collapse.
    """
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return (float("nan"), float("nan"))
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    batch = max(1, 2_000_000 // n)  # bound memory: at most ~2M indices at a time
    for start in range(0, n_boot, batch):
        stop = min(n_boot, start + batch)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = x[idx].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return (float(lo), float(hi))


def wilson_interval(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (does not collapse at 0 or n successes)."""
    if n <= 0:
        return (float("nan"), float("nan"))
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def group_seed(seed: int, key: tuple) -> list[int]:
    """A per-group seed so a group's interval does not depend on which other groups exist."""
    return [int(seed), zlib.crc32(repr(tuple(str(k) for k in key)).encode())]


def success_rate(
    df: pd.DataFrame,
    by: Sequence[str] = DEFAULT_CELL,
    ci: bool = False,
    n_boot: int = 2000,
    level: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Success rate (pass@1) per group: ``successes / n`` over valid episodes.

    Columns: the ``by`` columns, ``n`` (valid episodes), ``successes``, ``success_rate``,
    ``mean_partial_reward`` and, with ``ci=True``, ``ci_low``/``ci_high`` from
    :func:`bootstrap_ci` resampling the group's episodes (seeded per group).
    """
    v = valid_episodes(df)
    g = Grouping(v, by)
    s = v["success"].to_numpy(dtype=float)
    cols: dict[str, Any] = {
        "n": g.n,
        "successes": g.sum(s).round().astype(int),
        "success_rate": g.mean(s),
        "mean_partial_reward": g.mean(v["partial_reward"]),
    }
    if ci:
        bounds = [
            bootstrap_ci(s[idx], n_boot, level, group_seed(seed, key))
            for key, idx in zip(g.keys, g.members(), strict=True)
        ]
        cols["ci_low"] = [b[0] for b in bounds]
        cols["ci_high"] = [b[1] for b in bounds]
    return g.frame(**cols)


def population_std(values: Sequence[float] | np.ndarray) -> float:
    """``sqrt(mean((r - mean(r))**2))`` -- the population (ddof=0) standard deviation."""
    x = np.asarray(values, dtype=float)
    return float(np.sqrt(np.mean((x - x.mean()) ** 2))) if len(x) else float("nan")


def mean_absolute_deviation(values: Sequence[float] | np.ndarray) -> float:
    """``mean(|r - mean(r)|)`` -- the paper's MAD (Appendix D.5, Eq. 2)."""
    x = np.asarray(values, dtype=float)
    return float(np.mean(np.abs(x - x.mean()))) if len(x) else float("nan")


def _check_k(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got c={c}, n={n}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got k={k}, n={n}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k: probability that at least one of k episodes drawn without replacement
    from n (c of them successful) succeeds: ``1 - C(n-c, k) / C(n, k)``."""
    _check_k(n, c, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased pass^k: probability that all k episodes drawn without replacement from n
    succeed: ``C(c, k) / C(n, k)``."""
    _check_k(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def pass_k(df: pd.DataFrame, cell: Sequence[str] = DEFAULT_CELL, ks: Iterable[int] | None = None) -> pd.DataFrame:
    """pass@k and pass^k per cell over its episodes (seeds), one row per cell and k.

    ``ks`` defaults to 1..n of each cell; a requested k larger than a cell's n is skipped for
    that cell. Columns: ``cell``, ``n``, ``c``, ``k``, ``pass_at_k``, ``pass_hat_k``.
    """
    v = valid_episodes(df)
    wanted = None if ks is None else sorted({int(k) for k in ks})
    g = Grouping(v, cell)
    cs = g.sum(v["success"].to_numpy(dtype=float)).round().astype(int)
    rows = []
    for key, n, c in zip(g.keys, g.n, cs, strict=True):
        n, c = int(n), int(c)
        for k in range(1, n + 1) if wanted is None else [k for k in wanted if 1 <= k <= n]:
            rows.append(
                {
                    **key_dict(cell, key),
                    "n": n,
                    "c": c,
                    "k": k,
                    "pass_at_k": pass_at_k(n, c, k),
                    "pass_hat_k": pass_hat_k(n, c, k),
                }
            )
    return frame_of(rows, [*cell, "n", "c", "k", "pass_at_k", "pass_hat_k"])


def pass_k_summary(
    df: pd.DataFrame, by: Sequence[str] = ("agent",), cell: Sequence[str] = DEFAULT_CELL
) -> pd.DataFrame:
    """Mean pass@k and pass^k over a group's cells, for k = 1 .. the usual cell size.

    The usual cell size is the most common number of episodes per cell (the seeds the sweep
    planned; ties go to the larger). For each k the mean is over the cells with at least k
    episodes, so a cell that lost an episode to an infrastructure error leaves the largest k
    instead of truncating the whole curve; ``cells`` says how many cells each mean covers.
    Columns: ``by``, ``k``, ``cells``, ``pass_at_k``, ``pass_hat_k``.
    """
    cell = list(dict.fromkeys([*by, *cell]))
    per = pass_k(df, cell)
    rows = []
    for key, g in iter_groups(per[[*by, "n", "k", "pass_at_k", "pass_hat_k"]], by):
        sizes = g.loc[g["k"] == 1, "n"]  # one row per cell
        counts = sizes.value_counts()
        k_max = int(max(counts[counts == counts.max()].index))
        for k in range(1, k_max + 1):
            gk = g[g["k"] == k]
            rows.append(
                {
                    **key_dict(by, key),
                    "k": k,
                    "cells": len(gk),
                    "pass_at_k": float(gk["pass_at_k"].mean()),
                    "pass_hat_k": float(gk["pass_hat_k"].mean()),
                }
            )
    return frame_of(rows, [*by, "k", "cells", "pass_at_k", "pass_hat_k"])
