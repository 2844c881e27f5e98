"""One episode in the trajectory viewer, as FastHTML components: the outcome and the explained
final diff on top, then a card per step (screenshot or thumbnail with a marker where the
action clicked, the action and the element it addressed, the agent's reasoning, the error, the
app events the step caused, tokens and time); and two episodes side by side."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fasthtml.common import B, Code, Details, Div, Img, Input, Label, Pre, Span, Summary
from fasthtml.common import P as HP

from openapps_sim.analysis.doc.cells import anchor
from openapps_sim.analysis.doc.fmt import fmt_num, fmt_seconds, is_nan
from openapps_sim.analysis.doc.page import badge
from openapps_sim.analysis.metrics.behaviour import find_loops
from openapps_sim.analysis.metrics.breaks import loop_kinds
from openapps_sim.analysis.metrics.values import token_total
from openapps_sim.analysis.report.images import Budget, embed_image, url_path
from openapps_sim.errors import short_action_error


@dataclass(frozen=True)
class StepParts:
    """What a viewer other than the report adds to each step card (``openapps view``): ``page(step)``
    in place of a missing page image (the tree the agent read), ``more(i, step)`` below the
    step's text (the exchange with the model)."""

    page: Callable[[dict], Any] | None = None
    more: Callable[[int, dict], list[Any]] | None = None


REPORT_PARTS = StepParts()


def _viewport(row: dict) -> tuple[float, float]:
    try:
        w, h = str(row.get("viewport") or "1280x720").lower().split("x")
        return float(w), float(h)
    except ValueError:
        return 1280.0, 720.0


def _shot(uri: str, alt: str, point: tuple[float, float] | None, viewport: tuple[float, float]) -> Any:
    """An image that opens enlarged when clicked (a hidden checkbox and CSS: no script), with a
    marker at ``point`` (page pixels) when the action clicked somewhere."""
    marker = []
    if point is not None:
        x, y = point[0] / viewport[0] * 100, point[1] / viewport[1] * 100
        if 0 <= x <= 100 and 0 <= y <= 100:
            marker = [Span(cls="marker", style=f"left:{x:.2f}%;top:{y:.2f}%", title="where the action clicked")]
    return Div(
        Label(Input(type="checkbox"), Img(src=uri, alt=alt, loading="lazy"), cls="zoom", title="click to enlarge"),
        *marker,
        cls="shot",
    )


def _point(target: dict) -> tuple[float, float] | None:
    if target.get("point"):
        x, y = target["point"][:2]
        return float(x), float(y)
    box = target.get("box")
    if box:
        return float(box[0]) + float(box[2]) / 2, float(box[1]) + float(box[3]) / 2
    return None


def _tokens(tokens: Any) -> str:
    if not isinstance(tokens, dict) or not tokens:
        return ""
    total = token_total(tokens)
    return f"{int(total):,} tokens" if total and not is_nan(total) else ""


def _image(s: dict) -> Any:
    return s.get("screenshot") or s.get("thumbnail")


def _step_card(
    results_dir: Path, i: int, s: dict, before: Any, kind: str, width: int, budget: Budget, vp: tuple, parts: StepParts
) -> Any:
    """Step ``i``: the page the action was chosen on (``before``), marked where it clicked."""
    cat = s.get("category")
    err = s.get("error") or ""
    invalid = (cat not in (None, "", "valid")) or (cat is None and bool(err))
    target = s.get("target") or {}
    shot: Any = ""
    if before:
        uri, why = embed_image(results_dir, before, width, budget)
        shot = _shot(uri, f"before step {i + 1}", _point(target), vp) if uri else Div(why, cls="noshot")
    elif parts.page is not None:
        shot = parts.page(s) or ""
    tags = []
    if invalid and cat:
        tags.append(badge(str(cat).replace("_", " "), "bad"))
    if kind:
        tags.append(badge(kind, "warn" if kind == "stuck loop" else "info"))
    if s.get("stale_target"):  # perception drift: aimed at the page from before a crash restart
        tags.append(badge("stale target", "warn"))
    txt: list[Any] = [HP(B(f"{i + 1}. "), Code(str(s.get("action", ""))), *tags)]
    if target.get("bid") is not None or target.get("role"):
        txt.append(
            Div(
                f"→ {target.get('role') or 'element'} “{target.get('name', '')}” [{target.get('bid', '')}]",
                cls="target",
            )
        )
    elif target.get("point"):
        txt.append(Div(f"→ point ({target['point'][0]:g}, {target['point'][1]:g})", cls="target"))
    if s.get("reasoning"):
        txt.append(Div(str(s["reasoning"])[:800], cls="thought"))
    if err:
        txt.append(Div(short_action_error(str(err)), cls="err", title=str(err)[:2000]))
    events = s.get("events") or []
    if events:
        txt.append(Div("events: " + ", ".join(f"{e.get('app')}.{e.get('op')}" for e in events[:8]), cls="events"))
    cost = [x for x in (_tokens(s.get("tokens")), fmt_seconds(s["time_s"]) if s.get("time_s") is not None else "") if x]
    if s.get("url"):
        txt.append(Div("then at " + url_path(s.get("url")), cls="url"))
    if cost:
        txt.append(Div(" · ".join(cost), cls="meta"))
    if parts.more is not None:
        txt += parts.more(i, s)
    cls = "step" + (" invalid" if invalid else "") + (" loop" if kind == "stuck loop" else "")
    return Div(shot, Div(*txt, cls="txt"), cls=cls)


def step_kinds(steps: list[dict], min_repeats: int) -> dict[int, str]:
    """Per step index inside a loop: "stuck loop" or "progressing repeat" (or "loop" when the
    steps do not say whether they changed anything)."""
    actions = [str(s.get("action", "")) for s in steps]
    changed = [s.get("changed") for s in steps]
    known = all(c is not None for c in changed)
    out: dict[int, str] = {}
    for start, period, reps in find_loops(actions, min_repeats):
        stuck, progressing, _ = loop_kinds(
            actions[start : start + period * reps],
            changed[start : start + period * reps] if known else None,
            min_repeats,
        )
        kind = "stuck loop" if stuck else ("progressing repeat" if progressing else "loop")
        out.update({i: kind for i in range(start, start + period * reps)})
    return out


def episode_view(results_dir: Path, row: dict, traj: dict, width: int, budget: Budget, min_repeats: int) -> Any:
    """One episode as a ``details`` element with the id :func:`anchor` gives."""
    agent = row.get("agent", traj.get("agent", "?"))
    task, variation = row.get("task", traj.get("task", "?")), row.get("variation", traj.get("variation", "?"))
    seed = row.get("seed", traj.get("seed", "?"))
    success = row.get("success")
    if success is None:
        success = float(traj.get("reward", 0) or 0) >= 1
    steps = traj.get("steps") or []
    kinds = step_kinds(steps, min_repeats)
    n_invalid = sum(
        1
        for s in steps
        if s.get("category") not in (None, "", "valid") or (s.get("error") and s.get("category") is None)
    )
    extras = []
    n_stuck = sum(1 for k in set(kinds.values()) if k == "stuck loop")
    if kinds:
        extras.append(badge("stuck loop" if n_stuck else "repeats", "warn" if n_stuck else "info"))
    if n_invalid:
        extras.append(badge(f"{n_invalid} invalid", "warn"))
    if row.get("intent_misunderstanding"):
        extras.append(badge("opened an unneeded app", "info"))
    summary = Summary(
        badge("success", "ok") if success else badge("failure", "bad"),
        " ",
        B(str(agent)),
        f" · {task} · {variation} · seed {seed} ",
        Span(f"— {len(steps)} step{'s' if len(steps) != 1 else ''}", cls="meta"),
        *extras,
    )
    return Details(
        summary,
        Div(*episode_body(results_dir, row, traj, width, budget, kinds), cls="body"),
        id=anchor(row.get("episode_id") or traj.get("episode_id")),
    )


def episode_body(
    results_dir: Path, row: dict, traj: dict, width: int, budget: Budget, kinds: dict, parts: StepParts = REPORT_PARTS
) -> list[Any]:
    body: list[Any] = [HP(B("Goal: "), str(traj.get("goal") or row.get("goal") or ""))]
    if traj.get("explanation"):
        body.append(Div(B("Why this reward"), Pre(str(traj["explanation"])), cls="explain"))
    meta = []
    if row.get("reward") is not None or traj.get("reward") is not None:
        meta.append(f"reward {fmt_num(row.get('reward', traj.get('reward')), 2)}")
    if row.get("partial_reward") is not None:
        meta.append(f"partial {fmt_num(row.get('partial_reward'), 2)}")
    if row.get("apps_visited") is not None and len(row.get("apps_visited")):
        meta.append("apps visited: " + " → ".join(str(x) for x in row["apps_visited"]))
    if row.get("task_apps") is not None and len(row.get("task_apps")):
        meta.append("task needs: " + ", ".join(str(x) for x in row["task_apps"]))
    if row.get("duration_s") is not None and not is_nan(row.get("duration_s")):
        meta.append(fmt_seconds(row["duration_s"]))
    if row.get("episode_id"):
        meta.append(f"episode {row['episode_id']}")
    if meta:
        body.append(HP(" · ".join(meta), cls="meta"))
    vp = _viewport(row)
    steps = traj.get("steps") or []
    # Each card shows the page its action was chosen on; a step that never reached the page
    # (an invalid action) leaves it as it was.
    before = [traj.get("first_screenshot") or traj.get("first_thumbnail")]
    for s in steps:
        before.append(_image(s) or before[-1])
    cards = [
        _step_card(results_dir, i, s, before[i], kinds.get(i, ""), width, budget, vp, parts)
        for i, s in enumerate(steps)
    ]
    if steps and before[-1]:
        uri, _ = embed_image(results_dir, before[-1], width, budget)
        if uri:
            end = Div(B("End "), Span("the page after the last step", cls="meta"), cls="txt")
            cards.append(Div(_shot(uri, "final page", None, vp), end, cls="step"))
    body.append(Div(*cards, cls="steps") if cards else HP("No steps recorded.", cls="meta"))
    return body


def side_by_side(
    results_dir: Path | Sequence[Path],
    pair: list[tuple[dict, dict]],
    width: int,
    budget: Budget,
    min_repeats: int,
    parts_of: Callable[[dict, dict], StepParts] | None = None,
    opened: bool = False,
) -> Any:
    """Two episodes of one task and seed in two versions, next to each other (each from its own
    results folder when ``results_dir`` is a pair of them; ``parts_of(row, traj)``: what its step
    cards add, see :class:`StepParts`)."""
    dirs = list(results_dir) if isinstance(results_dir, (list, tuple)) else [results_dir] * len(pair)
    cols = []
    for folder, (row, traj) in zip(dirs, pair, strict=True):
        kinds = step_kinds(traj.get("steps") or [], min_repeats)
        parts = parts_of(row, traj) if parts_of is not None else REPORT_PARTS
        head = HP(
            badge("success" if row.get("success") else "failure", "ok" if row.get("success") else "bad"),
            " ",
            B(str(row.get("variation"))),
        )
        cols.append(Div(head, *episode_body(folder, row, traj, width, budget, kinds, parts), cls="side"))
    (a, _), (b, _) = pair
    title = (
        f"{a.get('agent')} · {a.get('task')} · seed {a.get('seed')}: {a.get('variation')} versus {b.get('variation')}"
    )
    return Details(Summary(title), Div(*cols, cls="sidebyside"), open=opened)
