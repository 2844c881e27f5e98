"""A sweep spec's ``agents``: each a registry name (or ``package.module:Class``), or a mapping
``{name, config, label, ...options}`` whose keys besides name, config and label are options on
top of the config, checked against the agent's own (docs/sweeps.md)."""

from __future__ import annotations

from typing import Any

from openapps_sim.agent import load_agent_class, registered_agents, unknown_agent
from openapps_sim.errors import ConfigError, Problems

AGENT_KEYS = ("name", "config", "label")


def spec_agents(entries: list, source: str) -> list[dict]:
    """The spec's agents: ``{name, config, label, options, llm}`` each; an entry's keys besides
    name, config and label are options on top of its config, checked against the agent's. Every
    problem of every entry is raised at once."""
    agents: list[dict] = []
    labels: dict[str, int] = {}
    problems = Problems()
    for i, entry in enumerate(entries):
        with problems.guard():
            agents.append(_agent(entry, source, i, labels, problems))
    problems.raise_any()
    if not agents:
        raise ConfigError(source, "agents", "at least one agent is required")
    return agents


def _agent(entry: Any, source: str, i: int, labels: dict[str, int], problems: Problems) -> dict:
    """``agents[i]``; a problem of its label or options is added to ``problems``."""
    from openapps_sim.agents import check_options  # the agents package owns the options (a plug-in folder)

    key = f"agents[{i}]"
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, dict) or "name" not in entry:
        raise ConfigError(source, key, "expected an agent name or a mapping with 'name'")
    name = entry["name"]
    if not isinstance(name, str):
        raise ConfigError(source, f"{key}.name", f"expected an agent name, got {name!r}", "openapps agents lists them")
    if name not in registered_agents() and ":" not in name:
        raise unknown_agent(source, f"{key}.name", name)
    cls = load_agent_class(name, f"{source}: {key}.name")
    label = entry.get("label")
    if label is not None and (not isinstance(label, str) or not label.strip()):
        problems.add(ConfigError(source, f"{key}.label", f"expected a name, got {label!r}", "a non-empty string"))
    elif label in labels:
        problem = f"{label!r} already labels agents[{labels[label]}]"
        problems.add(ConfigError(source, f"{key}.label", problem, "one label per agent"))
    elif label is not None:
        labels[label] = i
    options = {k: v for k, v in entry.items() if k not in AGENT_KEYS}
    problems.check(check_options, cls, options, source, f"{key}.", also=AGENT_KEYS)
    return {"name": name, "config": entry.get("config"), "label": label, "options": options, "llm": bool(cls.samples)}
