"""The environment's action space: BrowserGym's ``Unicode`` (any action string), made
sampleable so that Gymnasium's ``check_env`` and ``action_space.sample()`` work.

A sample is an action string that is valid in the space on every page and changes no app
state: ``noop(wait_ms=...)``, a scroll (``bid`` and ``all``) or a mouse move (``coord``). An
agent's actions are not drawn from here; the space's members are all strings, as in BrowserGym.
"""

from __future__ import annotations

import json
import os

import gymnasium as gym
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.core.spaces import Unicode

from openapps_sim.envs.actions import ACTION_SPACES


class ActionStrings(Unicode):
    """Any BrowserGym action string; :meth:`sample` draws a harmless one of ``space``."""

    def __init__(self, space: str = "all", seed: int | None = None) -> None:
        super().__init__()
        self.space = space
        if seed is not None:
            self.seed(seed)

    def sample(self, mask=None, probability=None) -> str:  # noqa: ARG002 - Space.sample's signature
        rng = self.np_random
        kind = int(rng.integers(2))
        if kind == 0:
            return f"noop(wait_ms={int(rng.integers(0, 50))})"
        if self.space == "coord":
            return f"mouse_move({int(rng.integers(0, 200))}, {int(rng.integers(0, 200))})"
        return f"scroll(0, {int(rng.integers(-200, 200))})"

    def __repr__(self) -> str:
        return f"ActionStrings({self.space!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionStrings) and other.space == self.space


def observation_space(browsergym: gym.spaces.Dict) -> gym.spaces.Dict:
    """BrowserGym's observation space with the keys this environment adds, both text:
    ``tool_result`` (what an app tool returned, JSON) and ``answer_schema`` (for a task that
    returns a value: its type and JSON Schema as JSON, ``{"type": "number", "schema": {...}}``;
    ``""`` for every other task)."""
    return gym.spaces.Dict({**browsergym.spaces, "tool_result": Unicode(), "answer_schema": Unicode()})


def answer_schema_text(task_info: dict | None) -> str:
    """The ``answer_schema`` observation of an episode: the task's answer spec as JSON, or ``""``."""
    spec = (task_info or {}).get("answer_schema")
    return json.dumps(spec, ensure_ascii=False, sort_keys=True) if spec else ""


def action_set(space: str = "bid", multiaction: bool = False) -> HighLevelActionSet:
    if space not in ACTION_SPACES:
        raise ValueError(f"unknown action space {space!r}; allowed: {', '.join(ACTION_SPACES)}")
    return HighLevelActionSet(subsets=ACTION_SPACES[space], multiaction=multiaction, strict=False)


DEFAULT_ACTION_TIMEOUT_MS = 3000


def action_timeout_ms() -> int:
    """BrowserGym's action functions wait at most 500 ms for an element and for the navigation
    a click starts; on a busy 2-core machine a click that worked then reports a TimeoutError,
    which would be counted against the agent. The timeout is a property of the machine, not of
    the agent: ``OpenAppsEnv.step`` raises it for whatever action mapping is in use
    (``OPENAPPS_ACTION_TIMEOUT_MS`` overrides the default)."""
    return int(os.environ.get("OPENAPPS_ACTION_TIMEOUT_MS", DEFAULT_ACTION_TIMEOUT_MS))


def action_mapping(space: str = "bid", multiaction: bool = False):
    """BrowserGym's action-to-code mapping for one of :data:`ACTION_SPACES` (``multiaction``:
    several actions per step, for agents configured to send them)."""
    return action_set(space, multiaction).to_python_code
