"""A step's recorded exchange with the model as ``openapps view`` shows it, read in exactly the
format the runner writes (docs/agents.md, "The recorded exchange"): the step's ``exchange`` =
``{request, replies, replies_not_recorded, images}`` and the trajectory's ``system_prompts``.

The request's messages are shown as sent, with ``[[system:<id>]]`` a link to the system prompt
(shown once per episode, above the steps) and ``[[image:<name>]]`` the image's name, and the
image itself when the run kept its file; then every reply with its tokens, latency and HTTP
attempts, and after a reply that was not taken, the re-ask's reason and the message sent."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fasthtml.common import H2, A, B, Details, Div, Figcaption, Figure, Img, Pre, Span, Summary

from openapps_sim.analysis.report.images import Budget, embed_image

SYSTEM_MARK = re.compile(r"\[\[system:([^\]\s]+)\]\]")
IMAGE_MARK = re.compile(r"\[\[image:([^\]\s/\\]+)\]\]")
MARKS = re.compile(f"{SYSTEM_MARK.pattern}|{IMAGE_MARK.pattern}")
IMAGE_WIDTH = 480  # pixels of an image sent to the model, as embedded
PARAM_CHARS = 300  # characters shown of one request field other than the messages


@dataclass
class ExchangeContext:
    """What an exchange is read against: the run folder and episode its images are stored under,
    the trajectory's system prompts ``{id: text}``, and the page's image budget."""

    folder: Path
    episode_id: str
    system_prompts: dict[str, str]
    budget: Budget


def seconds(value: Any) -> str:
    """A latency: ``0.84 s`` (two decimals below ten seconds, where a local model answers)."""
    x = float(value or 0)
    return f"{x:.2f} s" if x < 10 else f"{x:.1f} s"


def text_of(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, indent=1, ensure_ascii=False, default=str)


def system_ref(sid: str, ep: ExchangeContext) -> Any:
    if sid in ep.system_prompts:
        return Div(A(f"system prompt {sid}", href=f"#system-{sid}"), " (its text is shown once on this page)")
    return Div(f"system prompt {sid} (its text is not in this trajectory)", cls="meta")


def image_ref(name: str, images: dict, ep: ExchangeContext) -> Any:
    """The image's name, and the image when its file is in the run folder."""
    rel = images.get(name) or f"exchanges/{ep.episode_id}/{name}"
    uri, _ = embed_image(ep.folder, rel, IMAGE_WIDTH, ep.budget)
    caption = Figcaption(f"image {name}" + ("" if uri else " (not stored: the run kept its name and hash only)"))
    return Figure(Img(src=uri, alt=f"image {name} as sent", loading="lazy"), caption) if uri else Figure(caption)


def text_view(text: str, images: dict, ep: ExchangeContext) -> list[Any]:
    """A text as sent: its words, with each marker as the reference it stands for."""
    out: list[Any] = []
    at = 0
    for mark in MARKS.finditer(text):
        if text[at : mark.start()].strip():
            out.append(Pre(text[at : mark.start()]))
        sid, name = mark.group(1), mark.group(2)
        out.append(system_ref(sid, ep) if sid is not None else image_ref(name, images, ep))
        at = mark.end()
    if text[at:].strip() or not out:
        out.append(Pre(text[at:]))
    return out


def content_view(content: Any, images: dict, ep: ExchangeContext) -> list[Any]:
    """A message's content: a string, or parts (text, and images by the marker they hold)."""
    if isinstance(content, str):
        return text_view(content, images, ep)
    out: list[Any] = []
    for part in content if isinstance(content, list) else [content]:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            out += text_view(part["text"], images, ep)
        elif isinstance(part, str):
            out += text_view(part, images, ep)
        else:
            names = IMAGE_MARK.findall(json.dumps(part, default=str))
            out += [image_ref(n, images, ep) for n in names] if names else [Pre(text_of(part))]
    return out


def message_view(role: str, content: Any, images: dict, ep: ExchangeContext, cls: str = "") -> Any:
    return Div(Div(role, cls="role"), *content_view(content, images, ep), cls=f"msg {role} {cls}".strip())


def request_view(request: Any, images: dict, ep: ExchangeContext) -> list[Any]:
    """The request's fields other than the messages on one line, then each message."""
    if not isinstance(request, dict):
        return [B("Request"), Pre(text_of(request))]
    params = [
        f"{k} {text_of(v)[:PARAM_CHARS]}"
        for k, v in request.items()
        if k not in ("messages", "system") and v is not None
    ]
    out: list[Any] = [Div(B("Request"), Span(" · " + " · ".join(params), cls="meta") if params else "", cls="head")]
    if request.get("system") is not None:  # Anthropic: the system prompt is a field of its own
        out.append(message_view("system", request["system"], images, ep))
    for msg in request.get("messages") or []:
        if isinstance(msg, dict):
            out.append(message_view(str(msg.get("role") or "message"), msg.get("content"), images, ep))
        else:
            out.append(Pre(text_of(msg)))
    return out


def reply_head(n: int, reply: dict, taken: bool) -> Any:
    cost = [f"{reply.get('prompt_tokens') or 0:,} prompt + {reply.get('completion_tokens') or 0:,} completion tokens"]
    if reply.get("latency_s") is not None:
        cost.append(seconds(reply["latency_s"]))
    if (reply.get("attempts") or 1) > 1:
        cost.append(f"{reply['attempts']} HTTP attempts")
    word = "" if taken else " (not taken)"
    return Div(B(f"Reply {n}{word}"), Span(" · " + " · ".join(cost), cls="meta"), cls="head")


def replies_view(exchange: dict, ep: ExchangeContext) -> list[Any]:
    """Every reply as the model wrote it; after one that was not taken, the re-ask."""
    replies = [r for r in exchange.get("replies") or [] if isinstance(r, dict)]
    out: list[Any] = []
    for n, reply in enumerate(replies, start=1):
        reasked = reply.get("reasked")
        out += [reply_head(n, reply, not reasked), Div(Pre(str(reply.get("text") or "")), cls="msg assistant reply")]
        if isinstance(reasked, dict):
            out.append(Div(B("Re-asked: "), str(reasked.get("reason") or ""), cls="reask-why"))
            out.append(message_view("user", str(reasked.get("message") or ""), {}, ep, "reask"))
    more = exchange.get("replies_not_recorded") or 0
    if more:
        out.append(Div(f"{more} more repl{'ies' if more != 1 else 'y'} not recorded", cls="meta"))
    return out


def summary_of(exchange: dict) -> str:
    replies = [r for r in exchange.get("replies") or [] if isinstance(r, dict)]
    n = len(replies) + (exchange.get("replies_not_recorded") or 0)
    reasks = sum(1 for r in replies if r.get("reasked"))
    parts = [
        f"{n} repl{'ies' if n != 1 else 'y'}" + (f", {reasks} re-ask{'s' if reasks != 1 else ''}" if reasks else "")
    ]
    prompt = sum(int(r.get("prompt_tokens") or 0) for r in replies)
    completion = sum(int(r.get("completion_tokens") or 0) for r in replies)
    parts.append(f"{prompt:,} prompt + {completion:,} completion tokens")
    parts.append(seconds(sum(float(r.get("latency_s") or 0) for r in replies)))
    return "Exchange with the model · " + " · ".join(parts)


def exchange_view(i: int, step: dict, ep: ExchangeContext) -> list[Any]:
    """Step ``i``'s exchange in a fold (nothing when the agent asked no model at that step)."""
    exchange = step.get("exchange")
    if not isinstance(exchange, dict):
        return []
    images = exchange.get("images") if isinstance(exchange.get("images"), dict) else {}
    body = [*request_view(exchange.get("request"), images, ep), *replies_view(exchange, ep)]
    return [Details(Summary(summary_of(exchange)), Div(*body, cls="body"), cls="exchange", id=f"exchange-{i + 1}")]


def system_prompts_view(system_prompts: Any) -> list[Any]:
    """Each system prompt of the episode once, where the steps' requests link to it."""
    if not isinstance(system_prompts, dict) or not system_prompts:
        return []
    out: list[Any] = [H2("System prompt" + ("s" if len(system_prompts) > 1 else ""), id="system-prompts")]
    for sid, text in system_prompts.items():
        note = f"id {sid} · {len(str(text)):,} characters · sent with every request below, which links here for it"
        out.append(Div(Div(note, cls="meta"), Pre(str(text)), cls="system", id=f"system-{sid}"))
    return out
