"""The agent interface every agent implements, and the registry that finds agents by name."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from openapps_sim.errors import ConfigError, unknown_name


class Agent:
    """Reset with the goal, act on observations, report usage.

    ``act`` returns one BrowserGym action string (``click('12')``, ``fill('7', 'milk')``,
    ``send_msg_to_user('done')`` ...). ``obs_mode`` and ``action_space`` tell the runner what
    the agent reads and writes. Only ``privileged`` agents (the oracle) receive the task's
    parameters in ``task_info``; others see the goal text alone, and, acting through app tools,
    the task's apps (:func:`task_info_for`).
    """

    name = "agent"
    obs_mode = "axtree"  # both | axtree | screenshot
    action_space = "bid"  # bid | coord | all
    privileged = False
    # the interfaces the agent can act through (gui: page actions; api: app tools; mixed: both);
    # the runner sets ``interface`` before ``reset``
    interfaces: tuple[str, ...] = ("gui",)
    interface = "gui"
    samples = False  # True when the agent samples (an LLM): sampling options such as temperature apply
    # What the agent said to a model at its last step, for the trajectory (None: it asked no model):
    # {"request": the JSON body as posted, its system prompt as "[[system:<id>]]" and its images as
    # "[[image:<name>]]"; "replies": [{text, prompt_tokens, completion_tokens, latency_s, attempts,
    # reasked}]; "replies_not_recorded"; "system": {id: text}; "images": {name: base64}}
    # (docs/agents.md, "The recorded exchange")
    last_exchange: dict | None = None

    def __init__(self, **config: Any) -> None:
        self.config = config

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        raise NotImplementedError

    def act(self, obs: dict) -> str:
        raise NotImplementedError

    # Offline evaluation (``openapps offline``): the agent answers at every step of a gold
    # trajectory, and the world moves on with the gold action.
    step_instruction: str | None = None

    def instruct(self, text: str | None) -> None:
        """A short instruction for the next step only ("Click the 'Add' button"), given before
        ``act`` in step-by-step evaluation; None in goal-only evaluation. An agent that ignores
        ``step_instruction`` is scored on the goal alone."""
        self.step_instruction = text

    def follow(self, action: str) -> None:
        """The action actually taken at the step ``act`` just answered (the gold one, which may
        differ from the agent's answer). An agent that remembers its own steps replaces its
        answer with it, so its next step starts from the true history."""

    @classmethod
    def summary(cls) -> str:
        """One plain-text line saying what the agent is: its ``description``, else the first line
        of its docstring with reStructuredText markup removed."""
        text = getattr(cls, "description", "") or (cls.__doc__ or "").strip().split("\n\n")[0]
        text = re.sub(r":\w+:`~?([^`]+)`", r"\1", " ".join(text.split()))
        return text.replace("``", "")

    def usage(self) -> dict:
        """Per-episode usage (tokens, requests...), reset by ``reset``."""
        return {}


#: what of ``task_info`` an agent that is not privileged reads when it acts through app tools:
#: the task's apps, whose tools its prompt lists (docs/agents.md); never the parameters
PUBLIC_TASK_INFO = ("apps",)


def task_info_for(agent: Agent, task_info: dict | None) -> dict:
    """The ``task_info`` ``agent`` is reset with: all of it for a privileged agent (the oracle),
    else :data:`PUBLIC_TASK_INFO` for one acting through app tools (api, mixed), else nothing."""
    info = task_info or {}
    if agent.privileged:
        return info
    if agent.interface == "gui":
        return {}
    return {k: info[k] for k in PUBLIC_TASK_INFO if k in info}


# Called with True when an agent starts a call to its model service (one attempt, or the wait
# before the next) and with False when it ends. A sweep worker listens, so that its watchdog
# tells the agent's own time (a hang there is the agent's failure) from the time spent waiting
# on the model service (docs/sweeps.md, "Hangs and deaths").
MODEL_CALL_LISTENERS: list[Callable[[bool], None]] = []


@contextmanager
def calling_model_service() -> Iterator[None]:
    """Around one call of an agent's model client to its model service (an HTTP attempt, a
    back-off wait): the time inside is the model service's, not the agent's own."""
    for listener in list(MODEL_CALL_LISTENERS):
        listener(True)
    try:
        yield
    finally:
        for listener in list(MODEL_CALL_LISTENERS):
            listener(False)


# parts of an option's or header's name that mark its value as a secret (``api_key``,
# ``Authorization``, ``X-Api-Key``); a name ending in ``env`` names a variable, not a secret
SECRET_PARTS = frozenset({"key", "apikey", "token", "secret", "auth", "authorization", "password", "bearer"})


def hide_secrets(value: Any, key: str = "") -> Any:
    """``value`` with every string under a secret-looking name replaced by ``"***"``, inside
    mappings and lists too (for manifests and records: keys belong in environment variables)."""
    if isinstance(value, dict):
        return {k: hide_secrets(v, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [hide_secrets(v, key) for v in value]
    parts = [p for p in re.split(r"[^a-z0-9]+", key.lower()) if p]
    if isinstance(value, str) and parts and parts[-1] != "env" and SECRET_PARTS.intersection(parts):
        return "***"
    return value


@lru_cache(maxsize=1)
def registered_agents() -> dict[str, str]:
    """Every agent class in the ``openapps_sim.agents`` package that names itself (a ``name``
    set in its own class body), as ``{name: "module:Class"}``. An agent is added by adding a
    module there; nothing here lists them."""
    import openapps_sim.agents as agents_pkg  # the plug-in folder: found at run time, never named by the engine

    found: dict[str, str] = {}
    for info in pkgutil.iter_modules(agents_pkg.__path__):
        module = importlib.import_module(f"{agents_pkg.__name__}.{info.name}")
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, Agent)
                and obj.__module__ == module.__name__
                and "name" in vars(obj)
            ):
                found[obj.name] = f"{obj.__module__}:{obj.__qualname__}"
    return dict(sorted(found.items()))


def unknown_agent(source: str, key: str, name: str) -> ConfigError:
    """The error for an agent name that is not registered: the closest names, and the others."""
    return unknown_name(source, key, name, registered_agents(), ["<module>:<Class>"], "openapps agents", "agents")


def load_agent_class(name: str, source: str = "--agent") -> type[Agent]:
    """An agent class by registry name or by import path ``package.module:Class``."""
    path = registered_agents().get(name)
    if path is None:
        if ":" not in name:
            raise unknown_agent(source, "agent", name)
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
