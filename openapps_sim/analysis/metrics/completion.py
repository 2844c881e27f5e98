"""How episodes ended: the agent's declarations, premature stops and overruns, per termination
mode (``termination``: ``auto``, the paper's, ends an episode as soon as its state is right;
``agent`` ends it only when the agent declares it is done; docs/tasks.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from openapps_sim.analysis.metrics.table import valid_episodes
from openapps_sim.analysis.metrics.values import is_missing

COMPLETION_COLUMNS = (
    "n",
    "success_rate",
    "declared",
    "reported_infeasible",
    "premature_stops",
    "overruns",
    "overrun_steps",
    "never_declared",
)


def terminations(df: pd.DataFrame) -> list[str]:
    """The termination modes of a results table (records older than the field ran ``auto``)."""
    if "termination" not in df.columns:
        return ["auto"] if len(df) else []
    return sorted({"auto" if is_missing(t) else str(t) for t in df["termination"]})


def completion_summary(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Per group of ``by`` and termination mode: episodes (``n``), success rate, episodes the agent
    declared done (a message or ``report_infeasible``) and of those ``reported_infeasible``,
    ``premature_stops`` (declared done while the state was not yet right), ``overruns``
    (episodes that went on after the goal held) and their ``overrun_steps`` in all, and
    ``never_declared`` (episodes that ended at the step budget without a declaration)."""
    v = valid_episodes(df).copy()
    cols = [*by, "termination", *COMPLETION_COLUMNS]
    if v.empty:
        return pd.DataFrame(columns=cols)
    v["termination"] = ["auto" if is_missing(t) else str(t) for t in v.get("termination", ["auto"] * len(v))]
    declared = [None if is_missing(d) else str(d) for d in v.get("declared", [None] * len(v))]
    v["_declared"] = [d is not None for d in declared]
    v["_infeasible"] = [d == "infeasible" for d in declared]
    v["_premature"] = [bool(x) and not is_missing(x) for x in v.get("premature_stop", [False] * len(v))]
    steps = [0 if is_missing(x) else int(x) for x in v.get("overrun_steps", [None] * len(v))]
    v["_overrun_steps"] = steps
    v["_overrun"] = [s > 0 for s in steps]
    rows = []
    for key, g in v.groupby([*by, "termination"], sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        rows.append(
            [
                *key,
                len(g),
                float(g["success"].mean()),
                int(g["_declared"].sum()),
                int(g["_infeasible"].sum()),
                int(g["_premature"].sum()),
                int(g["_overrun"].sum()),
                int(g["_overrun_steps"].sum()),
                int((~g["_declared"]).sum()),
            ]
        )
    return pd.DataFrame(rows, columns=cols)
