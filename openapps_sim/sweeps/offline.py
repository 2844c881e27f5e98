"""Offline, step-by-step evaluation (DAC-Bench's protocol): at every step of a gold trajectory
the agent is shown the recorded observation and asked for the next action; the world then
moves on with the *gold* action, whatever the agent answered, so every step is scored from
the right state.

Two instruction modes:

- ``goal``: the agent is reset with the task's goal only (DAC-Bench's high-level instruction);
- ``steps``: the goal, plus before every step a short instruction derived from the gold action
  and the element's accessible name (:func:`~openapps_sim.sweeps.stepmatch.instruction`;
  DAC-Bench's low-level instruction), handed over with :meth:`Agent.instruct`.

After each answer the agent is told the action actually taken (:meth:`Agent.follow`), so an
agent that remembers its steps (the LLM agents) remembers the gold history, not its own
answers. Each agent is made once per episode and mode, with the options of ``--agent-config``,
and acts through its normal code (an LLM agent through its HTTP client).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from openapps_sim.agent import Agent, load_agent_class, task_info_for
from openapps_sim.errors import ConfigError, InfrastructureError, unknown_name
from openapps_sim.sweeps.gold import GoldEpisode
from openapps_sim.sweeps.stepmatch import instruction, parse_action, score_step

MODES = ("goal", "steps")


@dataclass
class OfflineSettings:
    agent: str
    agent_config: str | None = None
    modes: tuple[str, ...] = MODES


def check_agent(name: str, modes: Iterable[str]) -> type[Agent]:
    """The agent class, refused with one sentence when it cannot be scored offline."""
    for mode in modes:
        if mode not in MODES:
            raise unknown_name("--mode", "", mode, ("goal", "steps", "both"), what="mode", keep_order=True)
    cls = load_agent_class(name, "--agent")
    if getattr(cls, "obs_mode", "axtree") == "screenshot":
        raise ConfigError(
            "--agent",
            name,
            "reads screenshots only; offline evaluation replays the gold on the text backend, which has no pixels",
            "an agent (or --agent-config) with obs_mode axtree or both",
        )
    return cls


def make_offline_agent(settings: OfflineSettings, interface: str) -> Agent:
    from openapps_sim.agents import make_agent
    from openapps_sim.sweeps.interface import prepare_agent

    agent = make_agent(settings.agent, settings.agent_config)
    if getattr(agent, "obs_mode", "axtree") == "screenshot":
        raise ConfigError(
            settings.agent_config or "--agent",
            "obs_mode",
            "screenshot: offline evaluation replays the gold on the text backend, which has no pixels",
            "axtree, both",
        )
    prepare_agent(agent, interface)
    return agent


def page_app(url: str) -> str:
    """The app whose page a step was taken on (``start`` for the start page)."""
    first = (urlsplit(str(url or "")).path or "/").strip("/").split("/")[0]
    return first or "start"


def _ask(agent: Agent, obs: dict) -> tuple[str, str | None]:
    """The agent's answer, or "" and its error when it raised (an answer that scores nothing).
    A model service that failed after its retries, or a configuration problem, stops the run."""
    try:
        return str(agent.act(obs)), None
    except (ConfigError, InfrastructureError):
        raise
    except Exception as exc:  # noqa: BLE001 - the agent's own failure at this step, recorded
        return "", f"{type(exc).__name__}: {exc}"[:500]


def _view(obs: dict, agent: Agent) -> dict:
    """What the agent reads: the recorded observation, without a screenshot it has no use for."""
    if obs.get("screenshot") is not None and agent.obs_mode == "axtree":
        obs = dict(obs, screenshot=None)
    return obs


def action_key(action: str, obs: dict, n: int) -> str:
    """An action as chosen on ``obs`` (step ``n``), for comparing it with the actions of other
    steps (W-LCS over step actions): its type, target and arguments; an element named only by
    its bid (no test id) is that step's element alone, since bids number one page load."""
    p = parse_action(action, obs)
    target = f"{p.target}@{n}" if p.target and p.target.startswith("bid:") else p.target
    return json.dumps([p.type, target, p.args], ensure_ascii=False, default=str)


def score_episode(episode: GoldEpisode, mode: str, settings: OfflineSettings) -> list[dict]:
    """Every gold step of ``episode`` asked of a fresh agent in ``mode``, one row per step, with
    the episode's scored length (``length``: DAC-Bench's length buckets) and, at the step that
    took a branching task's correct branch, the depth of that decision (``decision_depth``)."""
    key = episode.key
    agent = make_offline_agent(settings, key.interface)
    agent.reset(episode.goal, task_info_for(agent, episode.task_info), seed=key.world.seed)
    length = sum(1 for s in episode.steps if not s.idle)
    rows = []
    for n, step in enumerate(episode.steps):
        hint = instruction(step.action, step.obs) if mode == "steps" else None
        agent.instruct(hint)
        predicted, error = _ask(agent, _view(step.obs, agent))
        if error is None:  # an agent that raised has no answer of this step to replace
            agent.follow(step.action)
        s = score_step(predicted, step.action, step.obs)
        rows.append(
            {
                "mode": mode,
                "task": key.task,
                "app": page_app(step.obs.get("url", "")),
                "structure": episode.structure,
                "variation": key.world.variation,
                "seed": key.world.seed,
                "episode": episode.source,
                "step": n + 1,
                "idle": step.idle,
                "instruction": hint,
                "gold": step.action,
                "predicted": predicted,
                "agent_error": error,
                "gold_type": s.gold_type,
                "predicted_type": s.predicted_type,
                "type_match": s.type_match,
                "grounded": s.grounded,
                "exact": s.exact,
                "length": length,
                "decision_depth": episode.decisions.get(n),
                "gold_key": action_key(step.action, step.obs, n),
                "predicted_key": action_key(predicted, step.obs, n),
            }
        )
    return rows


def run_offline(
    episodes: Iterable[GoldEpisode],
    settings: OfflineSettings,
    on_episode: Callable[[GoldEpisode, list[dict]], None] | None = None,
) -> list[dict]:
    """Every step of every gold episode, scored in every mode of ``settings``."""
    check_agent(settings.agent, settings.modes)
    rows: list[dict] = []
    for episode in episodes:
        done = []
        for mode in settings.modes:
            done += score_episode(episode, mode, settings)
        rows += done
        if on_episode is not None:
            on_episode(episode, done)
    return rows
