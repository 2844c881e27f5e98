"""The shared logic of the LLM agents (:mod:`openapps_sim.agents.llm`): configuration checks,
the episode's memory and usage, the prompt, asking again when an answer holds no action, and
mapping the model's image coordinates to the page.

Both agents build the same prompt (see :mod:`openapps_sim.agents.prompts` and
docs/agents.md): the system prompt for the observation mode and action space, then one user
message with the task, the episode's steps (:mod:`~openapps_sim.agents.memory`: the model's
thought, action, page and error per step, older steps summarised), the page URL, the
accessibility tree shortened without losing a control (:mod:`~openapps_sim.agents.treetext`)
and the screenshot as a PNG image, optionally with set-of-marks. The answer is read by
:func:`~openapps_sim.agents.reply.parse_reply`; an answer without an action is asked again
without spending a step (``usage()["reasks"]``). With ``screenshot_max_side`` the model works
in image pixels: its actions are mapped to the page, and history and errors speak image pixels.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from openapps_sim.envs.apptools import check_action, task_tool_apps
from openapps_sim.envs.observe import axtree_text
from openapps_sim.errors import ConfigError

from .base import ConfigurableAgent
from .exchange import Exchange
from .http import post_json
from .images import encode_png
from .llm_options import COMMON_OPTIONS, PRICE_KEYS
from .memory import Memory, first_line
from .prompts import DEFAULT_SIZE, system_prompt
from .reply import extract_action, parse_reply, scale_coordinates, speak_model_space
from .treetext import shorten_tree

NO_ACTION = "the answer held no action"  # why an answer is asked again

REASK = (
    "Your answer held no action I could read. Answer again in the form\n"
    "<think>your reasoning</think>\n<action>one action, e.g. {example}</action>"
)


class ChatAgent(ConfigurableAgent):
    """Shared logic of the LLM agents: prompt, memory, image, answer parsing, usage."""

    samples = True
    interfaces = ("gui", "api", "mixed")  # api/mixed: the prompt lists the app tools
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
        url = urlsplit(o["base_url"])
        if url.scheme not in ("http", "https") or not url.netloc:  # else every step fails as the agent's
            raise ConfigError(
                _source, "base_url", f"{o['base_url']!r} is not an http(s) URL", "e.g. http://127.0.0.1:8000/v1"
            )
        if o["obs_mode"] == "screenshot" and o["action_space"] == "bid" and not o["set_of_marks"]:
            raise ConfigError(
                _source,
                "action_space",
                "a screenshot-only agent sees no element ids; use coord, or set_of_marks: true",
                "coord, all",
            )
        for key in ("history", "max_tokens", "retries", "max_obs_chars", "reasks", "list_window"):
            if o[key] < 0:
                raise ConfigError(_source, key, f"must be 0 or more, got {o[key]}")
        if o["max_actions"] < 1:
            raise ConfigError(_source, "max_actions", f"must be 1 or more, got {o['max_actions']}")
        for key, value in (o["prices"] or {}).items():
            if key not in PRICE_KEYS:
                raise ConfigError(_source, f"prices.{key}", "unknown price", ", ".join(PRICE_KEYS))
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                raise ConfigError(_source, f"prices.{key}", f"expected USD per million tokens (>= 0), got {value!r}")
        self.max_actions = o["max_actions"]
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
        self.reset("")

    # -- the episode ----------------------------------------------------------------------------
    @staticmethod
    def _new_usage() -> dict:
        return {
            "requests": 0,
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "total_tokens": 0,
            "retries": 0,
            "reasks": 0,
            "extra_actions": 0,
            "seconds": 0.0,
        }

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.goal = goal or ""
        self.seed = seed
        self.memory = Memory(self.options["history"])
        self._usage = self._new_usage()
        self.last_reply = ""
        self.last_thought = ""
        self.last_exchange = None
        self.exchange = Exchange()
        self._sent: dict | None = None  # the body of the last request, as posted
        self.prompt_chars: list[int] = []  # characters of text sent per step (images not counted)
        self._viewport: tuple[int, int] | None = None
        self._model_size: tuple[int, int] | None = None
        self.tool_apps = task_tool_apps(task_info)  # the prompt lists these apps' tools (None: all)

    @property
    def history(self) -> list:
        return self.memory.steps

    def usage(self) -> dict:
        out = dict(self._usage)
        out["seconds"] = round(out["seconds"], 3)
        prices = self.options["prices"]
        if prices:
            cost = out["prompt_tokens"] * prices.get("prompt", 0) + out["completion_tokens"] * prices.get(
                "completion", 0
            )
            out["cost_usd"] = round(cost / 1e6, 6)
        return out

    def settle(self, obs: dict) -> None:
        """Record the error the environment reports for the last step, in the model's space."""
        last = self.memory.last
        if last is None or last.error is not None:
            return
        error = obs.get("last_action_error") or ""
        if error and last.executed != last.action:
            model_size = getattr(self, "_model_size", None) or DEFAULT_SIZE
            error = speak_model_space(error, last.executed, last.action, self._to_model, model_size)
        self.memory.settle(error)

    def act(self, obs: dict) -> str:
        self.settle(obs)
        parts, image_size = self.render_observation(obs)
        self._frame(obs, image_size)
        system = self.system_text()
        self.prompt_chars.append(len(system) + sum(len(v) for k, v in parts if k == "text"))
        turns: list[tuple[str, str]] = []
        self.exchange = Exchange()
        while True:
            text = self.ask(system, parts, turns)
            parsed = parse_reply(text)
            if parsed.parsed or len(turns) // 2 >= self.options["reasks"]:
                break
            self._usage["reasks"] += 1
            again = REASK.format(example=self._example())
            self.exchange.reasked(NO_ACTION, again)
            turns += [("assistant", text), ("user", again)]
        self.last_exchange = self.exchange.as_dict()
        self.last_reply = text
        self.last_thought = parsed.thought
        model_action = parsed.action() if parsed.parsed else text.strip()
        action = self.to_viewport(model_action)
        space = "screenshot" if image_size else "viewport"
        check = check_action(
            model_action, obs, self.action_space, self.max_actions, self.interface, self._model_size, space
        )
        note = f"your answer held {len(parsed.actions)} actions; give one per answer" if len(parsed.actions) > 1 else ""
        self.memory.add(
            url=obs.get("url", ""),
            thought=parsed.thought,
            action=model_action,
            executed=action,
            error=None if check.valid else f"not run: {check.message}",
            note=note if len(parsed.actions) > self.max_actions else "",
            reply=text,
        )
        return action

    def follow(self, action: str) -> None:
        """Offline evaluation: the gold action was taken instead of the answer; the history shows
        the gold action (with no thought: the model's thought was about its own answer)."""
        last = self.memory.last
        if last is None or last.executed == action:
            return
        last.action = last.executed = last.raw = action
        last.thought = last.note = last.reply = ""
        last.error = None  # the environment's result for the gold action, read at the next step

    # -- coordinates ----------------------------------------------------------------------------
    def _frame(self, obs: dict, image_size: tuple[int, int] | None) -> None:
        """Remember the page (viewport) and the model's (image) sizes for this step."""
        self._viewport = _viewport(obs)
        self._model_size = image_size if image_size else None

    def _to_model(self, x: float, y: float) -> tuple[float, float]:
        if not self._viewport or not self._model_size:
            return x, y
        return x * self._model_size[0] / self._viewport[0], y * self._model_size[1] / self._viewport[1]

    def to_viewport(self, action: str) -> str:
        """The model's action with its image coordinates mapped to page coordinates."""
        vp, ms = self._viewport, self._model_size
        if not vp or not ms or vp == ms:
            return action
        lines = action.split("\n") if self.max_actions > 1 else [action]
        return "\n".join(scale_coordinates(a, vp[0] / ms[0], vp[1] / ms[1]) for a in lines)

    def to_action(self, reply: str, obs: dict, image_size: tuple[int, int] | None) -> str:
        """The page action for an answer to an observation (parsing and coordinate mapping)."""
        self._frame(obs, image_size)
        return self.to_viewport(extract_action(reply))

    def _count(self, usage: dict, attempts: int, seconds: float) -> None:
        u = self._usage
        u["requests"] += 1
        u["retries"] += max(0, attempts - 1)
        u["prompt_tokens"] += int(usage.get("prompt_tokens") or 0)
        u["completion_tokens"] += int(usage.get("completion_tokens") or 0)
        u["total_tokens"] = u["prompt_tokens"] + u["completion_tokens"]
        u["seconds"] += seconds

    # -- the prompt -----------------------------------------------------------------------------
    def _example(self) -> str:
        if self.interface == "api":
            return "todo.read()"
        if self.action_space == "coord" or (self.obs_mode == "screenshot" and not self.options["set_of_marks"]):
            w, h = getattr(self, "_model_size", None) or DEFAULT_SIZE
            return f"mouse_click({round(w * 0.32)}, {round(h * 0.32)})"
        return "click('12')"

    def system_text(self) -> str:
        size = getattr(self, "_model_size", None) or getattr(self, "_viewport", None) or DEFAULT_SIZE
        return self.options["system_prompt"] or system_prompt(
            self.obs_mode,
            self.action_space,
            size,
            self.options["set_of_marks"],
            self.interface,
            getattr(self, "tool_apps", None),
        )

    def history_text(self) -> str:
        return self.memory.render()

    def render_observation(self, obs: dict) -> tuple[list[tuple[str, str]], tuple[int, int] | None]:
        """The user message as parts ``("text", str)`` / ``("image", base64 png)``."""
        lines = [f"Task: {self.goal}", "", self.history_text(), ""]
        if self.step_instruction:  # step-by-step offline evaluation (openapps offline --mode steps)
            lines[1:1] = [f"Instruction for this step: {self.step_instruction}"]
        last = self.memory.last
        if last is not None and last.error:
            lines += [f"Your last action (step {last.number}) failed: {first_line(last.error, 500)}", ""]
        lines += self.tool_result_lines(obs)
        if self.interface == "api":  # no page: the tool's result is the whole observation
            lines += ["", "Answer with <think>your reasoning</think> then <action>one action</action>."]
            return [("text", "\n".join(lines))], None
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
            tree, note = shorten_tree(tree, self.options["max_obs_chars"], self.options["list_window"])
            lines += ["", "Accessibility tree of the page:", tree]
            if note:
                lines.append(note)
        shot = obs.get("screenshot")
        answer = "Answer with <think>your reasoning</think> then <action>one action</action>."
        if self.obs_mode in ("screenshot", "both") and getattr(shot, "size", 0):
            marks = obs if self.options["set_of_marks"] else None
            data, image_size = encode_png(shot, self.options["screenshot_max_side"], marks)
            marked = ", element ids marked" if marks is not None else ""
            lines += ["", f"Screenshot of the page ({image_size[0]}x{image_size[1]} pixels{marked}):"]
            parts.append(("text", "\n".join(lines)))
            parts.append(("image", data))
            parts.append(("text", answer))
        else:
            lines += ["", answer]
            parts.append(("text", "\n".join(lines)))
        return parts, image_size

    def tool_result_lines(self, obs: dict) -> list[str]:
        """The result of the last app tool call (api and mixed), cut to ``max_obs_chars``."""
        if self.interface == "gui":
            return []
        result = str(obs.get("tool_result") or "")
        if not result:
            return ["Result of your last app tool call: none (no app tool called at the last step)", ""]
        limit = self.options["max_obs_chars"]
        if limit and len(result) > limit:
            result = result[:limit] + f" ... (cut at {limit} of {len(result)} characters)"
        return ["Result of your last app tool call:", result, ""]

    # -- the request ----------------------------------------------------------------------------
    def ask(self, system: str, parts: list[tuple[str, str]], turns: list[tuple[str, str]] = ()) -> str:
        """One request (:meth:`complete`), its usage counted and the exchange recorded; the answer."""
        self._sent = None
        text, usage, attempts, seconds = self.complete(system, parts, turns)
        self._count(usage, attempts, seconds)
        self.exchange.answered(self._sent, system, text, usage, attempts, seconds)
        return text

    def complete(
        self, system: str, parts: list[tuple[str, str]], turns: list[tuple[str, str]] = ()
    ) -> tuple[str, dict, int, float]:
        """Send one request (the observation, then ``turns`` of (role, text) when asking again);
        returns (answer text, usage, attempts, seconds)."""
        raise NotImplementedError

    def _post(self, url: str, body: dict, headers: dict) -> tuple[dict, int, float]:
        o = self.options
        if o["extra_body"]:
            body = {**body, **o["extra_body"]}
        if o["extra_headers"]:
            headers = {**headers, **{str(k): str(v) for k, v in o["extra_headers"].items()}}
        self._sent = body
        result = post_json(url, body, headers, timeout=o["timeout"], retries=o["retries"], backoff=o["backoff"])
        return result.data, result.attempts, result.seconds


def _viewport(obs: dict) -> tuple[int, int] | None:
    shot = obs.get("screenshot")
    shape = getattr(shot, "shape", None)
    if shape is None or len(shape) < 2 or not shape[0]:
        return None
    return int(shape[1]), int(shape[0])
