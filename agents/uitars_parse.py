"""UI-TARS output → BrowserGym coordinate actions (the parser of the ``uitars`` agent).

UI-TARS models answer ``Thought: ...`` then ``Action: click(start_box='(x,y)')``. The points
are in the model's coordinate frame, which :class:`CoordFrame` maps to the page viewport:

* ``smart_resize`` (UI-TARS-1.5, Qwen2.5-VL): pixels of the image as the model's processor
  resized it — each side rounded to a multiple of 28 within a pixel budget;
* ``image``: pixels of the image that was sent;
* ``relative``: a 0–1000 grid over the image (UI-TARS 1.0).

Mapping (``x, y`` already in viewport pixels):

===================================================  =========================================
UI-TARS                                              BrowserGym
===================================================  =========================================
``click`` / ``left_single``                          ``mouse_click(x, y)``
``left_double`` / ``double_click``                   ``mouse_dblclick(x, y)``
``right_single`` / ``right_click``                   ``mouse_click(x, y, 'right')``
``hover`` / ``mouse_move``                           ``mouse_move(x, y)``
``drag(start_box, end_box)`` / ``select``            ``mouse_drag_and_drop(x1, y1, x2, y2)``
``type(content='...')``                              ``keyboard_type('...')``
``hotkey(key='ctrl c')`` / ``press(key=...)``        ``keyboard_press('Control+c')``
``scroll(start_box|point, direction='down')``        ``scroll_at(x, y, 0, amount)`` (up: ``-amount``,
                                                     left/right: ``dx``); no point: the viewport centre
``wait()``                                           ``noop(wait_ms)``
``finished(content='...')``                          ``send_msg_to_user('...')`` (``'done'`` if empty)
``call_user()``                                      ``report_infeasible(...)``
===================================================  =========================================

A point may be written ``'(x,y)'``, ``'<|box_start|>(x,y)<|box_end|>'``, ``'[x1, y1, x2, y2]'``
(the centre is used), ``'<point>x y</point>'`` or ``'<bbox>x1 y1 x2 y2</bbox>'``. An answer
that cannot be mapped is returned as written, so the action check counts it (for example
``unknown_action`` for an action UI-TARS does not have).
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from typing import Any

from .reply import extract_thought

FRAMES = ("smart_resize", "image", "relative")
KEY_NAMES = {
    "ctrl": "Control",
    "control": "Control",
    "shift": "Shift",
    "alt": "Alt",
    "option": "Alt",
    "cmd": "Meta",
    "command": "Meta",
    "meta": "Meta",
    "win": "Meta",
    "super": "Meta",
    "enter": "Enter",
    "return": "Enter",
    "esc": "Escape",
    "escape": "Escape",
    "tab": "Tab",
    "space": "Space",
    "backspace": "Backspace",
    "delete": "Delete",
    "del": "Delete",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "home": "Home",
    "end": "End",
    "insert": "Insert",
}


def smart_resize(
    height: int, width: int, factor: int = 28, min_pixels: int = 56 * 56, max_pixels: int = 16384 * 28 * 28
) -> tuple[int, int]:
    """(height, width) of an image after a Qwen2-VL-style processor resized it.

    Each side becomes a multiple of ``factor``, keeping the aspect ratio as well as possible and
    the pixel count within [min_pixels, max_pixels].
    """
    if height <= 0 or width <= 0:
        raise ValueError(f"image size must be positive, got {width}x{height}")
    h = max(factor, round(height / factor) * factor)
    w = max(factor, round(width / factor) * factor)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(factor, math.floor(height / beta / factor) * factor)
        w = max(factor, math.floor(width / beta / factor) * factor)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / factor) * factor
        w = math.ceil(width * beta / factor) * factor
    return h, w


@dataclass(frozen=True)
class CoordFrame:
    """How to turn a model point into viewport pixels."""

    viewport: tuple[int, int]  # (width, height) of the page
    image: tuple[int, int] | None = None  # (width, height) of the image sent; default: viewport
    mode: str = "smart_resize"
    factor: int = 28
    min_pixels: int = 56 * 56
    max_pixels: int = 16384 * 28 * 28

    def model_size(self) -> tuple[float, float]:
        """(width, height) of the frame the model's numbers live in."""
        iw, ih = self.image or self.viewport
        if self.mode == "relative":
            return 1000.0, 1000.0
        if self.mode == "image":
            return float(iw), float(ih)
        if self.mode == "smart_resize":
            h, w = smart_resize(ih, iw, self.factor, self.min_pixels, self.max_pixels)
            return float(w), float(h)
        raise ValueError(f"unknown coordinate frame {self.mode!r}; allowed: {', '.join(FRAMES)}")

    def to_viewport(self, x: float, y: float) -> tuple[float, float]:
        mw, mh = self.model_size()
        vw, vh = self.viewport
        return round(x * vw / mw, 1), round(y * vh / mh, 1)

    def to_model(self, x: float, y: float) -> tuple[float, float]:
        """The inverse of :meth:`to_viewport`: page pixels in the model's frame."""
        mw, mh = self.model_size()
        vw, vh = self.viewport
        return round(x * mw / vw, 1), round(y * mh / vh, 1)


@dataclass(frozen=True)
class UITarsParse:
    action: str  # the BrowserGym action (or the raw call when it could not be mapped)
    thought: str
    raw: str  # the UI-TARS call as written
    ok: bool
    error: str = ""
    extra: tuple[str, ...] = ()  # further calls of the answer, not run (one action per step)


_NUM = re.compile(r"-?\d+(?:\.\d+)?")
_ACTION = re.compile(r"^[\W_]*action[*_\s]*:[*_\s]*", re.I | re.M)


def parse_point(text: Any) -> tuple[float, float] | None:
    """The point of a UI-TARS box or point string (the centre of a 4-number box)."""
    if isinstance(text, (list, tuple)):
        nums = [float(v) for v in text]
    else:
        cleaned = re.sub(r"<\|?/?(box_start|box_end|point|bbox)\|?>", " ", str(text))
        nums = [float(n) for n in _NUM.findall(cleaned)]
    if len(nums) == 2:
        return nums[0], nums[1]
    if len(nums) == 4:
        return (nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2
    return None


def _split_call(text: str) -> tuple[str, dict[str, Any]] | None:
    """name and keyword arguments of ``name(key='value', ...)``; tolerant of unescaped quotes."""
    text = text.strip()
    m = re.match(r"^([A-Za-z_]\w*)\s*\((.*)\)\s*$", text, re.S)
    if not m:
        return None
    name, inner = m.group(1), m.group(2)
    try:
        call = ast.parse(text, mode="eval").body
        if isinstance(call, ast.Call):
            kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
            args = [ast.literal_eval(a) for a in call.args]
            if args and not kwargs:
                kwargs = {"_args": args}
            return name, kwargs
    except (SyntaxError, ValueError):
        pass
    # tolerant path: key='...' pairs, where a value runs until the quote before ", key=" or the end
    kwargs: dict[str, Any] = {}
    keys = list(re.finditer(r"(?:^|,)\s*([A-Za-z_]\w*)\s*=\s*(['\"])", inner))
    for i, km in enumerate(keys):
        start = km.end()
        end = keys[i + 1].start() if i + 1 < len(keys) else len(inner)
        chunk = inner[start:end].rstrip().rstrip(",").rstrip()
        if chunk.endswith(km.group(2)):
            chunk = chunk[:-1]
        try:
            value = ast.literal_eval(km.group(2) + chunk + km.group(2))
        except (SyntaxError, ValueError):
            value = chunk.encode("utf-8", "backslashescape").decode("unicode_escape", "ignore")
        kwargs[km.group(1)] = value
    if inner.strip() and not kwargs:
        return None
    return name, kwargs


def hotkey_to_playwright(key: str) -> str:
    parts = [p for p in re.split(r"[\s+]+", key.strip()) if p]
    out = []
    for p in parts:
        low = p.lower()
        if low in KEY_NAMES:
            out.append(KEY_NAMES[low])
        elif re.fullmatch(r"f\d{1,2}", low):
            out.append(low.upper())
        else:
            out.append(p if len(p) > 1 else p.lower())
    return "+".join(out)


def parse_uitars(
    reply: str,
    frame: CoordFrame,
    scroll_amount: int = 500,
    wait_ms: int = 1000,
) -> UITarsParse:
    """Turn one UI-TARS answer into one BrowserGym coordinate action."""
    thought = extract_thought(reply)
    m = _ACTION.search(reply or "")
    body = reply[m.end() :] if m else (reply or "")
    calls = _calls(body)
    if not calls:
        return UITarsParse(body.strip(), thought, body.strip(), False, "not a UI-TARS call")
    raw, extra = calls[0], tuple(calls[1:])
    parsed = _split_call(raw)
    if parsed is None:
        return UITarsParse(raw, thought, raw, False, "not a UI-TARS call", extra)
    result = _map_call(parsed, raw, thought, frame, scroll_amount, wait_ms)
    return UITarsParse(result.action, thought, raw, result.ok, result.error, extra)


def _calls(body: str) -> list[str]:
    """The calls of an action part, in order: one per line (a call may span lines while its
    brackets are open); blank lines, fences and further ``Action:`` prefixes are skipped."""
    calls: list[str] = []
    current = ""
    for line in body.strip().strip("`").splitlines():
        line = _ACTION.sub("", line.strip()).strip().strip("`").strip()
        if not current and not line:
            continue
        current = f"{current}\n{line}" if current else line
        if _balanced(current):
            calls.append(current.strip())
            current = ""
    if current.strip():
        calls.append(current.strip())
    return [c for c in calls if c and not c.startswith("#")]


def _balanced(text: str) -> bool:
    depth, quote, escape = 0, "", False
    for ch in text:
        if escape:
            escape = False
        elif ch == "\\":
            escape = True
        elif quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
    return depth <= 0 and not quote


# UI-TARS pointer actions -> the BrowserGym action at the point (x, y)
_POINTER_ACTIONS = {
    **dict.fromkeys(("click", "left_single", "left_click"), "mouse_click({x}, {y})"),
    **dict.fromkeys(("left_double", "double_click"), "mouse_dblclick({x}, {y})"),
    **dict.fromkeys(("right_single", "right_click"), "mouse_click({x}, {y}, 'right')"),
    **dict.fromkeys(("hover", "mouse_move", "move_to"), "mouse_move({x}, {y})"),
}


class _Unmapped(Exception):
    """A UI-TARS action that cannot be mapped as written (its message says why)."""


@dataclass
class _Call:
    """One parsed UI-TARS call: its name, keyword and positional arguments, and the frame its
    points are in."""

    name: str
    kw: dict[str, Any]
    pos: list
    frame: CoordFrame

    def arg(self, *keys: str, default: Any = None) -> Any:
        """The first of ``keys`` given, else the first positional argument, else ``default``."""
        for k in keys:
            if k in self.kw:
                return self.kw[k]
        return self.pos[0] if self.pos else default

    def point(self, *keys: str) -> tuple[float, float] | None:
        """The first readable point among ``keys``, in viewport pixels."""
        for k in keys:
            p = parse_point(self.kw[k]) if k in self.kw else None
            if p is not None:
                return self.frame.to_viewport(*p)
        return None


def _map_call(parsed, raw: str, thought: str, frame: CoordFrame, scroll_amount: int, wait_ms: int) -> UITarsParse:
    name, kw = parsed
    call = _Call(name, kw, kw.pop("_args", []), frame)
    lname = name.lower()
    try:
        if lname in _POINTER_ACTIONS:
            action = _pointer(call, _POINTER_ACTIONS[lname])
        elif lname in ("drag", "select", "left_drag"):
            action = _drag(call)
        elif lname == "type":
            content = call.arg("content")
            if content is None:
                raise _Unmapped("type without content")
            action = f"keyboard_type({str(content)!r})"
        elif lname in ("hotkey", "press", "keypress", "key", "keydown"):
            key = call.arg("key", "keys", "hotkey")
            if not key:
                raise _Unmapped(f"{name} without a key")
            action = f"keyboard_press({hotkey_to_playwright(str(key))!r})"
        elif lname == "scroll":
            action = _scroll(call, scroll_amount)
        elif lname == "wait":
            action = f"noop({wait_ms})"
        elif lname in ("finished", "finish", "done"):
            action = f"send_msg_to_user({(str(call.arg('content', default='')).strip() or 'done')!r})"
        elif lname in ("call_user", "calluser"):
            action = "report_infeasible('the agent asked the user for help (call_user)')"
        else:
            raise _Unmapped(f"{name} is not a UI-TARS action")
    except _Unmapped as e:
        return UITarsParse(raw, thought, raw, False, str(e))
    return UITarsParse(action, thought, raw, True)


def _pointer(call: _Call, template: str) -> str:
    p = call.point("start_box", "point", "start_point", "box")
    if p is None and call.pos:
        pp = parse_point(call.pos[0])
        p = call.frame.to_viewport(*pp) if pp else None
    if p is None:
        raise _Unmapped(f"{call.name} without a point")
    return template.format(x=_num(p[0]), y=_num(p[1]))


def _drag(call: _Call) -> str:
    a, b = call.point("start_box", "start_point"), call.point("end_box", "end_point")
    if a is None or b is None:
        raise _Unmapped(f"{call.name} needs start_box and end_box")
    return f"mouse_drag_and_drop({_num(a[0])}, {_num(a[1])}, {_num(b[0])}, {_num(b[1])})"


def _scroll(call: _Call, amount: int) -> str:
    """At the call's point, else the viewport's centre."""
    direction = str(call.arg("direction", default="down")).strip().lower()
    deltas = {"down": (0, amount), "up": (0, -amount), "right": (amount, 0), "left": (-amount, 0)}
    if direction not in deltas:
        raise _Unmapped(f"unknown scroll direction {direction!r}")
    p = call.point("start_box", "point", "start_point")
    if p is None:
        vw, vh = call.frame.viewport
        p = (vw / 2, vh / 2)
    dx, dy = deltas[direction]
    return f"scroll_at({_num(p[0])}, {_num(p[1])}, {dx}, {dy})"


def _num(v: float):
    return int(v) if float(v).is_integer() else v
