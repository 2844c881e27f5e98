"""Options that built-in agents declare, in the schema language of :mod:`openapps_sim.config.schema`
(``OPTIONS = {"temperature": Float(0.0, "sampling temperature"), ...}``), checked like a pack's
fields with errors that name the allowed keys and values."""

from __future__ import annotations

from typing import Any

from openapps_sim.agent import Agent
from openapps_sim.config.schema import Field, Record
from openapps_sim.errors import ConfigError

# keys a config file may hold besides the agent's options
META_KEYS = ("agent", "description")


def option_record(options: dict[str, Field]) -> Record:
    """An agent's options as one record of the schema language (``OPTIONS``: name -> field): an
    unknown name is an "unknown option", the allowed ones listed sorted."""
    return Record(options, what="option", keep_order=False)


def validate_options(options: dict[str, Field], config: dict, source: str) -> dict:
    """``config`` checked against ``options`` and completed with defaults.

    Raises :class:`ConfigError` naming the source, the key and the allowed keys or values, every
    problem of ``config`` at once.
    """
    if not isinstance(config, dict):
        raise ConfigError(source, "", f"expected a mapping of options, got {type(config).__name__}")
    given = {k: v for k, v in config.items() if k not in META_KEYS}
    return option_record(options).check(given, source, "")


class ConfigurableAgent(Agent):
    """An agent whose keyword configuration is declared in ``OPTIONS``.

    ``agent.options`` holds every option, defaults included. ``obs_mode`` and ``action_space``
    become instance attributes when they are options.
    """

    OPTIONS: dict[str, Field] = {}

    def __init__(self, _source: str = "agent config", **config: Any) -> None:
        super().__init__(**config)
        self.options = validate_options(self.OPTIONS, config, _source)
        self.config_source = _source
        for attr in ("obs_mode", "action_space"):
            if attr in self.options and self.options[attr] is not None:
                setattr(self, attr, self.options[attr])
