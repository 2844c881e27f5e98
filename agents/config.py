"""Agent configuration files and the one function that builds an agent from a name and a config.

A config file is YAML::

    agent: openai                 # registry name or package.module:Class (optional)
    description: GPT-4o on the accessibility tree
    model: gpt-4o
    obs_mode: axtree
    ...                           # the agent's options (see `openapps agents`)

``load_agent_config("gpt-4o")`` reads ``agents/configs/gpt-4o.yaml``; a path reads that file.
Unknown keys are errors that name the file, the key and the allowed keys.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from openapps_sim.agent import Agent, hide_secrets, load_agent_class
from openapps_sim.config.schema import Any_, Field, Nullable, Str
from openapps_sim.config.yamlfile import load_yaml, read_yaml
from openapps_sim.errors import ConfigError, Problems, did_you_mean, unknown_key

from .base import META_KEYS, ConfigurableAgent, validate_options

CONFIG_DIR = Path(__file__).with_name("configs")


def config_names() -> list[str]:
    """Names of the built-in configs (files in agents/configs/)."""
    return sorted(p.stem for p in CONFIG_DIR.glob("*.yaml"))


def resolve_config_path(path_or_name: str | Path) -> Path:
    """A config file path: an existing file, or a built-in config name (with or without .yaml)."""
    path = Path(path_or_name)
    if path.is_file():
        return path
    name = str(path_or_name)
    if "/" not in name and "\\" not in name:
        stem = name[: -len(path.suffix)] if path.suffix in (".yaml", ".yml") else name
        candidate = CONFIG_DIR / f"{stem}.yaml"
        if candidate.is_file():
            return candidate
    raise ConfigError(name, "", "no such agent config file or built-in config", ", ".join(config_names()))


def load_agent_config(path_or_name: str | Path) -> dict:
    """Read and check an agent config file (a path, or a built-in name such as ``gpt-4o``).

    Returns the mapping with ``__source__`` set to the file path. When the file names its
    ``agent``, every key is checked against that agent's options now; otherwise
    :func:`make_agent` checks them.
    """
    path = resolve_config_path(path_or_name)
    source = str(path)
    data = read_yaml(path, source)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(source, "", f"expected a mapping of options, got {type(data).__name__}")
    for key in data:
        if not isinstance(key, str):
            raise ConfigError(source, str(key), "option names must be strings")
    if "agent" in data:
        if not isinstance(data["agent"], str):
            raise ConfigError(source, "agent", f"expected an agent name, got {data['agent']!r}")
        cls = load_agent_class(data["agent"], source)
        check_config(cls, data, source)
    out = dict(data)
    out["__source__"] = source
    return out


def agent_options(cls: type[Agent]) -> dict[str, Field] | None:
    """The options an agent class accepts; None when it accepts any keyword."""
    options = getattr(cls, "OPTIONS", None)
    if isinstance(options, dict) and (issubclass(cls, ConfigurableAgent) or options):
        return options
    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return None
    return {
        name: Any_(None if p.default is inspect.Parameter.empty else p.default)
        for name, p in params.items()
        if name != "self" and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }


def check_config(cls: type[Agent], config: dict, source: str) -> dict:
    """The config's options for ``cls`` (meta keys removed), or a ConfigError naming the key."""
    options = agent_options(cls)
    clean = {k: v for k, v in config.items() if k not in META_KEYS and not k.startswith("__")}
    if options is None:
        return clean
    if issubclass(cls, ConfigurableAgent):
        validate_options(options, clean, source)
        return clean
    problems = Problems()
    for key in clean:
        if key not in options:
            problems.add(unknown_key(source, key, key, options, what="option"))
    problems.raise_any()
    return clean


def check_options(cls: type[Agent], options: dict, source: str, path: str = "", also: tuple[str, ...] = ()) -> dict:
    """Options given on top of a config (a spec entry's inline keys, the command line's flags),
    each checked against ``cls``'s options: an unknown name is a ConfigError at ``path + name``
    listing ``also`` and the agent's options, a value of the wrong kind one naming the kind allowed."""
    declared = agent_options(cls)
    if declared is None:  # an agent that takes any keyword
        return dict(options)
    listed = ", ".join([*also, *sorted(declared)]) or "(no options)"
    problems = Problems()
    for key, value in options.items():
        if key not in declared:
            hint = did_you_mean(key, [*also, *declared])
            problems.add(ConfigError(source, f"{path}{key}", f"unknown option{hint}", listed))
            continue
        if issubclass(cls, ConfigurableAgent):
            problems.check(declared[key].check, value, source, f"{path}{key}")
    problems.raise_any()
    return dict(options)


_NULLS = ("null", "none", "~", "")


def option_from_text(cls: type[Agent], key: str, text: str, source: str) -> Any:
    """An option's value written on the command line, read as the option's kind: a string option
    takes the text as it is (``null`` or ``none`` for a nullable one is null), any other is read as
    YAML (``0.7``, ``true``, ``null``, ``{prompt: 2.5, completion: 10}``)."""
    option = (agent_options(cls) or {}).get(key)
    if isinstance(option, Str) or (isinstance(option, Nullable) and isinstance(option.field, Str)):
        return None if isinstance(option, Nullable) and text.strip().lower() in _NULLS else text
    try:
        return load_yaml(text, source)
    except ConfigError as e:
        raise ConfigError(source, key, f"cannot read {text[:80]!r} ({e.problem})") from None


def make_agent(
    name: str | None,
    config: dict | str | Path | None = None,
    config_source: str | dict | None = "--agent-config",
    options: dict | None = None,
    options_source: str = "agent options",
) -> Agent:
    """Build an agent.

    ``name`` is a registry name or ``package.module:Class`` (None: the config's ``agent`` key).
    ``config`` is the options mapping (as :func:`load_agent_config` returns it) or a config
    path / built-in config name to load. ``options`` are overrides on top of the config (swept
    values such as ``temperature``); for the runner's convenience a mapping given in place of
    ``config_source`` is taken as ``options``. Every key is checked against the agent's options;
    ``options_source`` is what an error names when the options were given without a config (a
    sweep spec's entry, say).
    """
    if isinstance(config_source, dict):
        options, config_source = config_source, None
    if isinstance(config, (str, Path)):
        config = load_agent_config(config)
    config = dict(config or {})
    config_source = config.pop("__source__", None) or config_source or "--agent-config"
    file_agent = config.get("agent")
    if name is None:
        if not file_agent:
            raise ConfigError(config_source, "agent", "no agent given (use --agent or an 'agent:' key in the config)")
        name = file_agent
    elif file_agent and file_agent != name:
        raise ConfigError(config_source, "agent", f"this config is for agent {file_agent!r}, not {name!r}", file_agent)
    cls = load_agent_class(name, "--agent")
    merged = dict(config)
    source = config_source
    if options:
        merged.update(options)
        source = f"{config_source} + options" if config else options_source
    opts = check_config(cls, merged, source)
    try:
        if issubclass(cls, ConfigurableAgent):
            return cls(_source=source, **opts)
        return cls(**opts)
    except TypeError as e:
        raise ConfigError(source, "", f"cannot create agent {name!r} ({e})") from None


def describe_agent(name: str) -> dict[str, Any]:
    """What `openapps agents` shows: the class, its modes and its options with defaults."""
    cls = load_agent_class(name)
    options = agent_options(cls)
    defaults = getattr(cls, "DEFAULTS", {})
    return {
        "name": name,
        "class": f"{cls.__module__}:{cls.__qualname__}",
        "doc": (cls.__dict__.get("__doc__") or "").strip().split("\n")[0],
        "obs_mode": defaults.get("obs_mode", cls.obs_mode),
        "action_space": defaults.get("action_space", cls.action_space),
        "privileged": bool(getattr(cls, "privileged", False)),
        "options": None
        if options is None
        else {
            k: {"default": defaults.get(k, o.default), "type": o.describe(), "doc": o.doc}
            for k, o in sorted(options.items())
        },
    }


def describe_agent_config(
    name: str, config: dict | str | Path | None = None, overrides: dict | None = None
) -> dict[str, Any]:
    """An agent's resolved configuration for run manifests: class, config file and every option
    (defaults filled in, ``overrides`` on top), without building the agent. Values of headers or
    options whose names look secret are replaced by ``"***"``; keys themselves live in environment
    variables."""
    source = None
    if isinstance(config, (str, Path)):
        config = load_agent_config(config)
    config = dict(config or {})
    source = config.pop("__source__", None)
    cls = load_agent_class(name)
    options = agent_options(cls)
    given = {k: v for k, v in config.items() if k not in META_KEYS and not k.startswith("__")}
    given.update(overrides or {})
    if options is None:
        resolved = given
    else:
        defaults = dict(getattr(cls, "DEFAULTS", {}))
        resolved = {k: given.get(k, defaults.get(k, o.default)) for k, o in sorted(options.items())}
        resolved.update({k: v for k, v in given.items() if k not in resolved})
    return {
        "name": name,
        "class": f"{cls.__module__}:{cls.__qualname__}",
        "config_source": source,
        "description": config.get("description"),
        "obs_mode": resolved.get("obs_mode", cls.obs_mode),
        "action_space": resolved.get("action_space", cls.action_space),
        "options": hide_secrets(resolved),
    }
