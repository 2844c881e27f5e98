"""The MCP tools' results as typed objects: each tool's output schema (``outputSchema``) and its
structured content come from these models, and the SDK adds a JSON text rendering of the same
object for clients that read only text. A key that does not apply is left out rather than sent
as null (an agent's server never sends ``partial_reward`` or ``explanation`` before the end)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_serializer


class Result(BaseModel):
    """A tool's result: every key it may have is declared (an undeclared one is a bug, refused
    here), and one that is None is left out of what is sent."""

    model_config = ConfigDict(extra="forbid")

    @model_serializer(mode="wrap")
    def leave_out_none(self, handler: Any) -> dict[str, Any]:
        return {key: value for key, value in handler(self).items() if value is not None}


class TaskInfo(Result):
    """A task family; ``answer_schema`` for one that returns a value: the answer's ``type`` and
    the JSON ``schema`` of the value to send with ``send_msg_to_user``."""

    id: str
    apps: list[str]
    description: str
    max_steps: int
    answer_schema: dict[str, Any] | None = None


class Tasks(Result):
    """``list_tasks``: the task families."""

    tasks: list[TaskInfo]


class PackInfo(Result):
    name: str
    description: str


class Variations(Result):
    """``list_variations``: the shipped packs."""

    variations: list[PackInfo]


class Episode(Result):
    """``reset``: the episode started, with its goal; for a task that returns a value, the
    answer's type and JSON Schema (``answer_schema``, as the observation field of that name)."""

    goal: str
    url: str
    task: str
    variation: str
    seed: int
    interface: str
    backend: str
    termination: str
    max_steps: int
    answer_schema: dict[str, Any] | None = None


class Step(Result):
    """``act`` and every app tool: one step of the episode. ``reward`` is 0 on an agent's server
    until the episode ends; ``tool_result`` is an app tool's own result (JSON)."""

    reward: float
    done: bool
    truncated: bool
    category: str
    last_action_error: str
    tool_result: Any = None
    url: str
    steps: int
    max_steps: int


class EpisodeResult(Result):
    """What an episode's result says of the episode: its instance, settings, reward, success."""

    task: str
    variation: str
    seed: int
    language: str
    interface: str
    backend: str
    termination: str
    reward: float
    success: bool


class Attempt(EpisodeResult):
    """An episode the session ended, with its result and how it ended (task, budget, abandoned)."""

    steps: int
    ended: str


class Reward(EpisodeResult):
    """``get_reward``: the episode's reward. ``partial_reward`` only once the episode has ended
    (or on an evaluator's server), ``explanation`` only on an evaluator's server."""

    partial_reward: float | None = None
    explanation: str | None = None
    steps: int
    max_steps: int
    done: bool
    attempts: list[Attempt]
