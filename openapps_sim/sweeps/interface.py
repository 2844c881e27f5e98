"""The sweep axis ``interface`` (gui | api | mixed): how an episode's agent may act — page
actions, the apps' own operations as app tools (:mod:`openapps_sim.envs.apptools`), or both.
The runner asks this module for the env's options, the agent's setting and the check of each
action, so that the axis lives in one place."""

from __future__ import annotations

from typing import Any

from openapps_sim.agent import Agent, load_agent_class
from openapps_sim.envs.actions import ActionCheck, classify_action
from openapps_sim.envs.apptools import INTERFACES, app_tools, check_interface, parse_tool_call, refusal
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


def check_action(action: str, obs: dict, action_space: str, max_actions: int, interface: str) -> ActionCheck:
    """The runner's check of one action before it runs: app tools (named, of a known app and
    tool) where the interface takes them, page actions where it takes those."""
    if not isinstance(action, str) or interface == DEFAULT_INTERFACE:
        return classify_action(action, obs, action_space, max_actions=max_actions)
    try:
        call = parse_tool_call(action)
    except ValueError as e:
        return ActionCheck("bad_arguments", str(e))
    refused = refusal(interface, action, call)
    if refused:
        return ActionCheck("unknown_action", refused)
    if call is None:
        return classify_action(action, obs, action_space, max_actions=max_actions)
    tools = app_tools()
    if call.tool not in tools.get(call.app, {}):
        known = ", ".join(f"{a}.{t}" for a, ts in tools.items() for t in ts)
        return ActionCheck("unknown_action", f"{call.app}.{call.tool} is not an app tool; allowed: {known}")
    return ActionCheck("valid", "", f"{call.app}.{call.tool}", dict(call.args))
