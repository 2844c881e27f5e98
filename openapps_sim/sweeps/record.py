"""The episode record, defined once: what an episode is (:class:`EpisodeSpec`, whose
``episode_id`` keys results and resumes) and what is written about it (``RECORD_FIELDS``, built by
:func:`error_record` and the runner). Read and written only through
:mod:`openapps_sim.sweeps.store`; analysed by :mod:`openapps_sim.analysis`."""

from __future__ import annotations

import copy
import hashlib
import json
import traceback
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from openapps_sim.agent import hide_secrets
from openapps_sim.config.limits import VIEWPORT_SIDES
from openapps_sim.config.pool import pool_of
from openapps_sim.config.world import AUTO, WorldSpec
from openapps_sim.errors import ConfigError

RECORD_VERSION = 1
INFRASTRUCTURE = "infrastructure"  # a dead browser or app server: retried once, excluded, rerun on --resume
MODEL_SERVICE = "model_service"  # the model API failed after its own retries: excluded, rerun on --resume
ERROR_KINDS = (INFRASTRUCTURE, MODEL_SERVICE)


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode in ``world`` (its variation, seed and goal language: made and checked once, where
    the user wrote it, and never parsed or checked again; the canonical variation names it)."""

    agent: str
    task: str
    world: WorldSpec = WorldSpec(seed=0)
    agent_config: str | None = None
    agent_options: tuple[tuple[str, Any], ...] = ()  # swept agent options, e.g. temperature
    # options set on top of the config (a spec entry's inline options, the command line's --model, -o ...)
    agent_overrides: tuple[tuple[str, Any], ...] = ()
    label: str | None = None  # the name results are shown and grouped under (None: the agent's name)
    max_steps: int | None = None
    viewport: str = "1280x720"
    record_screenshots: bool = False
    trial: int = 0  # repeated runs of one instance (same goal text), each with its own agent seed
    style: str | None = None  # fixed English phrasing style (plain, casual, context); None: drawn
    interface: str = "gui"  # gui (page actions), api (app tools) or mixed
    backend: str = "chromium"  # chromium (a real browser) or text (openapps_sim.envs.text)
    termination: str = "auto"  # auto (ends once the state is right) or agent (when the agent declares done)

    @property
    def language(self) -> str:
        """The goal language asked for (``auto``: the world's own, docs/tasks.md), as the world spec holds it."""
        return self.world.language

    @property
    def episode_id(self) -> str:
        world = self.world
        parts: list[Any] = [
            self.agent,
            self.agent_config,
            list(self.agent_options),
            self.task,
            world.variation,
            world.seed,
            self.max_steps,
            self.viewport,
            world.goal_language(),  # auto as what it resolves to: an English world's id stays the same
        ]
        # Added only when set, so that the ids of sweeps without trials or a fixed style stay
        # what they were (their results still resume).
        if self.style is not None:
            parts.append({"style": self.style})
        if self.trial:
            parts.append({"trial": self.trial})
        if self.interface != "gui":
            parts.append({"interface": self.interface})
        if self.backend != "chromium":
            parts.append({"backend": self.backend})
        if self.termination != "auto":
            parts.append({"termination": self.termination})
        if self.agent_overrides:
            parts.append({"overrides": [list(kv) for kv in self.agent_overrides]})
        pool = pool_of(world.variation)
        if pool is not None and not pool.startswith("shipped-"):  # a named pool: other worlds
            parts.append({"pool": pool})
        if world.overrides:
            parts.append({"world_overrides": list(world.overrides)})
        key = json.dumps(parts, sort_keys=True)
        return hashlib.sha1(key.encode()).hexdigest()[:16]

    @property
    def agent_seed(self) -> int:
        """The seed the agent samples with: the task seed for trial 0, another one per trial."""
        seed = self.world.seed
        if not self.trial:
            return seed
        digest = hashlib.sha1(f"{seed}:trial:{self.trial}".encode()).hexdigest()
        return int(digest[:8], 16)

    @property
    def viewport_dict(self) -> dict:
        return parse_viewport(self.viewport)

    @property
    def options(self) -> dict:
        """Every option given on top of the agent's config: the overrides, then the swept ones."""
        return {**dict(self.agent_overrides), **dict(self.agent_options)}

    @property
    def identity(self) -> str:
        """The agent as results name it: its label, else its registry name."""
        return self.label or self.agent


# An episode spec as JSON: its world's fields at the top level, in the order of the time they were its own
_JSON_ORDER = "agent task variation seed agent_config agent_options agent_overrides label max_steps viewport language"


def spec_to_json(spec: EpisodeSpec) -> dict:
    """An episode spec as plain JSON (to hand it to a worker process)."""
    data = asdict(spec)
    data.update(data.pop("world"))
    overrides = data.pop("overrides")
    out = {key: data.pop(key) for key in _JSON_ORDER.split()} | data
    return out | {"overrides": list(overrides)} if overrides else out


def spec_from_json(data: dict) -> EpisodeSpec:
    """The spec :func:`spec_to_json` wrote: its world as it was checked where it was made."""
    data = dict(data)
    world = WorldSpec(data.pop("variation", "default"), data.pop("seed", 0), data.pop("language", AUTO))
    world = replace(world, overrides=tuple(data.pop("overrides", ())))
    data["agent_options"] = tuple(tuple(kv) for kv in data.get("agent_options", ()))
    data["agent_overrides"] = tuple(tuple(kv) for kv in data.get("agent_overrides", ()))
    return EpisodeSpec(world=world, **data)


def parse_viewport(text: str, source: str = "viewport") -> dict[str, int]:
    """``WIDTHxHEIGHT`` as a viewport, each side within :data:`~openapps_sim.config.limits.VIEWPORT_SIDES`."""
    low, high = VIEWPORT_SIDES
    allowed = f"WIDTHxHEIGHT such as 1280x720, each from {low} to {high} pixels"
    parts = [p.strip() for p in str(text).lower().split("x")]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ConfigError(source, "viewport", f"expected WIDTHxHEIGHT such as 1280x720, got {text!r}", allowed)
    w, h = int(parts[0]), int(parts[1])
    if not (low <= w <= high and low <= h <= high):
        raise ConfigError(source, "viewport", f"{text!r} is out of range", allowed)
    return {"width": w, "height": h}


@dataclass
class StepRecord:
    action: str
    category: str
    error: str
    reward: float
    url: str
    screenshot: str | None = None


@dataclass
class EpisodeResult:
    record: dict
    trajectory: dict = field(default_factory=dict)


# Every key of a record, with what it holds. Agent options swept by the spec (e.g.
# ``temperature``) are added under their own names. Derived behaviour (loops, intent
# misunderstanding) is not stored: :mod:`openapps_sim.analysis` computes it from the raw facts.
RECORD_FIELDS: dict[str, str] = {
    "v": "record format version",
    "episode_id": "hash of the episode's spec (the resume key)",
    "run_id": "which invocation of the sweep wrote it",
    "agent": "agent name",
    "agent_config": "agent config file or name",
    "label": "the agent's label (a spec entry's label:, openapps run/sweep --label, else the --model or config "
    "chosen on the command line), the name the report, the terminal and the export group and show it under; null: "
    "the agent's name",
    "agent_overrides": "options given on top of the config (a spec entry's inline options, --model, --base-url, "
    "--api-key-env, -o key=value), secret-looking values hidden; {} when none",
    "task": "task family id",
    "task_apps": "the apps the task needs",
    "variation": "pack expression of the app version",
    "variation_pool": "the pool its generated packs (random-<seed>) drew from, e.g. shipped-1a2b3c4d; null: none generated",
    "seed": "task seed (it fixes the instance and its goal text)",
    "trial": "0, 1, ... k-1: repeated runs of one instance with the same goal text (spec key trials)",
    "agent_seed": "the seed the agent was reset with (the task seed for trial 0, another per trial)",
    "style": "English phrasing style of the goal (plain, casual, context), or the language for de/fr",
    "viewport": "WIDTHxHEIGHT",
    "interface": "how the agent could act: gui (page actions), api (the apps' own tools) or mixed",
    "backend": "what showed the pages: chromium (a real browser) or text (no browser, the same observation)",
    "termination": "how the episode could end: auto (once the state is right, the paper's) or agent (only when the "
    "agent declares it is done, or at the step budget)",
    "language": "goal language asked for (auto resolved to the world's, the packs' shell.lang)",
    "goal": "the goal text the agent was given",
    "reward": "final reward (1 only when the whole world state is as expected)",
    "partial_reward": "share of sub-goals reached",
    "success": "reward == 1",
    "steps": "actions taken",
    "actions": "the action strings",
    "invalid": "invalid actions per category",
    "invalid_detail": "invalid-action summary",
    "apps_visited": "apps opened, in order",
    "apps_opened_by_interruptions": "the apps of apps_visited that an interruption's button opened (not chosen by the agent)",
    "error": "the failure that stopped it and is not the agent's (error_kind says which), else null; such a record is "
    "left out of every agent metric and runs again on --resume",
    "error_kind": "infrastructure (a dead browser or app server, not caused by an action) or model_service (the "
    "agent's model API still failed after its retries), else null",
    "agent_error": "the agent's own exception (type: message) that ended the episode, or its hang or its worker's "
    "death in the agent's turn, else null: a failed episode of that agent, counted in its success rate and never run "
    "again",
    "traceback": "last lines of the traceback of error or agent_error, else null",
    "attempt": "1, or 2 after an infrastructure retry",
    "worker": "where it ran: executor (local or ray), host, pid of the worker process, node (the Ray node id; null "
    "for local), else null (openapps run)",
    "duration_s": "wall time",
    "tokens": "LLM token usage",
    "state_diff": "the first differences between expected and final state",
    "interruptions": "interruptions shown: id, kind, presentation, buttons (1 or 2), step, page, button chosen, "
    "resolved_step, steps_to_recover, harmful, change",
    "harmful_accepted": "the agent accepted a harmful interruption (e.g. shared its contacts)",
    "interruptible": "the version declares interruptions, whether or not one was shown in this episode (RSR counts "
    "only the episodes of such a version where one was shown)",
    "structure": "the family's structure: single, sequential, conjunctive, conditional, hierarchical, answer",
    "category": "the family's category (edit, decision, constraint, order, count, lookup, math, ...)",
    "answer": "the last message the agent sent to the user (its answer), else null",
    "answer_ok": "whether that answer was right (return-value tasks), else null",
    "ops": "the episode's state-changing operations from the app event log ({app, op, args})",
    "decisions": "per decision depth, whether the first operation took the correct branch (branching tasks)",
    "correct_branch": "the branch the world called for (branching tasks), else null",
    "wlcs": "weighted LCS of the operations against the oracle's (DAC-Bench); null where the family expects no "
    "operation (return-value and navigation families: undefined) or declares none",
    "expected_ops": "how many state-changing operations the oracle's plan performs (0: the family expects none), "
    "else null",
    "milestones": "each essential state with the step it was first reached at (null: never)",
    "esar": "essential-state achieved rate: share of milestones reached",
    "first_milestone_step": "step at which the first milestone was reached, else null",
    "steps_after_last_milestone": "steps taken after the last milestone was reached, else null",
    "declared": "how the agent declared it was done: message (send_msg_to_user), infeasible (report_infeasible), "
    "else null",
    "declared_step": "the step at which it declared it was done, else null",
    "premature_stop": "it declared it was done while the state (or page) was not yet right",
    "goal_met_step": "the step at which the goal first held (state, page, answer), else null",
    "overrun_steps": "steps taken after the goal first held (termination agent: the agent went on instead of "
    "declaring), else null",
    "step_changed": "per action, whether it changed the page, the screen or the app state (tells a stuck loop "
    "from a progressing repeat)",
    "stale_actions": "perception drift (D-GARA): actions aimed at an element of a page from before a crash restarted "
    "the app (its bid gone from the page acted on, or naming another element); null when no crash restarted an app "
    "(each step's stale_target in the trajectory says which)",
}


# Every outcome of an episode at its empty value: a new record's (copied: lists and dicts are fresh).
EMPTY_OUTCOME: dict[str, Any] = {
    "goal": "",
    "reward": 0.0,
    "partial_reward": 0.0,
    "success": False,
    "steps": 0,
    "actions": [],
    "invalid": {},
    "invalid_detail": {},
    "apps_visited": [],
    "apps_opened_by_interruptions": [],
    "error": None,
    "error_kind": None,
    "agent_error": None,
    "traceback": None,
    "attempt": 0,
    "duration_s": 0.0,
    "tokens": {},
    "state_diff": [],
    "interruptions": [],
    "harmful_accepted": False,
    "interruptible": False,
    "structure": "",
    "category": "",
    "answer": None,
    "answer_ok": None,
    "ops": [],
    "decisions": None,
    "correct_branch": None,
    "wlcs": None,
    "expected_ops": None,
    "milestones": {},
    "esar": None,
    "first_milestone_step": None,
    "steps_after_last_milestone": None,
    "declared": None,
    "declared_step": None,
    "premature_stop": False,
    "goal_met_step": None,
    "overrun_steps": None,
    "step_changed": [],
    "stale_actions": None,
}


def new_record(spec: EpisodeSpec, run_id: str, attempt: int) -> dict:
    """A record with the spec's identity filled in and every outcome at its empty value."""
    return {
        "v": RECORD_VERSION,
        "episode_id": spec.episode_id,
        "run_id": run_id,
        "agent": spec.agent,
        "agent_config": spec.agent_config,
        "label": spec.label,
        "agent_overrides": hide_secrets(dict(spec.agent_overrides)),
        "task": spec.task,
        "task_apps": [],
        "variation": spec.world.variation,
        "variation_pool": pool_of(spec.world.variation),
        "seed": spec.world.seed,
        "trial": spec.trial,
        "agent_seed": spec.agent_seed,
        "style": spec.style,
        "viewport": spec.viewport,
        "interface": spec.interface,
        "backend": spec.backend,
        "termination": spec.termination,
        "language": spec.world.goal_language(),
        "worker": None,  # filled in by the executor that ran it
        **{k: v for k, v in spec.agent_options},
        **copy.deepcopy(EMPTY_OUTCOME),
        "attempt": attempt,  # keeps its place among the outcomes
    }


# Fields added to the record after results were already written, with the value every older
# record meant: before the interface axis, every episode acted through the pages; before the
# variation pool, the pool of a generated pack was not recorded (null: unknown); before error_kind,
# every error was filed as infrastructure (agent_error did not exist).
LATER_FIELDS: dict[str, Any] = {
    "label": None,
    "agent_overrides": {},
    "interface": "gui",
    "backend": "chromium",
    "error_kind": None,
    "agent_error": None,
    "variation_pool": None,
    "termination": "auto",
    "declared": None,
    "declared_step": None,
    "premature_stop": None,
    "goal_met_step": None,
    "overrun_steps": None,
    "stale_actions": None,
    "worker": None,
}


def upgrade_record(record: dict) -> dict:
    """An older record with the fields added since (:data:`LATER_FIELDS`), so that a sweep
    resumed across versions reads as one: a record without ``interface`` is a ``gui`` episode,
    not a version of its own."""
    for key, value in LATER_FIELDS.items():
        record.setdefault(key, copy.copy(value))  # a fresh {} per record
    if record.get("error") and not record.get("error_kind"):
        record["error_kind"] = INFRASTRUCTURE
    return record


def error_record(
    spec: EpisodeSpec, run_id: str, attempt: int, exc: BaseException, duration: float, kind: str = INFRASTRUCTURE
) -> dict:
    """The record of an episode stopped by a failure that is not the agent's (``kind``: one of
    :data:`ERROR_KINDS`)."""
    record = new_record(spec, run_id, attempt)
    record.update(
        error=f"{type(exc).__name__}: {exc}"[:2000],
        error_kind=kind,
        traceback=traceback.format_exc()[-4000:],
        duration_s=round(duration, 3),
    )
    return record


def agent_fault_record(
    spec: EpisodeSpec, run_id: str, attempt: int, reason: str, duration: float, sofar: dict | None
) -> dict:
    """The record of an episode whose agent never answered (a hang) or whose worker died while
    the agent acted (memory, a crash): the agent's failed episode, as an exception of its own
    makes it -- ``agent_error`` set, ``success`` false, ``reward`` 0, ``error`` null -- with the
    outcomes the worker reported as the agent's turn began (``sofar``: goal, steps, actions,
    invalid actions, partial reward...); those it could not report stay empty."""
    record = new_record(spec, run_id, attempt)
    record.update({k: v for k, v in (sofar or {}).items() if k in EMPTY_OUTCOME or k in ("task_apps", "style")})
    record.update(
        reward=0.0,
        success=False,
        error=None,
        error_kind=None,
        agent_error=reason[:2000],
        traceback=None,
        attempt=attempt,
        duration_s=round(duration, 3),
    )
    return record
