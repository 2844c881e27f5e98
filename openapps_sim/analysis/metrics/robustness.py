"""Robustness to a change of app version, after D-GARA (arXiv 2511.16590).

* **robust success rate** (RSR): among the (agent, task, seed) units solved in a baseline
  version, the share still solved in another version. Any pair of versions works: ``default``
  against ``interrupt_permission`` measures interruptions, ``default`` against ``german`` a
  language. A unit counts as solved in a version when at least half of its episodes there
  succeeded (one episode per unit in most sweeps). The interval is a percentile bootstrap over
  the baseline-solved units.
* **interruption breakdown**: the episodes in which an interruption was shown, per kind and
  per number of buttons (D-GARA's single- versus two-button contrast): success rate, how often a
  harmful offer was accepted, and the mean number of actions until the agent was back on task.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from openapps_sim.analysis.metrics.stats import bootstrap_ci
from openapps_sim.analysis.metrics.table import valid_episodes
from openapps_sim.analysis.metrics.values import _as_list

UNIT = ("agent", "task", "seed")
RSR_COLUMNS = [
    "agent",
    "baseline",
    "variation",
    "units",
    "baseline_sr",
    "variation_sr",
    "solved",
    "rsr",
    "ci_lo",
    "ci_hi",
]


def _solved(df: pd.DataFrame, variation: str, unit: Sequence[str]) -> pd.Series:
    part = df[df["variation"] == variation]
    return part.groupby(list(unit))["success"].mean() >= 0.5


def robust_success_rate(
    df: pd.DataFrame, baseline: str, variation: str, unit: Sequence[str] = UNIT, seed: int = 0
) -> pd.DataFrame:
    """RSR of every agent for ``variation`` against ``baseline``, over the units run in both."""
    df = valid_episodes(df)
    base = _solved(df, baseline, unit)
    other = _solved(df, variation, unit)
    both = base.index.intersection(other.index)
    rows = []
    for agent in sorted({k[0] for k in both}):
        keys = [k for k in both if k[0] == agent]
        b = base.loc[keys].to_numpy(dtype=float)
        v = other.loc[keys].to_numpy(dtype=float)
        kept = v[b == 1]
        lo, hi = bootstrap_ci(kept, seed=seed) if len(kept) else (np.nan, np.nan)
        rows.append(
            {
                "agent": agent,
                "baseline": baseline,
                "variation": variation,
                "units": len(keys),
                "baseline_sr": float(b.mean()),
                "variation_sr": float(v.mean()),
                "solved": int(b.sum()),
                "rsr": float(kept.mean()) if len(kept) else np.nan,
                "ci_lo": lo,
                "ci_hi": hi,
            }
        )
    return pd.DataFrame(rows, columns=RSR_COLUMNS)


def rsr_table(df: pd.DataFrame, baseline: str = "default", variations: Sequence[str] | None = None) -> pd.DataFrame:
    """RSR of every agent for every other version in the table (or ``variations``) against
    ``baseline``; empty when the baseline was not run."""
    df = valid_episodes(df)
    if df.empty or baseline not in set(df["variation"]):
        return pd.DataFrame(columns=RSR_COLUMNS)
    names = variations or sorted(v for v in set(df["variation"]) if v != baseline)
    parts = [robust_success_rate(df, baseline, v) for v in names]
    parts = [p for p in parts if not p.empty]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=RSR_COLUMNS)


def interruption_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per interruption shown: the episode's agent, task, variation, seed and success,
    with the interruption's kind, buttons, button chosen, steps to recover and harm."""
    df = valid_episodes(df)
    rows = []
    for rec in df.to_dict("records"):
        for item in _as_list(rec.get("interruptions")):
            if isinstance(item, dict):
                rows.append(
                    {
                        **{k: rec.get(k) for k in ("agent", "task", "variation", "seed", "success")},
                        **{k: item.get(k) for k in ("id", "kind", "buttons", "button", "steps_to_recover", "harmful")},
                    }
                )
    cols = [
        "agent",
        "task",
        "variation",
        "seed",
        "success",
        "id",
        "kind",
        "buttons",
        "button",
        "steps_to_recover",
        "harmful",
    ]
    return pd.DataFrame(rows, columns=cols)


def interruption_breakdown(df: pd.DataFrame, by: Sequence[str] = ("agent", "kind")) -> pd.DataFrame:
    """Per group (e.g. agent × kind, or agent × buttons): interruptions shown, the success
    rate of their episodes, the share answered, the share where a harmful offer was accepted
    and the mean actions until back on task (over the answered ones)."""
    rows = interruption_rows(df)
    cols = [*by, "shown", "sr", "answered", "harmful", "steps_to_recover"]
    if rows.empty:
        return pd.DataFrame(columns=cols)
    out = []
    for key, part in rows.groupby(list(by), dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        recover = pd.to_numeric(part["steps_to_recover"], errors="coerce").dropna()
        out.append(
            {
                **dict(zip(by, key, strict=True)),
                "shown": len(part),
                "sr": float(part["success"].astype(float).mean()),
                "answered": float(part["button"].notna().mean()),
                "harmful": float(part["harmful"].astype(bool).mean()),
                "steps_to_recover": float(recover.mean()) if len(recover) else np.nan,
            }
        )
    return pd.DataFrame(out, columns=cols)
