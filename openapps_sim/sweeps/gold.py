"""Gold trajectories for offline evaluation: the oracle's demonstrations, each step with the
complete observation it was taken on.

A results folder keeps, per step, the action and the observation *text* (cut at
:data:`~openapps_sim.sweeps.steplog.OBSERVATION_CHARS`), not the observation dict an agent acts
on (tree, DOM snapshot, URLs, chat). So the gold is rebuilt on the browser-free text backend,
which shows the same accessibility tree and the same bids as Chromium (docs/backends.md):

- :func:`from_folder` replays the recorded actions of the folder's successful oracle episodes
  in the same world (task, version, seed, language), and checks the replay against the record:
  the same goal, every recorded observation text the same (the world's origin aside), no action
  failing, and the task solved at the end. An episode whose replay differs is left out, with a
  note saying where it differed.
- :func:`from_episodes` runs the oracle itself on the text backend (a spec, or tasks × versions
  × seeds given on the command line).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from openapps_sim.config.world import WorldSpec
from openapps_sim.envs.actions import parse_code
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.store import read_folder, result_folders
from openapps_sim.taskkit.progress import compact_events

GOLD_AGENT = "oracle"
FOLDER_HELP = (
    "a results folder written by openapps sweep of a spec with agents: [oracle] (e.g. experiments/demonstrations.yaml)"
)


@dataclass(frozen=True)
class GoldKey:
    """Which episode: everything that fixes its world, instance and goal."""

    task: str
    world: WorldSpec = WorldSpec(seed=0, language="en")  # checked where it was given (a spec, a record, --seeds)
    style: str | None = None
    interface: str = "gui"
    viewport: str = "1280x720"
    max_steps: int | None = None


@dataclass
class GoldStep:
    obs: dict  # the complete observation the gold action was chosen on
    action: str  # the gold action (a goto written for this world's origin)
    idle: bool = False  # it changed nothing: the same page, chat and tool result after it, no app event
    events: list = field(default_factory=list)  # the app operations it made (``{app, op, args}``)


def _look(env, obs: dict) -> tuple:
    """What a step may change: the page (URL and tree), the chat (an answer), an app tool's
    result and the app event log's length."""
    chat = len(obs.get("chat_messages") or [])
    return (
        obs.get("url", ""),
        _full_text(obs),
        chat,
        str(obs.get("tool_result") or ""),
        len(env.unwrapped.task.events()),
    )


def _take(env, episode: GoldEpisode, obs: dict, action: str):
    """Take a gold step, noting whether it changed nothing."""
    before = _look(env, obs)
    step = GoldStep(obs, action)
    episode.steps.append(step)
    result = env.step(action)
    after = _look(env, result[0])
    step.idle = after == before
    step.events = compact_events(env.unwrapped.task.events()[before[-1] : after[-1]])
    return result


def note_decision(env, episode: GoldEpisode) -> None:
    """For a branching task (conditional, hierarchical), the gold step that took the correct
    branch and the depth of that decision (``episode.decisions``): the first step whose
    operations belong to the correct leaf (:meth:`~openapps_sim.taskkit.progress.Branching.decision_step`)."""
    branching = getattr(env.unwrapped.task.instance, "branching", None)
    if branching is None:
        return
    n = branching.decision_step([s.events for s in episode.steps])
    if n is not None:
        episode.decisions = {n: branching.depth}


@dataclass
class GoldEpisode:
    key: GoldKey
    goal: str
    task_info: dict
    structure: str
    steps: list[GoldStep] = field(default_factory=list)
    source: str = ""  # the recorded episode id, or "oracle:<task>:<version>:<seed>:..." when generated here
    decisions: dict[int, int] = field(default_factory=dict)  # decision step (0-based) -> its depth (see note_decision)


def _origin(url: str) -> str:
    parts = urlsplit(str(url or ""))
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def _same_text(text: str, origin: str) -> str:
    return re.sub(r"https?://[^/'\"\s]+", "ORIGIN", text.replace(origin, "ORIGIN")) if text else ""


def _full_text(obs: dict) -> str:
    from openapps_sim.envs.observe import axtree_text

    try:
        return axtree_text(obs)
    except Exception:  # noqa: BLE001 - a tree that cannot be flattened reads as empty, as in the record
        return ""


_CUT = re.compile(r"\n\.\.\. \(\d+ more characters not recorded\)$")


def same_page(recorded: str, obs: dict) -> bool:
    """Whether the replayed page is the recorded one: the same tree, the world's origin aside
    (each run has its own), up to the last line the record kept whole where it cut the text."""
    origin = _origin(obs.get("url", ""))
    body, cut = _CUT.subn("", recorded)
    if cut:  # compare the lines the record kept whole (the cut may fall inside a URL)
        body = body[: body.rfind("\n") + 1]
    mine, theirs = _same_text(_full_text(obs), origin), _same_text(body, origin)
    return mine.startswith(theirs) if cut else mine == theirs


def localise(action: str, obs: dict) -> str:
    """A recorded ``goto`` moved to this world's origin (each run's server has its own port)."""
    if not action.lstrip().startswith("goto("):
        return action
    try:
        node = parse_code(action.strip(), mode="eval").body
        url = ast.literal_eval(node.args[0])
    except (SyntaxError, ValueError, IndexError, AttributeError):
        return action
    parts = urlsplit(str(url))
    if not parts.scheme:
        return action
    path = parts.path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    return f"goto({(_origin(obs.get('url', '')) + path)!r})"


class _Envs:
    """One text-backend env per (family, interface), reused across episodes."""

    def __init__(self) -> None:
        self.env = None
        self.key: tuple | None = None

    def get(self, key: GoldKey):
        want = (key.task, key.interface)
        if self.env is None or self.key != want:
            from openapps_sim.envs.registration import make_env

            if self.env is not None:
                self.env.close()
            self.env = make_env(key.task, backend="text", action_space="all", interface=key.interface)
            self.key = want
        return self.env

    def close(self) -> None:
        if self.env is not None:
            self.env.close()
            self.env = None


def _reset(env, key: GoldKey, style: str | None) -> tuple[dict, dict]:
    from openapps_sim.sweeps.record import parse_viewport

    return env.reset(
        seed=key.world.seed,
        options={
            "world": key.world,
            "task_kwargs": {"style": style},
            "viewport": parse_viewport(key.viewport),
            "obs_mode": "axtree",
            "max_steps": key.max_steps,
        },
    )


def _where(key: GoldKey) -> str:
    return f"{key.world.variation}, seed {key.world.seed}"


def _structure(task: str) -> str:
    from openapps_sim.taskkit import get_family

    return get_family(task).structure


def gold_records(folder: Path) -> tuple[list[dict], Path]:
    """The successful oracle records of a results folder (and the folder their trajectories are
    in); a folder that has none is one clear error."""
    folder = Path(folder)
    if not folder.exists():
        raise ConfigError("GOLD", str(folder), "no such folder", FOLDER_HELP)
    found = result_folders(folder)
    if len(found) != 1:
        problem = "holds no results.jsonl" if not found else f"holds {len(found)} results folders; name one"
        raise ConfigError("GOLD", str(folder), problem, FOLDER_HELP)
    folder = found[0]
    records = [r for r in read_folder(folder)[0] if r.get("agent") == GOLD_AGENT]
    gold = [r for r in records if r.get("success") and not r.get("error") and r.get("actions")]
    if not gold:
        what = "no oracle episode" if not records else f"no successful oracle episode (of {len(records)})"
        raise ConfigError("GOLD", str(folder), f"holds {what} to use as gold trajectories", FOLDER_HELP)
    if not (folder / "trajectories").is_dir() or not any((folder / "trajectories").glob("*.json")):
        raise ConfigError(
            "GOLD",
            str(folder),
            "holds no trajectories/ (the per-step observations the replay is checked against)",
            FOLDER_HELP,
        )
    return gold, folder


def key_of(record: dict) -> GoldKey:
    """The key of a results record, its world checked here (a results file is read as given)."""
    from openapps_sim.taskkit.language import goal_languages

    values = (record.get("variation", "default"), int(record.get("seed", 0)), record.get("language", "en"))
    return GoldKey(
        task=record["task"],
        world=WorldSpec.make("gold record", *values, languages=goal_languages()),
        interface=record.get("interface", "gui"),
        viewport=record.get("viewport", "1280x720"),
        max_steps=None,
    )


def _replay(env, key: GoldKey, record: dict, recorded: list[str]) -> tuple[GoldEpisode | None, str]:
    """The recorded episode replayed on ``env``: the gold episode, or None and why it differs."""
    obs, info = _reset(env, key, None)
    if obs["goal"] != record.get("goal"):
        obs, info = _reset(env, key, record.get("style"))  # a spec that fixed the phrasing style
    if obs["goal"] != record.get("goal"):
        return None, f"the goal is now {obs['goal']!r}, recorded {record.get('goal')!r}"
    episode = GoldEpisode(key, obs["goal"], info["task_info"], _structure(key.task), source=record["episode_id"])
    success = False
    for n, recorded_action in enumerate(record["actions"]):
        seen = recorded[n] if n < len(recorded) else ""
        if seen and not same_page(seen, obs):
            return None, f"the page at step {n + 1} differs from the recorded observation"
        action = localise(recorded_action, obs)
        obs, _, terminated, truncated, step_info = _take(env, episode, obs, action)
        if obs.get("last_action_error"):
            return None, f"step {n + 1} ({action}) failed: {str(obs['last_action_error']).splitlines()[0][:200]}"
        success = bool(step_info.get("task_info", {}).get("success"))
        if terminated or truncated:
            break
    if not success:
        return None, "the replayed actions no longer solve the task"
    note_decision(env, episode)
    return episode, ""


def from_folder(
    folder: Path, keep=lambda key: True, limit: int | None = None, notes: list[str] | None = None
) -> Iterator[GoldEpisode]:
    """The gold episodes of a results folder, replayed on the text backend (``keep`` filters by
    key; at most ``limit`` episodes); an episode whose replay differs is noted and skipped."""
    records, folder = gold_records(folder)
    notes = notes if notes is not None else []
    envs = _Envs()
    given = 0
    try:
        for record in records:
            key = key_of(record)
            if not keep(key):
                continue
            if limit is not None and given >= limit:
                return
            path = folder / "trajectories" / f"{record['episode_id']}.json"
            try:
                steps = json.loads(path.read_text(encoding="utf-8")).get("steps") or []
            except (OSError, json.JSONDecodeError):
                notes.append(f"{record['episode_id']} ({key.task}): no readable trajectory {path.name}; left out")
                continue
            recorded = [str(s.get("observation") or "") for s in steps]
            episode, why = _replay(envs.get(key), key, record, recorded)
            if episode is None:
                notes.append(f"{record['episode_id']} ({key.task}, {_where(key)}): {why}; left out")
                continue
            given += 1
            yield episode
    finally:
        envs.close()


def oracle_episode(env, key: GoldKey) -> tuple[GoldEpisode | None, str]:
    """The oracle solving ``key`` on a text-backend env, every step with its observation."""
    from openapps_sim.agents import make_agent
    from openapps_sim.sweeps.interface import prepare_agent

    obs, info = _reset(env, key, key.style)
    oracle = make_agent(GOLD_AGENT)
    prepare_agent(oracle, key.interface)
    world = key.world
    oracle.reset(obs["goal"], info["task_info"], seed=world.seed)
    source = f"{GOLD_AGENT}:{key.task}:{world.variation}:{world.seed}:{world.language}:{key.interface}"
    episode = GoldEpisode(key, obs["goal"], info["task_info"], _structure(key.task), source=source)
    success = False
    for _ in range(env.unwrapped.step_budget):
        action = oracle.act(obs)
        if getattr(oracle, "finished", False):
            break
        obs, _, terminated, truncated, step_info = _take(env, episode, obs, action)
        success = bool(step_info.get("task_info", {}).get("success"))
        if terminated or truncated:
            break
    if not success or not episode.steps:
        return None, "the oracle did not solve it"
    note_decision(env, episode)
    return episode, ""


def from_episodes(
    keys: list[GoldKey], limit: int | None = None, notes: list[str] | None = None
) -> Iterator[GoldEpisode]:
    """Gold episodes generated here: the oracle on the text backend, one per key."""
    notes = notes if notes is not None else []
    envs = _Envs()
    try:
        for key in keys[:limit] if limit is not None else keys:
            episode, why = oracle_episode(envs.get(key), key)
            if episode is None:
                notes.append(f"{key.task} ({_where(key)}): {why}; left out")
                continue
            yield episode
    finally:
        envs.close()
