"""The agent interface every agent implements, and the registry that finds agents by name."""

from __future__ import annotations

import importlib
from typing import Any

from openapps_sim.errors import ConfigError, unknown_name


class Agent:
    """Reset with the goal, act on observations, report usage.

    ``act`` returns one BrowserGym action string (``click('12')``, ``fill('7', 'milk')``,
    ``send_msg_to_user('done')`` ...). ``obs_mode`` and ``action_space`` tell the runner what
    the agent reads and writes. Only ``privileged`` agents (the oracle) receive the task's
    parameters in ``task_info``; others see the goal text alone.
    """

    name = "agent"
    obs_mode = "axtree"  # both | axtree | screenshot
    action_space = "bid"  # bid | coord | all
    privileged = False

    def __init__(self, **config: Any) -> None:
        self.config = config

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        raise NotImplementedError

    def act(self, obs: dict) -> str:
        raise NotImplementedError

    def usage(self) -> dict:
        """Per-episode usage (tokens, requests...), reset by ``reset``."""
        return {}


BUILTIN_AGENTS = {
    "oracle": "openapps_sim.agents.oracle:OracleAgent",
    "random": "openapps_sim.agents.random_agent:RandomAgent",
    "lexical": "openapps_sim.agents.lexical:LexicalAgent",
    "openai": "openapps_sim.agents.llm:OpenAIAgent",
    "anthropic": "openapps_sim.agents.llm:AnthropicAgent",
    "uitars": "openapps_sim.agents.uitars:UITarsAgent",
}


def register_builtin(name: str, path: str) -> None:
    BUILTIN_AGENTS[name] = path


def load_agent_class(name: str, source: str = "--agent") -> type[Agent]:
    """An agent class by registry name or by import path ``package.module:Class``."""
    path = BUILTIN_AGENTS.get(name)
    if path is None:
        if ":" not in name:
            raise unknown_name(source, "agent", name, list(BUILTIN_AGENTS) + ["<module>:<Class>"])
        path = name
    module_name, _, cls_name = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ConfigError(source, "agent", f"cannot import {module_name!r} ({e})") from None
    cls = getattr(module, cls_name, None)
    if cls is None:
        raise ConfigError(source, "agent", f"module {module_name!r} has no attribute {cls_name!r}")
    return cls
