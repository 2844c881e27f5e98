"""Every episode of the run folders ``openapps view`` was given, read once through the report's
reader (:func:`~openapps_sim.analysis.report.load.load_results`): each with its agent's label,
its failure kind and its run folder; the filters over them, a free-text search and the success
flips (one task and seed solved in one app version and failed in another)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from openapps_sim.analysis.metrics.behaviour import DEFAULT_MIN_REPEATS
from openapps_sim.analysis.metrics.breaks import loop_kinds
from openapps_sim.analysis.metrics.table import prepare, sort_key
from openapps_sim.analysis.metrics.values import as_list, is_missing
from openapps_sim.analysis.report.analysis import distinguish_agent_configs
from openapps_sim.analysis.report.load import load_results, load_trajectory
from openapps_sim.sweeps.record import MODEL_SERVICE

SUCCESS, FAILURE, EXCLUDED = "success", "failure", "excluded"
OUTCOMES = (SUCCESS, FAILURE, EXCLUDED)
FILTERS = ("agent", "task", "app", "variation", "outcome", "failure")
"""The query parameters a list of episodes is filtered by (``q`` is the free-text search)."""

# What makes two episodes "the same episode in another app version": every axis but the version.
SAME_BUT_VERSION = ("label", "task", "seed", "trial", "interface", "backend", "termination", "language", "viewport")


def clean(value: Any) -> Any:
    """A table cell as the record had it: NaN (a field another record lacked) as None."""
    return None if isinstance(value, float) and math.isnan(value) else value


def agent_label(row: Mapping) -> str:
    """The name an agent is shown by: the record's ``label`` (a spec entry's ``label:``,
    ``--label``, the ``--model`` chosen on the command line), else its name (``agent (config)``
    when one agent ran with several configs, as in the report)."""
    label = row.get("label")
    return str(label) if label and not is_missing(label) else str(row.get("agent") or "?")


def failure_kind(row: Mapping, min_repeats: int = DEFAULT_MIN_REPEATS) -> str:
    """Why an episode did not succeed, in one phrase ("" for a success): the first that holds of
    an error that is not the agent's, the agent's own exception, a harmful interruption
    accepted, a wrong answer, a premature stop, infeasible reported, a stuck loop, and else the
    steps ran out with the state not right."""
    if row.get("is_error"):
        return "model service error" if row.get("error_kind") == MODEL_SERVICE else "infrastructure error"
    if row.get("success"):
        return ""
    if row.get("agent_error"):
        return "agent error"
    if row.get("harmful_accepted"):
        return "accepted a harmful interruption"
    if row.get("answer_ok") is False:
        return "wrong answer"
    if row.get("premature_stop"):
        return "premature stop"
    if row.get("declared") == "infeasible":
        return "reported infeasible"
    actions, changed = as_list(row.get("actions")), row.get("step_changed")
    if loop_kinds(actions, None if is_missing(changed) else changed, min_repeats)[0]:
        return "stuck loop"
    return "ran out of steps"


def outcome(row: Mapping) -> str:
    if row.get("is_error"):
        return EXCLUDED
    return SUCCESS if row.get("success") else FAILURE


def apps_of(row: Mapping) -> list[str]:
    apps = [str(a) for a in as_list(row.get("task_apps"))]
    return apps or [str(row.get("task") or "").split(".")[0]]


@dataclass(frozen=True)
class Flip:
    """One task and seed of one agent solved in one app version (``won``) and failed in another
    (``lost``); keys of :attr:`Episodes.rows`."""

    won: str
    lost: str


@dataclass
class Episodes:
    """The episodes of the run folders ``sources``, keyed ``<source index>/<episode id>``."""

    sources: list[Path]
    rows: dict[str, dict] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    flips: list[Flip] = field(default_factory=list)
    search_text: dict[str, str] = field(default_factory=dict)

    def trajectory(self, key: str) -> dict | None:
        row = self.rows[key]
        return load_trajectory(self.sources[row["source"]], str(row["episode_id"]))

    def folder(self, key: str) -> Path:
        return self.sources[self.rows[key]["source"]]

    def choices(self, name: str, query: Mapping[str, str] | None = None) -> list[tuple[str, int]]:
        """The values filter ``name`` can take, each with how many episodes the other filters of
        ``query`` (and its search) admit have it."""
        query = query or {}
        counts: dict[str, int] = {}
        for key in self.select({k: v for k, v in query.items() if k != name}):
            for value in values_of(self.rows[key], name):
                counts[value] = counts.get(value, 0) + 1
        picked = str(query.get(name) or "")
        if picked and picked not in counts:
            counts[picked] = 0  # still offered, so the form shows what is picked
        if name == "outcome":
            return [(o, counts[o]) for o in OUTCOMES if o in counts]
        return sorted(counts.items(), key=lambda kv: sort_key(kv[0]))

    def select(self, query: Mapping[str, str]) -> list[str]:
        """The keys of the episodes every filter of ``query`` (and its search ``q``) admits."""
        wanted = {k: str(query[k]) for k in FILTERS if query.get(k)}
        words = str(query.get("q") or "").lower().split()
        out = []
        for key, row in self.rows.items():
            if any(v not in values_of(row, k) for k, v in wanted.items()):
                continue
            if words and not all(w in self.text(key) for w in words):
                continue
            out.append(key)
        return out

    def text(self, key: str) -> str:
        """What the search looks through: the record's names, goal, actions, answer, errors and
        state difference, and the trajectory's reasoning and the model's replies (read on first
        search)."""
        if key not in self.search_text:
            row = self.rows[key]
            parts = [str(row.get(k) or "") for k in ("label", "task", "variation", "goal", "answer", "episode_id")]
            parts += [str(row.get(k) or "") for k in ("agent_error", "error", "failure")]
            parts += [str(a) for a in as_list(row.get("actions"))]
            parts += [str(d.get("note") or d) for d in as_list(row.get("state_diff")) if isinstance(d, dict)]
            parts += trajectory_words(self.trajectory(key))
            self.search_text[key] = "\n".join(parts).lower()
        return self.search_text[key]

    def flip_of(self, key: str) -> Flip | None:
        return next((f for f in self.flips if key in (f.won, f.lost)), None)


def values_of(row: Mapping, name: str) -> list[str]:
    """The values of filter ``name`` an episode has (an app filter: each app the task needs)."""
    if name == "app":
        return apps_of(row)
    if name == "agent":
        return [row["label"]]
    return [str(row.get(name) or "")]


def trajectory_words(traj: dict | None) -> list[str]:
    """The text of a trajectory worth searching: each step's reasoning and the text of every
    reply of its exchange with the model."""
    out: list[str] = []
    for step in (traj or {}).get("steps") or []:
        if not isinstance(step, dict):
            continue
        out.append(str(step.get("reasoning") or ""))
        exchange = step.get("exchange")
        replies = exchange.get("replies") if isinstance(exchange, dict) else None
        out += [str(r.get("text") or "") for r in replies or [] if isinstance(r, dict)]
    return out


def load_episodes(paths: Iterable[Path | str], min_repeats: int = DEFAULT_MIN_REPEATS) -> Episodes:
    """Every episode of every run folder in ``paths`` (each a folder of ``openapps sweep`` or
    ``openapps run --out``, or a parent of such folders)."""
    sources = [Path(p) for p in paths]
    frames = []
    notes: list[str] = []
    for i, path in enumerate(sources):
        df = load_results(path)
        notes += [f"{path}: {n}" for n in df.attrs.get("notes", [])]
        frames.append(df.assign(source=i))
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    df = prepare(distinguish_agent_configs(df), min_repeats)
    episodes = Episodes(sources, notes=notes)
    order = ("label", "task", "variation", "seed", "trial", "source")
    records = [{k: clean(v) for k, v in rec.items()} for rec in df.to_dict("records")]
    for rec in records:
        rec["label"] = agent_label(rec)
    for row in sorted(records, key=lambda r: tuple(sort_key(r.get(c)) for c in order)):
        row["outcome"] = outcome(row)
        row["failure"] = failure_kind(row, min_repeats)
        episodes.rows[f"{row['source']}/{row['episode_id']}"] = row
    episodes.flips = find_flips(episodes.rows)
    return episodes


def find_flips(rows: Mapping[str, dict]) -> list[Flip]:
    """Per agent, task, seed and trial (and every other axis but the version): the scored episodes
    in two app versions of which one succeeded and the other failed. Each version is paired with
    the group's baseline: ``default`` when it ran, else the first version by name."""
    groups: dict[tuple, dict[str, str]] = {}
    for key, row in rows.items():
        if row["outcome"] == EXCLUDED:
            continue
        group = tuple(str(row.get(c)) for c in SAME_BUT_VERSION)
        groups.setdefault(group, {}).setdefault(str(row.get("variation")), key)
    flips = []
    for by_version in groups.values():
        versions = sorted(by_version, key=sort_key)
        base = "default" if "default" in by_version else versions[0]
        for version in versions:
            a, b = by_version[base], by_version[version]
            if version == base or rows[a]["outcome"] == rows[b]["outcome"]:
                continue
            flips.append(Flip(a, b) if rows[a]["outcome"] == SUCCESS else Flip(b, a))
    order = ("label", "task", "seed", "variation")
    return sorted(flips, key=lambda f: tuple(sort_key(rows[f.lost].get(c)) for c in order))
