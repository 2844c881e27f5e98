"""LLM agents over plain HTTP: any OpenAI-compatible chat-completions server, and Anthropic.

Each agent here only turns a prompt into its API's request and reads the answer back; the
prompt, memory, re-asking, usage and coordinate mapping they share are
:class:`~openapps_sim.agents.chat.ChatAgent` (docs/agents.md).

No SDK is needed: requests go through :func:`openapps_sim.agents.http.post_json` (urllib), with
retries and back-off on HTTP 429/5xx and time-outs.
"""

from __future__ import annotations

from openapps_sim.config.schema import Bool, Enum, Nullable, Str

from .chat import REASK, ChatAgent  # noqa: F401 - re-exported: ChatAgent's historical home
from .http import LLMResponseError
from .llm_options import COMMON_OPTIONS, OBS_MODES, PRICE_KEYS  # noqa: F401 - importable from here
from .reply import (  # noqa: F401 - re-exported: the parsing helpers' historical home
    COORD_ARGS,
    extract_action,
    extract_thought,
    map_coordinates,
    parse_reply,
    scale_coordinates,
    speak_model_space,
)


class OpenAIAgent(ChatAgent):
    """Any OpenAI-compatible ``/chat/completions`` server: OpenAI, vLLM, SGLang, llama.cpp, Ollama..."""

    name = "openai"
    DEFAULTS = {"base_url": "https://api.openai.com/v1", "api_key_env": "OPENAI_API_KEY"}
    OPTIONS = {
        **COMMON_OPTIONS,
        "max_tokens_param": Enum(
            ("max_tokens", "max_completion_tokens"), "max_tokens", "name of the answer-length field"
        ),
        "image_detail": Nullable(Enum(("low", "high", "auto"), None, "OpenAI image detail")),
        "system_as_user": Bool(False, "put the system prompt atop the user message (templates without one)"),
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

    def messages(self, system: str, parts: list[tuple[str, str]], turns=()) -> list[dict]:
        msgs = []
        if system and self.options.get("system_as_user"):
            parts = [("text", system + "\n\n")] + list(parts)
        elif system:
            msgs.append({"role": "system", "content": system})
        msgs.append({"role": "user", "content": self.user_content(parts)})
        msgs += [{"role": role, "content": text} for role, text in turns]
        return msgs

    def complete(self, system, parts, turns=()):
        o = self.options
        body = {
            "model": o["model"],
            "messages": self.messages(system, parts, turns),
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
        "anthropic_version": Str("2023-06-01", "the anthropic-version header"),
    }

    def endpoint(self) -> str:
        base = self.options["base_url"].rstrip("/")
        return base + ("/messages" if base.endswith("/v1") else "/v1/messages")

    def complete(self, system, parts, turns=()):
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
            "messages": [{"role": "user", "content": content}]
            + [{"role": role, "content": text} for role, text in turns],
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
