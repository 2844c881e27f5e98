"""A stand-in model for the app-tool interfaces (``api`` and ``mixed``), served by
:class:`tests.fake_llm_server.FakeLLMServer`.

Like :class:`~tests.fake_llm_server.PromptReader` it answers only from what the prompt says:
the tools it may call from the *system prompt's* tool list (a tool the prompt does not list is
never called), the goal, its own earlier thoughts, and the *result of the last tool call* (the
contact's id comes from ``messenger.read()``'s JSON, never from a guess).
"""

from __future__ import annotations

import json
import re

from .fake_llm_server import _last_user_text, goal_parts, read_prompt

_TOOL_LINE = re.compile(r"^(\w+\.\w+)\((.*?)\) -- ", re.M)


def system_text(body: dict) -> str:
    """The system prompt of an OpenAI or Anthropic request."""
    if isinstance(body.get("system"), str):
        return body["system"]
    for msg in body.get("messages", []):
        if msg.get("role") == "system":
            return msg["content"] if isinstance(msg["content"], str) else ""
    return ""


def tool_result(user_text: str) -> object | None:
    """The JSON of the last tool call's result, as the prompt shows it (None when there is none)."""
    m = re.search(r"^Result of your last app tool call:\n(.*)$", user_text, re.M)
    return json.loads(m.group(1)) if m else None


class ToolReader:
    """Solves todo and messenger goals through app tools, reading everything from the prompt."""

    def __init__(self) -> None:
        self.tools_seen: list[set[str]] = []
        self.results_seen: list[object | None] = []

    def __call__(self, body: dict) -> str:
        tools = set(m.group(1) for m in _TOOL_LINE.finditer(system_text(body)))
        text = _last_user_text(body)
        reading, result = read_prompt(text), tool_result(text)
        self.tools_seen.append(tools)
        self.results_seen.append(result)
        last = reading.steps[-1]["thought"] if reading.steps else ""
        m = re.search(r"progress: done=\[([^\]]*)\]", last)
        done = [d for d in (m.group(1).split(",") if m else []) if d]
        for kind, p in goal_parts(reading.goal):
            if kind in done:
                continue
            need = "todo.add_item" if kind == "todo" else "messenger.send_message"
            if need not in tools:
                return f"<think>No tool for {kind}.</think>\n<action>report_infeasible('no {need} tool')</action>"
            progress = f"progress: done=[{','.join(done + [kind])}]"
            if kind == "todo":
                return f"<think>{progress}</think>\n<action>todo.add_item(title={p['title']!r})</action>"
            contacts = result.get("contacts") if isinstance(result, dict) else None
            if not contacts:
                return f"<think>progress: done=[{','.join(done)}]; I need the contact's id.</think>\n<action>messenger.read()</action>"
            cid = next(c["id"] for c in contacts if c["name"] == p["contact"])
            return f"<think>{progress}</think>\n<action>messenger.send_message(contact={cid!r}, text={p['text']!r})</action>"
        return "<think>Everything is done.</think>\n<action>send_msg_to_user('done')</action>"
