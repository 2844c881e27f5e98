"""What an LLM agent sent and got back at one step: the request as sent, every answer, every
re-ask with its reason, latency and tokens (``agent.last_exchange``; docs/agents.md, "The
recorded exchange").

The request is the JSON body exactly as posted, with two things taken out so that a step's
record stays small: the system prompt, the same at every step, becomes ``[[system:<id>]]`` (its
text is given once, under ``system``), and every image becomes ``[[image:<sha1>.png]]`` (its
base64, under ``images``, for the runner to store beside or drop). The size is bounded: the
request's texts together keep at most :data:`REQUEST_CHARS` characters, an answer
:data:`REPLY_CHARS`, and at most :data:`MAX_REPLIES` answers a step are kept.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

REQUEST_CHARS = 64_000
"""Characters of text kept of one step's request (the tree as cut to ``max_obs_chars`` fits at
its default, 60,000; the rest of a longer text is cut with a note)."""

REPLY_CHARS = 16_000
"""Characters kept of one answer (``max_tokens`` 1,024 is about 4,000)."""

MAX_REPLIES = 4
"""Answers kept per step: the first and three re-asks; more are counted in ``replies_not_recorded``."""

_DATA_URL = "data:image/"


def text_id(text: str) -> str:
    """The short id a system prompt is stored under."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def image_name(data_b64: str, mime: str = "image/png") -> str:
    """The file name an image is referenced by: the SHA-1 of its bytes, and its type's extension."""
    try:
        raw = base64.b64decode(data_b64, validate=False)
    except (ValueError, TypeError):
        raw = data_b64.encode("ascii", "replace")
    ext = mime.split("/", 1)[-1].split(";", 1)[0] or "png"
    return f"{hashlib.sha1(raw).hexdigest()[:16]}.{'jpg' if ext == 'jpeg' else ext}"


def cut(text: str, limit: int) -> str:
    """``text`` with at most ``limit`` characters, the rest counted in a note."""
    if len(text) <= limit:
        return text
    return text[:limit] + f" ... [{len(text) - limit} more characters not recorded]"


class _Recorder:
    """Walks a request body, replacing the system prompt and images and spending the text budget."""

    def __init__(self, system: str) -> None:
        self.system = system
        self.system_id = text_id(system) if system else ""
        self.images: dict[str, str] = {}
        self.left = REQUEST_CHARS

    def value(self, v: Any) -> Any:
        if isinstance(v, dict):
            if v.get("type") == "base64" and isinstance(v.get("data"), str):  # Anthropic's image source
                name = image_name(v["data"], str(v.get("media_type") or "image/png"))
                self.images[name] = v["data"]
                return {**v, "data": f"[[image:{name}]]"}
            return {k: self.value(x) for k, x in v.items()}
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, str):
            return self.text(v)
        return v

    def text(self, s: str) -> str:
        if s.startswith(_DATA_URL) and ";base64," in s[:64]:  # an OpenAI image_url
            head, data = s.split(",", 1)
            name = image_name(data, head[len("data:") :].split(";", 1)[0])
            self.images[name] = data
            return f"[[image:{name}]]"
        prefix = ""
        if self.system and s.startswith(self.system):  # the system prompt, alone or atop the user message
            prefix, s = f"[[system:{self.system_id}]]", s[len(self.system) :]
        kept = cut(s, max(0, self.left))
        self.left -= min(len(s), max(0, self.left))
        return prefix + kept


class Exchange:
    """One step's requests and answers, built while the agent asks."""

    def __init__(self) -> None:
        self.request: dict | None = None
        self.system: dict[str, str] = {}
        self.images: dict[str, str] = {}
        self.replies: list[dict] = []
        self.not_recorded = 0

    def answered(self, body: dict | None, system: str, text: str, usage: dict, attempts: int, seconds: float) -> None:
        """A request was answered: the first one's body is kept (a re-ask repeats it with the
        turns that ``reasked`` records), and the answer with its tokens, time and attempts."""
        if self.request is None and body is not None:
            recorder = _Recorder(system)
            self.request = recorder.value(body)
            self.images = recorder.images
            self.system = {recorder.system_id: system} if system else {}
        if len(self.replies) >= MAX_REPLIES:
            self.not_recorded += 1
            return
        self.replies.append(
            {
                "text": cut(text, REPLY_CHARS),
                "prompt_tokens": int(usage.get("prompt_tokens") or 0),
                "completion_tokens": int(usage.get("completion_tokens") or 0),
                "latency_s": round(seconds, 3),
                "attempts": attempts,
                "reasked": None,
            }
        )

    def reasked(self, reason: str, message: str) -> None:
        """The last answer was not used: the agent asked again, adding the answer and ``message``."""
        if self.replies and not self.not_recorded:
            self.replies[-1]["reasked"] = {"reason": reason, "message": message}

    def as_dict(self) -> dict:
        return {
            "request": self.request,
            "replies": self.replies,
            "replies_not_recorded": self.not_recorded,
            "system": self.system,
            "images": self.images,
        }
