"""One episode in ``openapps view``, and a success flip's two episodes side by side: the report's
trajectory viewer (:mod:`openapps_sim.analysis.report.viewer`) with, on each step, the tree the
agent read when no page image was recorded and the exchange with the model when one was
(:mod:`.exchange`); above the steps, the interruptions shown, the state difference that decided
the reward, the agent's error and the episode's system prompt."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fasthtml.common import H1, H2, A, Code, Details, Div, Mark, Pre, Span, Summary

from openapps_sim.analysis.doc.blocks import Cell, Table
from openapps_sim.analysis.doc.page import badge, table
from openapps_sim.analysis.report.images import Budget
from openapps_sim.analysis.report.viewer import StepParts, episode_body, side_by_side, step_kinds
from openapps_sim.analysis.view.episodes import Episodes
from openapps_sim.analysis.view.exchange import ExchangeContext, exchange_view, system_prompts_view, text_of
from openapps_sim.analysis.view.pages import episode_url, flip_url, frame, outcome_badge, query_string

IMAGE_WIDTH = 900  # pixels of an embedded page image (downscaled JPEG)
PAGE_BUDGET = 60_000_000  # bytes of embedded images one page may hold
MIN_REPEATS = 2


def tree_page(step: dict) -> Any:
    """The tree the action was chosen on, where a page image would be; the line of the element
    the action addressed is marked."""
    tree = step.get("observation")
    if not tree:
        return None
    bid = (step.get("target") or {}).get("bid")
    parts: list[Any] = [str(tree)]
    if bid is not None:
        lines = str(tree).split("\n")
        hit = next((n for n, line in enumerate(lines) if f"[{bid}] " in line), None)
        if hit is not None:
            before, after = "\n".join(lines[:hit]), "\n".join(lines[hit + 1 :])
            parts = [before + "\n" if hit else "", Mark(lines[hit]), "\n" + after if after else ""]
    return Pre(*parts, cls="tree", title="the page as the agent read it")


def tree_fold(step: dict) -> list[Any]:
    tree = tree_page(step)
    return [Details(Summary("The page as the agent read it"), tree, cls="exchange")] if tree is not None else []


def step_parts(row: Mapping, traj: Mapping, folder: Path, budget: Budget) -> StepParts:
    """The tree in place of a missing image (and in a fold beside an image); below each step's
    text, the interruptions shown on the page it acted on and its exchange with the model (its
    images read from ``folder``)."""
    steps = traj.get("steps") or []
    images = any(isinstance(s, dict) and (s.get("screenshot") or s.get("thumbnail")) for s in steps)
    shown: dict[int, list[str]] = {}
    for x in row.get("interruptions") or []:
        if isinstance(x, dict) and isinstance(x.get("step"), int):
            shown.setdefault(x["step"], []).append(str(x.get("id") or x.get("kind") or "interruption"))
    ep = ExchangeContext(folder, str(row.get("episode_id")), dict(traj.get("system_prompts") or {}), budget)

    def more(i: int, step: dict) -> list[Any]:
        marks = [Div(badge(f"interruption shown: {name}", "info"), cls="interrupted") for name in shown.get(i, [])]
        return [*marks, *(tree_fold(step) if images else []), *exchange_view(i, step, ep)]

    return StepParts(page=tree_page, more=more)


def interruptions_view(row: Mapping) -> list[Any]:
    shown = [x for x in row.get("interruptions") or [] if isinstance(x, dict)]
    if not shown:
        return []
    head = ["Step", "Kind", "Interruption", "Shown as", "Page", "Button chosen", "Resolved at", "Harmful"]
    rows = [
        [
            str(x.get("step", "")),
            *[str(x.get(k) or "") for k in ("kind", "id", "presentation", "page")],
            str(x.get("button") or "none"),
            "not resolved" if x.get("resolved_step") is None else f"step {x['resolved_step']}",
            "yes" if x.get("harmful") else "no",
        ]
        for x in shown
    ]
    return [H2("Interruptions", id="interruptions"), table(Table(head, rows, ["l"] * len(head)))]


def diff_view(row: Mapping) -> list[Any]:
    """The state difference that decided the reward: each path, what was expected, what there was."""
    diffs = [d for d in row.get("state_diff") or [] if isinstance(d, dict)]
    if not diffs:
        return []
    values = [[str(d.get("path", "")), text_of(d.get("expected")), text_of(d.get("actual"))] for d in diffs]
    rows = [[Cell(v, html=Code(v)) for v in line] for line in values]
    diff = table(Table(["Where", "Expected", "Found"], rows, ["l"] * 3, cls="kv2"))
    return [H2("State difference", id="state-diff"), diff]


def error_view(row: Mapping) -> list[Any]:
    error = row.get("agent_error") or row.get("error")
    if not error:
        return []
    out: list[Any] = [H2("Error", id="error"), Pre(str(error))]
    if row.get("traceback"):
        out.append(Details(Summary("Traceback"), Pre(str(row["traceback"]))))
    return out


def episode_page(episodes: Episodes, key: str, query: Mapping[str, str]) -> str:
    """One episode: where it sits among the filtered ones, its facts, then the report's viewer."""
    row = episodes.rows[key]
    traj = episodes.trajectory(key) or {"steps": [], "goal": row.get("goal")}
    keys = episodes.select(query)
    at = keys.index(key) if key in keys else -1
    crumbs: list[Any] = [A("← all episodes", href="/" + query_string(query))]
    if at > 0:
        crumbs.append(A("← previous", href=episode_url(keys[at - 1], query)))
    if 0 <= at < len(keys) - 1:
        crumbs.append(A("next →", href=episode_url(keys[at + 1], query)))
    if at >= 0:
        crumbs.append(Span(f"{at + 1} of {len(keys)}", cls="meta"))
    facts: list[Any] = [outcome_badge(row)]
    if row["failure"]:
        facts.append(badge(row["failure"], "warn"))
    flip = episodes.flip_of(key)
    if flip is not None:
        other = episodes.rows[flip.lost if flip.won == key else flip.won]
        word = "solved" if other["outcome"] == "success" else "failed"
        facts.append(A(f"side by side with {other['variation']} ({word} there)", href=flip_url(flip), cls="flip"))
    title = f"{row['label']} · {row.get('task')} · {row.get('variation')} · seed {row.get('seed')}"
    folder, budget = episodes.folder(key), Budget(PAGE_BUDGET)
    kinds = step_kinds(traj.get("steps") or [], MIN_REPEATS)
    body = episode_body(folder, row, traj, IMAGE_WIDTH, budget, kinds, step_parts(row, traj, folder, budget))
    more = [
        *interruptions_view(row),
        *diff_view(row),
        *error_view(row),
        *system_prompts_view(traj.get("system_prompts")),
    ]
    steps = [H2("Steps", id="steps"), body[-1]]
    head = [Div(*crumbs, cls="crumbs"), H1(title), Div(*facts, cls="facts")]
    return frame(title, "episodes", episodes, *head, *body[:-1], *more, *steps)


def flip_page(episodes: Episodes, won: str, lost: str) -> str:
    """A success flip: the solved and the failed episode side by side."""
    pair = [
        ({**episodes.rows[k], "agent": episodes.rows[k]["label"]}, episodes.trajectory(k) or {"steps": []})
        for k in (won, lost)
    ]
    folders: list[Path] = [episodes.folder(won), episodes.folder(lost)]
    budget = Budget(PAGE_BUDGET)

    def parts(row: dict, traj: dict) -> StepParts:
        return step_parts(row, traj, episodes.sources[row["source"]], budget)

    view = side_by_side(folders, pair, IMAGE_WIDTH // 2, budget, MIN_REPEATS, parts, opened=True)
    prompts = {sid: text for _, traj in pair for sid, text in (traj.get("system_prompts") or {}).items()}
    a, b = pair[0][0], pair[1][0]
    title = f"{a['label']} · {a.get('task')} · seed {a.get('seed')}: solved in {a.get('variation')}, failed in {b.get('variation')}"
    links = [A("← all flips", href="/flips"), A(f"{a.get('variation')} alone", href=episode_url(won))]
    links.append(A(f"{b.get('variation')} alone", href=episode_url(lost)))
    return frame(title, "flips", episodes, Div(*links, cls="crumbs"), H1(title), view, *system_prompts_view(prompts))
