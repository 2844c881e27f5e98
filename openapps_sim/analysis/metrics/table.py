"""The results table: constants, preparing a frame of records (derived columns, dedupe,
valid episodes) and the grouping helpers every metric uses."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from openapps_sim.analysis.metrics.behaviour import DEFAULT_MIN_REPEATS, count_loops, intent_misunderstood
from openapps_sim.analysis.metrics.values import as_bool, as_dict, as_list, is_error, is_missing, token_total

INVALID_CATEGORIES: tuple[str, ...] = ("malformed", "unknown_action", "bad_arguments", "browser_error")
"""The invalid-action categories the runner records (other keys are kept as extra columns)."""


STANDARD_AXES: tuple[str, ...] = (
    "variation",
    "viewport",
    "temperature",
    "language",
    "interface",
    "termination",
    "agent_config",
)
"""Columns that may be swept; :func:`varied_axes` checks these plus any named by the caller."""


DEFAULT_CELL: tuple[str, ...] = ("agent", "task", "variation")
"""One experimental cell: the seeds of one agent on one task in one app version."""


UNSET = "unset"
"""Label of a missing axis value (e.g. no temperature set) in breakdown tables."""


PREPARED_KEY = "openapps_prepared_min_repeats"


def prepare(df: pd.DataFrame, min_repeats: int | None = None) -> pd.DataFrame:
    """A normalised copy of a results table with the derived columns every metric uses.

    Fills absent optional columns with neutral values (``variation`` "default", empty
    ``actions``/``invalid``/``apps_visited``/``task_apps``, ``error`` None), coerces types
    (``success`` bool, ``reward`` float, ``temperature`` float with NaN for unset,
    ``agent_config`` "default" when unset) and adds:

    * ``is_error`` -- the row is an infrastructure or model-service failure (excluded from agent
      metrics), with ``error_kind`` (``infrastructure`` for records older than the field);
    * ``is_agent_error`` -- the agent's own exception ended the episode (``agent_error``): a
      scored failure of that agent;
    * ``loops`` -- recomputed from ``actions`` with :func:`count_loops` (kept as given when the
      table has no ``actions`` column);
    * ``invalid_<category>`` for each category and ``invalid_total``;
    * ``intent_misunderstanding`` -- recomputed from ``apps_visited`` and ``task_apps``;
    * ``tokens_total`` -- see :func:`token_total`.

    Idempotent: a frame already prepared with the same ``min_repeats`` is returned unchanged;
    ``min_repeats=None`` keeps the threshold a prepared frame was made with (else
    :data:`DEFAULT_MIN_REPEATS`), so a report's loop threshold holds through every metric.
    """
    if min_repeats is None:
        min_repeats = df.attrs.get(PREPARED_KEY) or DEFAULT_MIN_REPEATS
    if df.attrs.get(PREPARED_KEY) == min_repeats:
        return df
    out = df.copy()
    for col in ("agent", "task"):
        if col not in out.columns:
            raise KeyError(f"results table has no {col!r} column")
    if "success" not in out.columns and "reward" not in out.columns:
        raise KeyError("results table has neither a 'success' nor a 'reward' column")
    _coerce_outcomes(out)
    _coerce_lists_and_errors(out)
    _derive_behaviour(out, df, min_repeats)
    out.attrs = {**df.attrs, PREPARED_KEY: min_repeats}  # a new dict: never flag the input
    return out


def _coerce_outcomes(out: pd.DataFrame) -> None:
    """``variation``, ``agent_config``, ``temperature``, ``success``, ``reward`` and
    ``partial_reward`` in their types, filled in where absent (in place)."""
    if "variation" not in out.columns:
        out["variation"] = "default"
    out["variation"] = [("default" if is_missing(v) else str(v)) for v in out["variation"]]
    if "agent_config" in out.columns:
        out["agent_config"] = [("default" if is_missing(v) else str(v)) for v in out["agent_config"]]
    if "temperature" in out.columns:
        out["temperature"] = pd.to_numeric(out["temperature"], errors="coerce").astype(float)
    if "success" in out.columns:
        out["success"] = np.array([as_bool(v) for v in out["success"]], dtype=bool)
    else:
        out["success"] = np.array([(not is_missing(r)) and float(r) >= 1.0 for r in out["reward"]], dtype=bool)
    if "reward" in out.columns:
        out["reward"] = [
            float(s) if is_missing(r) else float(r) for r, s in zip(out["reward"], out["success"], strict=True)
        ]
    else:
        out["reward"] = [float(s) for s in out["success"]]
    if "partial_reward" in out.columns:
        out["partial_reward"] = [
            r if is_missing(p) else float(p) for p, r in zip(out["partial_reward"], out["reward"], strict=True)
        ]
    else:
        out["partial_reward"] = out["reward"]


def _coerce_lists_and_errors(out: pd.DataFrame) -> None:
    """The list and dict columns, and the infrastructure and agent errors (in place)."""
    n = len(out)
    for col in ("actions", "apps_visited", "task_apps"):
        out[col] = [as_list(v) for v in out[col]] if col in out.columns else [[] for _ in range(n)]
    out["invalid"] = [as_dict(v) for v in out["invalid"]] if "invalid" in out.columns else [{} for _ in range(n)]
    out["error"] = [None if not is_error(v) else str(v) for v in out["error"]] if "error" in out.columns else [None] * n
    out["is_error"] = np.array([is_error(e) for e in out["error"]], dtype=bool)
    kinds = out["error_kind"] if "error_kind" in out.columns else [None] * n
    out["error_kind"] = [
        (str(k) if is_error(k) else "infrastructure") if err else None
        for k, err in zip(kinds, out["is_error"], strict=True)
    ]
    own = out["agent_error"] if "agent_error" in out.columns else [None] * n
    out["agent_error"] = [None if not is_error(v) else str(v) for v in own]
    out["is_agent_error"] = np.array(
        [is_error(v) and not err for v, err in zip(out["agent_error"], out["is_error"], strict=True)], dtype=bool
    )


def _derive_behaviour(out: pd.DataFrame, df: pd.DataFrame, min_repeats: int) -> None:
    """Steps, duration, loops, invalid actions by category, intent misunderstanding, tokens and
    cost (in place); ``df`` is the table as given, to tell recorded columns from filled ones."""
    if "steps" in out.columns:
        out["steps"] = [len(a) if is_missing(s) else int(s) for s, a in zip(out["steps"], out["actions"], strict=True)]
    else:
        out["steps"] = [len(a) for a in out["actions"]]
    out["duration_s"] = (
        pd.to_numeric(out["duration_s"], errors="coerce").astype(float) if "duration_s" in out.columns else np.nan
    )
    if "actions" in df.columns or "loops" not in out.columns:
        out["loops"] = [count_loops(a, min_repeats) for a in out["actions"]]
    else:
        out["loops"] = [0 if is_missing(v) else int(v) for v in out["loops"]]
    extra = sorted({k for d in out["invalid"] for k in d} - set(INVALID_CATEGORIES))
    for cat in (*INVALID_CATEGORIES, *extra):
        out[f"invalid_{cat}"] = [int(d.get(cat, 0) or 0) for d in out["invalid"]]
    out["invalid_total"] = [int(sum(int(v or 0) for v in d.values())) for d in out["invalid"]]
    if "apps_visited" in df.columns or "intent_misunderstanding" not in out.columns:
        forced = (
            out["apps_opened_by_interruptions"]
            if "apps_opened_by_interruptions" in out.columns
            else pd.Series([None] * len(out), index=out.index)
        )
        out["intent_misunderstanding"] = np.array(
            [
                intent_misunderstood(v, t, f)
                for v, t, f in zip(out["apps_visited"], out["task_apps"], forced, strict=True)
            ],
            dtype=bool,
        )
    else:
        out["intent_misunderstanding"] = np.array([as_bool(v) for v in out["intent_misunderstanding"]], dtype=bool)
    out["tokens_total"] = [token_total(t) for t in out["tokens"]] if "tokens" in out.columns else 0.0
    out["cost_usd"] = (
        [float(t.get("cost_usd") or 0.0) if isinstance(t, dict) else 0.0 for t in out["tokens"]]
        if "tokens" in out.columns
        else 0.0
    )


def invalid_categories(df: pd.DataFrame) -> list[str]:
    """The invalid-action categories present as ``invalid_<cat>`` columns of a prepared frame.

    Only numeric columns count: a results record may carry other ``invalid_*`` fields (the
    runner's ``invalid_detail`` summary dict) that are not per-category counts."""
    return [
        c[len("invalid_") :]
        for c in df.columns
        if c.startswith("invalid_") and c != "invalid_total" and pd.api.types.is_numeric_dtype(df[c])
    ]


def valid_episodes(df: pd.DataFrame, min_repeats: int | None = None) -> pd.DataFrame:
    """The prepared rows that are not infrastructure or model-service errors (the rows every agent
    metric uses; episodes the agent's own exception ended are among them, as failures)."""
    p = prepare(df, min_repeats)
    min_repeats = p.attrs[PREPARED_KEY]
    out = p.loc[~p["is_error"].to_numpy(dtype=bool)].copy()
    out.attrs = {**df.attrs, PREPARED_KEY: min_repeats}  # a new dict: never flag the input
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


def sort_key(value: Any) -> tuple:
    """A total order for group values of mixed kinds.

    Numbers in numeric order, ``WIDTHxHEIGHT`` viewports by area, strings alphabetically with
    "default" first, missing values last.
    """
    if is_missing(value):
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


def plain_key(value: Any) -> tuple:
    """The order of ``DataFrame.groupby(sort=True)``: values by ``<`` (of mixed kinds, the other
    values before the strings), missing values last."""
    if is_missing(value):
        return (2, 0)
    return (1, value) if isinstance(value, str) else (0, value)


def iter_groups(
    df: pd.DataFrame, by: Sequence[str], key: Callable[[Any], Any] = sort_key
) -> Iterator[tuple[tuple, pd.DataFrame]]:
    """(key tuple, rows) for each group, NaN keys kept, in :func:`sort_key` order (or ``key``'s)."""
    by = list(by)
    if not by:
        yield (), df
        return
    if df.empty:
        return
    items = list(df.groupby(by, dropna=False, sort=False))  # keys are tuples: ``by`` is a list
    items.sort(key=lambda kv: tuple(key(v) for v in kv[0]))
    yield from items


def frame_of(rows: list[dict], columns: Sequence[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(columns)) if not rows else pd.DataFrame(rows)


def key_dict(by: Sequence[str], key: tuple) -> dict:
    return dict(zip(by, key, strict=True))


class Grouping:
    """Rows of a frame split into groups by ``by`` columns, with numpy aggregations.

    ``gid[i]`` is the group of row ``i``; groups are numbered in :func:`sort_key` order of their
    keys (or of ``key``, e.g. :func:`plain_key`); missing values (None, NaN) form a group of their
    own. With no ``by`` columns all rows are one group.
    """

    def __init__(self, df: pd.DataFrame, by: Sequence[str], key: Callable[[Any], Any] = sort_key):
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
            order = sorted(range(len(keys)), key=lambda i: tuple(key(v) for v in keys[i]))
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


def row_codes(df: pd.DataFrame, cols: Sequence[str]) -> np.ndarray:
    """One integer code per distinct combination of ``cols`` (missing values included)."""
    return Grouping(df, cols).gid
