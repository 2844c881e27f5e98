"""Reading a model's answer: its reasoning and its action(s), and coordinate conversion.

The prompt asks for ``<think>...</think>`` then ``<action>...</action>`` (the format of
AgentLab's GenericAgent). Answers in other common shapes are read too, in this order:
``<action>`` tags, the last fenced code block, ``Action:`` lines, lines that are a bare
function call. Every action found counts: an answer with two actions is *two* actions, which
the action check calls ``malformed`` when the agent allows one per step (the default).
An answer with no action at all is "unparsable": the agent asks again without spending a
step (see :class:`openapps_sim.agents.chat.ChatAgent`).
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from openapps_sim.envs.actions import parse_code  # ast.parse that gives up with SyntaxError only

# coordinate parameters of BrowserGym's coordinate actions, by function
COORD_ARGS = {
    "mouse_click": (("x", "y"),),
    "mouse_dblclick": (("x", "y"),),
    "mouse_move": (("x", "y"),),
    "mouse_down": (("x", "y"),),
    "mouse_up": (("x", "y"),),
    "mouse_upload_file": (("x", "y"),),
    "scroll_at": (("x", "y"),),
    "mouse_drag_and_drop": (("from_x", "from_y"), ("to_x", "to_y")),
}

_THINK_TAG = re.compile(r"<(think|thinking|thought)>(.*?)(?:</\1>|$)", re.S | re.I)
_ACTION_TAG = re.compile(r"<action>(.*?)(?:</action>|$)", re.S | re.I)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n?(.*?)```", re.S)
_ACTION_LINE = re.compile(r"^[\W_]*action[*_\s]*:[*_\s]*(.*)$", re.I)
_CALL_LINE = re.compile(r"^\s*[A-Za-z_]\w*\s*\(.*\)\s*;?\s*$")
_THOUGHT_LINE = re.compile(r"^[\W_]*(?:thought|think|reasoning)[*_\s]*:[*_\s]*(.*)$", re.I)


@dataclass(frozen=True)
class ParsedReply:
    """What an answer holds: the reasoning and the action calls, in the order written."""

    thought: str
    actions: list[str] = field(default_factory=list)

    @property
    def parsed(self) -> bool:
        """False when no action could be found at all (the agent asks again)."""
        return bool(self.actions)

    def action(self) -> str:
        """The action string for the environment: the calls joined by newlines (several calls
        are then ``malformed`` unless the agent allows several per step)."""
        return "\n".join(self.actions)


def split_calls(text: str) -> list[str]:
    """The statements of an action text, one string each; unparsable text stays one piece."""
    text = text.strip()
    if not text:
        return []
    try:
        tree = parse_code(text, mode="exec")
    except SyntaxError:
        return [_tidy(text)]
    if len(tree.body) <= 1:
        return [_tidy(text)]
    lines = text.splitlines()
    out = []
    for stmt in tree.body:
        piece = "\n".join(lines[stmt.lineno - 1 : stmt.end_lineno])
        out.append(_tidy(piece))
    return out


def _block_lines(body: str) -> str:
    lines = [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    lines = [_ACTION_LINE.sub(r"\1", ln).strip() if _ACTION_LINE.match(ln) else ln for ln in lines]
    return "\n".join(ln for ln in lines if ln)


def parse_reply(reply: str) -> ParsedReply:
    """The reasoning and every action of a model's answer (see the module docstring)."""
    raw = reply or ""
    thoughts = [m.group(2).strip() for m in _THINK_TAG.finditer(raw)]
    text = _THINK_TAG.sub("", raw).strip()
    tags = [m.group(1) for m in _ACTION_TAG.finditer(text)]
    if tags:
        actions = [a for t in tags for a in split_calls(_block_lines(_FENCE.sub(r"\2", t)))]
        before = text[: text.lower().find("<action>")].strip()
        return ParsedReply(" ".join(thoughts) or _thought_from_lines(before) or before, actions)
    thought = " ".join(thoughts) or _thought_from_lines(text)
    blocks = _FENCE.findall(text)
    if blocks:
        body = _block_lines(blocks[-1][1])
        if body:
            return ParsedReply(thought or _FENCE.split(text)[0].strip(), split_calls(body))
    lines = text.splitlines()
    actions = []
    for i, line in enumerate(lines):
        m = _ACTION_LINE.match(line)
        if m:
            rest = m.group(1).strip()
            if not rest and i + 1 < len(lines):
                rest = lines[i + 1].strip()
            if rest:
                actions.extend(split_calls(rest))
    if actions:
        return ParsedReply(thought, actions)
    calls = [_tidy(ln) for ln in lines if _CALL_LINE.match(ln)]
    if calls:
        return ParsedReply(thought, calls)
    return ParsedReply(thought or text, [])


def _thought_from_lines(text: str) -> str:
    for line in text.splitlines():
        m = _THOUGHT_LINE.match(line)
        if m:
            return m.group(1).strip()
    return ""


def extract_action(reply: str) -> str:
    """The action string of an answer (several calls joined by newlines; the answer's text
    when no action is found, so that the action check calls it malformed)."""
    parsed = parse_reply(reply)
    return parsed.action() if parsed.parsed else (reply or "").strip()


def extract_thought(reply: str) -> str:
    return parse_reply(reply).thought


def _tidy(action: str) -> str:
    action = action.strip().strip("`").strip()
    if action.endswith((";", ".")):
        head = action[:-1].rstrip()
        try:
            parse_code(head)
            return head
        except SyntaxError:
            pass
    return action


Point = Callable[[float, float], tuple[float, float]]


def map_coordinates(action: str, to: Point) -> str:
    """The action with every coordinate pair of a coordinate action passed through ``to``;
    other actions (and anything unparsable) unchanged."""
    try:
        call = parse_code(action.strip(), mode="eval").body
    except SyntaxError:
        return action
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.func.id not in COORD_ARGS:
        return action
    from openapps_sim.envs.actions import space_functions

    fn = space_functions("all")[call.func.id]
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (ValueError, TypeError, SyntaxError):
        return action
    values = dict(bound.arguments)
    for px, py in COORD_ARGS[call.func.id]:
        if isinstance(values.get(px), (int, float)) and isinstance(values.get(py), (int, float)):
            x, y = to(values[px], values[py])
            values[px], values[py] = round(x, 1), round(y, 1)
    rendered = ", ".join(f"{k}={v!r}" for k, v in values.items())
    return f"{call.func.id}({rendered})"


def scale_coordinates(action: str, sx: float, sy: float) -> str:
    """Multiply the coordinates of a coordinate action by (sx, sy); other actions unchanged."""
    if sx == 1 and sy == 1:
        return action
    return map_coordinates(action, lambda x, y: (x * sx, y * sy))


_POINT_OUTSIDE = re.compile(r"point \((-?[\d.]+), (-?[\d.]+)\) is outside the (\d+)x(\d+) viewport")


def speak_model_space(text: str, executed: str, model_action: str, to_model: Point, size: tuple[int, int]) -> str:
    """An error text about an executed action, rewritten in the model's coordinate space:
    the executed (viewport) action becomes the model's action, a point outside the viewport
    becomes the model's point outside its ``size`` (width, height) image."""
    if not text:
        return text
    if executed and executed != model_action:
        text = text.replace(executed, model_action)

    def point(m: re.Match) -> str:
        x, y = to_model(float(m.group(1)), float(m.group(2)))
        return f"point ({_num(x)}, {_num(y)}) is outside the {size[0]}x{size[1]} screenshot"

    return _POINT_OUTSIDE.sub(point, text)


def _num(v: float):
    v = round(v, 1)
    return int(v) if float(v).is_integer() else v
