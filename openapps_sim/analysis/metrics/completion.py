"""How episodes ended: the agent's declarations, premature stops and overruns, per termination
mode (``termination``: ``auto``, the paper's, ends an episode as soon as its state is right;
``agent`` ends it only when the agent declares it is done; docs/tasks.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from openapps_sim.analysis.doc.blocks import P, Section, Shown, Table
from openapps_sim.analysis.doc.cells import Column, col, table_of
from openapps_sim.analysis.doc.fmt import fmt_count, fmt_pct
from openapps_sim.analysis.metrics.table import Grouping, plain_key, valid_episodes
from openapps_sim.analysis.metrics.values import is_missing

if TYPE_CHECKING:
    from openapps_sim.analysis.report.analysis import Analysis


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
    premature = [bool(x) and not is_missing(x) for x in v.get("premature_stop", [False] * len(v))]
    steps = [0 if is_missing(x) else int(x) for x in v.get("overrun_steps", [None] * len(v))]
    g = Grouping(v, [*by, "termination"], plain_key)

    def count(values: list) -> np.ndarray:
        return g.sum(np.asarray(values, dtype=float)).round().astype(int)

    return g.frame(
        n=g.n,
        success_rate=g.mean(v["success"]),
        declared=count([d is not None for d in declared]),
        reported_infeasible=count([d == "infeasible" for d in declared]),
        premature_stops=count(premature),
        overruns=count([s > 0 for s in steps]),
        overrun_steps=count(steps),
        never_declared=count([d is None for d in declared]),
    )


TABLE: list[Column] = [
    ("Agent", col("agent")),
    ("Termination", col("termination")),
    ("Episodes", col("n", fmt_count)),
    ("Success", col("success_rate", fmt_pct)),
    ("Declared done", col("declared", fmt_count)),
    ("Reported infeasible", col("reported_infeasible", fmt_count)),
    ("Premature stops", col("premature_stops", fmt_count)),
    ("Overruns", col("overruns", fmt_count)),
    ("Extra steps", col("overrun_steps", fmt_count)),
    ("Never declared", lambda r: fmt_count(r["never_declared"]) if r["termination"] == "agent" else "–"),
]

MODES = {
    "auto": "**auto** (the OpenApps paper's): an episode ends as soon as the state is right, so the agent never "
    "has to know it is done and never overruns",
    "agent": "**agent**: an episode ends only when the agent declares it is done (send_msg_to_user, or "
    "report_infeasible) or at its step budget; success is the state at that moment",
}


def completion(a: Analysis) -> Section:
    """Per agent and termination mode: declarations, premature stops (declared done while the
    state was not yet right), overruns (went on after the goal held; extra steps in all)."""
    summary = completion_summary(a.df, ["agent"])
    modes = terminations(a.valid)
    text = "Termination: " + "; ".join(MODES.get(t, t) for t in modes) + "."
    note = (
        "A premature stop is a declaration (a message or report_infeasible) while the state, the page or the "
        "order was not yet right; an overrun is an episode that went on after the goal first held (extra "
        "steps: the steps after it, the declaring step excepted)."
    )
    return Section("completion", "How episodes ended", [P(text), P(note), Table(*table_of(summary, TABLE))])


SHOWN = [Shown(160, lambda d: completion(d.a))]
