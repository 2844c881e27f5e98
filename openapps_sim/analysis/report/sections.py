"""The report's core sections, each defined once as blocks of :mod:`openapps_sim.analysis.doc`
that both the Markdown and the HTML report draw: per variation, within versus across,
fluctuations, loops and invalid actions, breakdown by axis, pass^k, task heat maps, failures
(infrastructure, model service, agent exceptions) and the manifest."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from openapps_sim.analysis.doc.blocks import (
    Cell,
    Code,
    Figure,
    Figures,
    Fold,
    Heading,
    MdOnly,
    P,
    Section,
    Shown,
    Table,
)
from openapps_sim.analysis.doc.cells import agent_cell, colours_of, heat
from openapps_sim.analysis.doc.fmt import (
    ACROSS_COLOUR,
    DASH,
    WITHIN_COLOUR,
    fmt_interval,
    fmt_pct,
    fmt_ratio,
    fmt_std,
    is_nan,
)
from openapps_sim.analysis.doc.svg import svg_grouped_bars, svg_pass_k
from openapps_sim.analysis.metrics.axes import Rows
from openapps_sim.analysis.metrics.stats import success_rate
from openapps_sim.analysis.metrics.table import sort_key
from openapps_sim.analysis.report.analysis import Analysis
from openapps_sim.analysis.report.rows import (
    axis_matrix,
    behaviour_rows,
    fluctuation_table,
    manifest_facts,
    pass_k_matrix,
    per_variation_table,
    rate_matrix,
)


def series_by_agent(a: Analysis, frame: Any, keys: Sequence[str], key_col: str, value: str) -> tuple:
    """(series, errors, counts) for a grouped bar chart: one series per agent over ``keys``."""
    rows = Rows(frame, "agent", key_col)
    colours = colours_of(a.agents)
    series, errs, counts = [], [], []
    for ag in a.agents:
        rs = [rows.get(ag, k) for k in keys]
        series.append((ag, colours[ag], [float("nan") if r is None else r[value] for r in rs]))
        errs.append([None if r is None or "ci_low" not in r else (r["ci_low"], r["ci_high"]) for r in rs])
        counts.append([None if r is None else int(r["n"]) for r in rs])
    return series, errs, counts


def per_variation(a: Analysis) -> Section:
    frame = success_rate(a.df, ["agent", "variation"], ci=True)
    series, errs, counts = series_by_agent(a, frame, a.variations, "variation", "success_rate")
    chart = svg_grouped_bars(
        a.variations, series, "success rate", "variation", errors=errs, counts=counts, aria="success rate per variation"
    )
    caption = (
        "Success rate per variation and agent over all tasks and seeds. Whiskers: 95% bootstrap intervals "
        "over episodes. Hover a bar for the exact value."
    )
    table = Table(*per_variation_table(a), ["l", "l"] + ["r"] * 8)
    return Section("variation", "Success per variation", [Figure(chart, caption), table], md_title="Per variation")


def deviation(a: Analysis) -> Section:
    rows_ci = Rows(a.deviation_ci, "agent")
    rows = []
    for ag in a.agents:
        r = rows_ci.get(ag)
        stats = ("within_std", "across_std", "std_ratio", "within_mad", "across_mad", "mad_ratio")
        cells = [fmt_interval(r[s], r, s, fmt_ratio if s.endswith("ratio") else fmt_std) if r else DASH for s in stats]
        rows.append([agent_cell(a, ag), str(r["tasks"]) if r else DASH, *cells])
    headers = [
        "Agent",
        "Tasks",
        "Within std",
        "Across std",
        "Across/within (std)",
        "Within MAD",
        "Across MAD",
        "Across/within (MAD)",
    ]
    return Section(
        "deviation",
        "Within versus across versions",
        [
            Figures(_deviation_charts(a, rows_ci)),
            P("Brackets: 95% bootstrap intervals over tasks (tasks resampled, deviations and their ratio recomputed)."),
            Table(headers, rows),
        ],
    )


def _deviation_charts(a: Analysis, rows_ci: Rows) -> list:
    """The paper's Figures 5 and 10: std and MAD of reward within a version and across versions."""
    h = a.headline.set_index("agent")
    stats = ("within_std", "across_std", "within_mad", "across_mad")
    vals = {s: [h.loc[ag, s] for ag in a.agents] for s in stats}
    dmax = max([x for v in vals.values() for x in v if not is_nan(x)] + [0.0])
    ymax = 0.5 if dmax <= 0.5 else None

    def errs(stat: str) -> list:
        return [
            None if rows_ci.get(ag) is None else (rows_ci.get(ag)[f"{stat}_lo"], rows_ci.get(ag)[f"{stat}_hi"])
            for ag in a.agents
        ]

    charts = []
    for kind, label, fig in (("std", "std of reward", "5"), ("mad", "mean absolute deviation of reward", "10")):
        chart = svg_grouped_bars(
            a.agents,
            [
                ("within a version", WITHIN_COLOUR, vals[f"within_{kind}"]),
                ("across versions", ACROSS_COLOUR, vals[f"across_{kind}"]),
            ],
            label,
            "agent",
            percent=False,
            y_max=ymax,
            value_labels=True,
            errors=[errs(f"within_{kind}"), errs(f"across_{kind}")],
            aria=f"within versus across version {label}",
        )
        charts.append(
            Figure(
                chart,
                f"{label.capitalize()}: within one fixed version versus across versions (the paper's "
                f"Figure {fig}). Whiskers: 95% bootstrap intervals over tasks.",
            )
        )
    return charts


def fluctuations(a: Analysis, top: int) -> Section:
    (fh, fl), note = fluctuation_table(a, top)
    blocks: list[Any] = [
        P(
            f"Tasks whose success rate differs most between the best and the worst version (top {top}; versions "
            "with tied rates are all named; the paper's Table 2)."
        )
    ]
    if fl:
        blocks.append(Table(fh, fl, ["l", "l", "l wrap", "l wrap", "r"]))
    if note:
        blocks.append(P(note))
    return Section("fluctuation", "Largest fluctuations", blocks, md_title="Largest fluctuations across versions")


def _per_variation(a: Analysis, frame: Any, value: str) -> list:
    rows, colours = Rows(frame, "agent", "variation"), colours_of(a.agents)
    return [
        (ag, colours[ag], [(rows.get(ag, v) or {}).get(value, float("nan")) for v in a.variations]) for ag in a.agents
    ]


def behaviour(a: Analysis) -> Section:
    # Stuck loops only: a progressing repeat (the oracle paging through months) is not a failure mode.
    kinds = a.loop_kinds
    known = len(kinds) and not kinds["unknown_per_episode"].sum()
    ls = _per_variation(a, kinds, "stuck_per_episode") if known else _per_variation(a, a.loops, "loops_per_episode")
    what = "stuck loops" if known else "loops"
    c1 = svg_grouped_bars(
        a.variations, ls, f"{what} per episode", "variation", percent=False, aria=f"{what} per episode"
    )
    iv = _per_variation(a, a.invalid, "invalid_per_episode")
    c2 = svg_grouped_bars(
        a.variations, iv, "invalid actions per episode", "variation", percent=False, aria="invalid actions"
    )
    h, rows = behaviour_rows(a)
    return Section(
        "behaviour",
        "Loops and invalid actions by variation",
        [
            Figures(
                [
                    Figure(
                        c1,
                        f"{what.capitalize()} per episode (one action block repeated at least {a.min_repeats} times"
                        + (
                            " while nothing changed; the table below counts every loop, the section on stuck "
                            "loops tells them apart)."
                            if known
                            else ")."
                        ),
                    ),
                    Figure(
                        c2, "Invalid actions per episode (malformed, unknown, bad arguments, rejected by the browser)."
                    ),
                ],
                stacked=len(a.variations) * len(a.agents) > 12,
            ),
            Table(h, rows, ["l", "l"] + ["r"] * (len(h) - 2)),
        ],
    )


def axes(a: Analysis) -> Section:
    others = [ax for ax in a.axes if ax != "variation"]
    if not others:
        return Section(
            "axes",
            "Breakdown by varied axis",
            [P("No axis other than the variation varied in this run (see the per-variation table).")],
        )
    blocks: list[Any] = []
    for ax in others:
        b = a.breakdown[a.breakdown["axis"] == ax]
        values = list(dict.fromkeys(b["value"].tolist()))
        series, errs, counts = series_by_agent(a, b, values, "value", "success_rate")
        name = ax.replace("_", " ")
        chart = svg_grouped_bars(
            values, series, "success rate", name, errors=errs, counts=counts, aria=f"success rate per {name}"
        )
        h, rows = axis_matrix(a, ax)
        blocks += [
            Heading(name.capitalize()),
            Figure(chart, f"Success rate per {name} (all tasks, variations and seeds)."),
            Table(h, rows),
        ]
    return Section("axes", "Breakdown by varied axis", blocks)


def pass_k(a: Analysis) -> Section:
    h, rows = pass_k_matrix(a)
    if not rows or int(a.pass_k["k"].max()) < 2:
        return Section("passk", "pass^k over seeds")
    chart = svg_pass_k(a.pass_k, a.agents, colours_of(a.agents))
    text = (
        "pass^k: the chance that k episodes of the same task and version (different seeds) all succeed; "
        "pass@k: that at least one does (unbiased estimators, averaged over tasks and versions)."
    )
    return Section(
        "passk",
        "pass^k over seeds",
        [Figure(chart, text), P(text), Table(h, rows)],
        md_title="pass^k and pass@k over seeds",
    )


def tasks(a: Analysis) -> Section:
    tasks_ = sorted(a.valid["task"].unique().tolist(), key=sort_key)
    per_task = Rows(a.per_task, "agent", "task")
    folds = []
    for i, ag in enumerate(a.agents):
        tv = Rows(a.task_variation[a.task_variation["agent"] == ag], "task", "variation")
        rows = []
        for t in tasks_:
            cells = [heat(r["success_rate"], r["n"]) if (r := tv.get(t, v)) else Cell(DASH) for v in a.variations]
            pr = per_task.get(ag, t)
            rows.append([t, *cells, heat(pr["success_rate"], pr["n"]) if pr else Cell(DASH)])
        folds.append(
            Fold(
                agent_cell(a, ag),
                [Table(["Task", *a.variations, "all"], rows, ["l"] + ["c"] * (len(a.variations) + 1))],
                open=i == 0,
                md=False,
            )
        )
    h, rows = rate_matrix(a.per_task, "task", a.agents)
    return Section(
        "tasks",
        "Success per task and variation",
        [
            P("Success rate of every task in every variation (all seeds). Darker is better."),
            *folds,
            MdOnly(Table(h, rows, ["l"] + ["r"] * len(a.agents))),
        ],
        md_title="Success per task (all versions)",
    )


def errors(a: Analysis) -> Section:
    title = "Failures: infrastructure, model service, agent exceptions"
    if not int(a.df["is_error"].sum()) and not int(a.df["is_agent_error"].sum()):
        return Section("errors", title, [P("None: every recorded episode was scored, and no agent raised.")])
    rows = [
        [
            str(r["agent"]),
            str(int(r["episodes"])),
            str(int(r["infrastructure"])),
            str(int(r["model_service"])),
            fmt_pct(r["error_rate"]),
            str(int(r["agent_errors"])),
            fmt_pct(r["agent_error_rate"]),
        ]
        for _, r in a.errors.iterrows()
    ]
    msgs = [[r["kind"], r["message"], str(int(r["count"])), r["agents"]] for _, r in a.error_messages.iterrows()]
    return Section(
        "errors",
        title,
        [
            P(
                "Infrastructure errors (the browser or the app server died) and model-service errors (the "
                "agent's model API still failed after its retries) are excluded from every number above and "
                "run again on --resume. An agent's own exception ends its episode as a failure of that agent: "
                "counted in its success rate, never re-run."
            ),
            Table(
                ["Agent", "Episodes", "Infrastructure", "Model service", "Excluded", "Agent exceptions", "Of scored"],
                rows,
            ),
            Table(["Kind", "Message", "Count", "Agents"], msgs, ["l", "l", "r", "l"]),
        ],
    )


def manifest(a: Analysis) -> Section:
    if not a.manifest:
        return Section(
            "manifest",
            "Run manifest",
            [P("No manifest.json in this folder: the run cannot be reproduced from this report alone.")],
        )
    text = json.dumps(a.manifest, indent=2, sort_keys=True, default=str, ensure_ascii=False)
    return Section(
        "manifest",
        "Run manifest",
        [
            Table(["Field", "Value"], manifest_facts(a.manifest, a.df), ["l", "l"], cls="kv"),
            Fold("Full manifest (JSON)", [Code(text, "json")], md=False),
            MdOnly(Code(text, "json")),
        ],
    )


SHOWN = [
    Shown(30, lambda d: per_variation(d.a), summary=True),
    Shown(40, lambda d: deviation(d.a), paper=True),
    Shown(50, lambda d: fluctuations(d.a, d.top), paper=True),
    Shown(60, lambda d: behaviour(d.a)),
    Shown(70, lambda d: axes(d.a)),
    Shown(80, lambda d: pass_k(d.a)),
    Shown(130, lambda d: tasks(d.a)),
    Shown(180, lambda d: errors(d.a), summary=True),
    Shown(190, lambda d: manifest(d.a), summary=True),
]
