"""Perception drift (D-GARA): over the episodes in which a crash restarted an app, the share
that then used an element id of a page from before the restart that names nothing now or another
element, and the stale actions in all (counted by the runner, :mod:`openapps_sim.sweeps.drift`).
The robustness section shows it next to RSR (:mod:`.robustness`)."""

from __future__ import annotations

import pandas as pd

from openapps_sim.analysis.doc.cells import Column, col
from openapps_sim.analysis.doc.fmt import DASH, fmt_count, fmt_num, fmt_pct
from openapps_sim.analysis.metrics.table import valid_episodes
from openapps_sim.analysis.metrics.values import is_missing

DRIFT_COLUMNS = ["agent", "variation", "restarted", "drifted", "stale_actions", "stale_mean"]


def perception_drift(df: pd.DataFrame) -> pd.DataFrame:
    """Per agent and version, over the episodes in which a crash restarted an app (``stale_actions``
    not null): ``restarted`` episodes, ``drifted`` (the share with at least one stale action),
    ``stale_actions`` in all and ``stale_mean`` per restarted episode. Versions without a restart
    have no row."""
    df = valid_episodes(df)
    if df.empty or "stale_actions" not in df.columns:
        return pd.DataFrame(columns=DRIFT_COLUMNS)
    part = df[[not is_missing(v) for v in df["stale_actions"]]]
    rows = []
    for (agent, variation), group in part.groupby(["agent", "variation"], sort=True):
        counts = group["stale_actions"].astype(float).to_numpy()
        rows.append(
            {
                "agent": agent,
                "variation": variation,
                "restarted": len(counts),
                "drifted": float((counts > 0).mean()),
                "stale_actions": int(counts.sum()),
                "stale_mean": float(counts.mean()),
            }
        )
    return pd.DataFrame(rows, columns=DRIFT_COLUMNS)


DRIFT_INTRO = (
    "Perception drift (D-GARA), over the episodes in which a crash restarted an app: the share that then "
    "used an element id of a page from before the restart that names nothing now or another element (the "
    "one it named is elsewhere), and how many such actions."
)


def drift_cell(drift: dict, agent: str, variation: str) -> str:
    r = drift.get((agent, variation))
    if r is None:
        return DASH  # no crash restarted an app in this version
    return f"{fmt_pct(r['drifted'])} of {int(r['restarted'])} ({int(r['stale_actions'])} stale)"


DRIFT_SHOWN: list[Column] = [
    ("Agent", col("agent")),
    ("Version", col("variation")),
    ("Restarted episodes", col("restarted", fmt_count)),
    ("Drifted", col("drifted", fmt_pct)),
    ("Stale actions", col("stale_actions", fmt_count)),
    ("Per restarted episode", col("stale_mean", lambda x: fmt_num(x, 1))),
]
"""Perception drift alone, for sweeps without a baseline."""
