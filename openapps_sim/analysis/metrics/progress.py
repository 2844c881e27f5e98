"""Progress, decisions and answers per group: ESAR (A3), decision accuracy and W-LCS
(DAC-Bench), answer accuracy (SimuWoB).

The per-episode facts are in the record (``esar``, ``decisions``, ``wlcs``, ``answer_ok``,
``first_milestone_step``, ``steps_after_last_milestone``), computed once by the runner with
:mod:`openapps_sim.taskkit.progress`; here they are only averaged. An episode counts toward a
metric only when the metric applies to its task (decision accuracy: branching tasks; W-LCS:
tasks whose oracle performs at least one operation -- undefined, "–", and left out of every
mean where the family expects none; answer accuracy: return-value tasks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from openapps_sim.analysis.doc.blocks import Heading, P, Section, Shown, Table
from openapps_sim.analysis.doc.cells import Column, col, table_of
from openapps_sim.analysis.doc.fmt import fmt_count, fmt_num, fmt_pct
from openapps_sim.analysis.metrics.table import Grouping, iter_groups, key_dict, plain_key, valid_episodes
from openapps_sim.analysis.metrics.values import as_list, is_missing

if TYPE_CHECKING:
    from openapps_sim.analysis.report.analysis import Analysis

PROGRESS_COLUMNS = (
    "n",
    "success",
    "esar",
    "decision_accuracy",
    "deeper_decision_accuracy",
    "wlcs",
    "answer_accuracy",
    "first_milestone_step",
    "steps_after_last_milestone",
)


def _num(value: Any) -> float:
    if is_missing(value) or isinstance(value, (list, dict)):
        return np.nan
    return float(value)


def _expects_nothing(expected_ops: Any, structure: Any) -> bool:
    """Whether the episode's family expects no operation, so W-LCS is undefined for it (DAC-Bench's
    formula divides by N(N+1)/2): ``expected_ops`` is 0, or, in records from before that field,
    the family is a return-value one (``structure`` "answer": looking changes nothing)."""
    if not is_missing(expected_ops) and not isinstance(expected_ops, (list, dict)):
        return int(expected_ops) == 0
    return structure == "answer"


def first_decision(decisions: Any) -> float:
    """1.0 / 0.0: the episode's first decision was right / wrong; NaN: no decision to take."""
    d = as_list(decisions)
    return float(bool(d[0])) if d else np.nan


def deeper_decisions(decisions: Any) -> float:
    """Share of right decisions below the first (hierarchical tasks); NaN when there are none."""
    d = as_list(decisions)[1:]
    return float(np.mean([bool(x) for x in d])) if d else np.nan


def episode_progress(df: pd.DataFrame) -> pd.DataFrame:
    """One row per valid episode with the numeric progress columns (NaN where not applicable)."""
    v = valid_episodes(df)
    col = lambda name: v[name] if name in v.columns else pd.Series([None] * len(v), index=v.index)  # noqa: E731
    out = pd.DataFrame(index=v.index)
    out["success"] = v["success"].astype(float) if "success" in v.columns else np.nan
    out["esar"] = [_num(x) for x in col("esar")]
    out["decision_accuracy"] = [first_decision(x) for x in col("decisions")]
    out["deeper_decision_accuracy"] = [deeper_decisions(x) for x in col("decisions")]
    out["wlcs"] = [
        np.nan if _expects_nothing(n, s) else _num(x)
        for x, n, s in zip(col("wlcs"), col("expected_ops"), col("structure"), strict=True)
    ]
    out["answer_accuracy"] = [_num(x) for x in col("answer_ok")]
    out["first_milestone_step"] = [_num(x) for x in col("first_milestone_step")]
    out["steps_after_last_milestone"] = [_num(x) for x in col("steps_after_last_milestone")]
    for key in ("agent", "task", "variation", "structure", "category", "seed"):
        if key in v.columns:
            out[key] = v[key].astype(object).where(v[key].notna(), "(unset)")
    return out


def progress_summary(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Means per group of success, ESAR, decision accuracy (first and deeper), W-LCS, answer
    accuracy, step of the first milestone and steps after the last one; ``n`` episodes.
    Each mean is over the episodes the metric applies to (NaN when none does)."""
    e = episode_progress(df)
    by = [b for b in by if b in e.columns]
    if e.empty:
        return pd.DataFrame(columns=[*by, *PROGRESS_COLUMNS])
    metrics = [c for c in PROGRESS_COLUMNS if c != "n"]
    g = Grouping(e, by, plain_key)
    return g.frame(n=g.n, **{m: g.mean(e[m]) for m in metrics})


LEVEL_COLUMNS = ("level", "n", "accuracy", "n_reached", "accuracy_reached")


def _level_rows(decisions: list[list[bool]]) -> list[dict]:
    """Per decision level: the episodes whose task has a decision at that level (``n``) and the
    share taken right; and among them those whose levels above were all right (``n_reached``:
    the agent stood at this decision) with the share right there (``accuracy_reached``)."""
    rows = []
    for level in range(1, max((len(d) for d in decisions), default=0) + 1):
        at = [d for d in decisions if len(d) >= level]
        reached = [d for d in at if all(d[: level - 1])]
        rows.append(
            {
                "level": level,
                "n": len(at),
                "accuracy": float(np.mean([bool(d[level - 1]) for d in at])),
                "n_reached": len(reached),
                "accuracy_reached": float(np.mean([bool(d[level - 1]) for d in reached])) if reached else np.nan,
            }
        )
    return rows


def decisions_by_level(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Decision accuracy at each level of the decision tree (DAC-Bench's "decision accuracy by
    branching depth"), per group: level 1 is the first decision of every branching task, level 2
    and 3 the nested decisions of hierarchical ones. An episode counts at a level when the leaf
    its world calls for lies that deep (the ``decisions`` list of the record has one flag per
    level); empty when no episode took a decision."""
    v = valid_episodes(df)
    by = [b for b in by if b in v.columns]
    if v.empty or "decisions" not in v.columns:
        return pd.DataFrame(columns=[*by, *LEVEL_COLUMNS])
    v = v.assign(_decisions=[[bool(x) for x in as_list(d)] for d in v["decisions"]])
    v = v[[bool(d) for d in v["_decisions"]]]
    rows = []
    for key, part in iter_groups(v, by, plain_key):
        rows += [key_dict(by, key) | row for row in _level_rows(list(part["_decisions"]))]
    return pd.DataFrame(rows, columns=[*by, *LEVEL_COLUMNS])


PROGRESS_NOTE = (
    "ESAR: share of the task's essential states (milestones) reached. Decision: the first state-changing "
    "operation took the correct branch (branching tasks; deeper: later decisions of hierarchical tasks). "
    "W-LCS: weighted longest common subsequence of the operations against the oracle's (1 = same plan; "
    "undefined, a dash, where the task expects no operation: answers and navigation). "
    "Answer: the returned value was right (return-value tasks). First / after: step of the first milestone, "
    "steps spent after the last one. A dash: no episode the metric applies to."
)
METRIC_TABLE: list[Column] = [
    ("Episodes", col("n", fmt_count)),
    ("Success", col("success", fmt_pct)),
    ("ESAR", col("esar", fmt_pct)),
    ("Decision", col("decision_accuracy", fmt_pct)),
    ("Deeper", col("deeper_decision_accuracy", fmt_pct)),
    ("W-LCS", col("wlcs", fmt_num)),
    ("Answer", col("answer_accuracy", fmt_pct)),
    ("First", col("first_milestone_step", lambda x: fmt_num(x, 1))),
    ("After", col("steps_after_last_milestone", lambda x: fmt_num(x, 1))),
]


def progress_tables(df: pd.DataFrame) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, headers, rows) for the agent, agent x variation and agent x task tables."""
    out = []
    for title, by in (
        ("By agent", ["agent"]),
        ("By agent and variation", ["agent", "variation"]),
        ("By agent and task", ["agent", "task"]),
    ):
        s = progress_summary(df, by)
        if s.empty:
            continue
        keys: list[Column] = [(b.capitalize(), col(b)) for b in by]
        out.append((title, *table_of(s, keys + METRIC_TABLE)))
    return out


LEVEL_NOTE = (
    "Decision accuracy by level (DAC-Bench's accuracy by branching depth): level 1 is the first decision of "
    "every branching task, levels 2 and 3 the nested decisions of hierarchical ones. Episodes: those whose "
    "world calls for a decision at that level; Accuracy: the share whose first operation lies on the right "
    "side of it. Reached: those whose decisions above it were all right; Accuracy there: the share right "
    "among them."
)
LEVEL_TABLE: list[Column] = [
    ("Agent", col("agent")),
    ("Level", col("level", fmt_count)),
    ("Episodes", col("n", fmt_count)),
    ("Accuracy", col("accuracy", fmt_pct)),
    ("Reached", col("n_reached", fmt_count)),
    ("Accuracy there", col("accuracy_reached", fmt_pct)),
]


def decision_level_table(df: pd.DataFrame) -> tuple[list[str], list[list[str]]] | None:
    """(headers, rows) of decision accuracy per agent and level; None when no episode decided."""
    s = decisions_by_level(df, ["agent"])
    if s.empty:
        return None
    return table_of(s, LEVEL_TABLE)


def progress_section(a: Analysis) -> Section:
    blocks: list[Any] = [P(PROGRESS_NOTE)]
    for title, h, rows in progress_tables(a.df):
        blocks += [Heading(title), Table(h, rows, ["l"] * (len(h) - 9) + ["r"] * 9)]
    levels = decision_level_table(a.df)
    if levels:
        blocks += [Heading("Decision accuracy by level"), P(LEVEL_NOTE), Table(levels[0], levels[1], ["l"] + ["r"] * 5)]
    return Section("progress", "Decisions, answers and milestones", blocks)


SHOWN = [Shown(140, lambda d: progress_section(d.a))]
