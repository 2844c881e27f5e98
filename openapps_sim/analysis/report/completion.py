"""The report's section on how episodes ended: the termination mode of every result, the
agent's declarations, premature stops and overruns (issue 25; docs/metrics.md)."""

from __future__ import annotations

from openapps_sim.analysis.metrics.completion import completion_summary, terminations
from openapps_sim.analysis.report.analysis import Analysis
from openapps_sim.analysis.report.blocks import P, Section, Table
from openapps_sim.analysis.report.fmt import fmt_pct

HEADERS = [
    "Agent",
    "Termination",
    "Episodes",
    "Success",
    "Declared done",
    "Reported infeasible",
    "Premature stops",
    "Overruns",
    "Extra steps",
    "Never declared",
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
    rows = [
        [
            str(r["agent"]),
            str(r["termination"]),
            str(int(r["n"])),
            fmt_pct(r["success_rate"]),
            str(int(r["declared"])),
            str(int(r["reported_infeasible"])),
            str(int(r["premature_stops"])),
            str(int(r["overruns"])),
            str(int(r["overrun_steps"])),
            str(int(r["never_declared"])) if r["termination"] == "agent" else "–",
        ]
        for _, r in summary.iterrows()
    ]
    text = "Termination: " + "; ".join(MODES.get(t, t) for t in modes) + "."
    note = (
        "A premature stop is a declaration (a message or report_infeasible) while the state, the page or the "
        "order was not yet right; an overrun is an episode that went on after the goal first held (extra "
        "steps: the steps after it, the declaring step excepted)."
    )
    return Section("completion", "How episodes ended", [P(text), P(note), Table(HEADERS, rows)])
