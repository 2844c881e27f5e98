"""Reliability metrics over a results table: pure functions of a pandas DataFrame.

One row of the table is one episode (see docs/metrics.md for the columns). Every function here
is pure: it reads the frame it is given, returns a new object and does no I/O. Episodes whose
``error`` is set (an infrastructure failure: the browser crashed, the server died) are excluded
from every agent metric; :func:`error_summary` counts them separately.

The definitions follow the OpenApps paper (Ullrich et al.) where it gives one:

* success rate (pass@1): the mean of ``success`` over episodes;
* deviation *within* a version: the population standard deviation (and mean absolute
  deviation) of the rewards of one agent on one task in one app version: over the repeated
  trials of each instance when the results have trials (the paper's fixed-prompt repeats),
  else over seeds (``within_over`` says which);
* deviation *across* versions: the same statistics over the rewards of every version pooled;
* fluctuation: the largest minus the smallest per-version success rate of a task;
* loops: maximal runs of actions that consist entirely of a repeated subsequence;
* invalid actions: malformed, unknown, bad-argument and browser-rejected actions;
* intent misunderstanding: the agent opened an app the task does not need.

Grouping arguments (``by``, ``cell``, ``unit``, ``version``) are sequences of column names.
Missing values in grouping columns (an unset temperature) form their own group: nothing is
silently dropped.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

INVALID_CATEGORIES: tuple[str, ...] = ("malformed", "unknown_action", "bad_arguments", "browser_error")
"""The invalid-action categories the runner records (other keys are kept as extra columns)."""

STANDARD_AXES: tuple[str, ...] = ("variation", "viewport", "temperature", "language", "agent_config")
"""Columns that may be swept; :func:`varied_axes` checks these plus any named by the caller."""

DEFAULT_CELL: tuple[str, ...] = ("agent", "task", "variation")
"""One experimental cell: the seeds of one agent on one task in one app version."""

DEFAULT_MIN_REPEATS = 3
"""A loop is a block repeated at least this many times in a row (see :func:`find_loops`)."""

START_APP = "start"
"""The launcher page: visiting it never counts as opening an unneeded app."""

UNSET = "unset"
"""Label of a missing axis value (e.g. no temperature set) in breakdown tables."""

_PREPARED = "openapps_prepared_min_repeats"


# ----------------------------------------------------------------------------------------
# Preparing the table
# ----------------------------------------------------------------------------------------


def _missing(value: Any) -> bool:
    """True for None, NaN and pandas' NA."""
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # lists, dicts: never "missing"
        return False


def is_error(value: Any) -> bool:
    """Whether an ``error`` cell marks an infrastructure failure (a non-empty string)."""
    return not _missing(value) and str(value).strip() != ""


def _as_list(value: Any) -> list:
    if _missing(value):
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, str):
        return [value]
    return list(value)


def _as_dict(value: Any) -> dict:
    return dict(value) if isinstance(value, dict) else {}


def _as_bool(value: Any) -> bool:
    return False if _missing(value) else bool(value)


def token_total(tokens: Any) -> float:
    """Total tokens of one episode from its ``tokens`` dict.

    ``total_tokens`` or ``total`` when present; otherwise the sum of the numeric values whose key
    contains ``token`` (``input_tokens`` + ``output_tokens``, ``prompt_tokens`` + ...); 0 for an
    empty dict (an agent without a model); NaN when the dict has numbers but none of those keys.
    """
    d = _as_dict(tokens)
    if not d:
        return 0.0
    for key in ("total_tokens", "total"):
        if isinstance(d.get(key), (int, float)) and not isinstance(d.get(key), bool):
            return float(d[key])
    parts = [
        float(v) for k, v in d.items() if "token" in str(k) and isinstance(v, (int, float)) and not isinstance(v, bool)
    ]
    return float(sum(parts)) if parts else float("nan")


def prepare(df: pd.DataFrame, min_repeats: int = DEFAULT_MIN_REPEATS) -> pd.DataFrame:
    """A normalised copy of a results table with the derived columns every metric uses.

    Fills absent optional columns with neutral values (``variation`` "default", empty
    ``actions``/``invalid``/``apps_visited``/``task_apps``, ``error`` None), coerces types
    (``success`` bool, ``reward`` float, ``temperature`` float with NaN for unset,
    ``agent_config`` "default" when unset) and adds:

    * ``is_error`` -- the row is an infrastructure failure (excluded from agent metrics);
    * ``loops`` -- recomputed from ``actions`` with :func:`count_loops` (kept as given when the
      table has no ``actions`` column);
    * ``invalid_<category>`` for each category and ``invalid_total``;
    * ``intent_misunderstanding`` -- recomputed from ``apps_visited`` and ``task_apps``;
    * ``tokens_total`` -- see :func:`token_total`.

    Idempotent: a frame already prepared with the same ``min_repeats`` is returned unchanged.
    """
    if df.attrs.get(_PREPARED) == min_repeats:
        return df
    out = df.copy()
    n = len(out)
    for col in ("agent", "task"):
        if col not in out.columns:
            raise KeyError(f"results table has no {col!r} column")
    if "success" not in out.columns and "reward" not in out.columns:
        raise KeyError("results table has neither a 'success' nor a 'reward' column")
    if "variation" not in out.columns:
        out["variation"] = "default"
    out["variation"] = [("default" if _missing(v) else str(v)) for v in out["variation"]]
    if "agent_config" in out.columns:
        out["agent_config"] = [("default" if _missing(v) else str(v)) for v in out["agent_config"]]
    if "temperature" in out.columns:
        out["temperature"] = pd.to_numeric(out["temperature"], errors="coerce").astype(float)
    if "success" in out.columns:
        out["success"] = np.array([_as_bool(v) for v in out["success"]], dtype=bool)
    else:
        out["success"] = np.array([(not _missing(r)) and float(r) >= 1.0 for r in out["reward"]], dtype=bool)
    if "reward" in out.columns:
        out["reward"] = [
            float(s) if _missing(r) else float(r) for r, s in zip(out["reward"], out["success"], strict=True)
        ]
    else:
        out["reward"] = [float(s) for s in out["success"]]
    if "partial_reward" in out.columns:
        out["partial_reward"] = [
            r if _missing(p) else float(p) for p, r in zip(out["partial_reward"], out["reward"], strict=True)
        ]
    else:
        out["partial_reward"] = out["reward"]
    for col in ("actions", "apps_visited", "task_apps"):
        out[col] = [_as_list(v) for v in out[col]] if col in out.columns else [[] for _ in range(n)]
    out["invalid"] = [_as_dict(v) for v in out["invalid"]] if "invalid" in out.columns else [{} for _ in range(n)]
    out["error"] = [None if not is_error(v) else str(v) for v in out["error"]] if "error" in out.columns else [None] * n
    out["is_error"] = np.array([is_error(e) for e in out["error"]], dtype=bool)
    if "steps" in out.columns:
        out["steps"] = [len(a) if _missing(s) else int(s) for s, a in zip(out["steps"], out["actions"], strict=True)]
    else:
        out["steps"] = [len(a) for a in out["actions"]]
    out["duration_s"] = (
        pd.to_numeric(out["duration_s"], errors="coerce").astype(float) if "duration_s" in out.columns else np.nan
    )
    if "actions" in df.columns or "loops" not in out.columns:
        out["loops"] = [count_loops(a, min_repeats) for a in out["actions"]]
    else:
        out["loops"] = [0 if _missing(v) else int(v) for v in out["loops"]]
    extra = sorted({k for d in out["invalid"] for k in d} - set(INVALID_CATEGORIES))
    for cat in (*INVALID_CATEGORIES, *extra):
        out[f"invalid_{cat}"] = [int(d.get(cat, 0) or 0) for d in out["invalid"]]
    out["invalid_total"] = [int(sum(int(v or 0) for v in d.values())) for d in out["invalid"]]
    if "apps_visited" in df.columns or "intent_misunderstanding" not in out.columns:
        out["intent_misunderstanding"] = np.array(
            [intent_misunderstood(v, t) for v, t in zip(out["apps_visited"], out["task_apps"], strict=True)], dtype=bool
        )
    else:
        out["intent_misunderstanding"] = np.array([_as_bool(v) for v in out["intent_misunderstanding"]], dtype=bool)
    out["tokens_total"] = [token_total(t) for t in out["tokens"]] if "tokens" in out.columns else 0.0
    out.attrs = {**df.attrs, _PREPARED: min_repeats}  # a new dict: never flag the input
    return out


def invalid_categories(df: pd.DataFrame) -> list[str]:
    """The invalid-action categories present as ``invalid_<cat>`` columns of a prepared frame.

    Only numeric columns count: a results record may carry other ``invalid_*`` fields (the
    runner's ``invalid_detail`` summary dict) that are not per-category counts."""
    return [
        c[len("invalid_") :]
        for c in df.columns
        if c.startswith("invalid_") and c != "invalid_total" and pd.api.types.is_numeric_dtype(df[c])
    ]


def valid_episodes(df: pd.DataFrame, min_repeats: int = DEFAULT_MIN_REPEATS) -> pd.DataFrame:
    """The prepared rows that are not infrastructure errors (the rows every agent metric uses)."""
    p = prepare(df, min_repeats)
    out = p.loc[~p["is_error"].to_numpy(dtype=bool)].copy()
    out.attrs = {**df.attrs, _PREPARED: min_repeats}  # a new dict: never flag the input
    return out


def deduplicate(df: pd.DataFrame, key: str = "episode_id") -> pd.DataFrame:
    """One row per ``key``: the last non-error record, else the last record.

    A resumed or retried sweep may hold an episode twice; this keeps the record that counts.
    Frames without the key column are returned unchanged.
    """
    if key not in df.columns or df.empty:
        return df
    err = np.array([is_error(v) for v in df["error"]]) if "error" in df.columns else np.zeros(len(df), bool)
    order = pd.DataFrame({"k": df[key].to_numpy(), "err": err, "pos": np.arange(len(df))})
    # Prefer non-errors, then later rows.
    order = order.sort_values(["k", "err", "pos"], ascending=[True, False, True], kind="stable")
    keep = order.groupby("k", sort=False, dropna=False)["pos"].last().sort_values().to_numpy()
    return df.iloc[keep]


# ----------------------------------------------------------------------------------------
# Grouping helpers
# ----------------------------------------------------------------------------------------


def sort_key(value: Any) -> tuple:
    """A total order for group values of mixed kinds.

    Numbers in numeric order, ``WIDTHxHEIGHT`` viewports by area, strings alphabetically with
    "default" first, missing values last.
    """
    if _missing(value):
        return (3, 0.0, "")
    if isinstance(value, (bool, np.bool_)):
        return (0, float(value), "")
    if isinstance(value, (int, float, np.integer, np.floating)):
        return (0, float(value), "")
    text = str(value)
    w, sep, h = text.lower().partition("x")
    if sep and w.isdigit() and h.isdigit():
        return (1, float(int(w) * int(h)), text)
    return (2, 0.0 if text == "default" else 1.0, text)


def _groups(df: pd.DataFrame, by: Sequence[str]) -> Iterator[tuple[tuple, pd.DataFrame]]:
    """(key tuple, rows) for each group, NaN keys kept, in :func:`sort_key` order."""
    by = list(by)
    if not by:
        yield (), df
        return
    if df.empty:
        return
    items = [((k if isinstance(k, tuple) else (k,)), g) for k, g in df.groupby(by, dropna=False, sort=False)]
    items.sort(key=lambda kv: tuple(sort_key(v) for v in kv[0]))
    yield from items


def _frame(rows: list[dict], columns: Sequence[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(columns)) if not rows else pd.DataFrame(rows)


def _mean(values: Iterable[float]) -> float:
    vals = [float(v) for v in values if not _missing(v)]
    return float(np.mean(vals)) if vals else float("nan")


def _key_dict(by: Sequence[str], key: tuple) -> dict:
    return dict(zip(by, key, strict=True))


class Grouping:
    """Rows of a frame split into groups by ``by`` columns, with numpy aggregations.

    ``gid[i]`` is the group of row ``i``; groups are numbered in :func:`sort_key` order of their
    keys; missing values (None, NaN) form a group of their own. With no ``by`` columns all rows
    are one group.
    """

    def __init__(self, df: pd.DataFrame, by: Sequence[str]):
        self.by = list(by)
        n = len(df)
        if n == 0:
            self.gid = np.zeros(0, dtype=np.int64)
            self.keys: list[tuple] = []
        elif not self.by:
            self.gid = np.zeros(n, dtype=np.int64)
            self.keys = [()]
        else:
            codes, uniques = [], []
            for col in self.by:
                c, u = pd.factorize(df[col], use_na_sentinel=False)
                codes.append(c)
                uniques.append(u)
            rows, inverse = np.unique(np.stack(codes, axis=1), axis=0, return_inverse=True)
            keys = [tuple(uniques[j][r[j]] for j in range(len(self.by))) for r in rows]
            order = sorted(range(len(keys)), key=lambda i: tuple(sort_key(v) for v in keys[i]))
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
            self.gid = rank[np.asarray(inverse).ravel()]
            self.keys = [keys[i] for i in order]
        self.size = len(self.keys)
        self.n = np.bincount(self.gid, minlength=self.size)

    def sum(self, x: Any) -> np.ndarray:
        return np.bincount(self.gid, weights=np.asarray(x, dtype=float), minlength=self.size)

    def mean(self, x: Any) -> np.ndarray:
        """Mean per group, ignoring NaN values (NaN where a group has none)."""
        x = np.asarray(x, dtype=float)
        ok = ~np.isnan(x)
        s = np.bincount(self.gid[ok], weights=x[ok], minlength=self.size)
        c = np.bincount(self.gid[ok], minlength=self.size)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(c > 0, s / np.maximum(c, 1), np.nan)

    def std(self, x: Any) -> np.ndarray:
        """Population standard deviation per group."""
        x = np.asarray(x, dtype=float)
        mu = self.mean(x)
        return np.sqrt(self.sum((x - mu[self.gid]) ** 2) / self.n)

    def mad(self, x: Any) -> np.ndarray:
        """Mean absolute deviation from the group mean."""
        x = np.asarray(x, dtype=float)
        mu = self.mean(x)
        return self.sum(np.abs(x - mu[self.gid])) / self.n

    def max(self, x: Any) -> np.ndarray:
        out = np.full(self.size, -np.inf)
        np.maximum.at(out, self.gid, np.asarray(x, dtype=float))
        return out

    def min(self, x: Any) -> np.ndarray:
        out = np.full(self.size, np.inf)
        np.minimum.at(out, self.gid, np.asarray(x, dtype=float))
        return out

    def median(self, x: Any) -> np.ndarray:
        return pd.Series(np.asarray(x, dtype=float)).groupby(self.gid).median().reindex(range(self.size)).to_numpy()

    def nunique(self, codes: np.ndarray) -> np.ndarray:
        """Distinct values of an integer code per group."""
        pairs = (
            np.unique(np.stack([self.gid, np.asarray(codes)], axis=1), axis=0) if len(codes) else np.zeros((0, 2), int)
        )
        return np.bincount(pairs[:, 0], minlength=self.size) if len(pairs) else np.zeros(self.size, dtype=np.int64)

    def members(self) -> list[np.ndarray]:
        """Row positions of each group."""
        order = np.argsort(self.gid, kind="stable")
        return np.split(order, np.cumsum(self.n)[:-1]) if self.size else []

    def frame(self, **columns: Any) -> pd.DataFrame:
        """The key columns plus the given per-group columns, one row per group."""
        data: dict[str, Any] = {c: [k[j] for k in self.keys] for j, c in enumerate(self.by)}
        data.update(columns)
        return pd.DataFrame(data, columns=[*self.by, *columns])


def _codes(df: pd.DataFrame, cols: Sequence[str]) -> np.ndarray:
    """One integer code per distinct combination of ``cols`` (missing values included)."""
    return Grouping(df, cols).gid


# ----------------------------------------------------------------------------------------
# Success rate and confidence intervals
# ----------------------------------------------------------------------------------------


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
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _group_seed(seed: int, key: tuple) -> list[int]:
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
            bootstrap_ci(s[idx], n_boot, level, _group_seed(seed, key))
            for key, idx in zip(g.keys, g.members(), strict=True)
        ]
        cols["ci_low"] = [b[0] for b in bounds]
        cols["ci_high"] = [b[1] for b in bounds]
    return g.frame(**cols)


# ----------------------------------------------------------------------------------------
# Deviation within and across versions, fluctuation
# ----------------------------------------------------------------------------------------


def population_std(values: Sequence[float] | np.ndarray) -> float:
    """``sqrt(mean((r - mean(r))**2))`` -- the population (ddof=0) standard deviation."""
    x = np.asarray(values, dtype=float)
    return float(np.sqrt(np.mean((x - x.mean()) ** 2))) if len(x) else float("nan")


def mean_absolute_deviation(values: Sequence[float] | np.ndarray) -> float:
    """``mean(|r - mean(r)|)`` -- the paper's MAD (Appendix D.5, Eq. 2)."""
    x = np.asarray(values, dtype=float)
    return float(np.mean(np.abs(x - x.mean()))) if len(x) else float("nan")


WITHIN_OVER: tuple[str, ...] = ("seeds", "trials")
"""What a within-version deviation is taken over: the instances (seeds) of one version, or the
repeated trials of one instance (the paper's fixed-prompt repeats; sweeps with ``trials: k``)."""


def has_trials(df: pd.DataFrame) -> bool:
    """Whether some instance (one cell and seed) of the valid episodes ran more than one trial."""
    v = valid_episodes(df)
    if "trial" not in v.columns or v.empty:
        return False
    keys = [c for c in (*DEFAULT_CELL, *STANDARD_AXES, "seed") if c in v.columns]
    return bool((v.groupby(keys, dropna=False)["trial"].nunique() > 1).any())


def within_version_deviation(
    df: pd.DataFrame, cell: Sequence[str] = DEFAULT_CELL, value: str = "reward", min_n: int = 2, over: str = "auto"
) -> pd.DataFrame:
    """Deviation of rewards *within* each cell (one agent, task and version).

    ``over="seeds"``: the deviation of the cell's rewards over its seeds (instances).
    ``over="trials"``: for each instance (seed) the deviation over its repeated trials (same
    instance, same goal text), then the mean over the cell's instances -- the paper's
    definition. ``"auto"`` (default) takes trials when :func:`has_trials`, else seeds.

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
        inst = Grouping(v, [*cell, "seed"])
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
    n_versions = g.nunique(_codes(v, version)) if version else np.ones(g.size, dtype=np.int64)
    return g.frame(
        n=g.n,
        n_versions=n_versions,
        mean=g.mean(r),
        std=np.where(ok, g.std(r), np.nan),
        mad=np.where(ok, g.mad(r), np.nan),
    )


def _ratio(num: float, den: float) -> float:
    """``num / den``; NaN when either is NaN or both are 0; inf when only ``den`` is 0."""
    if _missing(num) or _missing(den):
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
    w_std, w_mad = g.mean(within["std"]), g.mean(within["mad"])
    a_std, a_mad = across["std"].to_numpy(dtype=float), across["mad"].to_numpy(dtype=float)
    return g.frame(
        within_over=[over] * g.size,
        n=n.round().astype(int),
        n_versions=g.n,
        mean=g.sum(within["mean"] * within["n"]) / n if g.size else [],
        within_std=w_std,
        across_std=a_std,
        std_ratio=_ratios(a_std, w_std),
        within_mad=w_mad,
        across_mad=a_mad,
        mad_ratio=_ratios(a_mad, w_mad),
    )


def _ratios(num: Any, den: Any) -> np.ndarray:
    """Element-wise :func:`_ratio`."""
    return np.array(
        [_ratio(a, b) for a, b in zip(np.asarray(num, float), np.asarray(den, float), strict=True)], dtype=float
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
    w_std, a_std = g.mean(per_unit["within_std"]), g.mean(per_unit["across_std"])
    w_mad, a_mad = g.mean(per_unit["within_mad"]), g.mean(per_unit["across_mad"])
    over = "trials" if has_trials(df) else "seeds"
    return g.frame(
        units=g.n,
        within_over=[over] * g.size,
        within_std=w_std,
        across_std=a_std,
        std_ratio=_ratios(a_std, w_std),
        within_mad=w_mad,
        across_mad=a_mad,
        mad_ratio=_ratios(a_mad, w_mad),
    )


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


# ----------------------------------------------------------------------------------------
# Loops
# ----------------------------------------------------------------------------------------


def find_loops(actions: Sequence[Any], min_repeats: int = DEFAULT_MIN_REPEATS) -> list[tuple[int, int, int]]:
    """The loops in an action sequence as ``(start, period, repeats)`` triples.

    A loop is a maximal run of consecutive actions made entirely of one block of ``period``
    actions repeated ``repeats >= min_repeats`` times. Scanning left to right, at each position
    the longest such run starting there is taken (ties: the shortest block); its actions are
    not reused, and the scan resumes after it. Actions are compared as strings with surrounding
    whitespace removed. Examples with ``min_repeats=3``::

        c c c            -> [(0, 1, 3)]           one loop
        c c c c c c      -> [(0, 1, 6)]           still one loop (maximal)
        a b a b a b      -> [(0, 2, 3)]           one loop of period 2
        c c c x c c c    -> [(0, 1, 3), (4, 1, 3)] two separate loops
        c c              -> []                    too few repeats
    """
    if min_repeats < 2:
        raise ValueError(f"min_repeats must be at least 2, got {min_repeats}")
    ids: dict[str, int] = {}
    seq = [ids.setdefault(str(a).strip(), len(ids)) for a in actions]
    n = len(seq)
    loops = []
    i = 0
    while i < n:
        best_cover, best_period = 0, 0
        for period in range(1, (n - i) // min_repeats + 1):
            if period * min_repeats > n - i or best_cover >= n - i:
                break
            j = i + period
            while j < n and seq[j] == seq[j - period]:
                j += 1
            repeats = (j - i) // period
            if repeats >= min_repeats and repeats * period > best_cover:
                best_cover, best_period = repeats * period, period
        if best_cover:
            loops.append((i, best_period, best_cover // best_period))
            i += best_cover
        else:
            i += 1
    return loops


def count_loops(actions: Sequence[Any], min_repeats: int = DEFAULT_MIN_REPEATS) -> int:
    """Number of loops in an episode's actions (see :func:`find_loops`)::

    >>> count_loops(["click(47)"] * 3)
    1
    >>> count_loops(["a", "b", "a", "b", "a", "b"])
    1
    >>> count_loops(["a", "a", "a", "x", "a", "a", "a"])
    2
    """
    return len(find_loops(actions, min_repeats))


def loop_rates(df: pd.DataFrame, by: Sequence[str] = ("agent", "variation")) -> pd.DataFrame:
    """Loops per group: ``loops_per_episode`` (mean count), ``episodes_with_loops`` (fraction),
    ``loops_success`` / ``loops_failure`` (mean count over successful / failed episodes; the
    paper contrasts 0.20 versus 1.5)."""
    v = valid_episodes(df)
    g = Grouping(v, by)
    loops = v["loops"].to_numpy(dtype=float)
    won = v["success"].to_numpy(dtype=bool)
    return g.frame(
        n=g.n,
        loops=g.sum(loops).round().astype(int),
        loops_per_episode=g.mean(loops),
        episodes_with_loops=g.mean(loops > 0),
        loops_success=g.mean(np.where(won, loops, np.nan)),
        loops_failure=g.mean(np.where(won, np.nan, loops)),
    )


# ----------------------------------------------------------------------------------------
# Invalid actions, intent misunderstanding, effort
# ----------------------------------------------------------------------------------------


def invalid_actions(df: pd.DataFrame, keep: Sequence[str] = ("agent", "task", "variation", "seed")) -> pd.DataFrame:
    """Per-episode invalid-action counts: the ``keep`` columns present, one ``invalid_<cat>``
    column per category and ``invalid_total``."""
    v = valid_episodes(df)
    cols = [c for c in keep if c in v.columns] + [f"invalid_{c}" for c in invalid_categories(v)] + ["invalid_total"]
    return v[cols].reset_index(drop=True)


def invalid_rates(df: pd.DataFrame, by: Sequence[str] = ("agent", "variation")) -> pd.DataFrame:
    """Invalid actions per group.

    Columns: ``by``, ``n``, ``steps``; for each category ``<cat>`` (total count) and
    ``<cat>_per_episode``; ``invalid`` (total), ``invalid_per_episode``, ``invalid_per_step``
    (total over total steps) and ``episodes_with_invalid`` (fraction).
    """
    v = valid_episodes(df)
    cats = invalid_categories(v)
    g = Grouping(v, by)
    steps = g.sum(v["steps"])
    total = g.sum(v["invalid_total"])
    cols: dict[str, Any] = {"n": g.n, "steps": steps.round().astype(int)}
    for c in cats:
        cols[c] = g.sum(v[f"invalid_{c}"]).round().astype(int)
        cols[f"{c}_per_episode"] = g.mean(v[f"invalid_{c}"])
    cols["invalid"] = total.round().astype(int)
    cols["invalid_per_episode"] = total / np.maximum(g.n, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cols["invalid_per_step"] = np.where(steps > 0, total / np.maximum(steps, 1), np.nan)
    cols["episodes_with_invalid"] = g.mean(v["invalid_total"].to_numpy() > 0)
    return g.frame(**cols)


def intent_misunderstood(apps_visited: Iterable[str] | None, task_apps: Iterable[str] | None) -> bool:
    """Whether the agent opened an app the task does not need.

    True when ``set(apps_visited) - set(task_apps) - {"start"}`` is not empty. The start page
    (the launcher) is always allowed.
    """
    needed = set(_as_list(task_apps)) | {START_APP}
    return any(app not in needed for app in _as_list(apps_visited))


def intent_misunderstanding_rate(
    df: pd.DataFrame, by: Sequence[str] = ("agent", "variation"), exclude_tasks: Iterable[str] = ()
) -> pd.DataFrame:
    """Fraction of valid episodes in which the agent opened an unneeded app, per group.

    ``exclude_tasks`` drops task ids first (the paper leaves out its navigation task, whose
    goal is to open a page). Columns: ``by``, ``n``, ``misunderstood``, ``rate``.
    """
    v = valid_episodes(df)
    skip = set(exclude_tasks)
    if skip:
        v = v[~v["task"].isin(skip)]
    g = Grouping(v, by)
    mis = g.sum(v["intent_misunderstanding"].to_numpy(dtype=float))
    return g.frame(n=g.n, misunderstood=mis.round().astype(int), rate=mis / np.maximum(g.n, 1))


def effort(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Mean and median steps, mean and total duration (s) and mean tokens per valid episode."""
    v = valid_episodes(df)
    g = Grouping(v, by)
    dur = v["duration_s"].to_numpy(dtype=float)
    has_dur = g.sum(~np.isnan(dur)) > 0
    return g.frame(
        n=g.n,
        mean_steps=g.mean(v["steps"]),
        median_steps=g.median(v["steps"]),
        mean_duration_s=g.mean(dur),
        total_duration_s=np.where(has_dur, g.sum(np.nan_to_num(dur)), np.nan),
        mean_tokens=g.mean(v["tokens_total"]),
    )


# ----------------------------------------------------------------------------------------
# pass@k and pass^k
# ----------------------------------------------------------------------------------------


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
                    **_key_dict(cell, key),
                    "n": n,
                    "c": c,
                    "k": k,
                    "pass_at_k": pass_at_k(n, c, k),
                    "pass_hat_k": pass_hat_k(n, c, k),
                }
            )
    return _frame(rows, [*cell, "n", "c", "k", "pass_at_k", "pass_hat_k"])


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
    for key, g in _groups(per[[*by, "n", "k", "pass_at_k", "pass_hat_k"]], by):
        sizes = g.loc[g["k"] == 1, "n"]  # one row per cell
        counts = sizes.value_counts()
        k_max = int(max(counts[counts == counts.max()].index))
        for k in range(1, k_max + 1):
            gk = g[g["k"] == k]
            rows.append(
                {
                    **_key_dict(by, key),
                    "k": k,
                    "cells": len(gk),
                    "pass_at_k": float(gk["pass_at_k"].mean()),
                    "pass_hat_k": float(gk["pass_hat_k"].mean()),
                }
            )
    return _frame(rows, [*by, "k", "cells", "pass_at_k", "pass_hat_k"])


# ----------------------------------------------------------------------------------------
# Axes that varied
# ----------------------------------------------------------------------------------------


def axis_label(value: Any) -> str:
    """How an axis value is shown: "unset" for missing, ``%g`` for numbers, else ``str``."""
    if _missing(value):
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


# ----------------------------------------------------------------------------------------
# Infrastructure errors and combined summaries
# ----------------------------------------------------------------------------------------


def error_summary(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Infrastructure errors per group: ``episodes`` (all rows), ``errors``, ``error_rate``."""
    p = prepare(df)
    g = Grouping(p, by)
    e = g.sum(p["is_error"].to_numpy(dtype=float))
    return g.frame(episodes=g.n, errors=e.round().astype(int), error_rate=e / np.maximum(g.n, 1))


def error_messages(df: pd.DataFrame, top: int = 10, width: int = 160) -> pd.DataFrame:
    """The most frequent error messages (first line, cut to ``width``): ``message``, ``count``,
    ``agents`` (comma-separated)."""
    p = prepare(df)
    e = p[p["is_error"]]
    if e.empty:
        return pd.DataFrame(columns=["message", "count", "agents"])
    msgs = e["error"].map(lambda s: str(s).strip().splitlines()[0][:width] if str(s).strip() else "")
    rows = []
    for msg, g in e.groupby(msgs, sort=False):
        rows.append({"message": msg, "count": len(g), "agents": ", ".join(sorted({str(a) for a in g["agent"]}))})
    out = pd.DataFrame(rows).sort_values(["count", "message"], ascending=[False, True], kind="stable")
    return out.head(top).reset_index(drop=True)


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
    ``loops_per_episode``, ``episodes_with_loops``; ``invalid_per_episode``,
    ``invalid_per_step``; ``intent_rate``; ``mean_steps``, ``mean_duration_s``,
    ``mean_tokens``; ``errors`` (infrastructure errors, excluded from everything else).
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
        invalid_rates(df, by)[[*by, "invalid_per_episode", "invalid_per_step"]],
        intent_misunderstanding_rate(df, by)[[*by, "rate"]].rename(columns={"rate": "intent_rate"}),
        effort(df, by)[[*by, "mean_steps", "mean_duration_s", "mean_tokens"]],
    ]
    out = base
    for part in parts:
        out = _merge(out, part, by)
    errs = error_summary(df, by)[[*by, "errors"]]
    out = _merge(out, errs, by)
    out["errors"] = out["errors"].fillna(0).astype(int)
    return out


def _merge(left: pd.DataFrame, right: pd.DataFrame, on: Sequence[str]) -> pd.DataFrame:
    """Left merge on ``on`` treating NaN keys as equal (pandas merges NaN with NaN)."""
    return left.merge(right, on=list(on), how="left", sort=False)


def apply_by(df: pd.DataFrame, by: Sequence[str], fn: Callable[[pd.DataFrame], dict]) -> pd.DataFrame:
    """``fn(rows) -> dict`` for each group of valid episodes, as a frame (a helper for custom
    metrics)."""
    v = valid_episodes(df)
    return pd.DataFrame([{**_key_dict(by, key), **fn(g)} for key, g in _groups(v, by)])
