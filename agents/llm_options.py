"""The options every LLM agent accepts (``openai``, ``anthropic``, ``uitars``), with their meaning."""

from __future__ import annotations

from openapps_sim.config.schema import Any_, Bool, Enum, Field, Float, Int, MapOf, Nullable, Str
from openapps_sim.envs.actions import ACTION_SPACES

OBS_MODES = ("axtree", "screenshot", "both")

COMMON_OPTIONS: dict[str, Field] = {
    "model": Nullable(Str(None, "model name sent to the server (required)")),
    "base_url": Nullable(Str(None, "server URL")),
    "api_key_env": Nullable(Str(None, "name of the environment variable that holds the API key")),
    "require_api_key": Bool(True, "fail at start when the key's variable is empty (false for a local server)"),
    "temperature": Float(0.0, "sampling temperature"),
    "max_tokens": Int(1024, "most tokens per answer"),
    "timeout": Float(120.0, "seconds to wait for one answer"),
    "retries": Int(3, "retries on HTTP 429/5xx, time-outs, dropped connections and broken 200 bodies"),
    "backoff": Float(2.0, "first retry wait in seconds, doubled on every retry"),
    "obs_mode": Enum(OBS_MODES, "axtree", "what the model sees"),
    "action_space": Enum(tuple(ACTION_SPACES), "bid", "which actions the model may use"),
    "history": Int(10, "how many previous steps the prompt shows in full (older ones are summarised)"),
    "max_actions": Int(1, "actions allowed in one answer (more are malformed)"),
    "reasks": Int(1, "times to ask again, without spending a step, when an answer holds no action"),
    "max_obs_chars": Int(
        60000,
        "the accessibility tree is shortened to this many characters (controls are kept), an app tool's"
        " result cut there; 0: no limit",
    ),
    "list_window": Int(10, "when shortening: list items shown with their text (later ones keep controls)"),
    "screenshot_max_side": Nullable(Int(None, "shrink screenshots so their longer side is at most this many pixels")),
    "set_of_marks": Bool(False, "draw element ids on the screenshot (screenshot modes)"),
    "prices": Nullable(
        MapOf(Any_(), None, "USD per million tokens, {prompt: 2.5, completion: 10}, for the cost in records")
    ),
    "system_prompt": Nullable(Str(None, "replace the built-in system prompt", max_len=1_000_000)),
    "extra_body": Nullable(MapOf(Any_(), None, "more fields for the request body (e.g. top_p, seed)")),
    "extra_headers": Nullable(MapOf(Any_(), None, "more HTTP headers")),
}
PRICE_KEYS = ("prompt", "completion")
