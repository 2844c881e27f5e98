"""The OpenApps paper's views as report sections (shown with ``--paper``, and whenever the run
has the axes a view needs): Figure 4, Table 4, Tables 5 and 6 (and the other variation kinds),
axis x variation grids (Table 7, Figure 9), Table 9 and Tables 11-13."""

from __future__ import annotations

from typing import Any

from openapps_sim.analysis.metrics.axes import axis_label
from openapps_sim.analysis.metrics.breaks import KINDS, variation_kind
from openapps_sim.analysis.metrics.paper import MULTI_STEP, axis_grid, multi_step, task_reliability
from openapps_sim.analysis.metrics.rates import intent_misunderstanding_rate
from openapps_sim.analysis.metrics.reliability import version_label, version_success
from openapps_sim.analysis.metrics.table import sort_key
from openapps_sim.analysis.report.analysis import Analysis, Rows
from openapps_sim.analysis.report.blocks import Cell, Figure, Heading, P, Section, Table
from openapps_sim.analysis.report.cells import agent_cell, agent_rows, colours_of, heat
from openapps_sim.analysis.report.fmt import DASH, fmt_count, fmt_num, fmt_pct, fmt_std, is_nan
from openapps_sim.analysis.report.svg import svg_grouped_bars


def _with_ci(value: Any, lo: Any, hi: Any, f: Any = fmt_std) -> str:
    return f(value) if is_nan(lo) else f"{f(value)} [{f(lo)}, {f(hi)}]"


def figure4(a: Analysis) -> Section:
    vs = version_success(a.df, ["agent"], a.version, drop_unsolved=True)
    if vs.empty or len(vs.drop_duplicates(a.version)) < 2:
        return Section("fig4", "Success per app version (Figure 4)")
    vs["version"] = [version_label([r[c] for c in a.version]) for _, r in vs.iterrows()]
    versions = list(dict.fromkeys(vs["version"]))
    rows = Rows(vs, "agent", "version")
    colours = colours_of(a.agents)
    series = [
        (ag, colours[ag], [(rows.get(ag, v) or {}).get("success_rate", float("nan")) for v in versions])
        for ag in a.agents
    ]
    chart = svg_grouped_bars(
        versions, series, "average task success", "app version", aria="average task success per version"
    )
    every = a.agent_versions.copy()  # over all tasks, as the headline reads
    every["version"] = [version_label([r[c] for c in a.version]) for _, r in every.iterrows()]
    every_rows = Rows(every, "agent", "version")

    def cell(ag: str, v: str) -> str:
        """Figure 4's rate, and beside it the rate over all tasks where that differs."""
        kept, full = rows.get(ag, v) or {}, every_rows.get(ag, v) or {}
        text = fmt_pct(kept.get("success_rate"))
        if full and int(kept.get("tasks", 0)) < int(full["tasks"]) and fmt_pct(full["success_rate"]) != text:
            text += f" ({fmt_pct(full['success_rate'])} of all {int(full['tasks'])})"
        return text

    table = []
    for ag in a.agents:
        kept = int(max(((rows.get(ag, v) or {}).get("tasks", 0) for v in versions), default=0))
        full = int(max(((every_rows.get(ag, v) or {}).get("tasks", 0) for v in versions), default=0))
        table.append([agent_cell(a, ag), *[cell(ag, v) for v in versions], f"{kept} of {full}"])
    return Section(
        "fig4",
        "Success per app version (Figure 4)",
        [
            Figure(
                chart,
                "Average over tasks of each task's success rate in one app version. As in the paper, "
                "tasks an agent never solved in any version are left out for that agent, so a rate here "
                "can be higher than the headline's over all tasks (in parentheses where it differs).",
            ),
            Table(["Agent", *versions, "Tasks kept"], table),
        ],
    )


def table4(a: Analysis) -> Section:
    t = task_reliability(a.df, a.baseline)
    if t.empty:
        return Section("table4", f"Per task in the {a.baseline} version (Table 4)")
    rows = agent_rows(
        a, t, [("task", str), ("n", fmt_count), ("success_rate", fmt_pct), ("std", fmt_std), ("mad", fmt_std)]
    )
    return Section(
        "table4",
        f"Per task in the {a.baseline} version (Table 4)",
        [
            P(
                f"pass@1 over seeds (trials when the sweep ran them) of each task in the `{a.baseline}` version, with the "
                "standard deviation and mean absolute deviation of its rewards."
            ),
            Table(["Agent", "Task", "Episodes", "pass@1", "std", "MAD"], rows, ["l", "l", "r", "r", "r", "r"]),
        ],
    )


def tables5_6(a: Analysis) -> Section:
    vr = a.per_variation_ci.copy()  # version_reliability per agent and variation
    if vr.empty:
        return Section("table5", "Per appearance and content variation (Tables 5 and 6)")
    vr["kind"] = [variation_kind(v) for v in vr["variation"]]
    blocks: list[Any] = [
        P(
            "pass@1 over seeds averaged over tasks, and the std and MAD of rewards over seeds averaged over tasks, "
            "for each variation, grouped by what the variation changes (the default version heads each group). "
            "Brackets: 95% bootstrap intervals over tasks."
        )
    ]
    titles = {"appearance": "Appearance (Table 5)", "content": "Content (Table 6)"}
    kinds = [k for k in dict.fromkeys(vr["kind"]) if k != "default"]
    kinds.sort(key=lambda k: ((*KINDS, "other").index(k) if k in (*KINDS, "other") else 9, k))
    for kind in kinds:
        part = vr[vr["kind"].isin(["default", kind])]
        part = part.sort_values(["agent", "variation"], key=lambda s: s.map(sort_key), kind="stable")
        rows = [
            [
                agent_cell(a, r["agent"]),
                r["variation"],
                str(int(r["tasks"])),
                _with_ci(r["success_rate"], r["success_rate_lo"], r["success_rate_hi"], fmt_pct),
                _with_ci(r["std"], r["std_lo"], r["std_hi"]),
                _with_ci(r["mad"], r["mad_lo"], r["mad_hi"]),
            ]
            for _, r in part.iterrows()
        ]
        blocks += [
            Heading(titles.get(kind, kind.capitalize())),
            Table(["Agent", "Variation", "Tasks", "pass@1", "std", "MAD"], rows, ["l", "l", "r", "r", "r", "r"]),
        ]
    return Section("table5", "Per appearance and content variation (Tables 5 and 6)", blocks)


def grids(a: Analysis) -> Section:
    others = [ax for ax in a.axes if ax not in ("variation", "agent_config")]
    if not others or len(a.variations) < 2:
        return Section("grid", "Axis × variation (Table 7, Figure 9)")
    blocks: list[Any] = [
        P(
            "Average task success in each cell of a swept axis crossed with the variation "
            "(viewport × appearance is the paper's Table 7; temperature, its Figure 9)."
        )
    ]
    for ax in others:
        g = axis_grid(a.df, ax)
        if g.empty:
            continue
        g["value"] = g[ax].map(axis_label)
        values = sorted(dict.fromkeys(g["value"]), key=sort_key)
        for ag in a.agents:
            cells = Rows(g[g["agent"] == ag], "value", "variation")
            rows = [
                [
                    val,
                    *[
                        heat(c["success_rate"], c["n"]) if (c := cells.get(val, var)) else Cell(DASH)
                        for var in a.variations
                    ],
                ]
                for val in values
            ]
            blocks += [
                Heading(f"{ax.replace('_', ' ').capitalize()} × variation: {ag}"),
                Table([ax.replace("_", " ").capitalize(), *a.variations], rows, ["l"] + ["c"] * len(a.variations)),
            ]
    return Section("grid", "Axis × variation (Table 7, Figure 9)", blocks)


def table9(a: Analysis) -> Section:
    ms = multi_step(a.df, ["agent"])
    if ms.empty:
        return Section("table9", "Multi-step tasks (Table 9)")
    rows = agent_rows(
        a, ms, [("n", fmt_count), ("success_rate", fmt_pct), ("partial_reward", fmt_num), ("any_subgoal", fmt_pct)]
    )
    return Section(
        "table9",
        "Multi-step tasks (Table 9)",
        [
            P(
                f"Episodes of multi-step families ({', '.join(MULTI_STEP)}): full success, the partial reward (share of "
                "sub-goals reached) and the share with at least one sub-goal done."
            ),
            Table(["Agent", "Episodes", "Success", "Partial reward", "≥1 sub-goal done"], rows),
        ],
    )


def tables11_13(a: Analysis) -> Section:
    if not a.variations:
        return Section("table11", "Loops, invalid actions and intent by variation (Tables 11–13)")
    loops, inv = Rows(a.loops, "agent", "variation"), Rows(a.invalid, "agent", "variation")
    intent = Rows(intent_misunderstanding_rate(a.df, ["agent", "variation"]), "agent", "variation")
    blocks: list[Any] = [
        P(
            f"Agent × variation. Loops: blocks repeated at least {a.min_repeats} times (`--loop-repeats`; "
            "the paper counts 2). Intent misunderstanding: an app the task does not need, or a page "
            "outside the apps, was opened."
        )
    ]
    for title, rows_, col, f in (
        ("Loops per episode (Table 11)", loops, "loops_per_episode", fmt_num),
        ("Invalid actions per episode (Table 12)", inv, "invalid_per_episode", fmt_num),
        ("Intent misunderstanding rate (Table 13)", intent, "rate", fmt_pct),
    ):
        rows = [[agent_cell(a, ag), *[f((rows_.get(ag, v) or {}).get(col)) for v in a.variations]] for ag in a.agents]
        blocks += [Heading(title), Table(["Agent", *a.variations], rows)]
    return Section("table11", "Loops, invalid actions and intent by variation (Tables 11–13)", blocks)


def paper_sections(a: Analysis) -> list[Section]:
    return [figure4(a), table4(a), tables5_6(a), grids(a), table9(a), tables11_13(a)]
