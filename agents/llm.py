"""LLM agents over plain HTTP: any OpenAI-compatible chat-completions server, and Anthropic.

Both agents build the same prompt (see :mod:`openapps_sim.agents.prompts` and
docs/agents.md): the system prompt for the observation mode and action space, then one user
message with the task, the last ``history`` steps (actions and their errors), the page URL, the
accessibility tree (``axtree``/``both``) and the screenshot as a PNG image (``screenshot``/
``both``). The model's answer is reduced to one BrowserGym action by :func:`extract_action`.

No SDK is needed: requests go through :func:`openapps_sim.agents.http.post_json` (urllib), with
retries and back-off on HTTP 429/5xx and time-outs.
"""

from __future__ import annotations

import ast
import base64
import io
import os
import re
from typing import Any

from openapps_sim.envs.actions import ACTION_SPACES, classify_action
from openapps_sim.envs.observe import axtree_text
from openapps_sim.errors import ConfigError

from .base import ConfigurableAgent, Option
from .http import LLMResponseError, post_json
from .prompts import system_prompt

OBS_MODES = ("axtree", "screenshot", "both")

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

_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n?(.*?)```", re.S)
_ACTION_LINE = re.compile(r"^[\W_]*action[*_\s]*:[*_\s]*(.*)$", re.I)
_CALL_LINE = re.compile(r"^\s*[A-Za-z_]\w*\s*\(.*\)\s*;?\s*$")
_THOUGHT_LINE = re.compile(r"^[\W_]*thought[*_\s]*:[*_\s]*(.*)$", re.I)


def extract_action(reply: str) -> str:
    """One action from a model's answer.

    Accepts, in this order: the last fenced code block (its non-comment lines), the last line
    starting with ``Action:`` (markdown emphasis allowed), the last line that looks like a
    function call. Anything else is returned stripped, so the action check can call it
    malformed instead of the agent hiding the failure.
    """
    text = _THINK.sub("", reply or "").strip()
    blocks = _FENCE.findall(text)
    if blocks:
        body = blocks[-1][1]
        lines = [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith("#")]
        lines = [_ACTION_LINE.sub(r"\1", ln).strip() if _ACTION_LINE.match(ln) else ln for ln in lines]
        lines = [ln for ln in lines if ln]
        if lines:
            return _tidy("\n".join(lines))
    lines = text.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        m = _ACTION_LINE.match(lines[i])
        if m:
            rest = m.group(1).strip()
            if not rest and i + 1 < len(lines):
                rest = lines[i + 1].strip()
            return _tidy(rest)
    for line in reversed(lines):
        if _CALL_LINE.match(line):
            return _tidy(line)
    return text


def extract_thought(reply: str) -> str:
    text = _THINK.sub("", reply or "")
    for line in text.splitlines():
        m = _THOUGHT_LINE.match(line)
        if m:
            return m.group(1).strip()
    return ""


def _tidy(action: str) -> str:
    action = action.strip().strip("`").strip()
    if action.endswith((";", ".")):
        head = action[:-1].rstrip()
        try:
            ast.parse(head)
            return head
        except SyntaxError:
            pass
    return action


def scale_coordinates(action: str, sx: float, sy: float) -> str:
    """Multiply the coordinates of a coordinate action by (sx, sy); other actions unchanged."""
    if sx == 1 and sy == 1:
        return action
    try:
        call = ast.parse(action.strip(), mode="eval").body
    except SyntaxError:
        return action
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.func.id not in COORD_ARGS:
        return action
    import inspect

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
            values[px] = round(values[px] * sx, 1)
            values[py] = round(values[py] * sy, 1)
    rendered = ", ".join(f"{k}={v!r}" for k, v in values.items())
    return f"{call.func.id}({rendered})"


def encode_png(array: Any, max_side: int | None = None) -> tuple[str, tuple[int, int]]:
    """A numpy screenshot as base64 PNG, optionally shrunk so its longer side is ``max_side``."""
    from PIL import Image

    image = Image.fromarray(array)
    if image.mode != "RGB":
        image = image.convert("RGB")
    if max_side and max(image.size) > max_side:
        ratio = max_side / max(image.size)
        image = image.resize((max(1, round(image.width * ratio)), max(1, round(image.height * ratio))), Image.LANCZOS)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii"), image.size


COMMON_OPTIONS: dict[str, Option] = {
    "model": Option(str, None, "model name sent to the server (required)"),
    "base_url": Option(str, None, "server URL"),
    "api_key_env": Option(str, None, "name of the environment variable that holds the API key", nullable=True),
    "require_api_key": Option(bool, True, "fail at start when the key's variable is empty (false for a local server)"),
    "temperature": Option(float, 0.0, "sampling temperature"),
    "max_tokens": Option(int, 1024, "most tokens per answer"),
    "timeout": Option(float, 120.0, "seconds to wait for one answer"),
    "retries": Option(int, 3, "retries on HTTP 429/5xx, time-outs and dropped connections"),
    "backoff": Option(float, 2.0, "first retry wait in seconds, doubled on every retry"),
    "obs_mode": Option(str, "axtree", "what the model sees", choices=OBS_MODES),
    "action_space": Option(str, "bid", "which actions the model may use", choices=tuple(ACTION_SPACES)),
    "history": Option(int, 5, "how many previous steps (action and error) the prompt recalls"),
    "max_obs_chars": Option(int, 60000, "the accessibility tree text is cut after this many characters"),
    "screenshot_max_side": Option(
        int, None, "shrink screenshots so their longer side is at most this many pixels", nullable=True
    ),
    "system_prompt": Option(str, None, "replace the built-in system prompt", nullable=True),
    "extra_body": Option(dict, None, "more fields for the request body (e.g. top_p, seed)", nullable=True),
    "extra_headers": Option(dict, None, "more HTTP headers", nullable=True),
}


class ChatAgent(ConfigurableAgent):
    """Shared logic of the LLM agents: prompt, history, image, answer parsing, usage."""

    samples = True
    DEFAULTS: dict[str, Any] = {}
    OPTIONS = COMMON_OPTIONS

    def __init__(self, _source: str = "agent config", **config: Any) -> None:
        merged = {**self.DEFAULTS, **config}
        super().__init__(_source, **merged)
        o = self.options
        if not o["model"]:
            raise ConfigError(_source, "model", "required: the model name the server expects")
        if not o["base_url"]:
            raise ConfigError(_source, "base_url", "required: the server URL")
        if o["obs_mode"] == "screenshot" and o["action_space"] == "bid":
            raise ConfigError(
                _source, "action_space", "a screenshot-only agent sees no element ids; use coord", "coord, all"
            )
        for key in ("history", "max_tokens", "retries", "max_obs_chars"):
            if o[key] < 0:
                raise ConfigError(_source, key, f"must be 0 or more, got {o[key]}")
        self.api_key = ""
        env_name = o["api_key_env"]
        if env_name:
            self.api_key = os.environ.get(env_name, "")
        if o["require_api_key"] and not self.api_key:
            what = f"the environment variable {env_name} is empty or not set" if env_name else "no api_key_env is set"
            raise ConfigError(
                _source,
                "api_key_env",
                f"{what}; export your API key in it, or set require_api_key: false for a server that needs no key",
            )
        self._usage = self._new_usage()
        self.history: list[dict] = []
        self.goal = ""
        self.last_reply = ""
        self.last_thought = ""

    # -- the episode ----------------------------------------------------------------------------
    @staticmethod
    def _new_usage() -> dict:
        return {
            "requests": 0,
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "total_tokens": 0,
            "retries": 0,
            "seconds": 0.0,
        }

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.goal = goal or ""
        self.seed = seed
        self.history = []
        self._usage = self._new_usage()
        self.last_reply = ""
        self.last_thought = ""

    def usage(self) -> dict:
        out = dict(self._usage)
        out["seconds"] = round(out["seconds"], 3)
        return out

    def act(self, obs: dict) -> str:
        if self.history and self.history[-1]["error"] is None:
            self.history[-1]["error"] = obs.get("last_action_error") or ""
        parts, image_size = self.render_observation(obs)
        text, usage, attempts, seconds = self.complete(self.system_text(), parts)
        self._count(usage, attempts, seconds)
        self.last_reply = text
        self.last_thought = extract_thought(text)
        action = self.to_action(text, obs, image_size)
        check = classify_action(action, obs, self.action_space)
        self.history.append(
            {
                "action": action,
                "thought": self.last_thought,
                "error": None if check.valid else f"not run: {check.message}",
            }
        )
        return action

    def to_action(self, reply: str, obs: dict, image_size: tuple[int, int] | None) -> str:
        action = extract_action(reply)
        viewport = _viewport(obs)
        if image_size and viewport and image_size != viewport:
            action = scale_coordinates(action, viewport[0] / image_size[0], viewport[1] / image_size[1])
        return action

    def _count(self, usage: dict, attempts: int, seconds: float) -> None:
        u = self._usage
        u["requests"] += 1
        u["retries"] += max(0, attempts - 1)
        u["prompt_tokens"] += int(usage.get("prompt_tokens") or 0)
        u["completion_tokens"] += int(usage.get("completion_tokens") or 0)
        u["total_tokens"] = u["prompt_tokens"] + u["completion_tokens"]
        u["seconds"] += seconds

    # -- the prompt -----------------------------------------------------------------------------
    def system_text(self) -> str:
        return self.options["system_prompt"] or system_prompt(self.obs_mode, self.action_space)

    def history_text(self) -> str:
        window = self.history[-self.options["history"] :] if self.options["history"] else []
        if not window:
            return "Previous actions: none yet."
        first = len(self.history) - len(window) + 1
        lines = ["Previous actions (oldest first):"]
        for i, step in enumerate(window, start=first):
            error = step["error"]
            status = f" -> error: {error.splitlines()[0][:300]}" if error else ""
            lines.append(f"{i}. {step['action']}{status}")
        return "\n".join(lines)

    def render_observation(self, obs: dict) -> tuple[list[tuple[str, str]], tuple[int, int] | None]:
        """The user message as parts ``("text", str)`` / ``("image", base64 png)``."""
        lines = [f"Task: {self.goal}", "", self.history_text(), ""]
        error = obs.get("last_action_error") or ""
        if error and self.history:
            lines += [f"The last action failed: {error.splitlines()[0][:500]}", ""]
        lines.append(f"Current page: {obs.get('url', '')}")
        urls = list(obs.get("open_pages_urls") or [])
        if len(urls) > 1:
            active = int((obs.get("active_page_index") or [0])[0])
            titles = list(obs.get("open_pages_titles") or [""] * len(urls))
            lines.append(
                "Open tabs: "
                + "; ".join(
                    f"{i}: {t} ({u}){' [active]' if i == active else ''}"
                    for i, (u, t) in enumerate(zip(urls, titles, strict=False))
                )
            )
        image_size = None
        parts: list[tuple[str, str]] = []
        if self.obs_mode in ("axtree", "both"):
            tree = axtree_text(
                obs,
                with_center_coords=self.action_space in ("coord", "all") and self.obs_mode == "axtree",
                ignored_roles=["LineBreak", "InlineTextBox"],
            )
            limit = self.options["max_obs_chars"]
            if limit and len(tree) > limit:
                tree = tree[:limit] + "\n... (the rest of the page is cut)"
            lines += ["", "Accessibility tree of the page:", tree]
        shot = obs.get("screenshot")
        if self.obs_mode in ("screenshot", "both") and getattr(shot, "size", 0):
            data, image_size = encode_png(shot, self.options["screenshot_max_side"])
            lines += ["", f"Screenshot of the page ({image_size[0]}x{image_size[1]} pixels):"]
            parts.append(("text", "\n".join(lines)))
            parts.append(("image", data))
            parts.append(("text", "What is the next action?"))
        else:
            lines += ["", "What is the next action?"]
            parts.append(("text", "\n".join(lines)))
        return parts, image_size

    # -- the request ----------------------------------------------------------------------------
    def complete(self, system: str, parts: list[tuple[str, str]]) -> tuple[str, dict, int, float]:
        """Send one request; returns (answer text, usage, attempts, seconds)."""
        raise NotImplementedError

    def _post(self, url: str, body: dict, headers: dict) -> tuple[dict, int, float]:
        o = self.options
        if o["extra_body"]:
            body = {**body, **o["extra_body"]}
        if o["extra_headers"]:
            headers = {**headers, **{str(k): str(v) for k, v in o["extra_headers"].items()}}
        result = post_json(url, body, headers, timeout=o["timeout"], retries=o["retries"], backoff=o["backoff"])
        return result.data, result.attempts, result.seconds


def _viewport(obs: dict) -> tuple[int, int] | None:
    shot = obs.get("screenshot")
    shape = getattr(shot, "shape", None)
    if shape is None or len(shape) < 2 or not shape[0]:
        return None
    return int(shape[1]), int(shape[0])


class OpenAIAgent(ChatAgent):
    """Any OpenAI-compatible ``/chat/completions`` server: OpenAI, vLLM, SGLang, llama.cpp, Ollama..."""

    name = "openai"
    DEFAULTS = {"base_url": "https://api.openai.com/v1", "api_key_env": "OPENAI_API_KEY"}
    OPTIONS = {
        **COMMON_OPTIONS,
        "max_tokens_param": Option(
            str, "max_tokens", "name of the answer-length field", choices=("max_tokens", "max_completion_tokens")
        ),
        "image_detail": Option(str, None, "OpenAI image detail", choices=("low", "high", "auto"), nullable=True),
    }

    def endpoint(self) -> str:
        return self.options["base_url"].rstrip("/") + "/chat/completions"

    def user_content(self, parts: list[tuple[str, str]]) -> list[dict]:
        content = []
        for kind, value in parts:
            if kind == "text":
                content.append({"type": "text", "text": value})
            else:
                image = {"url": f"data:image/png;base64,{value}"}
                if self.options["image_detail"]:
                    image["detail"] = self.options["image_detail"]
                content.append({"type": "image_url", "image_url": image})
        return content

    def messages(self, system: str, parts: list[tuple[str, str]]) -> list[dict]:
        msgs = []
        if system:
            msgs.append({"role": "system", "content": system})
        msgs.append({"role": "user", "content": self.user_content(parts)})
        return msgs

    def complete(self, system, parts):
        o = self.options
        body = {
            "model": o["model"],
            "messages": self.messages(system, parts),
            "temperature": o["temperature"],
            o["max_tokens_param"]: o["max_tokens"],
        }
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        url = self.endpoint()
        data, attempts, seconds = self._post(url, body, headers)
        try:
            message = data["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise LLMResponseError(f"{url} answered without choices[0].message: {str(data)[:300]}") from None
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        usage = data.get("usage") or {}
        return (
            str(content or ""),
            {
                "prompt_tokens": usage.get("prompt_tokens", 0),
                "completion_tokens": usage.get("completion_tokens", 0),
            },
            attempts,
            seconds,
        )


class AnthropicAgent(ChatAgent):
    """The Anthropic Messages API (``POST /v1/messages``)."""

    name = "anthropic"
    DEFAULTS = {"base_url": "https://api.anthropic.com", "api_key_env": "ANTHROPIC_API_KEY"}
    OPTIONS = {
        **COMMON_OPTIONS,
        "anthropic_version": Option(str, "2023-06-01", "the anthropic-version header"),
    }

    def endpoint(self) -> str:
        base = self.options["base_url"].rstrip("/")
        return base + ("/messages" if base.endswith("/v1") else "/v1/messages")

    def complete(self, system, parts):
        o = self.options
        content = []
        for kind, value in parts:
            if kind == "text":
                content.append({"type": "text", "text": value})
            else:
                content.append(
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": value}}
                )
        body = {
            "model": o["model"],
            "max_tokens": o["max_tokens"],
            "temperature": o["temperature"],
            "messages": [{"role": "user", "content": content}],
        }
        if system:
            body["system"] = system
        headers = {"anthropic-version": o["anthropic_version"]}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        url = self.endpoint()
        data, attempts, seconds = self._post(url, body, headers)
        blocks = data.get("content")
        if not isinstance(blocks, list):
            raise LLMResponseError(f"{url} answered without a content list: {str(data)[:300]}")
        text = "".join(b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text")
        usage = data.get("usage") or {}
        return (
            text,
            {
                "prompt_tokens": usage.get("input_tokens", 0),
                "completion_tokens": usage.get("output_tokens", 0),
            },
            attempts,
            seconds,
        )
