"""Where an agent breaks: the kind of each variation (appearance, content, interruption,
structure), rollups of success per app, variation kind, task structure and task length, stuck
loops versus progressing repeats, and the same task and seed paired across versions."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from fasthtml.common import A, Span

from openapps_sim.analysis.doc.blocks import Cell, Heading, P, Section, Shown, Table
from openapps_sim.analysis.doc.cells import agent_cell, agent_rows, anchor
from openapps_sim.analysis.doc.fmt import DASH, fmt_count, fmt_num, fmt_pct, fmt_rate_ci
from openapps_sim.analysis.metrics.axes import Rows, rate_rows
from openapps_sim.analysis.metrics.behaviour import DEFAULT_MIN_REPEATS, find_loops
from openapps_sim.analysis.metrics.robustness import rsr_table
from openapps_sim.analysis.metrics.stats import success_rate
from openapps_sim.analysis.metrics.table import PREPARED_KEY, Grouping, sort_key, valid_episodes
from openapps_sim.analysis.metrics.values import as_dict, as_list, is_missing
from openapps_sim.config.catalog import resolve_pack

if TYPE_CHECKING:
    from openapps_sim.analysis.report.analysis import Analysis


KINDS = ("appearance", "content", "interruption", "structure")
"""Kinds of variation, read from what a pack changes: ``interruptions`` -> interruption, the
theme's ``layout``/``nav_position`` -> structure, any other theme key -> appearance, app data,
texts and languages -> content."""

_STRUCTURE_KEYS = {"layout", "nav_position"}


@lru_cache(maxsize=256)
def pack_kinds(part: str) -> tuple[str, ...]:
    """The kinds of one pack (a name or a file); ``("other",)`` when it cannot be read here."""
    try:
        pack = resolve_pack(part)
    except Exception:  # noqa: BLE001 - a pack from another machine: still reported, as "other"
        return ("other",)
    kinds = set()
    for _file, section, raw in pack.sections:
        keys = set(raw) if isinstance(raw, dict) else set()
        if section == "interruptions":
            kinds.add("interruption")
        elif section == "theme":
            if keys & _STRUCTURE_KEYS:
                kinds.add("structure")
            if keys - _STRUCTURE_KEYS:
                kinds.add("appearance")
        else:
            kinds.add("content")
    return tuple(k for k in KINDS if k in kinds)


def variation_kind(expression: Any) -> str:
    """``default``, one of :data:`KINDS`, several joined by ``+`` (a composition), or ``other``."""
    text = "default" if is_missing(expression) else str(expression)
    parts = [p.strip() for p in text.split("+") if p.strip() and p.strip() != "default"]
    if not parts:
        return "default"
    kinds = sorted({k for p in parts for k in pack_kinds(p)}, key=lambda k: (KINDS + ("other",)).index(k))
    return "+".join(kinds) if kinds else "default"


def length_band(n: int) -> str:
    """Task length as the number of essential states (milestones): 1, 2, 3-4 or 5+."""
    if n <= 1:
        return "1"
    if n == 2:
        return "2"
    return "3-4" if n <= 4 else "5+"


def _app_of(task: Any, apps: Any) -> str:
    """The app of a task: the one it needs, else "several apps" (``multi.*`` families)."""
    needed = [a for a in as_list(apps) if a != "start"] or [str(task).split(".")[0]]
    return needed[0] if len(needed) == 1 else "several apps"


def rollup_columns(df: pd.DataFrame) -> pd.DataFrame:
    """The valid episodes with ``app`` (the app the task needs, or "several apps"), ``variation_kind``,
    ``task_structure`` and ``length`` (milestone band) added."""
    v = valid_episodes(df).copy()
    v["app"] = [_app_of(t, apps) for t, apps in zip(v["task"], v["task_apps"], strict=True)]
    v["variation_kind"] = [variation_kind(x) for x in v["variation"]]
    if "structure" in v.columns:
        v["task_structure"] = ["unknown" if is_missing(s) or not s else str(s) for s in v["structure"]]
    else:
        v["task_structure"] = "unknown"
    if "milestones" in v.columns:
        v["length"] = [length_band(len(as_dict(ms))) if as_dict(ms) else "unknown" for ms in v["milestones"]]
    else:
        v["length"] = "unknown"
    return v


ROLLUPS = {
    "app": "App",
    "variation_kind": "Variation kind",
    "task_structure": "Task structure",
    "length": "Task length (milestones)",
}


def rollups(df: pd.DataFrame, n_boot: int = 1000, seed: int = 0) -> dict[str, pd.DataFrame]:
    """Success with intervals per agent and each rollup column of :func:`rollup_columns`."""
    v = rollup_columns(df)
    if v.empty:
        return {}
    return {col: success_rate(v, ["agent", col], ci=True, n_boot=n_boot, seed=seed) for col in ROLLUPS}


def loop_kinds(
    actions: Sequence[Any], changed: Sequence[Any] | None, min_repeats: int = DEFAULT_MIN_REPEATS
) -> tuple[int, int, int]:
    """``(stuck, progressing, unknown)`` loops of an episode.

    A loop (:func:`find_loops`) is a *progressing repeat* when every repetition after the first
    changed the page, the screen or the app state (``changed[i]`` per action, as the runner
    records it), e.g. "next month" clicked five times; a *stuck loop* when some repetition
    changed nothing. Without ``changed`` (older records) every loop is ``unknown``.
    """
    loops = find_loops(actions, min_repeats)
    flags = [bool(x) for x in as_list(changed)]
    if len(flags) < len(actions):
        return (0, 0, len(loops))
    stuck = progressing = 0
    for start, period, reps in loops:
        blocks = [flags[start + r * period : start + (r + 1) * period] for r in range(1, reps)]
        if all(any(b) for b in blocks):
            progressing += 1
        else:
            stuck += 1
    return (stuck, progressing, 0)


def loop_kind_rates(
    df: pd.DataFrame, by: Sequence[str] = ("agent", "variation"), min_repeats: int | None = None
) -> pd.DataFrame:
    """Per group: ``n``, ``stuck_per_episode``, ``progressing_per_episode``,
    ``unknown_per_episode`` and ``episodes_stuck`` (share with at least one stuck loop)."""
    v = valid_episodes(df, min_repeats)
    if v.empty:
        return pd.DataFrame()
    min_repeats = v.attrs.get(PREPARED_KEY, DEFAULT_MIN_REPEATS)
    changed = v["step_changed"] if "step_changed" in v.columns else [None] * len(v)
    kinds = np.array(
        [loop_kinds(a, c, min_repeats) for a, c in zip(v["actions"], changed, strict=True)], dtype=float
    ).reshape(-1, 3)
    g = Grouping(v, by)
    return g.frame(
        n=g.n,
        stuck_per_episode=g.mean(kinds[:, 0]),
        progressing_per_episode=g.mean(kinds[:, 1]),
        unknown_per_episode=g.mean(kinds[:, 2]),
        episodes_stuck=g.mean(kinds[:, 0] > 0),
    )


def paired_versions(df: pd.DataFrame, baseline: str = "default") -> pd.DataFrame:
    """The same agent, task and seed (and trial) in ``baseline`` and in each other variation:
    one row per pair with ``success_base``, ``success_other``, ``flip`` (``lost``, ``gained`` or
    ``same``) and both episode ids."""
    v = valid_episodes(df)
    key = [c for c in ("agent", "task", "seed", "trial") if c in v.columns]
    cols = [*key, "variation", "success", *(["episode_id"] if "episode_id" in v.columns else [])]
    v = v[cols]
    base = v[v["variation"] == baseline]
    other = v[v["variation"] != baseline]
    if base.empty or other.empty:
        return pd.DataFrame()
    m = other.merge(base, on=key, suffixes=("", "_base"))
    if m.empty:
        return pd.DataFrame()
    m = m.rename(columns={"success": "success_other", "episode_id": "episode_other"})
    m["flip"] = np.where(m["success_base"] == m["success_other"], "same", np.where(m["success_base"], "lost", "gained"))
    return m.drop(columns=["variation_base"]).reset_index(drop=True)


def paired_summary(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per agent and variation: ``pairs``, ``lost`` (solved in the baseline, failed here) and
    ``gained`` (the reverse). The paired robust success rate itself is :func:`rsr_table`'s."""
    if pairs.empty:
        return pd.DataFrame()
    rows = []
    for (agent, var), g in pairs.groupby(["agent", "variation"], sort=False):
        rows.append(
            {
                "agent": agent,
                "variation": var,
                "pairs": len(g),
                "lost": int((g["flip"] == "lost").sum()),
                "gained": int((g["flip"] == "gained").sum()),
            }
        )
    return pd.DataFrame(rows)


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
        blocks += [Heading(title), Table([title, *a.agents], rate_rows(frame, col, keys, a.agents))]
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
    flips = _flips(pairs)
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


def _flips(pairs: pd.DataFrame) -> pd.DataFrame:
    """The pairs whose success differs, lost ones first, then by agent, task and version."""
    return pairs[pairs["flip"] != "same"].sort_values(
        ["flip", "agent", "task", "variation"], key=lambda s: s.map(sort_key)
    )


def flip_ids(pairs: pd.DataFrame, limit: int) -> list[str]:
    """Episode ids of both sides of the first flips, for the viewer to show first."""
    if pairs.empty or "episode_id_base" not in pairs.columns:
        return []
    flips = _flips(pairs)
    out: list[str] = []
    for _, r in flips.head(limit).iterrows():
        out += [str(r["episode_id_base"]), str(r["episode_other"])]
    return out


SHOWN = [
    Shown(100, lambda d: rollups_section(d.a), summary=True),
    Shown(110, lambda d: loops(d.a)),
    Shown(120, lambda d: paired(d.a, d.pairs, d.shown)),
]
