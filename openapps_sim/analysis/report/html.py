"""``report.html``: the self-contained page (tables, heat maps, charts, trajectories)."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openapps_sim.analysis.metrics as m
from openapps_sim.analysis.report.analysis import HEADLINE_HEADERS, Analysis, Rows, headline_rows
from openapps_sim.analysis.report.fmt import (
    ACROSS_COLOUR,
    AGENT_COLOURS,
    DASH,
    WITHIN_COLOUR,
    _e,
    _md_inline,
    _nan,
    fmt_pct,
    fmt_ratio,
    fmt_std,
)
from openapps_sim.analysis.report.load import load_trajectory
from openapps_sim.analysis.report.markdown import (
    FLUCTUATION_HEADERS,
    HOW_TO_READ,
    PER_VARIATION_HEADERS,
    _axis_matrix,
    _behaviour_rows,
    _fluctuation_rows,
    _manifest_facts,
    _overview,
    _pass_k_matrix,
    _per_variation_rows,
    _range_sentences,
    _title,
)
from openapps_sim.analysis.report.progress import progress_html
from openapps_sim.analysis.report.robustness import robustness_tables
from openapps_sim.analysis.report.style import CSS
from openapps_sim.analysis.report.svg import svg_grouped_bars, svg_pass_k
from openapps_sim.analysis.report.trajectories import _Budget, _trajectory_html, select_episodes


def _html_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    align: Sequence[str] | None = None,
    raw: bool = False,
    cls: str = "",
) -> str:
    align = align or ["l"] + ["r"] * (len(headers) - 1)
    head = "".join(f'<th class="{a}">{_e(h)}</th>' for h, a in zip(headers, align, strict=True))
    body = []
    for row in rows:
        cells = "".join(f'<td class="{a}">{v if raw else _e(v)}</td>' for v, a in zip(row, align, strict=True))
        body.append(f"<tr>{cells}</tr>")
    return f'<div class="scroll"><table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _heat_colour(v: float) -> tuple[str, str]:
    """Background and text colour for a rate in [0, 1] (white to deep blue)."""
    lo, hi = (247, 251, 255), (8, 69, 148)
    t = max(0.0, min(1.0, float(v)))
    rgb = tuple(round(a + (b - a) * t) for a, b in zip(lo, hi, strict=True))
    return f"rgb({rgb[0]},{rgb[1]},{rgb[2]})", ("#fff" if t > 0.55 else "#1d2430")


def _heat_cell(rate: Any, n: Any, extra: str = "") -> str:
    if _nan(rate):
        return f'<td class="heat">{DASH}</td>'
    bg, fg = _heat_colour(rate)
    title = f"{fmt_pct(rate)} of {int(n)} episodes{extra}"
    return f'<td class="heat" style="background:{bg};color:{fg}" title="{_e(title)}">{100 * float(rate):.0f}%</td>'


def _agent_colours(agents: Sequence[str]) -> dict[str, str]:
    return {a: AGENT_COLOURS[i % len(AGENT_COLOURS)] for i, a in enumerate(agents)}


def _legend_name(agent: str, colours: dict[str, str]) -> str:
    return f'<span class="swatch" style="background:{colours[agent]}"></span>{_e(agent)}'


def render_html(
    a: Analysis,
    results_dir: Path,
    top: int = 15,
    max_trajectories: int = 40,
    screenshot_width: int = 960,
    screenshot_budget_bytes: int = 16_000_000,
) -> str:
    colours = _agent_colours(a.agents)
    sec: list[tuple[str, str, str]] = []  # (anchor, title, html)
    v = a.valid

    if not v.empty:
        # Headline.
        rows = headline_rows(a.headline)
        for r in rows:
            r[0] = _legend_name(r[0], colours)
        body = _html_table(HEADLINE_HEADERS, [[r[0]] + [_e(x) for x in r[1:]] for r in rows], raw=True)
        sentences = _range_sentences(a)
        if sentences:
            body += "<ul>" + "".join(f"<li>{_e(s)}</li>" for s in sentences) + "</ul>"
        sec.append(("headline", "Headline", body))
        robust = robustness_tables(a.df)
        if robust:
            body = "".join(
                f"<p>{_e(c)}</p>" + _html_table(h, rows, ["l"] * (len(h) - 4) + ["r"] * 4) for c, h, rows in robust
            )
            sec.append(("robustness", "Robustness to interruptions and other versions", body))

        # Success per variation chart + table.
        sr_rows = Rows(m.success_rate(a.df, ["agent", "variation"], ci=True), "agent", "variation")
        series, errs, counts = [], [], []
        for ag in a.agents:
            vals, es, ns = [], [], []
            for var in a.variations:
                r = sr_rows.get(ag, var)
                vals.append(float("nan") if r is None else r["success_rate"])
                es.append(None if r is None else (r["ci_low"], r["ci_high"]))
                ns.append(None if r is None else int(r["n"]))
            series.append((ag, colours[ag], vals))
            errs.append(es)
            counts.append(ns)
        chart = svg_grouped_bars(
            a.variations,
            series,
            "success rate",
            "variation",
            errors=errs,
            counts=counts,
            aria="success rate per variation and agent",
        )
        body = (
            f"<figure>{chart}<figcaption>Success rate per variation and agent over all tasks and seeds. "
            "Whiskers: 95% bootstrap intervals over episodes. Hover a bar for the exact value.</figcaption></figure>"
        )
        body += _html_table(PER_VARIATION_HEADERS, _per_variation_rows(a), ["l", "l"] + ["r"] * 8)
        sec.append(("variation", "Success per variation", body))

        # Deviation chart.
        within_std = [a.headline.set_index("agent").loc[ag, "within_std"] for ag in a.agents]
        across_std = [a.headline.set_index("agent").loc[ag, "across_std"] for ag in a.agents]
        within_mad = [a.headline.set_index("agent").loc[ag, "within_mad"] for ag in a.agents]
        across_mad = [a.headline.set_index("agent").loc[ag, "across_mad"] for ag in a.agents]
        dmax = max([x for x in within_std + across_std + within_mad + across_mad if not _nan(x)] + [0.0])
        ymax = 0.5 if dmax <= 0.5 else None
        c1 = svg_grouped_bars(
            a.agents,
            [("within a version", WITHIN_COLOUR, within_std), ("across versions", ACROSS_COLOUR, across_std)],
            "std of reward",
            "agent",
            percent=False,
            y_max=ymax,
            value_labels=True,
            aria="within versus across version standard deviation",
        )
        c2 = svg_grouped_bars(
            a.agents,
            [("within a version", WITHIN_COLOUR, within_mad), ("across versions", ACROSS_COLOUR, across_mad)],
            "mean absolute deviation of reward",
            "agent",
            percent=False,
            y_max=ymax,
            value_labels=True,
            aria="within versus across version mean absolute deviation",
        )
        body = (
            f'<div class="charts2"><figure>{c1}<figcaption>Standard deviation of rewards: within one fixed version '
            "(over seeds, averaged over versions and tasks) versus across versions (all versions' rewards pooled, "
            "averaged over tasks).</figcaption></figure>"
            f"<figure>{c2}<figcaption>The same with the mean absolute deviation (the paper's Figure 10)."
            "</figcaption></figure></div>"
        )
        rows = [
            [
                _legend_name(r["agent"], colours),
                fmt_std(r["within_std"]),
                fmt_std(r["across_std"]),
                fmt_ratio(r["std_ratio"]),
                fmt_std(r["within_mad"]),
                fmt_std(r["across_mad"]),
                fmt_ratio(r["mad_ratio"]),
            ]
            for _, r in a.headline.iterrows()
        ]
        body += _html_table(
            [
                "Agent",
                "Within std",
                "Across std",
                "Across/within (std)",
                "Within MAD",
                "Across MAD",
                "Across/within (MAD)",
            ],
            [[r[0]] + [_e(x) for x in r[1:]] for r in rows],
            raw=True,
        )
        sec.append(("deviation", "Within versus across versions", body))

        # Fluctuations.
        fl, fl_note = _fluctuation_rows(a, top)
        body = (
            "<p>Tasks whose success rate differs most between the best and the worst version "
            f"(top {top}; versions with tied rates are all named).</p>"
        )
        if fl:
            body += _html_table(FLUCTUATION_HEADERS, fl, ["l", "l", "l wrap", "l wrap", "r"])
        if fl_note:
            body += f"<p>{html.escape(fl_note)}</p>"
        sec.append(("fluctuation", "Largest fluctuations", body))

        # Loops and invalid actions.
        loops_series = []
        inv_series = []
        loop_rows, inv_rows = Rows(a.loops, "agent", "variation"), Rows(a.invalid, "agent", "variation")
        for ag in a.agents:
            lv, iv = [], []
            for var in a.variations:
                lr = loop_rows.get(ag, var)
                ir = inv_rows.get(ag, var)
                lv.append(float("nan") if lr is None else lr["loops_per_episode"])
                iv.append(float("nan") if ir is None else ir["invalid_per_episode"])
            loops_series.append((ag, colours[ag], lv))
            inv_series.append((ag, colours[ag], iv))
        c1 = svg_grouped_bars(
            a.variations,
            loops_series,
            "loops per episode",
            "variation",
            percent=False,
            aria="loops per episode by variation",
        )
        c2 = svg_grouped_bars(
            a.variations,
            inv_series,
            "invalid actions per episode",
            "variation",
            percent=False,
            aria="invalid actions per episode by variation",
        )
        h, rows = _behaviour_rows(a)
        body = (
            f'<div class="{"charts2" if len(a.variations) * len(a.agents) <= 12 else "charts1"}"><figure>{c1}'
            "<figcaption>Loops per episode (runs of one action block repeated "
            f"at least {m.DEFAULT_MIN_REPEATS} times).</figcaption></figure><figure>{c2}<figcaption>Invalid actions "
            "per episode (malformed, unknown, bad arguments, rejected by the browser).</figcaption></figure></div>"
        )
        body += _html_table(h, rows, ["l", "l"] + ["r"] * (len(h) - 2))
        sec.append(("behaviour", "Loops and invalid actions by variation", body))

        # Breakdown per varied axis.
        others = [ax for ax in a.axes if ax != "variation"]
        if others:
            body = ""
            for ax in others:
                b = a.breakdown[a.breakdown["axis"] == ax]
                values = list(dict.fromkeys(b["value"].tolist()))
                b_rows = Rows(b, "value", "agent")
                series, errs, counts = [], [], []
                for ag in a.agents:
                    rs = [b_rows.get(val, ag) for val in values]
                    series.append((ag, colours[ag], [float("nan") if r is None else r["success_rate"] for r in rs]))
                    errs.append([None if r is None else (r["ci_low"], r["ci_high"]) for r in rs])
                    counts.append([None if r is None else int(r["n"]) for r in rs])
                name = ax.replace("_", " ")
                chart = svg_grouped_bars(
                    values, series, "success rate", name, errors=errs, counts=counts, aria=f"success rate per {name}"
                )
                h, rows = _axis_matrix(a, ax)
                body += (
                    f"<h3>{_e(name.capitalize())}</h3><figure>{chart}<figcaption>Success rate per {_e(name)} "
                    "(all tasks, variations and seeds).</figcaption></figure>" + _html_table(h, rows)
                )
        else:
            body = "<p>No axis other than the variation varied in this run (see the per-variation section).</p>"
        sec.append(("axes", "Breakdown by varied axis", body))

        # pass^k.
        h, rows = _pass_k_matrix(a)
        if rows and int(a.pass_k["k"].max()) >= 2:
            chart = svg_pass_k(a.pass_k, a.agents, colours)
            body = (
                f"<figure>{chart}<figcaption>pass^k (solid): the chance that k episodes of the same task and "
                "version, differing only by seed, all succeed; pass@k (dashed): that at least one does. "
                "Unbiased estimators over each task × version, averaged.</figcaption></figure>"
            )
            body += _html_table(h, rows)
            sec.append(("passk", "pass^k over seeds", body))

        # Heatmaps per agent: task x variation.
        body = "<p>Success rate of every task in every variation (all seeds). Darker is better.</p>"
        tasks = sorted(v["task"].unique().tolist(), key=m.sort_key)
        task_rows = Rows(a.per_task, "agent", "task")
        for i, ag in enumerate(a.agents):
            tv_rows = Rows(a.task_variation[a.task_variation["agent"] == ag], "task", "variation")
            head = "".join(f"<th>{_e(var)}</th>" for var in a.variations)
            trs = []
            for t in tasks:
                cells = []
                for var in a.variations:
                    r = tv_rows.get(t, var)
                    cells.append(
                        f'<td class="heat">{DASH}</td>' if r is None else _heat_cell(r["success_rate"], r["n"])
                    )
                pr = task_rows.get(ag, t)
                cells.append(_heat_cell(pr["success_rate"], pr["n"]) if pr is not None else f"<td>{DASH}</td>")
                trs.append(f'<tr><td class="l">{_e(t)}</td>{"".join(cells)}</tr>')
            table = (
                f'<div class="scroll"><table><thead><tr><th class="l">Task</th>{head}<th>all</th></tr></thead>'
                f"<tbody>{''.join(trs)}</tbody></table></div>"
            )
            body += f'<details{" open" if i == 0 else ""}><summary>{_legend_name(ag, colours)}</summary><div class="body">{table}</div></details>'
        sec.append(("tasks", "Success per task and variation", body))

        sec.append(("progress", "Decisions, answers and milestones", progress_html(a.df, _html_table)))

        # Trajectories.
        picked = select_episodes(v, results_dir, max_trajectories)
        budget = _Budget(screenshot_budget_bytes)
        items = []
        for row in picked:
            traj = load_trajectory(results_dir, str(row["episode_id"]))
            if traj is None:
                continue
            items.append(_trajectory_html(results_dir, row if "agent" in row else {}, traj, screenshot_width, budget))
        if items:
            n_with = len(list((results_dir / "trajectories").glob("*.json")))
            body = (
                f"<p>{len(items)} of {n_with} recorded trajectories, failures first, spread over agents and "
                "variations. Open one to see the goal and every step: the action, any error, the page and the "
                "screenshot after the step when it was recorded. Steps inside a loop have an orange edge; invalid "
                "actions a red border.</p>" + "".join(items)
            )
            if budget.remaining <= 0:
                body += '<p class="meta">Some screenshots were left out to keep this file small.</p>'
            sec.append(("trajectories", "Trajectories", body))

    # Errors.
    n_err = int(a.df["is_error"].sum())
    if n_err:
        rows = [
            [str(r["agent"]), str(int(r["episodes"])), str(int(r["errors"])), fmt_pct(r["error_rate"])]
            for _, r in a.errors.iterrows()
        ]
        body = (
            "<p>Episodes the infrastructure failed (browser or server crash). They are excluded from every "
            "number above.</p>" + _html_table(["Agent", "Episodes", "Errors", "Error rate"], rows)
        )
        rows = [[r["message"], str(int(r["count"])), r["agents"]] for _, r in a.error_messages.iterrows()]
        body += _html_table(["Message", "Count", "Agents"], rows, ["l", "r", "l"])
    else:
        body = "<p>None: every recorded episode was scored.</p>"
    sec.append(("errors", "Infrastructure errors", body))

    # Manifest.
    if a.manifest:
        facts = _manifest_facts(a.manifest, a.df)
        body = _html_table(["Field", "Value"], facts, ["l", "l"], cls="kv")
        body += (
            '<details><summary>Full manifest (JSON)</summary><div class="body"><pre>'
            + _e(json.dumps(a.manifest, indent=2, sort_keys=True, default=str, ensure_ascii=False))
            + "</pre></div></details>"
        )
    else:
        body = "<p>No manifest.json in this folder: the run cannot be reproduced from this report alone.</p>"
    sec.append(("manifest", "Run manifest", body))

    # Page.
    cards = "".join(
        f'<div class="card"><div class="k">{_e(k)}</div><div class="v">{_e(val)}</div></div>' for k, val in _overview(a)
    )
    notes = "".join(f'<div class="note">{_e(n)}</div>' for n in a.notes)
    version_note = ""
    if len(a.version) > 1:
        version_note = (
            f"<li>A <i>version</i> here is one combination of {_e(', '.join(a.version))} (every axis that "
            "varied), so the episodes of one version differ only by seed.</li>"
        )
    howto = (
        '<div class="howto"><h3>How to read this</h3><ul>'
        + "".join(f"<li>{_md_inline(t)}</li>" for t in HOW_TO_READ)
        + version_note
        + "</ul></div>"
    )
    toc = "".join(f'<a href="#{anchor}">{_e(title)}</a>' for anchor, title, _ in sec)
    sub = []
    if a.manifest.get("version"):
        sub.append(f"openapps-sim {a.manifest.get('version')}")
    if a.manifest.get("git_commit"):
        sub.append(f"commit {str(a.manifest['git_commit'])[:10]}")
    if a.manifest.get("spec_hash"):
        sub.append(f"spec {a.manifest['spec_hash']}")
    sections = "".join(
        f'<section id="{anchor}"><h2>{_e(title)}</h2>{content}</section>' for anchor, title, content in sec
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(_title(a))}</title><style>{CSS}</style></head><body><main>"
        f'<h1>{_e(_title(a))}</h1><p class="sub">{_e(" · ".join(sub))}</p>'
        f'<div class="cards">{cards}</div>{notes}{howto}<nav class="toc">{toc}</nav>{sections}'
        "</main></body></html>\n"
    )
