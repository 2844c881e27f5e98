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

from openapps_sim.agent import hide_secrets
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
from openapps_sim.errors import ConfigError, Problems, allowed_names, did_you_mean, unknown_key, unknown_name
from openapps_sim.sweeps.interface import DEFAULT_INTERFACE, check_agents
from openapps_sim.sweeps.record import EpisodeSpec, parse_viewport
from openapps_sim.sweeps.specagents import AGENT_KEYS, spec_agents
from openapps_sim.taskkit import ENGLISH_STYLES, TERMINATIONS, all_families, unknown_task
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
    """Read and validate a sweep spec (a path, or the name of a spec shipped in experiments/).
    Every key is checked, and every problem found is raised at once (:class:`ConfigErrors`)."""
    problems = Problems()
    p, source, raw = _read_spec(path, overrides, problems)
    check = problems.check
    agents = check(spec_agents, _as_list(raw.get("agents"), source, "agents"), source, default=[])
    tasks = check(_tasks, raw, source, default=[])
    variations, seeds = (
        check(_variations, raw, source, default=[]),
        check(_seeds, raw.get("seeds", 1), source, default=[]),
    )
    viewports, temps = check(_viewports, raw, source, default=[]), check(_temperatures, raw, source, default=[])
    languages = check(_languages, raw, source, default=[])
    workers = check(check_workers, raw.get("workers", 1), source, "workers", default=1)
    options = check(_episode_options, raw, source, default={})
    interfaces = check(_choices, raw.get("interface", DEFAULT_INTERFACE), source, "interface", INTERFACES, "interface")
    if agents and interfaces:
        check(check_agents, [a["name"] for a in agents], interfaces, source)
    backends = check(backends_of, raw.get("backends", ["chromium"]), source)
    terminations = check(_choices, raw.get("termination", "auto"), source, "termination", TERMINATIONS)
    problems.raise_any()  # the sizes below mean something only for a spec without problems
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


SPEC_LISTING = "openapps sweep --help"  # where the shipped specs are listed


def _read_spec(path: str | Path, overrides: dict | None, problems: Problems) -> tuple[Path, str, dict]:
    """The spec file (a path, or a shipped spec's name), its display name and its mapping with
    ``overrides`` applied; each unknown key is a problem (and is left out)."""
    p = Path(path)
    if not p.exists():
        shipped = Path(str(resources.files("openapps_sim.experiments"))) / (
            str(path) if str(path).endswith(".yaml") else f"{path}.yaml"
        )
        if not shipped.exists():
            names = [x.stem for x in shipped.parent.glob("*.yaml")]
            hint = did_you_mean(Path(str(path)).stem, names)
            allowed = "a path, or " + allowed_names(names, listing=SPEC_LISTING, noun="shipped specs")
            raise ConfigError(str(path), "", f"no such sweep spec file{hint}", allowed)
        p = shipped
    source = display_path(p)
    raw = read_yaml(p) or {}
    if not isinstance(raw, dict):
        raise ConfigError(source, "", "expected a mapping at the top level")
    raw = dict(raw, **(overrides or {}))
    for key in [k for k in raw if k not in SPEC_KEYS]:
        problems.add(unknown_key(source, str(key), key, SPEC_KEYS, keep_order=True))
        del raw[key]
    return p, source, raw


def _tasks(raw: dict, source: str) -> list[str]:
    families = all_families()
    tasks: list[str] = []
    problems = Problems()
    for i, pattern in enumerate(_as_list(raw.get("tasks"), source, "tasks")):
        matched = sorted(f for f in families if fnmatch.fnmatchcase(f, str(pattern)))
        if not matched:
            problems.add(unknown_task(source, f"tasks[{i}]", str(pattern)))
        tasks += [m for m in matched if m not in tasks]
    problems.raise_any()
    if not tasks:
        raise ConfigError(source, "tasks", "at least one task is required")
    return tasks


def _variations(raw: dict, source: str) -> list[str]:
    variations: list[str] = []
    problems = Problems()
    for i, entry in enumerate(_as_list(raw.get("variations", ["default"]), source, "variations")):
        with problems.guard():
            variations += [v for v in _variation(entry, source, f"variations[{i}]") if v not in variations]
    problems.raise_any()
    if not variations:
        raise ConfigError(source, "variations", "the list is empty", "pack expressions, or leave the key out: default")
    return variations


def _variation(entry: Any, source: str, key: str) -> list[str]:
    """One entry of ``variations``: its pack expression, or the generated packs it samples."""
    if isinstance(entry, dict):
        sample = entry.get("sample")
        if set(entry) != {"sample"} or not isinstance(sample, dict) or set(sample) - {"n", "seed"}:
            raise ConfigError(source, key, "expected a pack expression or {sample: {n: N, seed: S}}")
        problems = Problems()
        n = problems.check(check_count, sample.get("n", 10), source, f"{key}.sample.n", MAX_SAMPLE)
        seed = problems.check(check_seed, sample.get("seed", 0), source, f"{key}.sample.seed")
        problems.raise_any()
        return sample_names(n, seed)
    if not isinstance(entry, (str, int)) or isinstance(entry, bool):
        raise ConfigError(source, key, f"expected a pack expression, got {entry!r}", "dark_theme+german")
    return [check_variation(str(entry), source, key)]


def _viewports(raw: dict, source: str) -> list[str]:
    viewports = [str(v) for v in _as_list(raw.get("viewports", ["1280x720"]), source, "viewports")]
    problems = Problems()
    for v in viewports:
        problems.check(parse_viewport, v, source)
    problems.raise_any()
    return viewports


def _temperatures(raw: dict, source: str) -> list[float | None]:
    temps = _as_list(raw.get("temperatures", [None]), source, "temperatures")
    problems = Problems()
    for i, t in enumerate(temps):
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t < math.inf):
            problem = f"expected a number >= 0, got {t!r}"
            problems.add(ConfigError(source, f"temperatures[{i}]", problem, "numbers such as 0, 0.7, 1.0"))
    problems.raise_any()
    return temps


def _languages(raw: dict, source: str) -> list[str]:
    langs = [str(x) for x in _as_list(raw.get("languages", [AUTO]), source, "languages")]
    problems = Problems()
    for lang in langs:  # the phrasing files present (tasks/phrasings/<lang>.yaml), or auto
        problems.check(check_language, lang, source, goal_languages(), "languages")
    problems.raise_any()
    return langs


def _episode_options(raw: dict, source: str) -> dict:
    """``max_steps``, ``trials``, ``style`` and ``record_screenshots``, checked."""
    problems = Problems()
    max_steps = raw.get("max_steps")
    if max_steps is not None:
        max_steps = problems.check(check_count, max_steps, source, "max_steps", MAX_STEPS)
    trials = problems.check(check_count, raw.get("trials", 1), source, "trials", MAX_TRIALS)
    style = raw.get("style")
    if style is not None and style not in ENGLISH_STYLES:
        problems.add(unknown_name(source, "style", style, ENGLISH_STYLES, what="style", keep_order=True))
    shots = raw.get("record_screenshots", False)
    if not isinstance(shots, bool):
        problems.add(ConfigError(source, "record_screenshots", f"expected true or false, got {shots!r}", "true, false"))
    problems.raise_any()
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
    problems = Problems()
    for v in values:
        if v not in allowed:
            problems.add(unknown_name(source, key, v, allowed, what=noun, keep_order=True))
    problems.raise_any()
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
        problems = Problems()
        seeds = [problems.check(check_seed, x, source, f"seeds[{i}]") for i, x in enumerate(value)]
        problems.raise_any()
        return list(dict.fromkeys(seeds))
    return list(range(check_count(value, source, "seeds", MAX_SEEDS)))
