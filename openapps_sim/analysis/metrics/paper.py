"""The OpenApps paper's views as frames, with bootstrap intervals over tasks on every deviation
and ratio: per-task reliability in one version (Table 4), per-version reliability averaged over
tasks (Tables 5 and 6, Figure 6), within/across deviation per agent with intervals (Figures 5
and 10), any axis crossed with the variation (Table 7, Figure 9) and multi-step partial credit
(Table 9)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from openapps_sim.analysis.doc.blocks import Cell, Figure, Heading, P, Section, Shown, Table
from openapps_sim.analysis.doc.cells import agent_cell, agent_rows, colours_of, heat
from openapps_sim.analysis.doc.fmt import DASH, fmt_count, fmt_interval, fmt_num, fmt_pct, fmt_std
from openapps_sim.analysis.doc.svg import svg_grouped_bars
from openapps_sim.analysis.metrics.axes import Rows, axis_label
from openapps_sim.analysis.metrics.breaks import KINDS, variation_kind
from openapps_sim.analysis.metrics.rates import intent_misunderstanding_rate
from openapps_sim.analysis.metrics.reliability import (
    deviation_summary,
    safe_ratio,
    version_label,
    version_success,
    within_version_deviation,
)
from openapps_sim.analysis.metrics.stats import group_seed, success_rate
from openapps_sim.analysis.metrics.table import Grouping, sort_key, valid_episodes

if TYPE_CHECKING:
    from openapps_sim.analysis.report.analysis import Analysis


MULTI_STEP = ("sequential", "conjunctive", "conditional", "hierarchical")
"""Family structures whose goal has several sub-goals (the paper's multi-step tasks, Table 9)."""


def _boot_rows(values: np.ndarray, n_boot: int, seed: list[int], level: float = 0.95) -> np.ndarray:
    """Bootstrap resamples of the rows of ``values`` (tasks x columns): the column means of each
    resample, NaNs ignored; shape (n_boot, columns)."""
    rng = np.random.default_rng(seed)
    n = len(values)
    idx = rng.integers(0, n, size=(n_boot, n))
    if not n:
        return np.full((n_boot, values.shape[1]), np.nan)
    return _nanmean(values[idx], axis=1)


def _nanmean(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """Mean ignoring NaN; NaN (quietly) where every value is NaN (no task had a deviation)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(values, axis=axis)


def _interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    ok = samples[~np.isnan(samples) & ~np.isinf(samples)]
    if not len(ok):
        return (float("nan"), float("nan"))
    a = (1 - level) / 2
    lo, hi = np.quantile(ok, [a, 1 - a])
    return float(lo), float(hi)


def _with_intervals(row: dict, vals: np.ndarray, stats: Sequence[str], n_boot: int, seed: list[int]) -> tuple:
    """Into ``row``: each of ``stats`` (columns of ``vals``, tasks x stats), mean and bootstrap
    interval (``_lo``/``_hi``) over the tasks. Returns the means and the bootstrap rows."""
    means = _nanmean(vals) if len(vals) else np.full(len(stats), np.nan)
    boot = _boot_rows(vals, n_boot, seed)
    for i, s in enumerate(stats):
        row[s] = float(means[i])
        row[f"{s}_lo"], row[f"{s}_hi"] = _interval(boot[:, i])
    return means, boot


def deviation_intervals(
    df: pd.DataFrame,
    by: Sequence[str] = ("agent",),
    version: Sequence[str] = ("variation",),
    n_boot: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """Within/across std and MAD per ``by`` group (averaged over tasks, as
    :func:`agent_deviation`) with 95% bootstrap intervals over tasks for each of them and for the
    ratios ``std_ratio`` and ``mad_ratio`` (ratio of the resampled means). Columns: ``by``,
    ``tasks``, and for each statistic ``s``: ``s``, ``s_lo``, ``s_hi``."""
    by = list(by)
    ver = [c for c in version if c not in by]
    per = deviation_summary(df, [*by, "task"], ver)
    rows = []
    stats = ["within_std", "across_std", "within_mad", "across_mad"]
    for key, g in per.groupby(by, sort=False, dropna=False):
        row = {**dict(zip(by, key, strict=True)), "tasks": len(g)}
        means, boot = _with_intervals(row, g[stats].to_numpy(dtype=float), stats, n_boot, group_seed(seed, key))
        for name, num, den in (("std_ratio", 1, 0), ("mad_ratio", 3, 2)):
            row[name] = safe_ratio(means[num], means[den])
            with np.errstate(invalid="ignore", divide="ignore"):
                r = boot[:, num] / boot[:, den]
            row[f"{name}_lo"], row[f"{name}_hi"] = _interval(r)
        rows.append(row)
    return pd.DataFrame(rows)


def task_reliability(df: pd.DataFrame, version: str = "default") -> pd.DataFrame:
    """The paper's Table 4: per agent and task in one version, pass@1 over seeds (trials when
    recorded) and the std and MAD of the rewards. Columns: ``agent``, ``task``, ``n``,
    ``success_rate``, ``std``, ``mad``."""
    v = valid_episodes(df)
    v = v[v["variation"] == version]
    if v.empty:
        return pd.DataFrame(columns=["agent", "task", "n", "success_rate", "std", "mad"])
    d = within_version_deviation(v, ["agent", "task", "variation"])
    sr = success_rate(v, ["agent", "task", "variation"])
    out = sr.merge(d[["agent", "task", "variation", "std", "mad"]], on=["agent", "task", "variation"], how="left")
    return out[["agent", "task", "n", "success_rate", "std", "mad"]]


def version_reliability(
    df: pd.DataFrame, by: Sequence[str] = ("agent", "variation"), n_boot: int = 1000, seed: int = 0
) -> pd.DataFrame:
    """The paper's Tables 5 and 6 (and Figure 6): per agent and version, pass@1 over seeds
    averaged over tasks, and the std and MAD of the rewards over seeds averaged over tasks, each
    with a bootstrap interval over tasks. Columns: ``by``, ``tasks``, ``n``, and ``success_rate``,
    ``std``, ``mad`` each with ``_lo``/``_hi``."""
    by = list(by)
    v = valid_episodes(df)
    if v.empty:
        return pd.DataFrame()
    d = within_version_deviation(v, [*by, "task"])
    sr = success_rate(v, [*by, "task"])
    per = sr.merge(d[[*by, "task", "std", "mad"]], on=[*by, "task"], how="left")
    rows = []
    for key, g in per.groupby(by, sort=False, dropna=False):
        row = {**dict(zip(by, key, strict=True)), "tasks": len(g), "n": int(g["n"].sum())}
        stats = ["success_rate", "std", "mad"]
        _with_intervals(row, g[stats].to_numpy(dtype=float), stats, n_boot, group_seed(seed, key))
        rows.append(row)
    return pd.DataFrame(rows)


def axis_grid(df: pd.DataFrame, axis: str, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Success per ``axis`` value x variation (the paper's Table 7 for the viewport, Figure 9
    for the temperature): pass@1 averaged over tasks in each cell. Columns: ``by``, ``axis``,
    ``variation``, ``tasks``, ``n``, ``success_rate``."""
    v = valid_episodes(df)
    if v.empty or axis not in v.columns:
        return pd.DataFrame()
    per = success_rate(v, [*by, axis, "variation", "task"])
    g = Grouping(per, [*by, axis, "variation"])
    return g.frame(tasks=g.n, n=g.sum(per["n"]).round().astype(int), success_rate=g.mean(per["success_rate"]))


def multi_step(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """The paper's Table 9 over the multi-step episodes (family structure in
    :data:`MULTI_STEP`): ``n``, ``success_rate``, ``partial_reward`` (mean share of sub-goals
    reached) and ``any_subgoal`` (share of episodes with at least one sub-goal reached)."""
    v = valid_episodes(df)
    if "structure" not in v.columns:
        return pd.DataFrame()
    v = v[v["structure"].isin(MULTI_STEP)]
    if v.empty:
        return pd.DataFrame()
    g = Grouping(v, list(by))
    partial = v["partial_reward"].to_numpy(dtype=float)
    return g.frame(
        n=g.n,
        success_rate=g.mean(v["success"].to_numpy(dtype=float)),
        partial_reward=g.mean(partial),
        any_subgoal=g.mean((partial > 0) | v["success"].to_numpy(dtype=bool)),
    )


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
                fmt_interval(r["success_rate"], r, "success_rate", fmt_pct),
                fmt_interval(r["std"], r, "std"),
                fmt_interval(r["mad"], r, "mad"),
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
        # the axis values in their own order (numbers numerically), then as shown
        values = list(dict.fromkeys(axis_label(x) for x in sorted(g[ax], key=sort_key)))
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


SHOWN = [Shown(90, lambda d: paper_sections(d.a), paper=True)]
