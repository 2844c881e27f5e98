"""The OpenEnv server's typed action, observation and state (``openapps openenv``), and a typed
client of it built on OpenEnv's own ``EnvClient``.

These are OpenEnv's pydantic models (``openenv-core``, the ``openenv`` extra): the server checks
every step against :class:`OpenAppsAction`, sends :class:`OpenAppsObservation` and answers
``state`` with :class:`OpenAppsState`; ``GET /schema`` gives their JSON schemas.
"""

from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field, model_validator

from openapps_sim.errors import ConfigError

ACTION_KEYS = ("action", "screenshot", "metadata")


class OpenAppsAction(Action):
    """One step: a BrowserGym action string, and whether this step's observation carries a
    screenshot (Chromium backend)."""

    action: str = Field(description="one BrowserGym action: click('12'), fill('7', 'milk'), send_msg_to_user('3')")
    screenshot: bool = Field(default=False, description="add a PNG screenshot to this observation (chromium)")

    @model_validator(mode="before")
    @classmethod
    def one_sentence(cls, data: Any) -> Any:
        """A malformed step is one :class:`ConfigError` naming the key, not pydantic's report
        (which OpenEnv's server would send as "Invalid message" without its details)."""
        if not isinstance(data, dict):
            raise ConfigError("step", "action", f"expected an object, got {data!r}", '{"action": "click(\'12\')"}')
        unknown = sorted(set(data) - set(ACTION_KEYS))
        if unknown:
            raise ConfigError("step", unknown[0], "unknown key", ", ".join(ACTION_KEYS))
        if not isinstance(data.get("action"), str):
            got = "nothing" if "action" not in data else repr(data["action"])
            raise ConfigError("step", "action", f"expected a BrowserGym action string, got {got}", "click('12'), ...")
        if not isinstance(data.get("screenshot", False), bool):
            raise ConfigError(
                "step", "screenshot", f"expected true or false, got {data['screenshot']!r}", "true, false"
            )
        return data


class OpenAppsObservation(Observation):
    """What a step (or a reset) shows: the goal, the page as its accessibility tree, what became
    of the last action, and the episode's settings and progress. ``reward`` and ``done`` are the
    environment's own verdict after the step (None at a reset)."""

    goal: str = Field(default="", description="the task's goal, in the episode's language")
    axtree_txt: str = Field(default="", description="the page's accessibility tree, elements marked [bid]")
    url: str = Field(default="", description="the page's address")
    last_action: str = Field(default="", description="the action of this step")
    last_action_error: str = Field(default="", description="why it failed or ran nothing; empty when it ran")
    category: str = Field(default="", description="valid, malformed, unknown_action, bad_arguments, browser_error")
    tool_result: Any = Field(default=None, description="what an app tool answered (interface api or mixed)")
    screenshot: str | None = Field(default=None, description="the page as a base64 PNG, when asked for")
    answer_schema: dict | None = Field(
        default=None, description="for a task that returns a value: the answer's type and JSON Schema"
    )
    task: str = ""
    variation: str = ""
    seed: int | None = None
    backend: str = ""
    interface: str = ""
    termination: str = ""
    step: int = Field(default=0, description="steps taken in this episode")
    max_steps: int = Field(default=0, description="the episode's step budget")
    truncated: bool = Field(default=False, description="the step budget ended the episode")


class OpenAppsState(State):
    """The session's episode: its instance and settings, steps, and the environment's evaluation
    after the last step (``reward``, ``success``)."""

    task: str | None = None
    variation: str | None = None
    seed: int | None = None
    backend: str | None = None
    interface: str | None = None
    termination: str | None = None
    max_steps: int = 0
    done: bool = False
    truncated: bool = False
    reward: float = 0.0
    success: bool = False


class OpenAppsEnvClient(EnvClient[OpenAppsAction, OpenAppsObservation, OpenAppsState]):
    """OpenEnv's WebSocket client, typed for ``openapps openenv``: ``await env.reset(task=...,
    variation=..., seed=...)``, ``await env.step(OpenAppsAction(action="click('12')"))``;
    ``.sync()`` gives the blocking client."""

    def _step_payload(self, action: OpenAppsAction) -> dict[str, Any]:
        return action.model_dump(exclude={"metadata"})

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[OpenAppsObservation]:
        reward, done = payload.get("reward"), bool(payload.get("done", False))
        obs = OpenAppsObservation(**payload.get("observation", {}), reward=reward, done=done)
        return StepResult(observation=obs, reward=reward, done=done)

    def _parse_state(self, payload: dict[str, Any]) -> OpenAppsState:
        return OpenAppsState(**payload)
