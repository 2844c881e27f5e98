"""The taskset: OpenApps-Sim task instances (families x packs x seeds), chosen by its config.

``--env.taskset.tasks`` takes family ids or globs (``todo.*``), ``variations`` pack expressions
(``dark_theme+german``), ``seeds`` a count n (seeds 0..n-1) or a list; every instance is one
task, named ``family/variation/seed``. ``interface`` (gui, api, mixed), ``backend`` (text,
chromium), ``termination`` (auto, agent) and ``language`` hold for all of them. A mistake is the
project's one-line ``ConfigError`` naming the key and what is allowed.
"""

from __future__ import annotations

from collections.abc import Iterator

import verifiers.v1 as vf
from openapps_sim.agents.prompts import system_prompt
from pydantic import model_validator

from openapps_sim.envs.apptools import INTERFACES
from openapps_sim.envs.registration import BACKENDS
from openapps_sim.errors import ConfigError
from openapps_sim.service.rollout import Instance, instances
from openapps_sim.taskkit import TERMINATIONS

SOURCE = "--env.taskset"


class OpenAppsData(vf.TaskData):
    """One instance: what :class:`~openapps_sim.service.rollout.ChatRollout` resets its world to."""

    family: str
    variation: str
    seed: int
    language: str
    interface: str
    backend: str
    termination: str


class OpenAppsConfig(vf.TasksetConfig):
    tasks: list[str] = ["todo.add_item"]
    """Task family ids or globs (todo.*, *.add_item)."""
    variations: list[str] = ["default"]
    """App versions: pack expressions (default, dark_theme, dark_theme+german, ...)."""
    seeds: list[int] | None = None
    """The seeds (each seed is one instance of a family); default: 0..num_seeds-1."""
    num_seeds: int = 3
    """Without seeds: seeds 0..n-1."""
    language: str = "auto"
    """The goal's language: auto (the world's own) or a code with tasks/phrasings/<lang>.yaml."""
    interface: str = "gui"
    """gui (page actions), api (the apps' own tools, no page) or mixed (both)."""
    backend: str = "text"
    """text (no browser, the page tree from the server's HTML) or chromium."""
    termination: str = "auto"
    """auto (an episode ends once the state is right) or agent (when the agent declares it)."""

    @model_validator(mode="after")
    def check(self) -> OpenAppsConfig:
        """Checked where vf-eval checks its flags, so a mistake is its one-line message."""
        try:
            self.instances()
        except ConfigError as e:
            raise ValueError(str(e)) from None
        return self

    def instances(self) -> list[Instance]:
        """Every instance the config names (a ``ConfigError`` for a mistake)."""
        for value, key, allowed in (
            (self.interface, "interface", INTERFACES),
            (self.backend, "backend", BACKENDS),
            (self.termination, "termination", TERMINATIONS),
        ):
            if value not in allowed:
                raise ConfigError(SOURCE, key, f"unknown {key} {value!r}", ", ".join(allowed))
        if self.seeds is not None and "num_seeds" in self.model_fields_set:
            raise ConfigError(SOURCE, "seeds", "both seeds and num_seeds are given", "one of them")
        seeds = self.num_seeds if self.seeds is None else self.seeds
        return instances(self.tasks, self.variations, seeds, self.language, SOURCE)


class OpenAppsTask(vf.Task[OpenAppsData]):
    """An instance; its reward is recorded by :class:`~openapps.env.OpenAppsEnv` from the
    environment's own evaluation."""


class OpenAppsTaskset(vf.Taskset[OpenAppsTask, OpenAppsConfig]):
    def load(self) -> Iterator[OpenAppsTask]:
        c = self.config
        system = system_prompt("axtree", "bid", interface=c.interface)
        for inst in c.instances():
            yield OpenAppsTask(
                OpenAppsData(
                    id=inst.name,
                    name=inst.name,
                    prompt=None,  # the environment opens the exchange with the first observation
                    system_prompt=system,
                    family=inst.task,
                    variation=inst.variation,
                    seed=inst.seed,
                    language=inst.language,
                    interface=c.interface,
                    backend=c.backend,
                    termination=c.termination,
                ),
                c.task,
            )
