"""The report's robustness section: RSR against the baseline version (over the interrupted units
of an interrupting version, with the uninterrupted share) next to perception drift after a crash,
RSR per button mode and per kind, and how agents answered interruptions (per kind, single- versus two-button). Tables as (headers, rows) for both the
Markdown and the HTML report."""

from __future__ import annotations

import pandas as pd

from openapps_sim.analysis.metrics.robustness import (
    interruption_breakdown,
    perception_drift,
    rsr_by_buttons,
    rsr_by_kind,
    rsr_table,
)
from openapps_sim.analysis.report.fmt import DASH, fmt_num, fmt_pct, fmt_rate_ci

RSR_HEADERS = [
    "Agent",
    "Version",
    "SR baseline",
    "SR version",
    "Interrupted units (not interrupted)",
    "SR interrupted",
    "Solved in baseline",
    "RSR [95% CI]",
    "Perception drift",
]
DRIFT_HEADERS = ["Agent", "Version", "Restarted episodes", "Drifted", "Stale actions", "Per restarted episode"]
KIND_HEADERS = ["Agent", "Kind", "Buttons", "Shown", "SR", "Harmful accepted", "Steps to recover"]
BUTTON_HEADERS = ["Agent", "Version", "Buttons", "Units shown", "SR shown", "Solved in baseline", "RSR [95% CI]"]
RSR_KIND_HEADERS = ["Agent", "Version", "Kind", "Units shown", "SR shown", "Solved in baseline", "RSR [95% CI]"]
INTRO = (
    "RSR (D-GARA): among the (agent, task, seed) solved in the baseline version `{base}`, the share "
    "still solved in the other version, with a bootstrap interval. Against a version that interrupts, "
    "only the units where an interruption was actually shown count (an interruption may fire with a "
    "probability, from a later step, only on some pages, or never under the api interface); the share "
    "nothing interrupted is in parentheses. Perception drift (D-GARA): over the episodes in which a crash "
    "restarted an app, the share that then acted on an element of the page from before the restart "
    "(its bid gone, or naming another element), with the stale actions in all. A dash: nothing to count."
)
DRIFT_INTRO = (
    "Perception drift (D-GARA), over the episodes in which a crash restarted an app: the share that then "
    "used an element id of a page from before the restart that names nothing now or another element (the "
    "one it named is elsewhere), and how many such actions."
)
BUTTON_INTRO = (
    "RSR per button mode (D-GARA's one- versus two-button interruptions): over the units that showed an "
    "interruption with that many buttons."
)
RSR_KIND_INTRO = (
    "RSR per interruption kind (D-GARA's anomalies): over the units that showed an interruption of that kind."
)


def _interrupted(r: pd.Series) -> str:
    if pd.isna(r["interrupted"]):
        return DASH  # a version that never interrupts: every unit counts
    return f"{int(r['interrupted'])}/{int(r['units'])} ({fmt_pct(r['uninterrupted_share'])})"


def _drift_cell(drift: dict, agent: str, variation: str) -> str:
    r = drift.get((agent, variation))
    if r is None:
        return DASH  # no crash restarted an app in this version
    return f"{fmt_pct(r['drifted'])} of {int(r['restarted'])} ({int(r['stale_actions'])} stale)"


def robustness_tables(df: pd.DataFrame, baseline: str = "default") -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, headers, rows) of each non-empty table; empty when there is nothing to compare."""
    out = []
    rsr = rsr_table(df, baseline)
    drift_frame = perception_drift(df)
    drift = {(r["agent"], r["variation"]): r for _, r in drift_frame.iterrows()}
    if not rsr.empty:
        out.append((INTRO.format(base=baseline), RSR_HEADERS, _rsr_rows(rsr, drift)))
    elif drift:  # no baseline to compare with: drift alone
        out.append((DRIFT_INTRO, DRIFT_HEADERS, _drift_rows(drift_frame)))
    for column, intro, headers, frame in (
        ("buttons", BUTTON_INTRO, BUTTON_HEADERS, rsr_by_buttons(df, baseline)),
        ("kind", RSR_KIND_INTRO, RSR_KIND_HEADERS, rsr_by_kind(df, baseline)),
    ):
        if not frame.empty:
            out.append((intro, headers, _subset_rows(frame, column)))
    kinds = interruption_breakdown(df, ("agent", "kind", "buttons"))
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


def _subset_rows(frame: pd.DataFrame, column: str) -> list[list[str]]:
    """RSR over the units that showed one kind of interruption (``column``: buttons or kind)."""
    return [
        [
            str(r["agent"]),
            str(r["variation"]),
            str(int(r[column])) if column == "buttons" else str(r[column]),
            f"{int(r['interrupted'])}/{int(r['units'])}",
            fmt_pct(r["interrupted_sr"]),
            f"{int(r['solved'])}/{int(r['interrupted'])}",
            fmt_rate_ci(r["rsr"], r["ci_lo"], r["ci_hi"]),
        ]
        for _, r in frame.iterrows()
    ]


def _rsr_rows(rsr: pd.DataFrame, drift: dict) -> list[list[str]]:
    """The RSR table's rows, each with its perception drift beside it."""
    return [
        [
            str(r["agent"]),
            str(r["variation"]),
            fmt_pct(r["baseline_sr"]),
            fmt_pct(r["variation_sr"]),
            _interrupted(r),
            fmt_pct(r["interrupted_sr"]),
            f"{int(r['solved'])}/{int(r['units'] if pd.isna(r['interrupted']) else r['interrupted'])}",
            fmt_rate_ci(r["rsr"], r["ci_lo"], r["ci_hi"]),
            _drift_cell(drift, r["agent"], r["variation"]),
        ]
        for _, r in rsr.iterrows()
    ]


def _drift_rows(drift_frame: pd.DataFrame) -> list[list[str]]:
    """Perception drift alone, for sweeps without a baseline."""
    return [
        [
            str(r["agent"]),
            str(r["variation"]),
            str(int(r["restarted"])),
            fmt_pct(r["drifted"]),
            str(int(r["stale_actions"])),
            fmt_num(r["stale_mean"], 1),
        ]
        for _, r in drift_frame.iterrows()
    ]
