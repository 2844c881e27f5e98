"""Where it breaks, as report sections: success rolled up per app, variation kind, task structure
and task length; stuck loops versus progressing repeats; the same task and seed in the default
and in each other version (success flips with links to both trajectories)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pandas as pd
from fasthtml.common import A, Span

from openapps_sim.analysis.metrics.breaks import ROLLUPS, paired_summary, rollups
from openapps_sim.analysis.metrics.robustness import rsr_table
from openapps_sim.analysis.metrics.table import sort_key
from openapps_sim.analysis.report.analysis import Analysis, Rows
from openapps_sim.analysis.report.blocks import Cell, Heading, P, Section, Table
from openapps_sim.analysis.report.cells import agent_cell, agent_rows
from openapps_sim.analysis.report.fmt import DASH, fmt_count, fmt_num, fmt_pct, fmt_rate_ci
from openapps_sim.analysis.report.viewer import anchor


def rollups_section(a: Analysis) -> Section:
    r = rollups(a.df, n_boot=max(200, a.n_boot // 2), seed=a.seed)
    if not r:
        return Section("rollups", "Where it breaks")
    blocks: list[Any] = [
        P(
            "Success with 95% bootstrap intervals over episodes, rolled up four ways. Variation kind: "
            "what the variation changes (appearance, content, interruption, structure; a composition "
            "joins them). Task length: the number of essential states (milestones) of the task."
        )
    ]
    for col, title in ROLLUPS.items():
        frame = r[col]
        keys = sorted(dict.fromkeys(frame[col]), key=sort_key)
        if len(keys) < 2 and col != "app":
            continue
        rows_ = Rows(frame, col, "agent")
        rows = [
            [
                k,
                *[
                    DASH
                    if (x := rows_.get(k, ag)) is None
                    else f"{fmt_rate_ci(x['success_rate'], x['ci_low'], x['ci_high'])} (n={int(x['n'])})"
                    for ag in a.agents
                ],
            ]
            for k in keys
        ]
        blocks += [Heading(title), Table([title, *a.agents], rows)]
    return Section("rollups", "Where it breaks", blocks)


def loops(a: Analysis) -> Section:
    k = a.loop_kinds
    if k.empty or not (
        k["stuck_per_episode"].sum() + k["progressing_per_episode"].sum() + k["unknown_per_episode"].sum()
    ):
        return Section(
            "loopkinds",
            "Stuck loops and progressing repeats",
            [P(f"No action block was repeated {a.min_repeats} times in a row.")],
        )
    columns = [
        ("variation", str),
        ("n", fmt_count),
        ("stuck_per_episode", fmt_num),
        ("episodes_stuck", partial(fmt_pct, digits=0)),
        ("progressing_per_episode", fmt_num),
        ("unknown_per_episode", fmt_num),
    ]
    rows = agent_rows(a, k, columns)
    return Section(
        "loopkinds",
        "Stuck loops and progressing repeats",
        [
            P(
                "A **stuck loop** repeats an action block while nothing changes (same page, same screen, same app state) in "
                "some repetition; a **progressing repeat** changes the page or the state every time (the oracle clicking "
                '"next month" five times). Unclassified: records without per-step change flags (older runs).'
            ),
            Table(
                ["Agent", "Variation", "Episodes", "Stuck/ep", "Episodes stuck", "Progressing/ep", "Unclassified/ep"],
                rows,
                ["l", "l", "r", "r", "r", "r", "r"],
            ),
        ],
    )


def _link(episode_id: Any, shown: set[str], text: str) -> Cell:
    if str(episode_id) in shown:
        return Cell(text, A(text, href=f"#{anchor(episode_id)}"))
    return Cell(text, Span(text, cls="meta"))


def _flip_row(a: Analysis, r: pd.Series, shown: set[str]) -> list:
    """One success flip: who, which task and seed, and links to both episodes when shown."""
    return [
        agent_cell(a, r["agent"]),
        r["task"],
        str(r["seed"]),
        r["variation"],
        r["flip"],
        _link(r.get("episode_id_base"), shown, f"{a.baseline} ({'success' if r['success_base'] else 'failure'})"),
        _link(r.get("episode_other"), shown, f"{r['variation']} ({'success' if r['success_other'] else 'failure'})"),
    ]


def paired(a: Analysis, pairs: pd.DataFrame, shown: set[str], limit: int = 30) -> Section:
    if pairs.empty:
        return Section("paired", f"Paired with the {a.baseline} version")
    summary = paired_summary(pairs)
    rsr = Rows(rsr_table(a.df, a.baseline), "agent", "variation")
    rows = []
    for _, r in summary.iterrows():
        x = rsr.get(r["agent"], r["variation"])
        rows.append(
            [
                agent_cell(a, r["agent"]),
                r["variation"],
                str(int(r["pairs"])),
                str(int(r["lost"])),
                str(int(r["gained"])),
                DASH if x is None else fmt_rate_ci(x["rsr"], x["ci_lo"], x["ci_hi"]),
            ]
        )
    flips = pairs[pairs["flip"] != "same"].sort_values(
        ["flip", "agent", "task", "variation"], key=lambda s: s.map(sort_key)
    )
    blocks: list[Any] = [
        P(
            f"The same agent, task and seed run in `{a.baseline}` and in another version. Lost: solved in `{a.baseline}`, "
            "failed in the other; gained: the reverse. Paired RSR: of the pairs solved in the baseline, the share still "
            "solved (against a version that interrupts: of the pairs where an interruption was shown)."
        ),
        Table(
            ["Agent", "Version", "Pairs", "Lost", "Gained", "Paired RSR [95% CI]"], rows, ["l", "l", "r", "r", "r", "r"]
        ),
    ]
    if len(flips):
        frows = [_flip_row(a, r, shown) for _, r in flips.head(limit).iterrows()]
        blocks += [
            Heading(f"Success flips ({len(flips)})"),
            Table(
                ["Agent", "Task", "Seed", "Version", "Flip", "Baseline episode", "Other episode"],
                frows,
                ["l", "l", "r", "l", "l", "l", "l"],
            ),
        ]
        if len(flips) > limit:
            blocks.append(P(f"{len(flips) - limit} more flips are not listed.", cls="meta"))
    return Section("paired", f"Paired with the {a.baseline} version", blocks)


def flip_ids(pairs: pd.DataFrame, limit: int) -> list[str]:
    """Episode ids of both sides of the first flips, for the viewer to show first."""
    if pairs.empty or "episode_id_base" not in pairs.columns:
        return []
    flips = pairs[pairs["flip"] != "same"].sort_values(
        ["flip", "agent", "task", "variation"], key=lambda s: s.map(sort_key)
    )
    out: list[str] = []
    for _, r in flips.head(limit).iterrows():
        out += [str(r["episode_id_base"]), str(r["episode_other"])]
    return out
