"""Every frame the report shows, computed once from the results table, and the headline table."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from openapps_sim.analysis.doc.fmt import DASH, fmt_interval, fmt_num, fmt_pct, fmt_rate_ci, fmt_ratio, text_table
from openapps_sim.analysis.metrics.axes import axis_breakdown, varied_axes, version_columns
from openapps_sim.analysis.metrics.behaviour import DEFAULT_MIN_REPEATS
from openapps_sim.analysis.metrics.breaks import loop_kind_rates
from openapps_sim.analysis.metrics.paper import deviation_intervals, version_reliability
from openapps_sim.analysis.metrics.rates import error_messages, error_summary, invalid_rates, loop_rates
from openapps_sim.analysis.metrics.reliability import fluctuation, has_trials, reliability_summary, version_success
from openapps_sim.analysis.metrics.stats import pass_k_summary, success_rate
from openapps_sim.analysis.metrics.table import prepare, sort_key, valid_episodes
from openapps_sim.analysis.metrics.values import is_missing


@dataclass
class Analysis:
    df: pd.DataFrame
    manifest: dict
    agents: list[str]
    variations: list[str]
    version: list[str]
    axes: list[str]
    headline: pd.DataFrame
    per_variation: pd.DataFrame
    fluctuation: pd.DataFrame
    loops: pd.DataFrame
    invalid: pd.DataFrame
    breakdown: pd.DataFrame
    pass_k: pd.DataFrame
    per_task: pd.DataFrame
    task_variation: pd.DataFrame
    agent_versions: pd.DataFrame
    errors: pd.DataFrame
    error_messages: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    per_variation_ci: pd.DataFrame = field(default_factory=pd.DataFrame)
    loop_kinds: pd.DataFrame = field(default_factory=pd.DataFrame)
    deviation_ci: pd.DataFrame = field(default_factory=pd.DataFrame)
    min_repeats: int = DEFAULT_MIN_REPEATS
    baseline: str = "default"
    n_boot: int = 2000
    seed: int = 0

    @property
    def valid(self) -> pd.DataFrame:
        return valid_episodes(self.df)


def distinguish_agent_configs(df: pd.DataFrame) -> pd.DataFrame:
    """The ``agent`` column as results name agents: a record's ``label`` where it has one (a spec
    entry's ``label:``, ``--label``, the ``--model`` chosen on the command line); among the
    unlabelled records, an agent name that ran with several configs names each pair ``agent (config)``."""
    if df.empty:
        return df
    labels = [None] * len(df)
    if "label" in df.columns:
        labels = [None if is_missing(v) or not str(v).strip() else str(v) for v in df["label"]]
    agents = [str(a) for a in df["agent"]]
    if "agent_config" in df.columns:
        cfg = df["agent_config"].map(lambda v: "default" if is_missing(v) else str(v))
        bare = [label is None for label in labels]
        several = cfg[bare].groupby(df["agent"][bare]).nunique()
        several = set(several[several > 1].index)
        agents = [f"{a} ({c})" if a in several and b else a for a, c, b in zip(agents, cfg, bare, strict=True)]
    named = [label or a for label, a in zip(labels, agents, strict=True)]
    if named == list(df["agent"]):
        return df
    out = df.copy()
    out["agent"] = named
    return out


def analyse(
    df: pd.DataFrame,
    manifest: dict | None = None,
    axes: Iterable[str] | None = None,
    n_boot: int = 2000,
    seed: int = 0,
    min_repeats: int = DEFAULT_MIN_REPEATS,
) -> Analysis:
    """Compute every table of the report from a results table (loops: blocks repeated at least
    ``min_repeats`` times)."""
    manifest = manifest or {}
    notes = list(df.attrs.get("notes", []))
    df = distinguish_agent_configs(df)
    p = prepare(df, min_repeats)
    v = valid_episodes(p)
    axes = list(axes or [])
    for a in manifest.get("axes", []) or []:
        if a not in ("agent", "task", "seed") and a not in axes:
            axes.append(a)
    version = version_columns(p, axes) if len(v) else ["variation"]
    agents = sorted(v["agent"].unique().tolist(), key=sort_key) if len(v) else []
    variations = sorted(v["variation"].unique().tolist(), key=sort_key) if len(v) else []
    boot = {"n_boot": n_boot, "seed": seed}
    notes += integrity_notes(p)
    return Analysis(
        df=p,
        manifest=manifest,
        agents=agents,
        variations=variations,
        version=version,
        axes=[a for a in varied_axes(p, axes)] if len(v) else [],
        headline=reliability_summary(p, ["agent"], version, **boot),
        per_variation=reliability_summary(p, ["agent", "variation"], version, **boot),
        fluctuation=fluctuation(p, ["agent", "task"], version),
        loops=loop_rates(p, ["agent", "variation"]),
        invalid=invalid_rates(p, ["agent", "variation"]),
        breakdown=axis_breakdown(p, axes, ["agent"], **boot),
        pass_k=pass_k_summary(p, ["agent"], ["agent", "task", *version]),
        per_task=success_rate(p, ["agent", "task"]),
        task_variation=success_rate(p, ["agent", "task", "variation"]),
        agent_versions=version_success(p, ["agent"], version),
        errors=error_summary(p, ["agent"]),
        error_messages=error_messages(p),
        notes=notes,
        per_variation_ci=version_reliability(p, ["agent", "variation"], n_boot=max(200, n_boot // 2), seed=seed),
        loop_kinds=loop_kind_rates(p, ["agent", "variation"], min_repeats),
        deviation_ci=deviation_intervals(p, ["agent"], version, n_boot=max(200, n_boot // 2), seed=seed),
        min_repeats=min_repeats,
        n_boot=n_boot,
        seed=seed,
    )


def integrity_notes(p: pd.DataFrame) -> list[str]:
    """Warnings and definitions the reader needs before any number: infrastructure and
    model-service errors that are not 0 (per agent), the agents' own exceptions, and what
    *Within std* is taken over (trials or seeds)."""
    notes = []
    errs = error_summary(p, ["agent"])
    for col, what in (
        ("infrastructure", "the infrastructure-error rate is not 0 ({per}). Those episodes (a dead browser or "
         "app server that no agent action caused) are left out of every number; check the machine and re-run "
         "them with --resume."),
        ("model_service", "some episodes lost their model service ({per}): the model API still failed after "
         "its retries. They are left out of every number; check the model server and re-run them with --resume."),
    ):  # fmt: skip
        bad = errs[errs[col] > 0]
        if len(bad):
            per = "; ".join(
                f"{r['agent']}: {int(r[col])} of {int(r['episodes'])} ({fmt_pct(r[col] / max(r['episodes'], 1))})"
                for _, r in bad.iterrows()
            )
            notes.append("Warning: " + what.format(per=per))
    own = errs[errs["agent_errors"] > 0]
    if len(own):
        per = "; ".join(f"{r['agent']}: {int(r['agent_errors'])}" for _, r in own.iterrows())
        notes.append(
            f"Episodes ended by the agent's own exception ({per}) are failures of that agent: counted in its "
            "success rate (column Agent exceptions), never re-run."
        )
    if has_trials(p):
        notes.append(
            "Within std and MAD are taken over the repeated trials of one instance (same goal text, one "
            "agent seed per trial), averaged over instances, versions and tasks: the paper's definition."
        )
    elif len(valid_episodes(p)):
        notes.append(
            "Within std and MAD are taken over the seeds of one version (each seed a different instance and "
            "phrasing), not over repeated trials of one instance; run the sweep with trials: k for that."
        )
    return notes


HEADLINE_HEADERS = [
    "Agent",
    "Episodes",
    "Success [95% CI]",
    "Within std",
    "Across std",
    "Across/within",
    "Loops/ep",  # stuck loops when the run recorded per-step changes (see headline_headers)
    "Invalid/ep",
    "Intent misund.",
    "Mean steps",
    "Tokens (USD)",
    "Agent exceptions",
    "Not scored (infra / model)",
]


def fmt_tokens(total: Any, cost: Any) -> str:
    """Total tokens of an agent's scored episodes, with their cost when a price table gave one."""
    if total is None or pd.isna(total) or not total:
        return DASH
    text = f"{int(total):,}"
    return f"{text} (${float(cost):.2f})" if cost and not pd.isna(cost) else text


def _headline_loops(r: pd.Series) -> Any:
    stuck = r.get("stuck_per_episode")
    return stuck if stuck is not None and not pd.isna(stuck) else r["loops_per_episode"]


def headline_headers(summary: pd.DataFrame) -> list[str]:
    """The headline's column names: its loop column counts *stuck* loops (a repetition that
    changed neither page nor state) when every agent's run recorded per-step changes, so that
    the oracle paging through months is not a loop; all repeats otherwise, as the paper does."""
    stuck = "stuck_per_episode" in summary.columns and summary["stuck_per_episode"].notna().all()
    return [("Stuck loops/ep" if stuck else h) if h == "Loops/ep" else h for h in HEADLINE_HEADERS]


def headline_rows(summary: pd.DataFrame, intervals: pd.DataFrame | None = None) -> list[list[str]]:
    """The cells of the headline table from :func:`metrics.reliability_summary` by agent; with
    ``intervals`` (:func:`metrics.deviation_intervals` by agent) the std cells and their ratio
    carry 95% bootstrap intervals over tasks."""
    ci = intervals.set_index("agent") if intervals is not None and not intervals.empty else None
    rows = []
    for _, r in summary.iterrows():
        c = ci.loc[r["agent"]] if ci is not None and r["agent"] in ci.index else None
        rows.append(
            [
                str(r["agent"]),
                str(int(r["n"])),
                fmt_rate_ci(r["success_rate"], r.get("ci_low"), r.get("ci_high")),
                fmt_interval(r["within_std"], c, "within_std"),
                fmt_interval(r["across_std"], c, "across_std"),
                fmt_interval(r["std_ratio"], c, "std_ratio", fmt_ratio, lambda x: fmt_ratio(x).rstrip("×")),
                fmt_num(_headline_loops(r)),
                fmt_num(r["invalid_per_episode"]),
                fmt_pct(r["intent_rate"]),
                fmt_num(r["mean_steps"], 1),
                fmt_tokens(r.get("total_tokens"), r.get("total_cost_usd")),
                str(int(r.get("agent_errors", 0))),
                _not_scored(r),
            ]
        )
    return rows


def _not_scored(r: Any) -> str:
    """``infrastructure / model service`` errors of a summary row (excluded from every number)."""
    infra = r.get("infrastructure")
    infra = int(r["errors"]) if infra is None or pd.isna(infra) else int(infra)
    model = r.get("model_service")
    return f"{infra} / {0 if model is None or pd.isna(model) else int(model)}"


def headline_table(df: pd.DataFrame, n_boot: int = 2000, seed: int = 0, min_repeats: int = 2) -> str:
    """The per-agent headline as a plain-text table for the terminal (loops counted as in the
    report: blocks repeated at least ``min_repeats`` times)."""
    df = distinguish_agent_configs(df)
    p = prepare(df, min_repeats)
    if valid_episodes(p).empty:
        n_err = int(p["is_error"].sum())
        return f"no scored episodes ({n_err} infrastructure or model-service error(s))"
    version = version_columns(p)
    summary = reliability_summary(p, ["agent"], version, n_boot=n_boot, seed=seed)
    # Agents whose every episode errored have no summary row; list them too.
    errs = error_summary(p)
    ci = deviation_intervals(p, ["agent"], version, n_boot=max(200, n_boot // 2), seed=seed)
    rows = headline_rows(summary, ci)
    for _, e in errs.iterrows():
        if e["agent"] not in set(summary["agent"]):
            rows.append([str(e["agent"]), "0"] + [DASH] * (len(HEADLINE_HEADERS) - 4) + ["0", _not_scored(e)])
    return text_table(headline_headers(summary), rows)
