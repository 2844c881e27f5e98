"""One step of offline evaluation, scored: an agent's action against the gold action taken on
the same observation (DAC-Bench's step-level measures), and the short instruction a
step-by-step evaluation gives for the gold action.

- **type**: the action's name (``click``, ``fill``, ``goto``, ``send_msg_to_user``...; every
  app tool call is ``app_tool``, its tool being its target).
- **target**: what the action is aimed at. For an element action, the element: its
  ``data-testid`` on the page both actions were chosen on (stable across page loads and
  versions), else its bid on that page; for ``goto`` the path and query of the URL (the world's
  origin differs per run); for an app tool, the tool (``todo.add_item``). Messages, scrolls and
  ``noop`` have none.
- **exact match**: same type, same target and the same remaining arguments, after normalising
  quotes (the action is parsed as a Python call) and whitespace. A ``select_option`` compares
  the options it picks on the gold step's page: an option named by its hidden value or by its
  visible label is the same option (:func:`picked`).

Pure functions of action strings and the observation dict; no browser.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from openapps_sim.envs.actions import parse_code
from openapps_sim.sweeps.steplog import addressed
from openapps_sim.taskkit.observation import select_options, testid_bids

ELEMENT_ACTIONS = {"click", "dblclick", "hover", "fill", "select_option", "focus", "clear", "press", "upload_file"}
APP_TOOL = "app_tool"
UNREADABLE = "unreadable"  # an answer that is not one call with literal arguments


@dataclass(frozen=True)
class Parsed:
    """An action string read as a call: its type, its target and the rest of its arguments."""

    type: str
    target: str | None
    args: tuple
    raw: str


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, (list, tuple)):
        return tuple(_norm(v) for v in value)
    return value


def _call_name(func: ast.expr) -> str | None:
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    parts.append(func.id)
    return ".".join(reversed(parts))


def _first_action(action: str) -> str:
    """The first non-empty line (an agent allowed several actions per step is scored on its first)."""
    return next((line.strip() for line in str(action or "").splitlines() if line.strip()), "")


def _path_of(url: str) -> str:
    parts = urlsplit(url.strip())
    path = parts.path or "/"
    return path + (f"?{parts.query}" if parts.query else "")


def element_key(bid: str, obs: dict, by_bid: dict[str, str] | None = None) -> str:
    """What a bid names on this page: ``testid:<data-testid>``, else ``bid:<bid>``."""
    if by_bid is None:
        by_bid = {b: t for t, b in testid_bids(obs).items()}
    testid = by_bid.get(str(bid))
    return f"testid:{testid}" if testid else f"bid:{bid}"


def parse_action(action: str, obs: dict, by_bid: dict[str, str] | None = None) -> Parsed:
    """``action`` as chosen on ``obs``, read into type, target and arguments."""
    text = _first_action(action)
    try:
        node = parse_code(text, mode="eval").body
        if not isinstance(node, ast.Call):
            raise ValueError("not a call")
        name = _call_name(node.func)
        if name is None:
            raise ValueError("not a named call")
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
    except (SyntaxError, ValueError, TypeError, RecursionError):
        return Parsed(UNREADABLE, None, (" ".join(text.split()),), text)
    if "." in name:  # an app tool: todo.add_item(title='...')
        return Parsed(APP_TOOL, name, tuple(sorted((k, _norm(v)) for k, v in kwargs.items())), text)
    rest = [_norm(a) for a in args] + [(k, _norm(v)) for k, v in sorted(kwargs.items())]
    if name == "select_option" and len(args) >= 2:
        rest[1] = picked(args[1], select_options(obs, str(args[0])))
    if name in ELEMENT_ACTIONS and args:
        return Parsed(name, element_key(str(args[0]), obs, by_bid), tuple(rest[1:]), text)
    if name == "drag_and_drop" and len(args) >= 2:
        target = f"{element_key(str(args[0]), obs, by_bid)}>{element_key(str(args[1]), obs, by_bid)}"
        return Parsed(name, target, tuple(rest[2:]), text)
    if name == "goto" and args and isinstance(args[0], str):
        return Parsed(name, _path_of(args[0]), tuple(rest[1:]), text)
    return Parsed(name, None, tuple(rest), text)


def picked(options: Any, listed: list[tuple[str, str]]) -> tuple:
    """What a ``select_option`` picks on the page: each option named by its value or by its
    visible label (white space folded, case kept: the page matches neither ``PURPLE`` nor
    ``purple`` to ``Purple`` unless its value is ``purple``), as ``option:<n>``; a name that
    matches no option stays as written (and matches only itself)."""
    wanted = [options] if not isinstance(options, (list, tuple)) else list(options)
    out = set()
    for want in wanted:
        w = _norm(str(want))
        n = next((i for i, (value, label) in enumerate(listed) if w in (_norm(value), label)), None)
        out.add(f"option:{n}" if n is not None else f"text:{w}")
    return tuple(sorted(out))


@dataclass(frozen=True)
class StepScore:
    gold_type: str
    predicted_type: str
    type_match: bool
    grounded: bool | None  # None: the gold action has no target, or the types differ
    exact: bool


def score_step(predicted: str, gold: str, obs: dict) -> StepScore:
    """The agent's action against the gold action, both chosen on ``obs``."""
    by_bid = {b: t for t, b in testid_bids(obs).items()}
    p, g = parse_action(predicted, obs, by_bid), parse_action(gold, obs, by_bid)
    type_match = p.type == g.type and g.type != UNREADABLE
    grounded = (p.target == g.target) if (type_match and g.target is not None) else None
    exact = type_match and p.target == g.target and p.args == g.args
    return StepScore(g.type, p.type, type_match, grounded, exact)


# -- step-by-step instructions ------------------------------------------------------------------

_ROLE_WORDS = {
    "textbox": "field",
    "searchbox": "search field",
    "combobox": "drop-down",
    "listbox": "list",
    "spinbutton": "number field",
    "menuitem": "menu item",
    "Date": "date field",
    "InputTime": "time field",
    "DateTime": "date and time field",
}


def _quote(text: str, limit: int = 80) -> str:
    text = " ".join(str(text).split())
    return "'" + (text if len(text) <= limit else text[: limit - 1] + "…") + "'"


# the instruction for an action whose arguments it does not name
_PLAIN_INSTRUCTIONS = {
    "send_msg_to_user": "Send the user your answer.",
    "report_infeasible": "Tell the user that the task cannot be done.",
    "go_back": "Go back to the previous page.",
    "scroll": "Scroll the page.",
    "noop": "Wait.",
}
LONG_NAME = 40  # a longer accessible name (a launcher tile: title and description) is named by its first text


def _first_text(bid: str, obs: dict) -> str:
    """The first text inside the element (a tile's title), or ""."""
    nodes = (obs.get("axtree_object") or {}).get("nodes") or []
    by_id = {n.get("nodeId"): n for n in nodes}
    start = next((n for n in nodes if str(n.get("browsergym_id")) == str(bid)), None)
    stack = list((start or {}).get("childIds") or [])
    while stack:
        node = by_id.get(stack.pop(0)) or {}
        role = (node.get("role") or {}).get("value")
        name = str((node.get("name") or {}).get("value") or "").strip()
        if role == "StaticText" and name:
            return name
        stack[0:0] = list(node.get("childIds") or [])
    return ""


def _element(bid: str, obs: dict) -> tuple[str, str]:
    """The role word and accessible name of an element on the page."""
    found = addressed(f"click({bid!r})", obs)
    role = found.get("role") or "element"
    name = found.get("name") or ""
    if name == "(not on the page)":
        name = ""
    if len(name) > LONG_NAME:
        name = _first_text(bid, obs) or name
    return _ROLE_WORDS.get(role, role), name


def _the(bid: str, obs: dict) -> str:
    role, name = _element(bid, obs)
    return f"the {_quote(name)} {role}" if name else f"the {role}"


def instruction(gold: str, obs: dict) -> str:
    """A short instruction for the gold action, in a user's words, naming its element by the
    accessible name it has on this page ("Click the 'Add' button", "Type 'Buy milk' into
    'What needs to be done?'"). Never the bid: the agent still has to find the element."""
    text = _first_action(gold)
    try:
        node = parse_code(text, mode="eval").body
        name = _call_name(node.func) if isinstance(node, ast.Call) else None
        args = [ast.literal_eval(a) for a in node.args] if name else []
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg} if name else {}
    except (SyntaxError, ValueError, TypeError, RecursionError):
        name, args, kwargs = None, [], {}
    if name is None:
        return "Do the next step of the task."
    if "." in name:
        values = ", ".join(f"{k}={_quote(v) if isinstance(v, str) else v}" for k, v in kwargs.items())
        return f"Call the app tool {name}" + (f" with {values}." if values else ".")
    first = str(args[0]) if args else ""
    if name in ("click", "dblclick"):
        return f"{'Double-click' if name == 'dblclick' else 'Click'} {_the(first, obs)}."
    if name == "fill" and len(args) >= 2:
        role, label = _element(first, obs)
        into = _quote(label) if label else f"the {role}"
        return f"Type {_quote(args[1])} into {into}."
    if name == "select_option" and len(args) >= 2:
        value = args[1] if not isinstance(args[1], (list, tuple)) else ", ".join(map(str, args[1]))
        return f"Choose {_quote(value)} in {_the(first, obs)}."
    if name == "press" and len(args) >= 2:
        return f"Press {args[1]} in {_the(first, obs)}."
    if name in ("hover", "focus", "clear"):
        return f"{name.capitalize()} {_the(first, obs)}."
    if name == "goto" and args:
        return f"Go to the page {_path_of(str(args[0]))}."
    return _PLAIN_INSTRUCTIONS.get(name) or f"Do {re.sub(r'_', ' ', name)}."
