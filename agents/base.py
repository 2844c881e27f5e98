"""Options that built-in agents declare, validated with errors that name the allowed keys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openapps_sim.agent import Agent
from openapps_sim.errors import ConfigError, Problems, unknown_key

_TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    dict: "a mapping",
    list: "a list",
}


@dataclass(frozen=True)
class Option:
    """One configuration key of an agent: its type, default, allowed values and meaning."""

    type: type | tuple[type, ...]
    default: Any = None
    doc: str = ""
    choices: tuple | None = None
    nullable: bool = False

    def describe_type(self) -> str:
        types = self.type if isinstance(self.type, tuple) else (self.type,)
        text = " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in types)
        if self.choices:
            text = "one of " + ", ".join(repr(c) for c in self.choices)
        if self.nullable:
            text += " or null"
        return text

    def check(self, value: Any) -> str | None:
        """A problem description, or None when the value fits."""
        if value is None:
            return None if self.nullable or self.default is None else f"expected {self.describe_type()}, got null"
        types = self.type if isinstance(self.type, tuple) else (self.type,)
        ok = False
        for t in types:
            if t is bool:
                ok = ok or isinstance(value, bool)
            elif t is float:
                ok = ok or (isinstance(value, (int, float)) and not isinstance(value, bool))
            elif t is int:
                ok = ok or (isinstance(value, int) and not isinstance(value, bool))
            else:
                ok = ok or isinstance(value, t)
        if not ok:
            return f"expected {self.describe_type()}, got {value!r}"
        if self.choices and value not in self.choices:
            return f"expected one of {', '.join(repr(c) for c in self.choices)}, got {value!r}"
        return None


# keys a config file may hold besides the agent's options
META_KEYS = ("agent", "description")


def validate_options(options: dict[str, Option], config: dict, source: str) -> dict:
    """``config`` checked against ``options`` and completed with defaults.

    Raises :class:`ConfigError` naming the source, the key and the allowed keys or values, every
    problem of ``config`` at once.
    """
    if not isinstance(config, dict):
        raise ConfigError(source, "", f"expected a mapping of options, got {type(config).__name__}")
    out = {}
    problems = Problems()
    for key, value in config.items():
        if key in META_KEYS:
            continue
        if key not in options:
            problems.add(unknown_key(source, str(key), key, options, what="option"))
            continue
        problem = options[key].check(value)
        if problem:
            problems.add(ConfigError(source, key, problem, options[key].describe_type()))
        out[key] = value
    problems.raise_any()
    for key, opt in options.items():
        out.setdefault(key, opt.default)
    return out


class ConfigurableAgent(Agent):
    """An agent whose keyword configuration is declared in ``OPTIONS``.

    ``agent.options`` holds every option, defaults included. ``obs_mode`` and ``action_space``
    become instance attributes when they are options.
    """

    OPTIONS: dict[str, Option] = {}

    def __init__(self, _source: str = "agent config", **config: Any) -> None:
        super().__init__(**config)
        self.options = validate_options(self.OPTIONS, config, _source)
        self.config_source = _source
        for attr in ("obs_mode", "action_space"):
            if attr in self.options and self.options[attr] is not None:
                setattr(self, attr, self.options[attr])
