"""Behaviour rates per group: loops, invalid actions, intent misunderstanding, effort, and
failures (infrastructure, model service, the agent's own exceptions)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from openapps_sim.analysis.metrics.table import Grouping, invalid_categories, prepare, valid_episodes


def loop_rates(df: pd.DataFrame, by: Sequence[str] = ("agent", "variation")) -> pd.DataFrame:
    """Loops per group: ``loops_per_episode`` (mean count), ``episodes_with_loops`` (fraction),
    ``loops_success`` / ``loops_failure`` (mean count over successful / failed episodes; the
    paper contrasts 0.20 versus 1.5)."""
    v = valid_episodes(df)
    g = Grouping(v, by)
    loops = v["loops"].to_numpy(dtype=float)
    won = v["success"].to_numpy(dtype=bool)
    return g.frame(
        n=g.n,
        loops=g.sum(loops).round().astype(int),
        loops_per_episode=g.mean(loops),
        episodes_with_loops=g.mean(loops > 0),
        loops_success=g.mean(np.where(won, loops, np.nan)),
        loops_failure=g.mean(np.where(won, np.nan, loops)),
    )


def invalid_actions(df: pd.DataFrame, keep: Sequence[str] = ("agent", "task", "variation", "seed")) -> pd.DataFrame:
    """Per-episode invalid-action counts: the ``keep`` columns present, one ``invalid_<cat>``
    column per category and ``invalid_total``."""
    v = valid_episodes(df)
    cols = [c for c in keep if c in v.columns] + [f"invalid_{c}" for c in invalid_categories(v)] + ["invalid_total"]
    return v[cols].reset_index(drop=True)


def invalid_rates(df: pd.DataFrame, by: Sequence[str] = ("agent", "variation")) -> pd.DataFrame:
    """Invalid actions per group.

    Columns: ``by``, ``n``, ``steps``; for each category ``<cat>`` (total count) and
    ``<cat>_per_episode``; ``invalid`` (total), ``invalid_per_episode``, ``invalid_per_step``
    (total over total steps) and ``episodes_with_invalid`` (fraction).
    """
    v = valid_episodes(df)
    cats = invalid_categories(v)
    g = Grouping(v, by)
    steps = g.sum(v["steps"])
    total = g.sum(v["invalid_total"])
    cols: dict[str, Any] = {"n": g.n, "steps": steps.round().astype(int)}
    for c in cats:
        cols[c] = g.sum(v[f"invalid_{c}"]).round().astype(int)
        cols[f"{c}_per_episode"] = g.mean(v[f"invalid_{c}"])
    cols["invalid"] = total.round().astype(int)
    cols["invalid_per_episode"] = total / np.maximum(g.n, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cols["invalid_per_step"] = np.where(steps > 0, total / np.maximum(steps, 1), np.nan)
    cols["episodes_with_invalid"] = g.mean(v["invalid_total"].to_numpy() > 0)
    return g.frame(**cols)


def intent_misunderstanding_rate(
    df: pd.DataFrame, by: Sequence[str] = ("agent", "variation"), exclude_tasks: Iterable[str] = ()
) -> pd.DataFrame:
    """Fraction of valid episodes in which the agent opened an unneeded app, per group.

    ``exclude_tasks`` drops task ids first (the paper leaves out its navigation task, whose
    goal is to open a page). Columns: ``by``, ``n``, ``misunderstood``, ``rate``.
    """
    v = valid_episodes(df)
    skip = set(exclude_tasks)
    if skip:
        v = v[~v["task"].isin(skip)]
    g = Grouping(v, by)
    mis = g.sum(v["intent_misunderstanding"].to_numpy(dtype=float))
    return g.frame(n=g.n, misunderstood=mis.round().astype(int), rate=mis / np.maximum(g.n, 1))


def effort(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Mean and median steps, mean and total duration (s), mean and total tokens and the total
    cost (USD, from the agents' price tables) of the valid episodes."""
    v = valid_episodes(df)
    g = Grouping(v, by)
    dur = v["duration_s"].to_numpy(dtype=float)
    has_dur = g.sum(~np.isnan(dur)) > 0
    return g.frame(
        n=g.n,
        mean_steps=g.mean(v["steps"]),
        median_steps=g.median(v["steps"]),
        mean_duration_s=g.mean(dur),
        total_duration_s=np.where(has_dur, g.sum(np.nan_to_num(dur)), np.nan),
        mean_tokens=g.mean(v["tokens_total"]),
        total_tokens=g.sum(v["tokens_total"].to_numpy(dtype=float)),
        total_cost_usd=g.sum(v["cost_usd"].to_numpy(dtype=float)),
    )


def error_summary(df: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """The three kinds of failure per group.

    ``episodes`` (all rows); ``errors`` (rows excluded from every agent metric) and
    ``error_rate`` (over all rows), split into ``infrastructure`` (a dead browser or app server)
    and ``model_service`` (the model API failed after its retries); ``agent_errors``: scored
    episodes that the agent's own exception ended (failures of that agent) and
    ``agent_error_rate`` over the scored episodes."""
    p = prepare(df)
    g = Grouping(p, by)
    err = p["is_error"].to_numpy(dtype=bool)
    e = g.sum(err.astype(float))
    model = g.sum(np.array([k == "model_service" for k in p["error_kind"]], dtype=float))
    own = g.sum(p["is_agent_error"].to_numpy(dtype=float))
    scored = g.n - e
    with np.errstate(invalid="ignore", divide="ignore"):
        own_rate = np.where(scored > 0, own / np.maximum(scored, 1), np.nan)
    return g.frame(
        episodes=g.n,
        errors=e.round().astype(int),
        error_rate=e / np.maximum(g.n, 1),
        infrastructure=(e - model).round().astype(int),
        model_service=model.round().astype(int),
        agent_errors=own.round().astype(int),
        agent_error_rate=own_rate,
    )


def error_messages(df: pd.DataFrame, top: int = 10, width: int = 160) -> pd.DataFrame:
    """The most frequent failure messages (first line, cut to ``width``): ``kind``
    (``infrastructure``, ``model_service`` or ``agent``: the agent's own exception),
    ``message``, ``count``, ``agents`` (comma-separated)."""
    p = prepare(df)
    e = p[p["is_error"] | p["is_agent_error"]]
    if e.empty:
        return pd.DataFrame(columns=["kind", "message", "count", "agents"])
    text = [err if bad else own for err, own, bad in zip(e["error"], e["agent_error"], e["is_error"], strict=True)]
    kind = [k if bad else "agent" for k, bad in zip(e["error_kind"], e["is_error"], strict=True)]
    msgs = [str(s).strip().splitlines()[0][:width] if str(s).strip() else "" for s in text]
    g = Grouping(e.assign(kind=kind, message=msgs), ["kind", "message"])
    agents = [", ".join(sorted({str(a) for a in e["agent"].iloc[rows]})) for rows in g.members()]
    out = g.frame(count=g.n, agents=agents).sort_values(
        ["count", "kind", "message"], ascending=[False, True, True], kind="stable"
    )
    return out.head(top).reset_index(drop=True)
