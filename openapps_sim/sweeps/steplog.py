"""What the runner records about each step for the trajectory viewer and the training export:
the observation text the action was chosen on, the element the action addressed (role and name
from the accessibility tree, its box), the click point, the agent's reasoning, tokens and time,
a small JPEG thumbnail of the page after the step, the app events the step caused and whether
the step changed anything (page, state or screen), and whether its action aimed at an element of
a page from before a crash restarted the app (``stale_target``, :mod:`.drift`). Kept apart from
the runner's control flow: the runner calls :meth:`StepLog.before`, :meth:`StepLog.after`,
:meth:`StepLog.finish` and :meth:`StepLog.drift`."""

from __future__ import annotations

import base64
import hashlib
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from openapps_sim.sweeps.drift import Elements, stale_count, stale_steps
from openapps_sim.taskkit.observation import bid_testids

OBSERVATION_CHARS = 6000
"""The observation text kept per step (head of the tree; the rest is cut with a note)."""

THUMB_WIDTH = 360
"""Width in pixels of the JPEG thumbnail recorded after every step by default."""

THUMB_QUALITY = 70
"""JPEG quality of those thumbnails."""

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "0.0.0.0"}

_BID_ACTIONS = "click|dblclick|hover|fill|select_option|focus|clear|press|upload_file|drag_and_drop"
_BID_ARG = re.compile(rf"^\s*({_BID_ACTIONS})\(\s*['\"]([^'\"]+)['\"]")
_XY_ARGS = re.compile(
    r"^\s*(mouse_click|mouse_dblclick|mouse_move|mouse_down|mouse_up|mouse_drag_and_drop)\(\s*([-\d.]+)\s*,\s*([-\d.]+)"
)


def outside_app(url: str, home_host: str) -> str | None:
    """``web:<host>`` for a page on another host than the apps' server, else None (about:blank,
    the apps' own pages)."""
    try:
        parsed = urlparse(str(url or ""))
    except ValueError:
        return None
    host = parsed.hostname or ""
    if parsed.scheme not in ("http", "https") or not host:
        return None
    if host == home_host or host in LOCAL_HOSTS:
        return None
    return f"web:{host}"


def _nodes_by_bid(obs: dict) -> dict[str, dict]:
    out = {}
    for node in (obs.get("axtree_object") or {}).get("nodes", []) or []:
        bid = node.get("browsergym_id")
        if bid is not None:
            out.setdefault(str(bid), node)
    return out


def _value(node: dict, key: str) -> str:
    v = node.get(key) or {}
    return str(v.get("value", "")) if isinstance(v, dict) else str(v)


# Roles of plain containers: without a name an agent cannot tell one from another, and Chromium
# reports some the text backend leaves out (``none`` where it says ``generic``).
_CONTAINER_ROLES = {"", "none", "generic", "presentation"}


def page_elements(obs: dict) -> Elements:
    """The elements an agent can tell apart in an observation's accessibility tree: bid -> (role,
    name, test id), the test id "" where the element has none; nameless containers left out (so
    both backends give the same elements)."""
    out = {}
    testids = bid_testids(obs)
    for bid, node in _nodes_by_bid(obs).items():
        role, name = _value(node, "role"), _value(node, "name")
        if name or role not in _CONTAINER_ROLES:
            out[bid] = (role, name, testids.get(bid, ""))
    return out


def addressed(action: str, obs: dict) -> dict:
    """The element a bid action names (``bid``, ``role``, ``name``, ``box`` [x, y, w, h]) and the
    point a coordinate action clicks (``point`` [x, y]); empty when the action names neither."""
    out: dict[str, Any] = {}
    m = _XY_ARGS.match(str(action))
    if m:
        out["point"] = [float(m.group(2)), float(m.group(3))]
        return out
    m = _BID_ARG.match(str(action))
    if not m:
        return out
    bid = m.group(2)
    node = _nodes_by_bid(obs).get(bid)
    if node is None:
        return {"bid": bid, "role": "", "name": "(not on the page)"}
    out = {"bid": bid, "role": _value(node, "role"), "name": _value(node, "name")[:160]}
    props = (obs.get("extra_element_properties") or {}).get(bid) or {}
    box = props.get("bbox")
    if box and len(box) == 4 and all(isinstance(v, (int, float)) for v in box):
        out["box"] = [round(float(v), 1) for v in box]
    return out


def observation_text(obs: dict) -> str:
    """The accessibility tree as agents read it, cut to :data:`OBSERVATION_CHARS`."""
    from openapps_sim.envs.observe import axtree_text

    try:
        text = axtree_text(obs)
    except Exception:  # noqa: BLE001 - a tree that cannot be flattened is recorded as empty
        return ""
    if len(text) > OBSERVATION_CHARS:
        text = text[:OBSERVATION_CHARS] + f"\n... ({len(text) - OBSERVATION_CHARS} more characters not recorded)"
    return text


def _digest(obs: dict, text: str) -> str:
    return hashlib.sha1(f"{obs.get('url', '')}\n{text}".encode()).hexdigest()[:12]


class StepLog:
    """Per-step facts, collected while the runner steps, merged into its step records at the end."""

    def __init__(
        self,
        out_dir: Path | None,
        episode: str,
        thumbnails: bool = True,
        grab: Callable[[int, int], bytes | None] | None = None,
        exchange_images: bool = False,
    ):
        """``grab(width, quality)``: a JPEG of the page now, for steps whose observation holds
        no screenshot (the env's ``thumbnail_jpeg``); ``exchange_images``: store the images sent
        to a model beside the trajectory (else only their names and hashes are recorded)."""
        self.out_dir = out_dir
        self.exchange_images = exchange_images and out_dir is not None
        self.system_prompts: dict[str, str] = {}  # id -> text: each system prompt once per episode
        self._exchange: dict | None = None  # the agent's last exchange already recorded
        self.episode = episode
        self.thumbnails = thumbnails and out_dir is not None
        self.grab = grab
        self.steps: list[dict] = []
        self._pending: dict = {}
        self._last_digest = ""
        self._usage: dict = {}
        self._env_steps = 0  # actions that reached the env so far
        self._pages: list[Elements] = []  # per step: the elements of the page it was taken on
        self._seen: list[int] = []  # per step: env steps done before it
        self._flattened: tuple = (None, "")  # (tree, its text) of the last observation not yet acted on

    def start(self, obs: dict, usage: dict) -> None:
        self._last_digest = _digest(obs, self._text(obs))
        self._usage = dict(usage or {})

    def _text(self, obs: dict) -> str:
        """The observation's text, kept for the next :meth:`before` (the same observation, which
        no agent has seen yet in between: flattened once)."""
        text = observation_text(obs)
        self._flattened = (obs.get("axtree_object"), text)
        return text

    def before(self, obs: dict) -> None:
        """Called with the observation the agent is about to act on."""
        tree, text = self._flattened
        if tree is None or obs.get("axtree_object") is not tree:
            text = observation_text(obs)
        self._flattened = (None, "")
        self._pending = {"observation": text, "t0": time.time(), "page_url": obs.get("url", ""), "obs": obs}
        self._pages.append(page_elements(obs))
        self._seen.append(self._env_steps)

    def after(self, agent: Any, action: str, obs_after: dict | None, n: int) -> dict:
        """Facts of the step just taken (``obs_after`` None: the action never reached the page)."""
        p = self._pending
        usage = dict(agent.usage() or {})
        spent = {
            k: v - self._usage.get(k, 0)
            for k, v in usage.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and v != self._usage.get(k, 0)
        }
        self._usage = usage
        entry = {
            "observation": p.get("observation", ""),
            "page_url": p.get("page_url", ""),
            "target": addressed(action, p.get("obs") or {}),
            "reasoning": str(getattr(agent, "last_thought", "") or "")[:2000],
            "exchange": self._recorded(getattr(agent, "last_exchange", None)),
            "tokens": spent,
            "t0": p.get("t0", time.time()),
            "t1": time.time(),
            "changed": False,
            "thumbnail": None,
        }
        entry["time_s"] = round(entry["t1"] - entry["t0"], 3)
        if obs_after is not None:
            self._env_steps += 1
            digest = _digest(obs_after, self._text(obs_after))
            entry["changed"] = digest != self._last_digest
            self._last_digest = digest
            entry["thumbnail"] = self._thumb(obs_after, n + 1)
        self.steps.append(entry)
        return entry

    def _recorded(self, exchange: dict | None) -> dict | None:
        """The agent's exchange of this step as the trajectory keeps it: its system prompt moved to
        :attr:`system_prompts`, its images stored as files (or named only); None when it asked
        no model at this step."""
        if not isinstance(exchange, dict) or exchange is self._exchange:
            return None
        self._exchange = exchange
        self.system_prompts.update(exchange.get("system") or {})
        images = {}
        for name, data in (exchange.get("images") or {}).items():
            images[name] = self._exchange_image(str(name), data)
        return {
            "request": exchange.get("request"),
            "replies": exchange.get("replies") or [],
            "replies_not_recorded": exchange.get("replies_not_recorded", 0),
            "images": images,
        }

    def _exchange_image(self, name: str, data: str) -> str | None:
        """``exchanges/<episode>/<name>``, written once, when images sent to the model are kept."""
        if not self.exchange_images or self.out_dir is None or "/" in name or name.startswith("."):
            return None
        path = self.out_dir / "exchanges" / self.episode / name
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(base64.b64decode(data))
        return str(path.relative_to(self.out_dir))

    def start_thumbnail(self, obs: dict) -> str | None:
        return self._thumb(obs, 0)

    def _thumb(self, obs: dict, n: int) -> str | None:
        if not self.thumbnails or self.out_dir is None:
            return None
        shot = obs.get("screenshot")
        has_shot = shot is not None and getattr(shot, "size", 0)
        jpeg = None if has_shot or self.grab is None else self.grab(THUMB_WIDTH, THUMB_QUALITY)
        if not has_shot and not jpeg:
            return None
        folder = self.out_dir / "thumbnails" / self.episode
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{n:03d}.jpg"
        if jpeg:
            path.write_bytes(jpeg)
        else:
            from PIL import Image

            im = Image.fromarray(shot).convert("RGB")
            if im.width > THUMB_WIDTH:
                im = im.resize((THUMB_WIDTH, max(1, round(im.height * THUMB_WIDTH / im.width))), Image.BILINEAR)
            im.save(path, "JPEG", quality=THUMB_QUALITY)
        return str(path.relative_to(self.out_dir))

    def finish(self, steps: list[dict], events: list[dict]) -> list[bool]:
        """Merge the collected facts into the runner's step dicts (in place) and attribute each app
        event to the step during which it was logged; return per step whether it changed the page,
        the screen or the state."""
        changed = []
        for i, s in enumerate(steps):
            extra = self.steps[i] if i < len(self.steps) else {}
            t0, t1 = extra.get("t0"), extra.get("t1")
            caused = [
                {k: e.get(k) for k in ("i", "app", "op", "args")}
                for e in events
                if t0 is not None and isinstance(e.get("t"), (int, float)) and t0 <= e["t"] <= t1
            ]
            s.update({k: v for k, v in extra.items() if k not in ("t0", "t1")})
            s["events"] = caused
            s["changed"] = bool(extra.get("changed")) or bool(caused)
            changed.append(s["changed"])
        return changed

    def drift(self, steps: list[dict], shown: list[dict]) -> int | None:
        """Mark each step dict (in place) with ``stale_target``: its action aimed at an element of a
        page from before a crash restarted the app (``shown``: the episode's interruption log);
        return how many did, or None when no crash restarted an app."""
        n = min(len(steps), len(self._pages))
        targets = [self.steps[i]["target"].get("bid") if i < len(self.steps) else None for i in range(n)]
        flags = stale_steps(targets, self._seen[:n], self._pages[:n], shown)
        for s, flag in zip(steps, flags, strict=False):
            s["stale_target"] = flag
        return stale_count(flags, shown)
