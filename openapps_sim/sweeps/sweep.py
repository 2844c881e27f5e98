"""Sweeps: agents x tasks x variations x seeds (x any swept option), in parallel, resumable.

A sweep spec is YAML (see ``experiments/*.yaml`` and docs/sweeps.md). Results go to
``OUT/results.jsonl``, one JSON record per finished episode, appended by the parent process
only, one complete line per ``write``; ``--resume`` skips every episode whose id is already
there, so a sweep killed at any moment loses nothing and duplicates nothing (a torn last line
from a kill mid-write is ignored and its episode re-run).
"""

from __future__ import annotations

import fnmatch
import hashlib
import itertools
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapps_sim.errors import BrowserNotFound, ConfigError, unknown_name
from openapps_sim.sweeps.runner import EpisodeSpec, parse_viewport
from openapps_sim.taskkit.language import goal_languages

SPEC_KEYS = {
    "name": "a short name for the sweep",
    "description": "free text",
    "agents": "list of agent names or {name, config, label} mappings",
    "tasks": "list of family ids or globs such as todo.*",
    "variations": "list of pack expressions, or {sample: {n, seed}} for generated packs",
    "seeds": "a list of seeds, or a number n meaning 0..n-1",
    "max_steps": "step budget per episode (default: the family's)",
    "viewports": "list of WIDTHxHEIGHT (a sweep axis)",
    "temperatures": "list of LLM temperatures (a sweep axis for LLM agents)",
    "languages": "goal languages: codes with a tasks/phrasings/<lang>.yaml, or auto (a sweep axis)",
    "workers": "number of worker processes",
    "record_screenshots": "save a screenshot per step for the trajectory viewer",
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
    languages: list[str] = field(default_factory=lambda: ["en"])
    workers: int = 1
    record_screenshots: bool = False

    @property
    def spec_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.raw, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def episodes(self) -> list[EpisodeSpec]:
        out = []
        for agent, task, variation, seed, viewport, temp, lang in itertools.product(
            self.agents, self.tasks, self.variations, self.seeds, self.viewports, self.temperatures, self.languages
        ):
            options: tuple = ()
            if temp is not None and agent.get("llm", False):
                options = (("temperature", temp),)
            elif temp is not None and len(self.temperatures) > 1 and not agent.get("llm", False):
                # A temperature axis means nothing to a non-LLM agent: run it once.
                if temp != self.temperatures[0]:
                    continue
            out.append(
                EpisodeSpec(
                    agent=agent["name"],
                    agent_config=agent.get("config"),
                    agent_options=options,
                    task=task,
                    variation=variation,
                    seed=seed,
                    max_steps=self.max_steps,
                    viewport=viewport,
                    language=lang,
                    record_screenshots=self.record_screenshots,
                )
            )
        return out

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
    from importlib import resources

    from openapps_sim.agent import BUILTIN_AGENTS
    from openapps_sim.config.packs import display_path, read_yaml, resolve_pack, split_expression
    from openapps_sim.config.sampler import sample_names
    from openapps_sim.taskkit import all_families

    p = Path(path)
    if not p.exists():
        shipped = Path(str(resources.files("openapps_sim.experiments"))) / (
            str(path) if str(path).endswith(".yaml") else f"{path}.yaml"
        )
        if shipped.exists():
            p = shipped
        else:
            names = sorted(x.stem for x in shipped.parent.glob("*.yaml"))
            raise ConfigError(str(path), "", "no such sweep spec file", "a path, or one of " + ", ".join(names))
    source = display_path(p)
    raw = read_yaml(p) or {}
    if not isinstance(raw, dict):
        raise ConfigError(source, "", "expected a mapping at the top level")
    raw = dict(raw, **(overrides or {}))
    for key in raw:
        if key not in SPEC_KEYS:
            raise ConfigError(source, key, "unknown key", ", ".join(SPEC_KEYS))

    agents = []
    for i, entry in enumerate(_as_list(raw.get("agents"), source, "agents")):
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict) or "name" not in entry:
            raise ConfigError(source, f"agents[{i}]", "expected an agent name or a mapping with 'name'")
        unknown = set(entry) - {"name", "config", "label"}
        if unknown:
            raise ConfigError(source, f"agents[{i}].{sorted(unknown)[0]}", "unknown key", "name, config, label")
        name = entry["name"]
        if name not in BUILTIN_AGENTS and ":" not in name:
            raise unknown_name(source, f"agents[{i}].name", name, list(BUILTIN_AGENTS) + ["<module>:<Class>"])
        entry = dict(entry)
        entry["llm"] = name in ("openai", "anthropic", "uitars")
        agents.append(entry)
    if not agents:
        raise ConfigError(source, "agents", "at least one agent is required")

    families = all_families()
    tasks: list[str] = []
    for i, pattern in enumerate(_as_list(raw.get("tasks"), source, "tasks")):
        matched = sorted(f for f in families if fnmatch.fnmatchcase(f, str(pattern)))
        if not matched:
            raise unknown_name(source, f"tasks[{i}]", str(pattern), families)
        tasks += [m for m in matched if m not in tasks]
    if not tasks:
        raise ConfigError(source, "tasks", "at least one task is required")

    variations: list[str] = []
    for i, entry in enumerate(_as_list(raw.get("variations", ["default"]), source, "variations")):
        if isinstance(entry, dict):
            if set(entry) != {"sample"} or not isinstance(entry["sample"], dict):
                raise ConfigError(source, f"variations[{i}]", "expected a pack expression or {sample: {n: N, seed: S}}")
            n = int(entry["sample"].get("n", 10))
            seed = int(entry["sample"].get("seed", 0))
            variations += sample_names(n, seed)
            continue
        expression = str(entry)
        for part in split_expression(expression):
            resolve_pack(part, f"{source}: variations[{i}]")
        variations.append(expression)

    seeds_raw = raw.get("seeds", 1)
    if isinstance(seeds_raw, int) and not isinstance(seeds_raw, bool):
        seeds = list(range(seeds_raw))
    elif isinstance(seeds_raw, list) and all(isinstance(s, int) for s in seeds_raw):
        seeds = list(seeds_raw)
    else:
        raise ConfigError(source, "seeds", f"expected a number or a list of integers, got {seeds_raw!r}")

    viewports = [str(v) for v in _as_list(raw.get("viewports", ["1280x720"]), source, "viewports")]
    for v in viewports:
        parse_viewport(v, source)
    temps = _as_list(raw.get("temperatures", [None]), source, "temperatures")
    langs = [str(x) for x in _as_list(raw.get("languages", ["en"]), source, "languages")]
    known = [*goal_languages(), "auto"]  # the phrasing files present (tasks/phrasings/<lang>.yaml)
    for lang in langs:
        if lang not in known:
            raise ConfigError(source, "languages", f"unknown language {lang!r}", ", ".join(known))
    workers = raw.get("workers", 1)
    if not isinstance(workers, int) or workers < 1:
        raise ConfigError(source, "workers", f"expected a positive integer, got {workers!r}")
    max_steps = raw.get("max_steps")
    if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
        raise ConfigError(source, "max_steps", f"expected a positive integer, got {max_steps!r}")
    return SweepSpec(
        name=str(raw.get("name", p.stem)),
        source=source,
        raw=raw,
        agents=agents,
        tasks=tasks,
        variations=variations,
        seeds=seeds,
        max_steps=max_steps,
        viewports=viewports,
        temperatures=temps,
        languages=langs,
        workers=workers,
        record_screenshots=bool(raw.get("record_screenshots", False)),
    )


# -- results store ---------------------------------------------------------------------------


def read_results(path: Path) -> list[dict]:
    """Every complete record in a results file (a torn last line is skipped)."""
    if not path.exists():
        return []
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.endswith("\n"):
                break  # torn write from a kill: that episode will be re-run
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


class ResultsWriter:
    """Appends records; each record is one ``os.write`` of one complete line, then fsync."""

    def __init__(self, path: Path):
        self.path = path
        self._repair()
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _repair(self) -> None:
        # Cut a torn last line left by a kill, so the next record starts on its own line.
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with open(self.path, "r+b") as fh:
                fh.truncate(cut)

    def write(self, record: dict) -> None:
        line = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode()
        os.write(self.fd, line)
        os.fsync(self.fd)

    def close(self) -> None:
        os.close(self.fd)


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    os.replace(tmp, path)


def git_commit() -> str | None:
    try:
        here = Path(__file__).resolve().parent.parent
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def _browser_binary() -> str:
    from openapps_sim.envs.browser import find_chromium

    try:
        return find_chromium()
    except BrowserNotFound as e:  # the manifest is written before any browser starts
        return f"not found ({e})"


def manifest_for(spec: SweepSpec, workers: int, executor: str) -> dict:
    from openapps_sim import __version__
    from openapps_sim.agents import describe_agent_config
    from openapps_sim.envs.browser import chromium_version

    return {
        "package": "openapps-sim",
        "version": __version__,
        "git_commit": git_commit(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "spec_source": spec.source,
        "spec": spec.raw,
        "spec_hash": spec.spec_hash,
        "seeds": spec.seeds,
        "agents": [
            {"name": a["name"], "label": a.get("label"), "config": describe_agent_config(a["name"], a.get("config"))}
            for a in spec.agents
        ],
        "browser": chromium_version(),
        "browser_binary": _browser_binary(),
        "viewports": spec.viewports,
        "axes": spec.axes(),
        "workers": workers,
        "executor": executor,
        "episodes_planned": len(spec.episodes()),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


# -- progress --------------------------------------------------------------------------------


class Progress:
    def __init__(self, total: int, already: int = 0, stream=sys.stderr, enabled: bool = True):
        self.total, self.done, self.success, self.errors = total, already, 0, 0
        self.counted = 0
        self.t0 = time.time()
        self.stream = stream
        self.enabled = enabled
        self.tty = getattr(stream, "isatty", lambda: False)()
        self._last = 0.0

    def update(self, record: dict) -> None:
        self.done += 1
        self.counted += 1
        if record.get("error"):
            self.errors += 1
        elif record.get("success"):
            self.success += 1
        self.render()

    def render(self, final: bool = False) -> None:
        if not self.enabled:
            return
        now = time.time()
        if not final and not self.tty and now - self._last < 5 and self.done < self.total:
            return
        self._last = now
        width = 28
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(width * frac) + "-" * (width - int(width * frac))
        scored = self.counted - self.errors
        rate = f"{100 * self.success / scored:.0f}%" if scored else "-"
        elapsed = now - self.t0
        eta = (elapsed / self.counted) * (self.total - self.done) if self.counted else 0
        text = (
            f"[{bar}] {self.done}/{self.total} episodes  success {rate}  errors {self.errors}  "
            f"elapsed {_fmt(elapsed)}  ETA {_fmt(eta)}"
        )
        end = "\n" if (final or not self.tty) else ""
        self.stream.write(("\r" if self.tty else "") + text + end)
        self.stream.flush()


def _fmt(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s"


# -- executors -------------------------------------------------------------------------------

_worker = None


def _worker_init(headless: bool) -> None:
    global _worker
    from openapps_sim.sweeps.runner import Worker

    _worker = Worker(headless=headless)


def _worker_run(args: tuple[EpisodeSpec, str, str]) -> tuple[dict, dict]:
    from openapps_sim.sweeps.runner import run_with_retry

    spec, out_dir, run_id = args
    result = run_with_retry(_worker, spec, Path(out_dir), run_id)
    return result.record, result.trajectory


def _save_trajectory(out: Path, trajectory: dict) -> None:
    if trajectory:
        tdir = out / "trajectories"
        tdir.mkdir(exist_ok=True)
        write_json_atomic(tdir / f"{trajectory['episode_id']}.json", trajectory)


def execute_local(
    todo: list[EpisodeSpec], out: Path, run_id: str, workers: int, on_result, headless: bool = True
) -> None:
    if workers <= 1:
        from openapps_sim.sweeps.runner import Worker, run_with_retry

        worker = Worker(headless=headless)
        try:
            for spec in todo:
                res = run_with_retry(worker, spec, out, run_id)
                on_result(res.record, res.trajectory)
        finally:
            worker.close()
        return
    import multiprocessing as mp

    ctx = mp.get_context("spawn")  # Playwright's sync API must not be forked
    with ctx.Pool(workers, initializer=_worker_init, initargs=(headless,), maxtasksperchild=None) as pool:
        for record, trajectory in pool.imap_unordered(_worker_run, [(s, str(out), run_id) for s in todo], chunksize=1):
            on_result(record, trajectory)


def execute_ray(
    todo: list[EpisodeSpec], out: Path, run_id: str, workers: int, on_result, headless: bool = True
) -> None:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "--executor", "ray", "Ray is not installed; install the extra: pip install 'openapps-sim[ray]'"
        ) from None
    started = False
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True

    @ray.remote(num_cpus=1)
    class RayWorker:
        def __init__(self):
            from openapps_sim.sweeps.runner import Worker

            self.worker = Worker(headless=headless)

        def run(self, spec, out_dir, run_id):
            from openapps_sim.sweeps.runner import run_with_retry

            res = run_with_retry(self.worker, spec, Path(out_dir), run_id)
            return res.record, res.trajectory

    actors = [RayWorker.remote() for _ in range(workers)]
    pending = {}
    queue = list(todo)
    for actor in actors:
        if queue:
            pending[actor.run.remote(queue.pop(0), str(out), run_id)] = actor
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            actor = pending.pop(ready[0])
            record, trajectory = ray.get(ready[0])
            on_result(record, trajectory)
            if queue:
                pending[actor.run.remote(queue.pop(0), str(out), run_id)] = actor
    finally:
        for actor in actors:
            ray.kill(actor)
        if started:
            ray.shutdown()


def run_sweep(
    spec: SweepSpec,
    out: Path,
    workers: int | None = None,
    executor: str = "local",
    resume: bool = False,
    progress: bool = True,
    headless: bool = True,
    limit: int | None = None,
) -> dict:
    """Run every episode of ``spec`` not yet in ``out/results.jsonl``. Returns a summary."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    results_path = out / "results.jsonl"
    manifest_path = out / "manifest.json"
    workers = workers or spec.workers
    existing = read_results(results_path)
    if existing and not resume:
        raise ConfigError(
            str(out),
            "results.jsonl",
            f"already holds {len(existing)} episodes",
            "--resume to continue this sweep, or a new --out folder",
        )
    if manifest_path.exists() and resume:
        old = json.loads(manifest_path.read_text())
        if old.get("spec_hash") != spec.spec_hash:
            raise ConfigError(
                str(out),
                "manifest.json",
                "was written by a different spec (spec_hash differs)",
                "the same spec with --resume, or a new --out folder",
            )
    if executor not in ("local", "ray"):
        raise ConfigError("--executor", "executor", f"unknown executor {executor!r}", "local, ray")
    episodes = spec.episodes()
    # Episodes recorded as infrastructure errors run again on --resume; the report keeps the
    # last record of an episode id.
    finished = {r["episode_id"] for r in existing if not r.get("error")}
    todo = [e for e in episodes if e.episode_id not in finished]
    if limit is not None:
        todo = todo[:limit]
    if not manifest_path.exists():
        write_json_atomic(manifest_path, manifest_for(spec, workers, executor))
    run_id = hashlib.sha1(f"{spec.spec_hash}:{time.time()}".encode()).hexdigest()[:10]
    writer = ResultsWriter(results_path)
    bar = Progress(len(episodes), already=len(episodes) - len(todo), enabled=progress)
    bar.render()

    def on_result(record: dict, trajectory: dict) -> None:
        _save_trajectory(out, trajectory)
        writer.write(record)
        bar.update(record)

    t0 = time.time()
    try:
        if todo:
            (execute_ray if executor == "ray" else execute_local)(todo, out, run_id, workers, on_result, headless)
    finally:
        writer.close()
        bar.render(final=True)
    return {
        "planned": len(episodes),
        "ran": bar.counted,
        "skipped": len(episodes) - len(todo),
        "errors": bar.errors,
        "seconds": round(time.time() - t0, 1),
        "results": str(results_path),
    }


def iter_specs(names: Iterable[str]) -> list[SweepSpec]:
    return [load_spec(n) for n in names]
