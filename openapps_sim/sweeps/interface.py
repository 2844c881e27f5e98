"""The sweep axis ``interface`` (gui | api | mixed): how an episode's agent may act — page
actions, the apps' own operations as app tools (:mod:`openapps_sim.envs.apptools`), or both.
The runner asks this module for the spec's values and the agent's setting; the check of each
action is :func:`openapps_sim.envs.apptools.check_action`, which the LLM agents use too."""

from __future__ import annotations

from typing import Any

from openapps_sim.agent import Agent, load_agent_class
from openapps_sim.envs.apptools import INTERFACES, check_interface
from openapps_sim.errors import ConfigError

DEFAULT_INTERFACE = "gui"


def interfaces_of(raw: Any, source: str) -> list[str]:
    """The spec's ``interface`` value: one interface or a list (a sweep axis)."""
    values = raw if isinstance(raw, list) else [raw]
    if not values:
        raise ConfigError(source, "interface", "empty list", ", ".join(INTERFACES))
    for v in values:
        if v not in INTERFACES:
            raise ConfigError(source, "interface", f"unknown interface {v!r}", ", ".join(INTERFACES))
    return list(dict.fromkeys(values))


def check_agents(agent_names: list[str], interfaces: list[str], source: str) -> None:
    """Every agent of the spec can act through every interface of the spec."""
    for name in agent_names:
        cls = load_agent_class(name, source)
        for interface in interfaces:
            if interface not in getattr(cls, "interfaces", (DEFAULT_INTERFACE,)):
                allowed = ", ".join(getattr(cls, "interfaces", (DEFAULT_INTERFACE,)))
                raise ConfigError(source, "interface", f"agent {name!r} cannot act through {interface!r}", allowed)


def prepare_agent(agent: Agent, interface: str) -> None:
    """Tell the agent which interface the episode has (before its ``reset``)."""
    agent.interface = check_interface(interface, "episode")
