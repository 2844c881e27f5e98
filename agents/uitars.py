"""The ``uitars`` agent: a UI-TARS model served by an OpenAI-compatible server (vLLM).

Screenshots in, coordinates out. Its answers are read by :mod:`~openapps_sim.agents.uitars_parse`
(the action grammar, coordinate frames and the mapping to BrowserGym actions).
"""

from __future__ import annotations

from typing import Any

from openapps_sim.config.schema import Enum, Int
from openapps_sim.errors import ConfigError

from .exchange import Exchange
from .images import encode_png
from .llm import COMMON_OPTIONS, OpenAIAgent
from .memory import first_line
from .prompts import UITARS_PROMPT
from .reply import speak_model_space
from .uitars_parse import (  # noqa: F401 - the parser's public names, importable from here too
    FRAMES,
    KEY_NAMES,
    CoordFrame,
    UITarsParse,
    hotkey_to_playwright,
    parse_point,
    parse_uitars,
    smart_resize,
)


class UITarsAgent(OpenAIAgent):
    """UI-TARS served by an OpenAI-compatible server (vLLM): screenshots in, coordinates out."""

    name = "uitars"
    obs_mode = "screenshot"
    action_space = "coord"
    interfaces = ("gui",)  # its action grammar is the one it was trained on: screen actions only
    DEFAULTS = {
        "base_url": "http://127.0.0.1:8000/v1",
        "api_key_env": None,
        "require_api_key": False,
        "obs_mode": "screenshot",
        "action_space": "coord",
        "max_tokens": 512,
    }
    OPTIONS = {
        **COMMON_OPTIONS,
        "obs_mode": Enum(("screenshot",), "screenshot", "UI-TARS sees screenshots only"),
        "action_space": Enum(("coord",), "coord", "UI-TARS acts with coordinates"),
        "max_tokens_param": OpenAIAgent.OPTIONS["max_tokens_param"],
        "image_detail": OpenAIAgent.OPTIONS["image_detail"],
        "coord_frame": Enum(FRAMES, "smart_resize", "the frame of the model's coordinates"),
        "factor": Int(28, "smart_resize: sides are multiples of this"),
        "min_pixels": Int(56 * 56, "smart_resize: fewest pixels"),
        "max_pixels": Int(16384 * 28 * 28, "smart_resize: most pixels"),
        "scroll_amount": Int(500, "pixels per scroll"),
        "wait_ms": Int(1000, "how long wait() waits"),
        "history_images": Int(1, "screenshots sent per request (the latest ones; at least 1)"),
    }

    def __init__(self, _source: str = "agent config", **config: Any) -> None:
        super().__init__(_source, **config)
        if self.options["history_images"] < 1:
            raise ConfigError(_source, "history_images", "must be at least 1")
        self.screens: list[str] = []
        self.last_parse: UITarsParse | None = None
        self.coord_frame: CoordFrame | None = None

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        super().reset(goal, task_info, seed)
        self.screens = []
        self.last_parse = None
        self.coord_frame = None

    def system_text(self) -> str:
        return self.options["system_prompt"] or ""

    def act(self, obs: dict) -> str:
        from openapps_sim.envs.actions import classify_action

        self.settle(obs)
        shot = obs.get("screenshot")
        if not getattr(shot, "size", 0):
            raise ConfigError(
                self.config_source, "obs_mode", "the uitars agent needs screenshots (obs_mode screenshot)"
            )
        data, image_size = encode_png(shot, self.options["screenshot_max_side"])
        self.screens.append(data)
        viewport = (int(shot.shape[1]), int(shot.shape[0]))
        o = self.options
        self.coord_frame = CoordFrame(
            viewport, image_size, o["coord_frame"], o["factor"], o["min_pixels"], o["max_pixels"]
        )
        mw, mh = self.coord_frame.model_size()
        self._viewport, self._model_size = viewport, (round(mw), round(mh))
        self.exchange = Exchange()
        text = self.ask(self.system_text(), self._parts())
        self.last_exchange = self.exchange.as_dict()
        self.last_reply = text
        parsed = parse_uitars(text, self.coord_frame, o["scroll_amount"], o["wait_ms"])
        self.last_parse = parsed
        self.last_thought = parsed.thought
        check = classify_action(parsed.action, obs, self.action_space)
        error = None
        if not check.valid:
            message = parsed.error or check.message
            error = "not run: " + speak_model_space(
                message, parsed.action, parsed.raw, self._to_model, self._model_size
            )
        note = ""
        if parsed.extra:
            self._usage["extra_actions"] += len(parsed.extra)
            note = f"only the first action ran; {len(parsed.extra)} more in the answer were ignored (one per step)"
        self.memory.add(
            url=obs.get("url", ""),
            thought=parsed.thought,
            action=parsed.raw,
            executed=parsed.action,
            error=error,
            note=note,
            reply=text,
            raw=parsed.raw,
        )
        return parsed.action

    def _to_model(self, x: float, y: float) -> tuple[float, float]:
        return self.coord_frame.to_model(x, y)

    def _parts(self) -> list[tuple[str, Any]]:
        return []  # the conversation is built by messages() from the history and screenshots

    def messages(self, system: str, parts, turns=()) -> list[dict]:
        """Instruction, then per past step its screenshot (the latest ``history_images`` as
        images, older ones as a placeholder) and the model's answer, then the new screenshot."""
        window = self.options["history"]
        past = self.history[-window:] if window else []
        keep_images = self.options["history_images"]
        n_screens = len(self.screens)
        first_screen = n_screens - len(past) - 1  # index of the screenshot before the first past step
        msgs: list[dict] = [
            {"role": "user", "content": [{"type": "text", "text": UITARS_PROMPT.format(goal=self.goal)}]}
        ]

        def screen_part(index: int) -> dict:
            if index >= n_screens - keep_images and index >= 0:
                return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{self.screens[index]}"}}
            return {"type": "text", "text": "(earlier screenshot omitted)"}

        for k, step in enumerate(past):
            msgs.append({"role": "user", "content": [screen_part(first_screen + k)]})
            msgs.append({"role": "assistant", "content": step.reply or f"Action: {step.raw}"})
            said = [f"That action failed: {first_line(step.error, 300)}"] if step.error else []
            said += [f"Note: {step.note}"] if step.note else []
            if said:
                msgs.append({"role": "user", "content": [{"type": "text", "text": "\n".join(said)}]})
        msgs.append({"role": "user", "content": [screen_part(n_screens - 1)]})
        return _merge_same_role(msgs)


def _merge_same_role(msgs: list[dict]) -> list[dict]:
    out: list[dict] = []
    for m in msgs:
        if out and out[-1]["role"] == m["role"] == "user":
            out[-1]["content"] = out[-1]["content"] + m["content"]
        else:
            out.append({"role": m["role"], "content": m["content"]})
    return out
