"""Choosing a model on the command line: ``--agent``, ``--agent-config``, ``--model``,
``--base-url``, ``--api-key-env``, ``-o KEY=VALUE`` and ``--label``, shared by ``openapps run``
and ``openapps sweep`` (docs/agents.md, "Your model from the command line").

Every value is checked against the chosen agent's options where it is given, so a mistake is one
line naming the flag, the option and what is allowed."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapps_sim.agent import load_agent_class
from openapps_sim.errors import ConfigError, Problems

LLM_DEFAULT = "openai"  # the agent --model, --base-url or --api-key-env choose when no agent is named
NO_KEY = ("", "none", "null")  # --api-key-env none: the server needs no key


@dataclass
class AgentChoice:
    """One agent chosen on the command line: its name, config, options on top and label."""

    name: str
    config: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    label: str | None = None

    def entry(self) -> dict:
        """As a sweep spec's agent entry (:meth:`SweepSpec.with_agent`)."""
        llm = bool(load_agent_class(self.name).samples)
        return {"name": self.name, "config": self.config, "label": self.label, "options": self.overrides, "llm": llm}


def add_agent_flags(parser: argparse.ArgumentParser, sweep: bool = False) -> None:
    """The model-selection flags; for a sweep, the agent they make takes the place of the spec's
    LLM agents."""
    what = "your agent, in place of the spec's LLM agents: " if sweep else ""
    if sweep:
        parser.add_argument(
            "--agent",
            default=None,
            help=what + "registry name or package.module:Class (default: the config's agent, else openai)",
        )
        parser.add_argument(
            "--agent-config", default=None, help=what + "a YAML path or a name in agents/configs/ (default: none)"
        )
    parser.add_argument(
        "--model",
        default=None,
        help="the model name the server expects (agent openai unless --agent says) (default: the config's)",
    )
    parser.add_argument(
        "--base-url",
        default=None,
        help="the model server's URL, e.g. http://127.0.0.1:8000/v1; without --api-key-env no key is required (default: the config's)",
    )
    parser.add_argument(
        "--api-key-env",
        default=None,
        metavar="VAR",
        help="the environment variable holding the API key; none: the server needs no key (default: the config's)",
    )
    parser.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any agent option (openapps agents lists them), repeatable: -o temperature=0.7 -o obs_mode=both (default: none)",
    )
    parser.add_argument(
        "--label",
        default=None,
        help="the name results show this agent under (default: the --model, else the config's name)",
    )


def chosen(args: argparse.Namespace) -> bool:
    """Whether any model-selection flag was given."""
    flags = ("agent", "agent_config", "model", "base_url", "api_key_env", "label")
    return any(getattr(args, f, None) is not None for f in flags) or bool(getattr(args, "options", None))


def repeat_flags(args: argparse.Namespace) -> str:
    """The model-selection flags given, as they would be typed again (to resume a sweep)."""
    import shlex

    pairs = [
        ("--agent", args.agent),
        ("--agent-config", args.agent_config),
        ("--model", args.model),
        ("--base-url", args.base_url),
        ("--api-key-env", args.api_key_env),
        ("--label", args.label),
    ]
    words = [w for flag, value in pairs if value is not None for w in (flag, value)]
    words += [w for text in args.options for w in ("-o", text)]
    return " ".join(shlex.quote(w) for w in words)


def agent_choice(args: argparse.Namespace, default: str = "oracle") -> AgentChoice:
    """The agent the flags name (``--agent``, else the config's ``agent:``, else ``openai`` when a
    model flag is given, else ``default``) with every option checked."""
    from openapps_sim.agents import check_options, load_agent_config  # a plug-in folder, found at run time

    config = args.agent_config
    name = args.agent or (load_agent_config(config).get("agent") if config else None)
    model_flags = args.model is not None or args.base_url is not None or args.api_key_env is not None
    name = name or (LLM_DEFAULT if model_flags else default)
    cls = load_agent_class(name, "--agent")
    overrides: dict[str, Any] = {}
    problems = Problems()  # every flag's problem at once
    for flag, key, value in (("--model", "model", args.model), ("--base-url", "base_url", args.base_url)):
        if value is not None:
            overrides.update(problems.check(check_options, cls, {key: value}, flag, default={}))
    if args.api_key_env is not None:
        var = args.api_key_env.strip()
        no_key = var.lower() in NO_KEY
        keys = {"api_key_env": None if no_key else var, "require_api_key": not no_key}
        overrides.update(problems.check(check_options, cls, keys, "--api-key-env", default={}))
    elif args.base_url is not None and "require_api_key" in _declared(cls):
        overrides["require_api_key"] = False  # a server named by URL: its key, if any, from --api-key-env
    overrides.update(problems.check(parse_options, cls, args.options, default={}))
    label = problems.check(_label, args, config)
    problems.raise_any()
    return AgentChoice(name, config, overrides, label)


def parse_options(cls: type, texts: list[str], source: str = "-o") -> dict[str, Any]:
    """``KEY=VALUE`` each, read in the option's kind and checked (every problem at once)."""
    from openapps_sim.agents import check_options, option_from_text

    out: dict[str, Any] = {}
    problems = Problems()
    for text in texts:
        key, sep, value = text.partition("=")
        key = key.strip()
        with problems.guard():
            if not sep or not key:
                allowed = "e.g. -o temperature=0.7 (openapps agents lists options)"
                raise ConfigError(source, text, "expected KEY=VALUE", allowed)
            out.update(check_options(cls, {key: option_from_text(cls, key, value, source)}, source))
    problems.raise_any()
    return out


def _declared(cls: type) -> dict:
    from openapps_sim.agents import agent_options

    return agent_options(cls) or {}


def _label(args: argparse.Namespace, config: str | None) -> str | None:
    """``--label``, else the model named by ``--model``, else the config's file name."""
    label = args.label
    if label is not None:
        if not label.strip():
            raise ConfigError("--label", "label", "empty", "a name such as my-model")
        return label.strip()
    if args.model:
        return args.model
    return Path(config).stem if config else None
