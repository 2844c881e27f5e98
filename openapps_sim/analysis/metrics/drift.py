"""Perception drift (D-GARA): over the episodes in which a crash restarted an app, the share
that then used an element id of a page from before the restart that names nothing now or another
element, and the stale actions in all (counted by the runner, :mod:`openapps_sim.sweeps.drift`).
The robustness section shows it next to RSR (:mod:`.robustness`)."""

from __future__ import annotations

import pandas as pd

from openapps_sim.analysis.doc.cells import Column, col
from openapps_sim.analysis.doc.fmt import DASH, fmt_count, fmt_num, fmt_pct
from openapps_sim.analysis.metrics.table import Grouping, plain_key, valid_episodes
from openapps_sim.analysis.metrics.values import is_missing

DRIFT_COLUMNS = ["agent", "variation", "restarted", "drifted", "stale_actions", "stale_mean"]


def perception_drift(df: pd.DataFrame) -> pd.DataFrame:
    """Per agent and version, over the episodes in which a crash restarted an app (``stale_actions``
    not null): ``restarted`` episodes, ``drifted`` (the share with at least one stale action),
    ``stale_actions`` in all and ``stale_mean`` per restarted episode. Versions without a restart
    have no row."""
    df = valid_episodes(df)
    stale = df.get("stale_actions", [None] * len(df))
    part = df[[not is_missing(v) for v in stale]].dropna(subset=["agent", "variation"])
    if part.empty:
        return pd.DataFrame(columns=DRIFT_COLUMNS)
    g = Grouping(part, ["agent", "variation"], plain_key)
    counts = part["stale_actions"].astype(float).to_numpy()
    return g.frame(
        restarted=g.n,
        drifted=g.mean(counts > 0),
        stale_actions=g.sum(counts).round().astype(int),
        stale_mean=g.mean(counts),
    )


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
