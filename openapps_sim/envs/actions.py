"""Checking agent actions before they run, and naming the errors the browser reports after.

An agent answers with one BrowserGym action string such as ``click('12')``. Before the
environment executes it, :func:`classify_action` sorts it into one of

* ``valid`` — one call of an action of the active action space, with arguments that fit the
  function's signature and types, and (when the observation has element ids) a bid that is on
  the page;
* ``malformed`` — not one Python call expression: ``no-op``, ``mouse_click(x=612 y)``, free
  text, two actions, an empty string; and whatever cannot be an action at all, before anything
  parses it (:func:`action_problem`): not a string, longer than :data:`MAX_ACTION_CHARS`, a NUL
  character or a lone surrogate. Text that Python's parser gives up on in any other way (a few
  thousand bare words raise ``MemoryError`` there, deep nesting ``RecursionError``) is
  ``malformed`` too: whatever an agent sends is judged as its action, never raised;
* ``unknown_action`` — a call of something that is not a BrowserGym action (``finished(...)``,
  ``remove_item(...)``), or of an action outside the active action space (``mouse_click`` in
  the ``bid`` space);
* ``bad_arguments`` — the right action with the wrong arguments: a bare name instead of a
  string (``click(bid)``), wrong parameter names (``scroll(direction='down', point=(1, 2))``),
  wrong arity or types, a bid that is not on the page, coordinates outside the viewport.

Actions that pass this check can still fail in the browser (element hidden, not fillable,
time-out); :func:`classify_execution_error` names those from the environment's
``last_action_error`` (category ``browser_error``). :class:`InvalidActionCounter` counts one
category per step for episode records.
"""

from __future__ import annotations

import ast
import re
import typing
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from openapps_sim.envs.arguments import bind_arguments
from openapps_sim.protocol import MAX_TEXT_CHARS

ACTION_CATEGORIES = ("valid", "malformed", "unknown_action", "bad_arguments", "browser_error")
INVALID_CATEGORIES = ACTION_CATEGORIES[1:]

# The action spaces: BrowserGym action subsets per space. Defined here once; the env's action
# mapping, the classifier and the agents' prompts all read this table.
ACTION_SPACES: dict[str, tuple[str, ...]] = {
    "bid": ("chat", "infeas", "bid", "nav", "tab"),
    "coord": ("chat", "infeas", "coord", "nav"),
    "all": ("chat", "infeas", "bid", "coord", "nav", "tab"),
}
# The longest action string taken (docs/agents.md): a longer one is invalid before anything parses
# it. BrowserGym's parser is quadratic in the length of text it cannot read (about a second at
# 10,000 characters, a minute at 100,000); the longest text an app field takes fits in one
# ``fill`` with room for escapes.
MAX_ACTION_CHARS = 2 * MAX_TEXT_CHARS
BID_PARAMS = ("bid", "from_bid", "to_bid")
# (x, y) parameter pairs of coordinate actions, checked against the viewport when it is known
COORD_PARAMS = (("x", "y"), ("from_x", "from_y"), ("to_x", "to_y"))


@dataclass(frozen=True)
class ActionCheck:
    """The verdict on one action string, before it runs."""

    category: str  # one of ACTION_CATEGORIES (never "browser_error" here)
    message: str = ""
    name: str | None = None  # the called function's name, when there is one
    args: dict = field(default_factory=dict)  # bound arguments of a valid action

    @property
    def valid(self) -> bool:
        return self.category == "valid"

    def as_dict(self) -> dict:
        return {"category": self.category, "message": self.message, "name": self.name}


@lru_cache(maxsize=1)
def _subset_functions() -> dict[str, dict[str, typing.Callable]]:
    from browsergym.core.action.functions import noop
    from browsergym.core.action.highlevel import ACTION_SUBSETS

    out = {}
    for subset in ("chat", "infeas", "bid", "coord", "nav", "tab"):
        out[subset] = {f.__name__: f for f in ACTION_SUBSETS[subset]}
    out["always"] = {"noop": noop}
    return out


@lru_cache(maxsize=8)
def space_functions(action_space: str) -> dict[str, typing.Callable]:
    """The BrowserGym action functions of an action space, by name."""
    if action_space not in ACTION_SPACES:
        raise ValueError(f"unknown action space {action_space!r}; allowed: {', '.join(ACTION_SPACES)}")
    subsets = _subset_functions()
    funcs = dict(subsets["always"])
    for s in ACTION_SPACES[action_space]:
        funcs.update(subsets[s])
    return funcs


def all_action_names() -> set[str]:
    return set(space_functions("all"))


def page_bids(obs: dict | None) -> set[str] | None:
    """The bids of the current page, or None when the observation carries no element ids."""
    if not obs:
        return None
    extra = obs.get("extra_element_properties")
    if extra:
        return {str(k) for k in extra}
    dom = obs.get("dom_object") or {}
    strings = dom.get("strings") or []
    if not dom.get("documents"):
        return None
    bids: set[str] = set()
    for doc in dom["documents"]:
        for attrs in doc["nodes"].get("attributes", []):
            for k in range(0, len(attrs) - 1, 2):
                if strings[attrs[k]] == "bid":
                    bids.add(strings[attrs[k + 1]])
    return bids


def viewport_size(obs: dict | None) -> tuple[int, int] | None:
    """(width, height) of the page as the screenshot shows it, when there is a screenshot."""
    if not obs:
        return None
    shot = obs.get("screenshot")
    shape = getattr(shot, "shape", None)
    if shape is None or len(shape) < 2 or not shape[0] or not shape[1]:
        return None
    return int(shape[1]), int(shape[0])


def classify_action(
    action: str,
    obs: dict | None = None,
    action_space: str = "all",
    viewport: tuple[int, int] | None = None,
    max_actions: int = 1,
    space_name: str = "viewport",
) -> ActionCheck:
    """Sort one action string into a category of :data:`ACTION_CATEGORIES` before it runs.

    ``obs`` is the observation the agent acted on: when it has element ids (axtree modes),
    bids are checked against the page; when it has a screenshot, coordinates are checked
    against its size, or against ``viewport`` (width, height) when given — an agent that
    shows the model a shrunk screenshot checks the model's action against the image it saw
    (``space_name`` "screenshot" then names it in the message). ``action_space`` is the
    environment's (``bid``, ``coord`` or ``all``). ``max_actions`` calls, one per line, are
    allowed (default one; more are ``malformed``); each is checked and the first problem wins.
    """
    problem = action_problem(action)
    if problem:
        return ActionCheck("malformed", problem)
    try:
        return _classify(action.strip(), obs, action_space, viewport, max_actions, space_name)
    except (ValueError, MemoryError, RecursionError, OverflowError) as e:  # e.g. ast.unparse of a deep tree
        return ActionCheck("malformed", f"the action cannot be read ({type(e).__name__})")


def action_problem(action: object) -> str:
    """Why ``action`` cannot be an action at all, found without parsing it ('' when it can be):
    not a string, longer than :data:`MAX_ACTION_CHARS`, a NUL character, a lone surrogate (text
    that cannot be sent anywhere as UTF-8). The environments refuse these before BrowserGym's
    parser sees them, and :func:`classify_action` calls them ``malformed``."""
    if not isinstance(action, str):
        return f"the action must be a string, got {type(action).__name__}"
    if len(action) > MAX_ACTION_CHARS:
        return f"the action is {len(action)} characters long; at most {MAX_ACTION_CHARS} are accepted"
    if "\x00" in action:
        return f"the action has a NUL character (at character {action.index(chr(0)) + 1})"
    try:
        action.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"the action is not valid text (a lone surrogate at character {e.start + 1})"
    return ""


def shown_action(action: object) -> str:
    """An agent's action as observations and records show it: the string itself, or for what
    cannot be an action at all a short stand-in that JSON and UTF-8 carry (``<int>``, the first
    200 characters of an over-long one, a lone surrogate escaped)."""
    if not isinstance(action, str):
        return f"<{type(action).__name__}>"
    text = str.__str__(action)  # a plain str, whatever subclass the agent returned
    if len(text) > MAX_ACTION_CHARS:
        text = f"{text[:200]}… ({len(text)} characters)"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def parse_code(text: str, mode: str = "exec") -> ast.AST:
    """``ast.parse`` of an agent's text that raises only ``SyntaxError``: Python's parser also
    gives up with ``ValueError`` (a NUL character), ``MemoryError`` (a few thousand bare words),
    ``RecursionError`` (deep nesting) or ``OverflowError``, and for an action each means the
    same thing: it is not code."""
    try:
        return ast.parse(text, mode=mode)
    except SyntaxError:
        raise
    except (ValueError, MemoryError, RecursionError, OverflowError) as e:
        raise SyntaxError(f"{type(e).__name__} in Python's parser") from None


def _classify(text: str, obs, action_space: str, viewport, max_actions: int, space_name: str) -> ActionCheck:
    tree = _statements(text, max_actions)
    if isinstance(tree, ActionCheck):
        return tree
    if len(tree.body) > 1:
        checks = [
            _classify(ast.get_source_segment(text, st) or "", obs, action_space, viewport, 1, space_name)
            for st in tree.body
        ]
        bad = [c for c in checks if not c.valid]
        return bad[0] if bad else ActionCheck("valid", "", checks[0].name, checks[0].args)
    found = _action_call(tree.body[0], action_space)
    if isinstance(found, ActionCheck):
        return found
    name, fn, call = found
    values = bind_arguments(fn, call)
    if isinstance(values, str):
        return ActionCheck("bad_arguments", values, name)
    return _on_page(name, values, obs, viewport, space_name)


def _statements(text: str, max_actions: int) -> ast.Module | ActionCheck:
    """The action's statements: 1 to ``max_actions`` of them, else why not."""
    if not text:
        return ActionCheck("malformed", "empty action")
    try:
        tree = parse_code(text, mode="exec")
    except SyntaxError as e:
        return ActionCheck("malformed", f"not a Python call ({e.msg})")
    if not tree.body or len(tree.body) > max_actions:
        what = "nothing" if not tree.body else f"{len(tree.body)} statements"
        wanted = "exactly one action call" if max_actions == 1 else f"1 to {max_actions} action calls"
        return ActionCheck("malformed", f"expected {wanted}, got {what}")
    return tree


def _action_call(stmt: ast.stmt, action_space: str) -> tuple[str, typing.Any, ast.Call] | ActionCheck:
    """The statement as a call of an action of ``action_space``: its name, function and call."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return ActionCheck("malformed", f"expected one function call like click('12'), got {ast.unparse(stmt)!r}")
    call = stmt.value
    if not isinstance(call.func, ast.Name):
        name = ast.unparse(call.func)
        return ActionCheck("unknown_action", f"{name} is not a BrowserGym action", name)
    name = call.func.id
    funcs = space_functions(action_space)
    if name not in funcs:
        if name in all_action_names():
            return ActionCheck("unknown_action", f"{name} is not in the {action_space!r} action space", name)
        return ActionCheck("unknown_action", f"{name} is not a BrowserGym action", name)
    return name, funcs[name], call


def _on_page(name: str, values: dict, obs: dict | None, viewport, space_name: str) -> ActionCheck:
    """The action's element ids on the page the agent saw, its points inside the image or viewport."""
    bids = page_bids(obs)
    if bids is not None:
        for pname in BID_PARAMS:
            if pname in values and values[pname] not in bids:
                return ActionCheck("bad_arguments", f"no element with bid {values[pname]!r} on this page", name)
    size = viewport or viewport_size(obs)
    if size is not None:
        width, height = size
        for px, py in COORD_PARAMS:
            if px in values and py in values:
                x, y = values[px], values[py]
                if not (0 <= x <= width and 0 <= y <= height):
                    return ActionCheck(
                        "bad_arguments", f"point ({x}, {y}) is outside the {width}x{height} {space_name}", name
                    )
    return ActionCheck("valid", "", name, values)


# -- after execution -----------------------------------------------------------------------------

_EXECUTION_KINDS = (
    ("parse_error", re.compile(r"Received an empty action|multi-action|Invalid action type|ParseException", re.I)),
    ("not_found", re.compile(r"could not find element|element is not attached|not attached to the DOM", re.I)),
    ("not_fillable", re.compile(r"is not an <input>|not fillable|cannot type", re.I)),
    ("not_select", re.compile(r"is not a <select>|did not find some options", re.I)),
    ("not_visible", re.compile(r"element is not visible|outside of the viewport|intercepts pointer events", re.I)),
    ("not_enabled", re.compile(r"element is not enabled|element is disabled|not editable|readonly", re.I)),
    ("navigation", re.compile(r"net::ERR_|Page\.goto|navigation", re.I)),
    ("timeout", re.compile(r"timeout|timed out", re.I)),
    ("bad_value", re.compile(r"expected a string|expected one of|IndexError|list index|ValueError|TypeError", re.I)),
)


def execution_error_kind(last_action_error: str) -> str:
    """The sub-kind of a browser error: ``""`` when there was no error, else one of
    :data:`BROWSER_ERROR_KINDS` (``not_found``, ``not_fillable``, ``not_select``, ``not_visible``,
    ``not_enabled``, ``timeout``, ``navigation``, ``parse_error``, ``bad_value``, ``other``)."""
    text = (last_action_error or "").strip()
    if not text:
        return ""
    first, _, log = text.partition("\n")
    for kind, pattern in _EXECUTION_KINDS:
        if pattern.search(first):
            if kind == "timeout":  # a time-out says why in Playwright's call log
                for why in ("not_visible", "not_enabled"):
                    if dict(_EXECUTION_KINDS)[why].search(log):
                        return why
            return kind
    for kind, pattern in _EXECUTION_KINDS:
        if pattern.search(log):
            return kind
    return "other"


BROWSER_ERROR_KINDS = tuple(k for k, _ in _EXECUTION_KINDS) + ("other",)


def classify_execution_error(last_action_error: str) -> str:
    """The category of an executed action from the environment's ``last_action_error``:
    ``"valid"`` when there was no error, else ``"browser_error"`` (the sub-kind is
    :func:`execution_error_kind`)."""
    return "browser_error" if (last_action_error or "").strip() else "valid"


class InvalidActionCounter:
    """Counts invalid actions of an episode by category.

    Use :meth:`add` with a category (``classify_action(...).category`` before execution,
    ``classify_execution_error(...)`` after), optionally with the browser's error text to count
    its sub-kind; or :meth:`record` with both at once. :meth:`as_dict` holds only the invalid
    categories (what episode records store under ``invalid``); :meth:`summary` adds the valid
    and total counts and the browser-error sub-kinds.

    >>> c = InvalidActionCounter()
    >>> c.add(classify_action("no-op", None, "bid").category)
    >>> c.as_dict()["malformed"]
    1
    """

    def __init__(self) -> None:
        self.counts: Counter = Counter({c: 0 for c in ACTION_CATEGORIES})
        self.browser_error_kinds: Counter = Counter()
        self.messages: list[dict] = []

    def add(self, category: str, error: str = "", step: int | None = None) -> None:
        """Count one step of ``category`` (a sub-kind such as ``timeout`` counts as browser_error)."""
        if category in BROWSER_ERROR_KINDS:
            self.browser_error_kinds[category] += 1
            category = "browser_error"
        elif category == "browser_error":
            self.browser_error_kinds[execution_error_kind(error) or "other"] += 1
        elif category not in ACTION_CATEGORIES:
            raise ValueError(f"unknown action category {category!r}; allowed: {', '.join(ACTION_CATEGORIES)}")
        self.counts[category] += 1
        if category != "valid":
            self.messages.append(
                {"step": step, "category": category, "message": (error or "").splitlines()[0][:300] if error else ""}
            )

    def record(self, check: ActionCheck, execution_error: str = "", step: int | None = None) -> str:
        """Count one step from its pre-execution check and (if it ran) the browser's error;
        returns the step's category."""
        if check.category != "valid":
            self.add(check.category, check.message, step)
            return check.category
        category = classify_execution_error(execution_error)
        self.add(category, execution_error, step)
        return category

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def invalid(self) -> int:
        return sum(self.counts[c] for c in INVALID_CATEGORIES)

    def as_dict(self) -> dict[str, int]:
        """``{category: count}`` for the invalid categories only (all present, zeros included)."""
        return {c: int(self.counts[c]) for c in INVALID_CATEGORIES}

    def summary(self) -> dict:
        out: dict = {c: int(self.counts[c]) for c in ACTION_CATEGORIES}
        out["total"] = self.total
        out["invalid"] = self.invalid
        out["browser_error_kinds"] = dict(sorted(self.browser_error_kinds.items()))
        return out
