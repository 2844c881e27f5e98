"""One episode in ``openapps view``, and a success flip's two episodes side by side: the report's
trajectory viewer (:mod:`openapps_sim.analysis.report.viewer`) with, on each step, the tree the
agent read when no page image was recorded and the exchange with the model when one was; above
the steps, the interruptions shown, the state difference that decided the reward and the agent's
error."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fasthtml.common import H1, H2, A, B, Code, Details, Div, Mark, Pre, Span, Summary, Table, Tbody, Td, Th, Thead, Tr

from openapps_sim.analysis.metrics.values import token_total
from openapps_sim.analysis.report.fmt import fmt_seconds, is_nan
from openapps_sim.analysis.report.images import Budget
from openapps_sim.analysis.report.viewer import StepParts, episode_body, side_by_side, step_kinds
from openapps_sim.analysis.view.episodes import Episodes
from openapps_sim.analysis.view.pages import badge, episode_url, flip_url, frame, outcome_badge, query_string

IMAGE_WIDTH = 900  # pixels of an embedded page image (downscaled JPEG)
PAGE_BUDGET = 60_000_000  # bytes of embedded images one page may hold
MIN_REPEATS = 2
REPLY_KEYS = ("reply", "raw_reply", "raw", "response")
REQUEST_KEYS = ("request", "messages")
REASK_KEYS = ("reasks", "retries", "re_asks")
EXCHANGE_STEP_KEYS = (*REQUEST_KEYS, "raw_reply", *REASK_KEYS)  # also read from the step itself
SYSTEM_KEYS = ("system_prompt", "system")


def text_of(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, indent=1, ensure_ascii=False, default=str)


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


def content_view(content: Any) -> list[Any]:
    """A message's content: text as text, each image as its reference (never inlined)."""
    if not isinstance(content, list):
        return [Pre(text_of(content))]
    out: list[Any] = []
    for part in content:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            out.append(Pre(part["text"]))
        elif isinstance(part, dict) and "image" in str(part.get("type", "")):
            ref = part.get("ref") or part.get("path") or part.get("image_url") or part.get("url") or "an image"
            out.append(Div(f"[image: {text_of(ref)[:200]}]", cls="meta"))
        else:
            out.append(Pre(text_of(part)))
    return out


def message_view(message: Any, cls: str = "") -> Any:
    if not isinstance(message, dict):
        return Div(Pre(text_of(message)), cls=f"msg {cls}")
    role = str(message.get("role") or "message")
    body = content_view(message.get("content", {k: v for k, v in message.items() if k != "role"}))
    return Div(Div(role, cls="role"), *body, cls=f"msg {role} {cls}".strip())


def request_messages(request: Any) -> list[Any]:
    if isinstance(request, dict) and isinstance(request.get("messages"), list):
        return request["messages"]
    return request if isinstance(request, list) else [request]


def exchange_of(step: dict) -> dict:
    """The step's exchange with the model: its ``exchange`` field, with the request, raw reply
    and re-asks also read from the step itself (older or other agents' trajectories)."""
    exchange = dict(step.get("exchange") or {}) if isinstance(step.get("exchange"), dict) else {}
    for key in EXCHANGE_STEP_KEYS:
        if step.get(key) and key not in exchange:
            exchange[key] = step[key]
    return exchange


def reask_view(n: int, reask: Any) -> list[Any]:
    """Re-ask ``n``: why the reply was not taken, what was sent again and what came back."""
    if not isinstance(reask, dict):
        return [B(f"Re-ask {n}"), message_view(reask, "reask")]
    why = reask.get("reason") or reask.get("why") or ""
    out: list[Any] = [Div(B(f"Re-ask {n}"), Span(f" — {why}" if why else "", cls="meta"))]
    sent = next((reask[k] for k in ("message", "prompt", "request") if reask.get(k)), None)
    if sent is not None:
        out += [message_view(m, "reask") for m in request_messages(sent)]
    got = next((reask[k] for k in REPLY_KEYS if reask.get(k) is not None), None)
    if got is not None:
        out.append(message_view({"role": "assistant", "content": got}, "reask"))
    return out


def exchange_view(i: int, step: dict) -> list[Any]:
    """A fold with the request as sent, the raw reply, each re-ask with its reason, and cost."""
    exchange = exchange_of(step)
    if not exchange:
        return []
    parts: list[Any] = []
    request = next((exchange[k] for k in REQUEST_KEYS if exchange.get(k)), None)
    if request is not None:
        parts += [B("Request"), *[message_view(msg) for msg in request_messages(request)]]
    reply = next((exchange[k] for k in REPLY_KEYS if exchange.get(k) is not None), None)
    if reply is not None:
        parts += [B("Raw reply"), message_view({"role": "assistant", "content": reply})]
    reasks = next((exchange[k] for k in REASK_KEYS if exchange.get(k)), [])
    for n, reask in enumerate(reasks if isinstance(reasks, list) else [reasks], start=1):
        parts += reask_view(n, reask)
    known = {*REQUEST_KEYS, *REPLY_KEYS, *REASK_KEYS, "latency_s", "tokens"}
    rest = {k: v for k, v in exchange.items() if k not in known}
    if rest:
        parts += [B("More"), Pre(text_of(rest))]
    meta = [f"{len(reasks)} re-ask{'s' if len(reasks) != 1 else ''}"] if reasks else []
    tokens = token_total(exchange.get("tokens"))
    if tokens and not is_nan(tokens):
        meta.append(f"{int(tokens):,} tokens")
    if exchange.get("latency_s") is not None:
        meta.append(fmt_seconds(exchange["latency_s"]))
    head = "Exchange with the model" + (f" ({', '.join(meta)})" if meta else "")
    return [Details(Summary(head), Div(*parts, cls="body"), cls="exchange", id=f"exchange-{i + 1}")]


def tree_fold(step: dict) -> list[Any]:
    tree = tree_page(step)
    return [Details(Summary("The page as the agent read it"), tree, cls="exchange")] if tree is not None else []


def step_parts(row: Mapping, traj: Mapping | None = None) -> StepParts:
    """The tree in place of a missing image (and in a fold beside an image); below each step's
    text, the interruptions shown on the page it acted on and its exchange with the model."""
    steps = (traj or {}).get("steps") or []
    images = any(isinstance(s, dict) and (s.get("screenshot") or s.get("thumbnail")) for s in steps)
    shown: dict[int, list[str]] = {}
    for x in row.get("interruptions") or []:
        if isinstance(x, dict) and isinstance(x.get("step"), int):
            shown.setdefault(x["step"], []).append(str(x.get("id") or x.get("kind") or "interruption"))

    def more(i: int, step: dict) -> list[Any]:
        marks = [Div(badge(f"interruption shown: {name}", "info"), cls="interrupted") for name in shown.get(i, [])]
        return [*marks, *(tree_fold(step) if images else []), *exchange_view(i, step)]

    return StepParts(page=tree_page, more=more)


def interruptions_view(row: Mapping) -> list[Any]:
    shown = [x for x in row.get("interruptions") or [] if isinstance(x, dict)]
    if not shown:
        return []
    head = ["Step", "Kind", "Interruption", "Shown as", "Page", "Button chosen", "Resolved at", "Harmful"]
    rows = [
        Tr(
            Td(str(x.get("step", ""))),
            *[Td(str(x.get(k) or ""), cls="l") for k in ("kind", "id", "presentation", "page")],
            Td(str(x.get("button") or "none"), cls="l"),
            Td("not resolved" if x.get("resolved_step") is None else f"step {x['resolved_step']}", cls="l"),
            Td("yes" if x.get("harmful") else "no", cls="l"),
        )
        for x in shown
    ]
    table = Table(Thead(Tr(*[Th(h, cls="l") for h in head])), Tbody(*rows))
    return [H2("Interruptions", id="interruptions"), Div(table, cls="scroll")]


def diff_view(row: Mapping) -> list[Any]:
    """The state difference that decided the reward: each path, what was expected, what there was."""
    diffs = [d for d in row.get("state_diff") or [] if isinstance(d, dict)]
    if not diffs:
        return []
    rows = [
        Tr(
            Td(Code(str(d.get("path", ""))), cls="l"),
            Td(Code(text_of(d.get("expected"))), cls="l"),
            Td(Code(text_of(d.get("actual"))), cls="l"),
        )
        for d in diffs
    ]
    head = Thead(Tr(Th("Where", cls="l"), Th("Expected", cls="l"), Th("Found", cls="l")))
    return [H2("State difference", id="state-diff"), Div(Table(head, Tbody(*rows), cls="kv2"), cls="scroll")]


def error_view(row: Mapping) -> list[Any]:
    error = row.get("agent_error") or row.get("error")
    if not error:
        return []
    out: list[Any] = [H2("Error", id="error"), Pre(str(error))]
    if row.get("traceback"):
        out.append(Details(Summary("Traceback"), Pre(str(row["traceback"]))))
    return out


def system_view(traj: dict) -> list[Any]:
    system = next((traj[k] for k in SYSTEM_KEYS if traj.get(k)), None)
    if system is None:
        return []
    return [Details(Summary("System prompt (sent with every step)"), Pre(text_of(system)), id="system-prompt")]


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
    body = episode_body(
        episodes.folder(key),
        row,
        traj,
        IMAGE_WIDTH,
        Budget(PAGE_BUDGET),
        step_kinds(traj.get("steps") or [], MIN_REPEATS),
        step_parts(row, traj),
    )
    more = [*interruptions_view(row), *diff_view(row), *error_view(row), *system_view(traj)]
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
    view = side_by_side(folders, pair, IMAGE_WIDTH // 2, Budget(PAGE_BUDGET), MIN_REPEATS, step_parts, opened=True)
    a, b = pair[0][0], pair[1][0]
    title = f"{a['label']} · {a.get('task')} · seed {a.get('seed')}: solved in {a.get('variation')}, failed in {b.get('variation')}"
    links = [A("← all flips", href="/flips"), A(f"{a.get('variation')} alone", href=episode_url(won))]
    links.append(A(f"{b.get('variation')} alone", href=episode_url(lost)))
    return frame(title, "flips", episodes, Div(*links, cls="crumbs"), H1(title), view)
