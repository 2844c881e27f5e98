"""Sweep specs: the YAML that names agents x tasks x variations x seeds (x any swept option),
declared in the schema language (:mod:`openapps_sim.config.schema`: every key checked, every
problem of a spec reported at once) and expanded into
:class:`~openapps_sim.sweeps.record.EpisodeSpec`s (see docs/sweeps.md)."""

from __future__ import annotations

import fnmatch
import hashlib
import itertools
import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from openapps_sim.agent import hide_secrets
from openapps_sim.config.limits import (
    MAX_SAMPLE,
    MAX_STEPS,
    MAX_TRIALS,
    MAX_WORKERS,
    Count,
    Seed,
    Seeds,
    check_count,
    check_episodes,
)
from openapps_sim.config.packs import display_path, read_yaml
from openapps_sim.config.sampler import sample_names
from openapps_sim.config.schema import Any_, Bool, Enum, Field, Nullable, Number, OneOrList, Record, Str
from openapps_sim.config.world import AUTO, Language, WorldSpec, check_variation
from openapps_sim.envs.apptools import INTERFACES
from openapps_sim.errors import ConfigError, Problems, allowed_names, did_you_mean
from openapps_sim.sweeps.interface import DEFAULT_INTERFACE, check_agents
from openapps_sim.sweeps.record import EpisodeSpec, parse_viewport
from openapps_sim.sweeps.specagents import AGENT_KEYS, spec_agents
from openapps_sim.taskkit import ENGLISH_STYLES, TERMINATIONS, all_families, unknown_task
from openapps_sim.taskkit.language import goal_languages


class Agents(Field):
    """The spec's ``agents``: names or ``{name, config, label, ...options}`` mappings
    (:func:`~openapps_sim.sweeps.specagents.spec_agents`)."""

    type_name = "a list of agent names or {name, config, label, ...options} mappings"

    def check(self, value, source, path):
        return spec_agents(value if isinstance(value, list) else [value], source)


class Tasks(Field):
    """Family ids or globs (``todo.*``), each family once, in the order matched; a pattern
    written ``!glob`` takes out what the patterns before it matched (``["*", "!todo.*"]``)."""

    type_name = "a list of family ids or globs such as todo.* (!todo.* takes them out)"

    def check(self, value, source, path):
        families, tasks, problems = all_families(), [], Problems()
        for i, pattern in enumerate(value if isinstance(value, list) else [value]):
            text = str(pattern)
            glob = text.removeprefix("!")
            matched = sorted(f for f in families if fnmatch.fnmatchcase(f, glob))
            if not matched:
                problems.add(unknown_task(source, f"{path}[{i}]", text))
            elif text.startswith("!"):
                tasks = [t for t in tasks if t not in matched]
            else:
                tasks += [m for m in matched if m not in tasks]
        problems.raise_any()
        if not tasks:
            raise ConfigError(source, path, "at least one task is required", self.type_name)
        return tasks


SAMPLE = Record(n=Count(MAX_SAMPLE, 10, "how many generated packs"), seed=Seed(0, "the first generated seed"))


class Variations(Field):
    """Pack expressions (each :func:`~openapps_sim.config.world.canonical`: every spelling of one
    composition is one version) and ``{sample: {n, seed}}`` entries (n generated packs), each
    version once."""

    type_name = "pack expressions, or {sample: {n, seed}} for generated packs"

    def check(self, value, source, path):
        entries = value if isinstance(value, list) else [value]
        if not entries:
            raise ConfigError(source, path, "the list is empty", "pack expressions, or leave the key out: default")
        variations: list[str] = []
        problems = Problems()
        for i, entry in enumerate(entries):
            with problems.guard():
                variations += [v for v in self.entry(entry, source, f"{path}[{i}]") if v not in variations]
        problems.raise_any()
        return variations

    @staticmethod
    def entry(entry: Any, source: str, key: str) -> list[str]:
        """One entry: its pack expression, or the generated packs it samples."""
        if isinstance(entry, dict):
            if set(entry) != {"sample"}:
                raise ConfigError(source, key, "expected a pack expression or {sample: {n: N, seed: S}}")
            sample = SAMPLE.check(entry["sample"], source, f"{key}.sample")
            return sample_names(sample["n"], sample["seed"])
        if not isinstance(entry, (str, int)) or isinstance(entry, bool):
            raise ConfigError(source, key, f"expected a pack expression, got {entry!r}", "dark_theme+german")
        return [check_variation(str(entry), source, key)]


class Viewport(Field):
    """``WIDTHxHEIGHT`` (:func:`~openapps_sim.sweeps.record.parse_viewport`), kept as written."""

    type_name = "WIDTHxHEIGHT such as 1280x720"

    def check(self, value, source, path):
        parse_viewport(str(value), source)
        return str(value)


@lru_cache(maxsize=1)
def spec_record() -> Record:
    """Every key a sweep spec may hold, in the order its problems are reported."""
    from openapps_sim.envs.registration import BACKENDS

    axis = "a sweep axis"
    return Record(
        name=Nullable(Str(None, "a short name for the sweep (default: the file's name)")),
        description=Any_("", "free text"),
        agents=Agents(doc="list of agent names or {name, config, label, ...options} mappings"),
        tasks=Tasks(doc="list of family ids or globs such as todo.*"),
        variations=Variations(["default"], "list of pack expressions, or {sample: {n, seed}} for generated packs"),
        seeds=Seeds([0], "a list of seeds, or a number n meaning 0..n-1 (each seed is one task instance)"),
        trials=Count(MAX_TRIALS, 1, "runs per instance: the same instance and goal text, each with its own agent seed"),
        style=Nullable(
            Enum(ENGLISH_STYLES, None, "fix the English goal phrasing (default: drawn per seed)", what="style")
        ),
        max_steps=Nullable(Count(MAX_STEPS, None, "step budget per episode (default: the family's)")),
        viewports=OneOrList(Viewport(), ["1280x720"], f"list of WIDTHxHEIGHT ({axis})"),
        temperatures=OneOrList(
            Nullable(Number(lo=0, allowed="numbers such as 0, 0.7, 1.0")), [None], f"LLM temperatures ({axis})"
        ),
        languages=OneOrList(
            Language(tuple(goal_languages())),
            [AUTO],
            f"goal languages: codes with a tasks/phrasings/<lang>.yaml, or auto, the world's own ({axis})",
        ),
        workers=Count(MAX_WORKERS, 1, "number of worker processes"),
        record_screenshots=Bool(False, "save a screenshot per step for the trajectory viewer"),
        interface=OneOrList(
            Enum(INTERFACES, what="interface"), [DEFAULT_INTERFACE], f"gui, api or mixed; one or a list ({axis})"
        ),
        backends=OneOrList(Enum(BACKENDS, what="backend"), ["chromium"], f"chromium and/or text ({axis})"),
        termination=OneOrList(
            Enum(TERMINATIONS, what="termination"), ["auto"], f"auto and/or agent (when an episode ends; {axis})"
        ),
    )


@dataclass
class SweepSpec:
    name: str
    source: str
    raw: dict
    agents: list[dict]
    tasks: list[str]
    variations: list[str]
    seeds: list[int]
    max_steps: int | None = None
    viewports: list[str] = field(default_factory=lambda: ["1280x720"])
    temperatures: list[float | None] = field(default_factory=lambda: [None])
    languages: list[str] = field(default_factory=lambda: [AUTO])
    workers: int = 1
    record_screenshots: bool = False
    trials: int = 1
    style: str | None = None
    interfaces: list[str] = field(default_factory=lambda: ["gui"])
    backends: list[str] = field(default_factory=lambda: ["chromium"])
    terminations: list[str] = field(default_factory=lambda: ["auto"])

    @property
    def spec_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.raw, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def episodes(self) -> list[EpisodeSpec]:
        """Every episode of the spec, once (``auto`` and the language it resolves to are one)."""
        out: dict[str, EpisodeSpec] = {}
        for agent, task, variation, seed, viewport, temp, lang, trial, interface, backend, end in itertools.product(
            self.agents,
            self.tasks,
            self.variations,
            self.seeds,
            self.viewports,
            self.temperatures,
            self.languages,
            range(self.trials),
            self.interfaces,
            self.backends,
            self.terminations,
        ):
            options: tuple = ()
            if temp is not None and agent.get("llm", False):
                options = (("temperature", temp),)
            elif temp is not None and len(self.temperatures) > 1 and not agent.get("llm", False):
                # A temperature axis means nothing to a non-LLM agent: run it once.
                if temp != self.temperatures[0]:
                    continue
            episode = EpisodeSpec(
                agent=agent["name"],
                agent_config=agent.get("config"),
                agent_options=options,
                agent_overrides=tuple(sorted(agent["options"].items())),
                label=agent["label"],
                task=task,
                world=WorldSpec(variation, seed, lang),  # each value checked when the spec was loaded
                max_steps=self.max_steps,
                viewport=viewport,
                record_screenshots=self.record_screenshots,
                trial=trial,
                style=self.style,
                interface=interface,
                backend=backend,
                termination=end,
            )
            out.setdefault(episode.episode_id, episode)
        return list(out.values())

    def with_agent(self, entry: dict) -> SweepSpec:
        """This spec with ``entry`` (``{name, config, label, options, llm}``) in place of its LLM
        agents (``openapps sweep SPEC --agent-config CFG``), or added when it has none; its
        ``raw`` (the manifest's spec and the resume check's hash) says so, secrets hidden."""
        slot = next((i for i, a in enumerate(self.agents) if a["llm"]), len(self.agents))
        agents = [a for a in self.agents[:slot] if not a["llm"]] + [entry]
        agents += [a for a in self.agents[slot:] if not a["llm"]]
        written = [
            {**{k: a[k] for k in AGENT_KEYS if a.get(k) is not None}, **hide_secrets(a["options"])} for a in agents
        ]
        return replace(self, agents=agents, raw=dict(self.raw, agents=written))

    def axes(self) -> list[str]:
        """Columns that vary in this sweep (the report breaks results down by each)."""
        axes = []
        for name, values in [
            ("agent", self.agents),
            ("task", self.tasks),
            ("variation", self.variations),
            ("seed", self.seeds),
            ("viewport", self.viewports),
            ("temperature", self.temperatures),
            ("language", self.languages),
            ("interface", self.interfaces),
            ("backend", self.backends),
            ("termination", self.terminations),
        ]:
            if len(values) > 1:
                axes.append(name)
        return axes


def load_spec(path: str | Path, overrides: dict | None = None) -> SweepSpec:
    """Read and validate a sweep spec (a path, or the name of a spec shipped in experiments/).
    Every key is checked, and every problem found is raised at once (:class:`ConfigErrors`);
    then the rules across keys (every agent can act through every interface, the episodes'
    number)."""
    p, source, raw = _read_spec(path, overrides)
    v = spec_record().check(raw, source, "")
    check_agents([a["name"] for a in v["agents"]], v["interface"], source)
    axes = ("agents", "tasks", "variations", "seeds", "viewports", "temperatures", "languages")
    sizes = {k: len(v[k]) for k in axes} | {"interfaces": len(v["interface"]), "backends": len(v["backends"])}
    sizes |= {"terminations": len(v["termination"]), "trials": v["trials"]}
    check_episodes(sizes, source)  # before any episode is made
    return SweepSpec(
        name=v["name"] if v["name"] is not None else p.stem,
        source=source,
        raw=raw,
        interfaces=v["interface"],
        terminations=v["termination"],
        **{k: v[k] for k in (*axes, "workers", "max_steps", "trials", "style", "record_screenshots", "backends")},
    )


SPEC_LISTING = "openapps sweep --help"  # where the shipped specs are listed


def _read_spec(path: str | Path, overrides: dict | None) -> tuple[Path, str, dict]:
    """The spec file (a path, or a shipped spec's name), its display name and its mapping with
    ``overrides`` applied."""
    p = Path(path)
    if not p.exists():
        folder = Path(str(resources.files("openapps_sim.experiments")))
        shipped = folder / (p.name if p.suffix == ".yaml" else f"{p.name}.yaml")
        if p.name != str(path) or not shipped.exists():  # a path with folders is never a shipped name
            names = [x.stem for x in folder.glob("*.yaml")]
            hint = did_you_mean(Path(str(path)).stem, names)
            allowed = "a path, or " + allowed_names(names, listing=SPEC_LISTING, noun="shipped specs")
            raise ConfigError(str(path), "", f"no such sweep spec file{hint}", allowed)
        p = shipped
    source = display_path(p)
    raw = read_yaml(p) or {}
    if not isinstance(raw, dict):
        raise ConfigError(source, "", "expected a mapping at the top level")
    return p, source, dict(raw, **(overrides or {}))


def check_workers(value: Any, source: str = "--workers", path: str = "workers") -> int:
    """A worker count: 1 to :data:`MAX_WORKERS`, else a :class:`ConfigError`."""
    return check_count(value, source, path, MAX_WORKERS)
