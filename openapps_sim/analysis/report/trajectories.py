"""The trajectory viewer: which episodes to show, and each one's steps with (downscaled,
embedded) screenshots."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

import openapps_sim.analysis.metrics as m
from openapps_sim.analysis.report.fmt import _e, _nan, fmt_num, fmt_seconds


@dataclass
class _Budget:
    remaining: int


def _embed_image(results_dir: Path, rel: Any, width: int, budget: _Budget) -> tuple[str | None, str]:
    """A data URI for a screenshot (downscaled JPEG), or (None, reason)."""
    if not rel:
        return None, ""
    root = results_dir.resolve()
    cands = [results_dir / str(rel), results_dir / "screenshots" / str(rel)]
    path = next((c for c in cands if c.is_file() and c.resolve().is_relative_to(root)), None)
    if path is None:
        return None, "screenshot file missing"
    if budget.remaining <= 0:
        return None, "screenshot left out (report size budget reached)"
    try:
        from PIL import Image

        with Image.open(path) as im:
            im = im.convert("RGB")
            if im.width > width:
                im = im.resize((width, max(1, round(im.height * width / im.width))), Image.LANCZOS)
            buf = io.BytesIO()
            im.save(buf, "JPEG", quality=78, optimize=True)
    except Exception as e:  # noqa: BLE001 - an unreadable image must not stop the report
        return None, f"screenshot unreadable ({type(e).__name__})"
    data = buf.getvalue()
    budget.remaining -= len(data)
    return "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii"), ""


def _zoomable(uri: str, alt: str) -> str:
    """An image that opens enlarged over the page when clicked, and closes on a second click
    (a hidden checkbox and CSS: no script)."""
    return f'<label class="zoom" title="click to enlarge"><input type="checkbox"><img loading="lazy" src="{uri}" alt="{_e(alt)}"></label>'


def _url_path(url: Any) -> str:
    """Show a page URL without scheme and host: ``/todo?tab=done``."""
    text = str(url or "")
    if "://" in text:
        rest = text.split("://", 1)[1]
        text = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    return text


def select_episodes(valid: pd.DataFrame, results_dir: Path, limit: int) -> list[dict]:
    """Up to ``limit`` episodes that have a trajectory file, as row dicts.

    Failures first, spread over agents and variations (round robin), then successes.
    Without an ``episode_id`` column, trajectory files are taken in name order.
    """
    tdir = results_dir / "trajectories"
    if limit <= 0 or not tdir.is_dir():
        return []
    if "episode_id" not in valid.columns:
        files = sorted(tdir.glob("*.json"))[:limit]
        return [{"episode_id": f.stem} for f in files]
    mask = [(tdir / f"{e}.json").is_file() for e in valid["episode_id"].astype(str)]
    have = valid.loc[pd.Series(mask, index=valid.index, dtype=bool)]
    if have.empty:
        return []
    queues: dict[tuple, list[dict]] = {}
    order_cols = [c for c in ("agent", "variation", "task", "seed") if c in have.columns]
    recs = sorted(have.to_dict("records"), key=lambda r: tuple(m.sort_key(r[c]) for c in order_cols))
    for outcome in (False, True):
        for r in recs:
            if bool(r["success"]) == outcome:
                queues.setdefault((outcome, str(r["agent"]), str(r["variation"])), []).append(r)
    picked: list[dict] = []
    for outcome in (False, True):
        keys = [k for k in queues if k[0] == outcome]
        keys.sort(key=lambda k: (m.sort_key(k[2]), m.sort_key(k[1])))
        for j, k in enumerate(keys):
            queues[k] = _interleave_tasks(queues[k], start=j)
        while len(picked) < limit and any(queues[k] for k in keys):
            for k in keys:
                if queues[k] and len(picked) < limit:
                    picked.append(queues[k].pop(0))
    return picked


def _interleave_tasks(recs: list[dict], start: int = 0) -> list[dict]:
    """Reorder so consecutive picks come from different tasks, beginning at task ``start``."""
    by_task: dict[str, list[dict]] = {}
    for r in recs:
        by_task.setdefault(str(r.get("task")), []).append(r)
    tasks = list(by_task)
    if not tasks:
        return []
    shift = start % len(tasks)
    tasks = tasks[shift:] + tasks[:shift]
    out: list[dict] = []
    while any(by_task[t] for t in tasks):
        for t in tasks:
            if by_task[t]:
                out.append(by_task[t].pop(0))
    return out


def _trajectory_html(results_dir: Path, row: dict, traj: dict, width: int, budget: _Budget) -> str:
    agent = row.get("agent", traj.get("agent", "?"))
    task = row.get("task", traj.get("task", "?"))
    variation = row.get("variation", traj.get("variation", "?"))
    seed = row.get("seed", traj.get("seed", "?"))
    success = row.get("success")
    if success is None:
        success = float(traj.get("reward", 0) or 0) >= 1
    steps = traj.get("steps") or []
    actions = [str(s.get("action", "")) for s in steps]
    loops = m.find_loops(actions)
    in_loop = {i for start, period, reps in loops for i in range(start, start + period * reps)}
    n_invalid = sum(
        1
        for s in steps
        if s.get("category") not in (None, "", "valid") or (s.get("error") and s.get("category") is None)
    )
    badge = '<span class="badge b-ok">success</span>' if success else '<span class="badge b-bad">failure</span>'
    extras = []
    if loops:
        extras.append(f'<span class="badge b-warn">{len(loops)} loop{"s" if len(loops) != 1 else ""}</span>')
    if n_invalid:
        extras.append(f'<span class="badge b-warn">{n_invalid} invalid</span>')
    if row.get("intent_misunderstanding"):
        extras.append('<span class="badge b-info">opened an unneeded app</span>')
    summary = (
        f"{badge} <b>{_e(agent)}</b> · {_e(task)} · {_e(variation)} · seed {_e(seed)} "
        f'<span class="meta">— {len(steps)} step{"s" if len(steps) != 1 else ""}</span>{"".join(extras)}'
    )
    goal = traj.get("goal") or row.get("goal") or ""
    body = [f"<p><b>Goal:</b> {_e(goal)}</p>"]
    meta = []
    if row.get("reward") is not None or traj.get("reward") is not None:
        meta.append(f"reward {fmt_num(row.get('reward', traj.get('reward')), 2)}")
    if row.get("partial_reward") is not None:
        meta.append(f"partial {fmt_num(row.get('partial_reward'), 2)}")
    if row.get("apps_visited"):
        meta.append("apps visited: " + " → ".join(str(x) for x in row["apps_visited"]))
    if row.get("task_apps"):
        meta.append("task needs: " + ", ".join(str(x) for x in row["task_apps"]))
    if row.get("duration_s") is not None and not _nan(row.get("duration_s")):
        meta.append(fmt_seconds(row["duration_s"]))
    if row.get("episode_id"):
        meta.append(f"episode {row['episode_id']}")
    if meta:
        body.append(f'<p class="meta">{_e(" · ".join(meta))}</p>')
    if traj.get("explanation"):
        body.append(f"<details><summary>Why this reward</summary><pre>{_e(traj['explanation'])}</pre></details>")
    cards = []
    first = traj.get("first_screenshot")
    if first:
        uri, why = _embed_image(results_dir, first, width, budget)
        if uri:
            cards.append(
                f'<div class="step">{_zoomable(uri, "initial page")}'
                f'<div class="txt"><b>Start</b> <span class="meta">the page the agent first saw</span></div></div>'
            )
    for i, s in enumerate(steps):
        cat = s.get("category")
        err = s.get("error") or ""
        invalid = (cat not in (None, "", "valid")) or (cat is None and bool(err))
        cls = "step" + (" invalid" if invalid else "") + (" loop" if i in in_loop else "")
        shot = ""
        if s.get("screenshot"):
            uri, why = _embed_image(results_dir, s.get("screenshot"), width, budget)
            shot = _zoomable(uri, f"after step {i + 1}") if uri else f'<div class="noshot">{_e(why)}</div>'
        tags = ""
        if invalid and cat:
            tags += f'<span class="badge b-bad">{_e(str(cat).replace("_", " "))}</span>'
        if i in in_loop:
            tags += '<span class="badge b-warn">loop</span>'
        txt = [f"<b>{i + 1}.</b> <code>{_e(s.get('action', ''))}</code>{tags}"]
        if err:
            txt.append(f'<div class="err">{_e(str(err)[:600])}</div>')
        if s.get("url"):
            txt.append(f'<div class="url">{_e(_url_path(s.get("url")))}</div>')
        cards.append(f'<div class="{cls}">{shot}<div class="txt">{"".join(txt)}</div></div>')
    if cards:
        body.append(f'<div class="steps">{"".join(cards)}</div>')
    else:
        body.append('<p class="meta">No steps recorded.</p>')
    return f'<details><summary>{summary}</summary><div class="body">{"".join(body)}</div></details>'
