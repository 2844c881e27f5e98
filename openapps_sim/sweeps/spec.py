"""Sweep specs: the YAML that names agents x tasks x variations x seeds (x any swept option),
checked key by key, expanded into :class:`~openapps_sim.sweeps.record.EpisodeSpec`s (see docs/sweeps.md)."""

from __future__ import annotations

import fnmatch
import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from openapps_sim.agent import hide_secrets, load_agent_class, registered_agents
from openapps_sim.config.limits import (
    MAX_SAMPLE,
    MAX_SEEDS,
    MAX_STEPS,
    MAX_TRIALS,
    MAX_WORKERS,
    check_count,
    check_episodes,
    check_seed,
)
from openapps_sim.config.packs import display_path, read_yaml
from openapps_sim.config.sampler import sample_names
from openapps_sim.config.world import AUTO, check_language, check_variation
from openapps_sim.envs.apptools import INTERFACES
from openapps_sim.errors import ConfigError, unknown_name
from openapps_sim.sweeps.interface import DEFAULT_INTERFACE, check_agents
from openapps_sim.sweeps.record import EpisodeSpec, parse_viewport
from openapps_sim.taskkit import ENGLISH_STYLES, TERMINATIONS, all_families
from openapps_sim.taskkit.language import goal_languages

SPEC_KEYS = {
    "name": "a short name for the sweep",
    "description": "free text",
    "agents": "list of agent names or {name, config, label, ...options} mappings",
    "tasks": "list of family ids or globs such as todo.*",
    "variations": "list of pack expressions, or {sample: {n, seed}} for generated packs",
    "seeds": "a list of seeds, or a number n meaning 0..n-1 (each seed is one task instance)",
    "trials": "runs per instance: the same instance and goal text, each with its own agent seed (default 1)",
    "style": "fix the English goal phrasing: plain, casual or context (default: drawn per seed)",
    "max_steps": "step budget per episode (default: the family's)",
    "viewports": "list of WIDTHxHEIGHT (a sweep axis)",
    "temperatures": "list of LLM temperatures (a sweep axis for LLM agents)",
    "languages": "goal languages: codes with a tasks/phrasings/<lang>.yaml, or auto, the world's own (the default; "
    "a sweep axis)",
    "workers": "number of worker processes",
    "record_screenshots": "save a screenshot per step for the trajectory viewer",
    "interface": "gui (page actions), api (the apps' own tools) or mixed; one or a list (a sweep axis)",
    "backends": "chromium (a real browser) and/or text (no browser, the same observation); a sweep axis",
    "termination": "auto (an episode ends once the state is right, the paper's) and/or agent (only when the agent "
    "declares it is done); a sweep axis",
}


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
                variation=variation,
                seed=seed,
                max_steps=self.max_steps,
                viewport=viewport,
                language=lang,
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


def _as_list(value: Any, source: str, key: str) -> list:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, (str, int, float, dict)):
        return [value]
    raise ConfigError(source, key, f"expected a list, got {type(value).__name__}")


def load_spec(path: str | Path, overrides: dict | None = None) -> SweepSpec:
    """Read and validate a sweep spec (a path, or the name of a spec shipped in experiments/)."""
    p, source, raw = _read_spec(path, overrides)
    # checked in this order, so that a spec with several mistakes reports the first one
    agents, tasks, variations = _agents(raw, source), _tasks(raw, source), _variations(raw, source)
    seeds, viewports, temps = _seeds(raw.get("seeds", 1), source), _viewports(raw, source), _temperatures(raw, source)
    languages, workers = _languages(raw, source), check_workers(raw.get("workers", 1), source, "workers")
    options = _episode_options(raw, source)
    interfaces = _choices(raw.get("interface", DEFAULT_INTERFACE), source, "interface", INTERFACES, "interface")
    check_agents([a["name"] for a in agents], interfaces, source)
    backends = backends_of(raw.get("backends", ["chromium"]), source)
    terminations = _choices(raw.get("termination", "auto"), source, "termination", TERMINATIONS)
    sizes = {"agents": len(agents), "tasks": len(tasks), "variations": len(variations), "seeds": len(seeds)}
    sizes |= {"viewports": len(viewports), "temperatures": len(temps), "languages": len(languages)}
    sizes |= {"interfaces": len(interfaces), "backends": len(backends), "terminations": len(terminations)}
    check_episodes({**sizes, "trials": options["trials"]}, source)  # before any episode is made
    return SweepSpec(
        name=str(raw.get("name", p.stem)),
        source=source,
        raw=raw,
        agents=agents,
        tasks=tasks,
        variations=variations,
        seeds=seeds,
        viewports=viewports,
        temperatures=temps,
        languages=languages,
        workers=workers,
        interfaces=interfaces,
        backends=backends,
        terminations=terminations,
        **options,
    )


def _read_spec(path: str | Path, overrides: dict | None) -> tuple[Path, str, dict]:
    """The spec file (a path, or a shipped spec's name), its display name and its mapping with
    ``overrides`` applied; an unknown key is an error."""
    p = Path(path)
    if not p.exists():
        shipped = Path(str(resources.files("openapps_sim.experiments"))) / (
            str(path) if str(path).endswith(".yaml") else f"{path}.yaml"
        )
        if not shipped.exists():
            names = sorted(x.stem for x in shipped.parent.glob("*.yaml"))
            raise ConfigError(str(path), "", "no such sweep spec file", "a path, or one of " + ", ".join(names))
        p = shipped
    source = display_path(p)
    raw = read_yaml(p) or {}
    if not isinstance(raw, dict):
        raise ConfigError(source, "", "expected a mapping at the top level")
    raw = dict(raw, **(overrides or {}))
    for key in raw:
        if key not in SPEC_KEYS:
            raise ConfigError(source, key, "unknown key", ", ".join(SPEC_KEYS))
    return p, source, raw


AGENT_KEYS = ("name", "config", "label")


def _agents(raw: dict, source: str) -> list[dict]:
    """The spec's agents: ``{name, config, label, options, llm}`` each; an entry's keys besides
    name, config and label are options on top of its config, checked against the agent's."""
    from openapps_sim.agents import check_options  # the agents package owns the options (a plug-in folder)

    agents = []
    labels: dict[str, int] = {}
    for i, entry in enumerate(_as_list(raw.get("agents"), source, "agents")):
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict) or "name" not in entry:
            raise ConfigError(source, f"agents[{i}]", "expected an agent name or a mapping with 'name'")
        name = entry["name"]
        known = registered_agents()
        if name not in known and ":" not in name:
            raise unknown_name(source, f"agents[{i}].name", name, list(known) + ["<module>:<Class>"])
        cls = load_agent_class(name, f"{source}: agents[{i}].name")
        label = entry.get("label")
        if label is not None and (not isinstance(label, str) or not label.strip()):
            raise ConfigError(source, f"agents[{i}].label", f"expected a name, got {label!r}", "a non-empty string")
        if label in labels:
            raise ConfigError(
                source, f"agents[{i}].label", f"{label!r} already labels agents[{labels[label]}]", "one label per agent"
            )
        if label is not None:
            labels[label] = i
        options = {k: v for k, v in entry.items() if k not in AGENT_KEYS}
        check_options(cls, options, source, f"agents[{i}].", also=AGENT_KEYS)
        agents.append(
            {"name": name, "config": entry.get("config"), "label": label, "options": options, "llm": bool(cls.samples)}
        )
    if not agents:
        raise ConfigError(source, "agents", "at least one agent is required")
    return agents


def _tasks(raw: dict, source: str) -> list[str]:
    families = all_families()
    tasks: list[str] = []
    for i, pattern in enumerate(_as_list(raw.get("tasks"), source, "tasks")):
        matched = sorted(f for f in families if fnmatch.fnmatchcase(f, str(pattern)))
        if not matched:
            raise unknown_name(source, f"tasks[{i}]", str(pattern), families)
        tasks += [m for m in matched if m not in tasks]
    if not tasks:
        raise ConfigError(source, "tasks", "at least one task is required")
    return tasks


def _variations(raw: dict, source: str) -> list[str]:
    variations: list[str] = []
    for i, entry in enumerate(_as_list(raw.get("variations", ["default"]), source, "variations")):
        if isinstance(entry, dict):
            sample = entry.get("sample")
            if set(entry) != {"sample"} or not isinstance(sample, dict) or set(sample) - {"n", "seed"}:
                raise ConfigError(source, f"variations[{i}]", "expected a pack expression or {sample: {n: N, seed: S}}")
            n = check_count(sample.get("n", 10), source, f"variations[{i}].sample.n", MAX_SAMPLE)
            seed = check_seed(sample.get("seed", 0), source, f"variations[{i}].sample.seed")
            variations += [v for v in sample_names(n, seed) if v not in variations]
            continue
        if not isinstance(entry, (str, int)) or isinstance(entry, bool):
            raise ConfigError(
                source, f"variations[{i}]", f"expected a pack expression, got {entry!r}", "dark_theme+german"
            )
        expression = check_variation(str(entry), source, f"variations[{i}]")
        if expression not in variations:
            variations.append(expression)
    if not variations:
        raise ConfigError(source, "variations", "the list is empty", "pack expressions, or leave the key out: default")
    return variations


def _viewports(raw: dict, source: str) -> list[str]:
    viewports = [str(v) for v in _as_list(raw.get("viewports", ["1280x720"]), source, "viewports")]
    for v in viewports:
        parse_viewport(v, source)
    return viewports


def _temperatures(raw: dict, source: str) -> list[float | None]:
    temps = _as_list(raw.get("temperatures", [None]), source, "temperatures")
    for i, t in enumerate(temps):
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t < math.inf):
            raise ConfigError(
                source, f"temperatures[{i}]", f"expected a number >= 0, got {t!r}", "numbers such as 0, 0.7, 1.0"
            )
    return temps


def _languages(raw: dict, source: str) -> list[str]:
    langs = [str(x) for x in _as_list(raw.get("languages", [AUTO]), source, "languages")]
    for lang in langs:  # the phrasing files present (tasks/phrasings/<lang>.yaml), or auto
        check_language(lang, source, goal_languages(), "languages")
    return langs


def _episode_options(raw: dict, source: str) -> dict:
    """``max_steps``, ``trials``, ``style`` and ``record_screenshots``, checked."""
    max_steps = raw.get("max_steps")
    if max_steps is not None:
        max_steps = check_count(max_steps, source, "max_steps", MAX_STEPS)
    trials = check_count(raw.get("trials", 1), source, "trials", MAX_TRIALS)
    style = raw.get("style")
    if style is not None and style not in ENGLISH_STYLES:
        raise ConfigError(source, "style", f"unknown style {style!r}", ", ".join(ENGLISH_STYLES))
    shots = raw.get("record_screenshots", False)
    if not isinstance(shots, bool):
        raise ConfigError(source, "record_screenshots", f"expected true or false, got {shots!r}", "true, false")
    return {"max_steps": max_steps, "trials": trials, "style": style, "record_screenshots": shots}


def backends_of(raw: Any, source: str) -> list[str]:
    """The spec's ``backends``: one backend or a list (a sweep axis)."""
    from openapps_sim.envs.registration import BACKENDS

    return _choices(raw, source, "backends", BACKENDS, "backend")


def _choices(raw: Any, source: str, key: str, allowed: tuple[str, ...], noun: str = "value") -> list[str]:
    """One value of ``allowed`` or a list of them (a sweep axis), each once, in the order given;
    a value not allowed is an "unknown <noun>"."""
    values = _as_list(raw, source, key)
    if not values:
        raise ConfigError(source, key, "empty list", ", ".join(allowed))
    for v in values:
        if v not in allowed:
            raise ConfigError(source, key, f"unknown {noun} {v!r}", ", ".join(allowed))
    return list(dict.fromkeys(values))


def check_workers(value: Any, source: str = "--workers", path: str = "workers") -> int:
    """A worker count: 1 to :data:`MAX_WORKERS`, else a :class:`ConfigError`."""
    return check_count(value, source, path, MAX_WORKERS)


def _seeds(value: Any, source: str) -> list[int]:
    """A count n (seeds 0..n-1) or a list of seeds, each seed once."""
    if isinstance(value, list):
        if not 1 <= len(value) <= MAX_SEEDS:
            problem = "the list is empty" if not value else f"{len(value)} seeds"
            raise ConfigError(
                source, "seeds", problem, f"a number n (seeds 0..n-1) or a list of seeds, 1 to {MAX_SEEDS}"
            )
        return list(dict.fromkeys(check_seed(x, source, f"seeds[{i}]") for i, x in enumerate(value)))
    return list(range(check_count(value, source, "seeds", MAX_SEEDS)))
