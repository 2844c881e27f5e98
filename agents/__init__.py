"""Agents (see docs/agents.md): the oracle, baselines (random, lexical) and LLM agents.

``make_agent(name, config, source)`` builds any of them (or a class given as
``package.module:Class``); ``load_agent_config(path_or_name)`` reads a YAML config from
``agents/configs/`` or a path.
"""

from .config import (
    agent_options,
    check_options,
    config_names,
    describe_agent,
    describe_agent_config,
    load_agent_config,
    make_agent,
    option_from_text,
)

__all__ = [
    "agent_options",
    "check_options",
    "config_names",
    "describe_agent",
    "describe_agent_config",
    "load_agent_config",
    "make_agent",
    "option_from_text",
]
