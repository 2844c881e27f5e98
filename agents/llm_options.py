"""The options every LLM agent accepts (``openai``, ``anthropic``, ``uitars``), with their meaning."""

from __future__ import annotations

from openapps_sim.envs.actions import ACTION_SPACES

from .base import Option

OBS_MODES = ("axtree", "screenshot", "both")

COMMON_OPTIONS: dict[str, Option] = {
    "model": Option(str, None, "model name sent to the server (required)"),
    "base_url": Option(str, None, "server URL"),
    "api_key_env": Option(str, None, "name of the environment variable that holds the API key", nullable=True),
    "require_api_key": Option(bool, True, "fail at start when the key's variable is empty (false for a local server)"),
    "temperature": Option(float, 0.0, "sampling temperature"),
    "max_tokens": Option(int, 1024, "most tokens per answer"),
    "timeout": Option(float, 120.0, "seconds to wait for one answer"),
    "retries": Option(int, 3, "retries on HTTP 429/5xx, time-outs, dropped connections and broken 200 bodies"),
    "backoff": Option(float, 2.0, "first retry wait in seconds, doubled on every retry"),
    "obs_mode": Option(str, "axtree", "what the model sees", choices=OBS_MODES),
    "action_space": Option(str, "bid", "which actions the model may use", choices=tuple(ACTION_SPACES)),
    "history": Option(int, 10, "how many previous steps the prompt shows in full (older ones are summarised)"),
    "max_actions": Option(int, 1, "actions allowed in one answer (more are malformed)"),
    "reasks": Option(int, 1, "times to ask again, without spending a step, when an answer holds no action"),
    "max_obs_chars": Option(
        int,
        60000,
        "the accessibility tree is shortened to this many characters (controls are kept), an app tool's"
        " result cut there; 0: no limit",
    ),
    "list_window": Option(int, 10, "when shortening: list items shown with their text (later ones keep controls)"),
    "screenshot_max_side": Option(
        int, None, "shrink screenshots so their longer side is at most this many pixels", nullable=True
    ),
    "set_of_marks": Option(bool, False, "draw element ids on the screenshot (screenshot modes)"),
    "prices": Option(
        dict, None, "USD per million tokens, {prompt: 2.5, completion: 10}, for the cost in records", nullable=True
    ),
    "system_prompt": Option(str, None, "replace the built-in system prompt", nullable=True),
    "extra_body": Option(dict, None, "more fields for the request body (e.g. top_p, seed)", nullable=True),
    "extra_headers": Option(dict, None, "more HTTP headers", nullable=True),
}
PRICE_KEYS = ("prompt", "completion")
