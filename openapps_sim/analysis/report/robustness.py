"""The report's robustness section: RSR against the baseline version, and how agents answered
interruptions (per kind, single- versus two-button). Tables as (headers, rows) for both the
Markdown and the HTML report."""

from __future__ import annotations

import pandas as pd

import openapps_sim.analysis.metrics as m
from openapps_sim.analysis.report.fmt import fmt_num, fmt_pct, fmt_rate_ci

RSR_HEADERS = ["Agent", "Version", "SR baseline", "SR version", "Solved in baseline", "RSR [95% CI]"]
KIND_HEADERS = ["Agent", "Kind", "Buttons", "Shown", "SR", "Harmful accepted", "Steps to recover"]
INTRO = (
    "RSR (D-GARA): among the (agent, task, seed) solved in the baseline version `{base}`, the share "
    "still solved in the other version, with a bootstrap interval."
)


def robustness_tables(df: pd.DataFrame, baseline: str = "default") -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, headers, rows) of each non-empty table; empty when there is nothing to compare."""
    out = []
    rsr = m.rsr_table(df, baseline)
    if not rsr.empty:
        rows = [
            [
                str(r["agent"]),
                str(r["variation"]),
                fmt_pct(r["baseline_sr"]),
                fmt_pct(r["variation_sr"]),
                f"{int(r['solved'])}/{int(r['units'])}",
                fmt_rate_ci(r["rsr"], r["ci_lo"], r["ci_hi"]),
            ]
            for _, r in rsr.iterrows()
        ]
        out.append((INTRO.format(base=baseline), RSR_HEADERS, rows))
    kinds = m.interruption_breakdown(df, ("agent", "kind", "buttons"))
    if not kinds.empty:
        rows = [
            [
                str(r["agent"]),
                str(r["kind"]),
                str(r["buttons"]),
                str(int(r["shown"])),
                fmt_pct(r["sr"]),
                fmt_pct(r["harmful"]),
                fmt_num(r["steps_to_recover"], 1),
            ]
            for _, r in kinds.iterrows()
        ]
        out.append(("Interruptions shown, by kind and number of buttons.", KIND_HEADERS, rows))
    return out
