"""The trajectory viewer, as FastHTML components: which episodes to show, and each one's steps
with (downscaled, embedded) screenshots or thumbnails, a marker where the action clicked, the
element it addressed, the agent's reasoning, the error, the app events it caused and its cost;
the explained final diff on top; and one task side by side in two versions."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from openapps_sim.analysis.doc.blocks import Html, P, Section, Shown
from openapps_sim.analysis.metrics.table import sort_key
from openapps_sim.analysis.report.images import Budget
from openapps_sim.analysis.report.load import load_trajectory, trajectory_files
from openapps_sim.analysis.report.viewer import episode_view, side_by_side


def select_episodes(valid: pd.DataFrame, results_dir: Path, limit: int, first: Sequence[str] = ()) -> list[dict]:
    """Up to ``limit`` episodes that have a trajectory file, as row dicts.

    The episodes named in ``first`` (e.g. both sides of a success flip) come first; then
    failures, spread over agents and variations (round robin), then successes. Without an
    ``episode_id`` column, trajectory files are taken in name order.
    """
    files = trajectory_files(results_dir) if limit > 0 else []
    if not files:
        return []
    if "episode_id" not in valid.columns:
        return [{"episode_id": f.stem} for f in files[:limit]]
    stems = {f.stem for f in files}
    mask = [e in stems for e in valid["episode_id"].astype(str)]
    have = valid.loc[pd.Series(mask, index=valid.index, dtype=bool)]
    if have.empty:
        return []
    queues: dict[tuple, list[dict]] = {}
    by_id = {str(r["episode_id"]): r for r in have.to_dict("records")}
    picked: list[dict] = [by_id[e] for e in dict.fromkeys(str(x) for x in first) if e in by_id][:limit]
    taken = {str(r["episode_id"]) for r in picked}
    have = have[~have["episode_id"].astype(str).isin(taken)]
    order_cols = [c for c in ("agent", "variation", "task", "seed") if c in have.columns]
    recs = sorted(have.to_dict("records"), key=lambda r: tuple(sort_key(r[c]) for c in order_cols))
    for outcome in (False, True):
        for r in recs:
            if bool(r["success"]) == outcome:
                queues.setdefault((outcome, str(r["agent"]), str(r["variation"])), []).append(r)
    for outcome in (False, True):
        keys = [k for k in queues if k[0] == outcome]
        keys.sort(key=lambda k: (sort_key(k[2]), sort_key(k[1])))
        picked += _round_robin([_interleave_tasks(queues[k], start=j) for j, k in enumerate(keys)], limit - len(picked))
    return picked


def _round_robin(queues: list[list[dict]], limit: int | None = None) -> list[dict]:
    """The first of each queue in turn, then the second of each, ... (at most ``limit``)."""
    out: list[dict] = []
    while any(queues) and (limit is None or len(out) < limit):
        out += [q.pop(0) for q in queues if q][: None if limit is None else limit - len(out)]
    return out


def _interleave_tasks(recs: list[dict], start: int = 0) -> list[dict]:
    """Reorder so consecutive picks come from different tasks, beginning at task ``start``."""
    by_task: dict[str, list[dict]] = {}
    for r in recs:
        by_task.setdefault(str(r.get("task")), []).append(r)
    tasks = list(by_task)
    if not tasks:
        return []
    shift = start % len(tasks)
    return _round_robin([by_task[t] for t in tasks[shift:] + tasks[:shift]])


def trajectory_section(
    a: Any,
    results_dir: Path,
    max_trajectories: int,
    width: int,
    budget_bytes: int,
    first: Sequence[str] = (),
    pairs: Any = None,
    compare: int = 3,
) -> tuple[Any, set[str]]:
    """The "Trajectories" section: up to ``max_trajectories`` episodes (those in ``first``
    before the others) and the first ``compare`` success flips side by side; and the ids of the
    episodes shown (links elsewhere point only to those)."""
    picked = select_episodes(a.valid, results_dir, max_trajectories, first)
    budget = Budget(budget_bytes)
    items, rows = [], {}
    for row in picked:
        traj = load_trajectory(results_dir, str(row["episode_id"]))
        if traj is None:
            continue
        rows[str(row["episode_id"])] = (row, traj)
        items.append(Html(episode_view(results_dir, row, traj, width, budget, a.min_repeats)))
    if not items:
        return Section("trajectories", "Trajectories"), set()
    blocks: list[Any] = []
    if pairs is not None and len(pairs):
        flips = pairs[pairs["flip"] != "same"]
        shown = 0
        for _, r in flips.iterrows():
            ids = (str(r.get("episode_id_base")), str(r.get("episode_other")))
            if shown >= compare or not all(i in rows for i in ids):
                continue
            if shown == 0:
                blocks.append(P("One task and seed in two versions, side by side (success flips first):"))
            blocks.append(
                Html(side_by_side(results_dir, [rows[i] for i in ids], min(width, 640), budget, a.min_repeats))
            )
            shown += 1
    n_with = len(trajectory_files(results_dir))
    blocks.insert(
        0,
        P(
            f"{len(items)} of {n_with} recorded trajectories: both sides of success flips first, then failures, spread "
            "over agents and variations. Open one to see the goal, why it got its reward, and every step: the page "
            "it acted on (a red ring marks where the action clicked), the action and the element it addressed, the agent's "
            "reasoning, any error, the app events it caused, tokens and time. Stuck loops have an orange edge; "
            "invalid actions a red border."
        ),
    )
    blocks += items
    if budget.remaining <= 0:
        blocks.append(P("Some screenshots were left out to keep this file small.", cls="meta"))
    return Section("trajectories", "Trajectories", blocks), set(rows)


SHOWN = [Shown(170, lambda d: d.viewer)]
