"""The sweep axis ``interface`` (gui | api | mixed): how an episode's agent may act — page
actions, the apps' own operations as app tools (:mod:`openapps_sim.envs.apptools`), or both.
A spec checks that its agents can act through its interfaces here, and the runner tells the
agent its episode's interface; the check of each action is :func:`openapps_sim.envs.apptools.check_action`, which the LLM agents use too."""

from __future__ import annotations

from openapps_sim.agent import Agent, load_agent_class
from openapps_sim.envs.apptools import DEFAULT_INTERFACE, check_interface
from openapps_sim.errors import ConfigError, Problems

__all__ = ["DEFAULT_INTERFACE", "check_agents", "prepare_agent"]


def check_agents(agent_names: list[str], interfaces: list[str], source: str) -> None:
    """Every agent of the spec can act through every interface of the spec (every pair that
    cannot is a problem, raised together)."""
    problems = Problems()
    for name in agent_names:
        cls = load_agent_class(name, source)
        for interface in interfaces:
            if interface not in getattr(cls, "interfaces", (DEFAULT_INTERFACE,)):
                allowed = ", ".join(getattr(cls, "interfaces", (DEFAULT_INTERFACE,)))
                problem = f"agent {name!r} cannot act through {interface!r}"
                problems.add(ConfigError(source, "interface", problem, allowed))
    problems.raise_any()


def prepare_agent(agent: Agent, interface: str) -> None:
    """Tell the agent which interface the episode has (before its ``reset``)."""
    agent.interface = check_interface(interface, "episode")
