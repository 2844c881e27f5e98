"""The report's "Decisions, answers and milestones" section: ESAR next to success, decision
accuracy, W-LCS and answer accuracy, per agent, per agent and variation, per agent and task.
Rows only; the section in :mod:`.sections` lays them out."""

from __future__ import annotations

import pandas as pd

from openapps_sim.analysis.metrics.progress import decisions_by_level, progress_summary
from openapps_sim.analysis.report.fmt import fmt_num, fmt_pct

PROGRESS_NOTE = (
    "ESAR: share of the task's essential states (milestones) reached. Decision: the first state-changing "
    "operation took the correct branch (branching tasks; deeper: later decisions of hierarchical tasks). "
    "W-LCS: weighted longest common subsequence of the operations against the oracle's (1 = same plan; "
    "undefined, a dash, where the task expects no operation: answers and navigation). "
    "Answer: the returned value was right (return-value tasks). First / after: step of the first milestone, "
    "steps spent after the last one. A dash: no episode the metric applies to."
)
METRIC_HEADERS = ["Episodes", "Success", "ESAR", "Decision", "Deeper", "W-LCS", "Answer", "First", "After"]


def _cells(r: pd.Series) -> list[str]:
    return [
        str(int(r["n"])),
        fmt_pct(r["success"]),
        fmt_pct(r["esar"]),
        fmt_pct(r["decision_accuracy"]),
        fmt_pct(r["deeper_decision_accuracy"]),
        fmt_num(r["wlcs"]),
        fmt_pct(r["answer_accuracy"]),
        fmt_num(r["first_milestone_step"], 1),
        fmt_num(r["steps_after_last_milestone"], 1),
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
        rows = [[str(r[b]) for b in by] + _cells(r) for _, r in s.iterrows()]
        out.append((title, [b.capitalize() for b in by] + METRIC_HEADERS, rows))
    return out


LEVEL_NOTE = (
    "Decision accuracy by level (DAC-Bench's accuracy by branching depth): level 1 is the first decision of "
    "every branching task, levels 2 and 3 the nested decisions of hierarchical ones. Episodes: those whose "
    "world calls for a decision at that level; Accuracy: the share whose first operation lies on the right "
    "side of it. Reached: those whose decisions above it were all right; Accuracy there: the share right "
    "among them."
)
LEVEL_HEADERS = ["Level", "Episodes", "Accuracy", "Reached", "Accuracy there"]


def decision_level_table(df: pd.DataFrame) -> tuple[list[str], list[list[str]]] | None:
    """(headers, rows) of decision accuracy per agent and level; None when no episode decided."""
    s = decisions_by_level(df, ["agent"])
    if s.empty:
        return None
    rows = [
        [str(r["agent"]), str(int(r["level"])), str(int(r["n"])), fmt_pct(r["accuracy"]),
         str(int(r["n_reached"])), fmt_pct(r["accuracy_reached"])]
        for _, r in s.iterrows()
    ]  # fmt: skip
    return ["Agent", *LEVEL_HEADERS], rows
