"""Running episodes: one agent, one task instance, one variation, one seed -> one record.

A :class:`Worker` owns one environment (and through it one app server and one Chromium) and
reuses it across episodes: every episode gets an in-memory world reset and a fresh browser
context, so nothing of one episode leaks into the next."""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from openapps_sim.agent import Agent
from openapps_sim.errors import ConfigError, SweepStopped
from openapps_sim.sweeps.completion import completion_fields
from openapps_sim.sweeps.failures import call_agent, infrastructure_fault, page_url
from openapps_sim.sweeps.record import (
    INFRASTRUCTURE,
    MODEL_SERVICE,
    EpisodeResult,
    EpisodeSpec,
    StepRecord,
    error_record,
    new_record,
)
from openapps_sim.sweeps.steplog import StepLog
from openapps_sim.sweeps.visits import Visits


def make_agent_for(spec: EpisodeSpec) -> Agent:
    from openapps_sim.agents import make_agent  # the agents package owns configs and the registry
    from openapps_sim.sweeps.interface import prepare_agent

    agent = make_agent(spec.agent, spec.agent_config, spec.options)
    prepare_agent(agent, spec.interface)
    return agent


class Worker:
    """Runs episodes one after another. An environment is one task family (BrowserGym's
    contract: task kwargs are fixed when the env is made), so the worker keeps the env of the
    family it ran last and makes a new one when the family changes; envs of a process share one
    browser and one app server, so a new env costs a world and a browser context, not a launch."""

    def __init__(self, headless: bool = True):
        self.headless = headless
        self.env = None
        self.family: tuple | None = None  # (task family, action space, several actions per step, interface)
        self.episodes = 0

    def _env_for(self, family: str, space: str, multiaction: bool, interface: str = "gui", backend: str = "chromium"):
        key = (family, space, multiaction, interface, backend)
        if self.env is None or self.family != key:
            from openapps_sim.envs.registration import make_env

            old = self.env
            # made before the old one closes, so the process's shared browser stays up
            self.env = make_env(
                family,
                headless=self.headless,
                action_space=space,
                action_mapping=_mapping_for(space, multiaction),
                interface=interface,
                backend=backend,
            )
            self.family = key
            if old is not None:
                old.close()
        return self.env

    def restart(self) -> None:
        """Throw away the env, and the process's app server if it died (after a crash)."""
        from openapps_sim.envs.client import forget_dead_server

        if self.env is not None:
            try:
                self.env.close()
            except Exception:
                pass
        self.env = None
        self.family = None
        forget_dead_server()

    def close(self) -> None:
        if self.env is not None:
            self.env.close()
            self.env = None

    def run(
        self,
        spec: EpisodeSpec,
        out_dir: Path | None = None,
        run_id: str = "",
        attempt: int = 1,
        on_step: Callable[[int], None] | None = None,
    ) -> EpisodeResult:
        from openapps_sim.config.catalog import discover_apps
        from openapps_sim.envs.actions import InvalidActionCounter, classify_execution_error
        from openapps_sim.envs.apptools import check_action
        from openapps_sim.taskkit import get_family

        t0 = time.perf_counter()
        fam = get_family(spec.task)
        agent = make_agent_for(spec)
        max_actions = int(getattr(agent, "max_actions", 1) or 1)
        env = self._env_for(spec.task, agent.action_space, max_actions > 1, spec.interface, spec.backend)
        record_shots = spec.record_screenshots
        obs_mode = "both" if (record_shots or out_dir) else agent.obs_mode  # thumbnails and the tree
        if spec.backend == "text":
            obs_mode = "axtree"  # no pixels: no thumbnails (a screenshot agent is refused by the env)
        obs, info = env.reset(
            seed=spec.seed,
            options={
                "task_kwargs": {
                    "variation": spec.variation,
                    "language": spec.language,
                    "style": spec.style,
                    "termination": spec.termination,
                },
                "viewport": spec.viewport_dict,
                "obs_mode": obs_mode,
                "max_steps": spec.max_steps,  # None: the task's own budget, with its interruption allowance
            },
        )
        task_info = info["task_info"]
        goal = obs["goal"]
        # the env's budget, so the episode ends here exactly where a plain gym loop is truncated
        # (here invalid actions, which never reach the env, count too)
        max_steps = env.unwrapped.step_budget
        apps = discover_apps()
        known = set(apps)
        home = next((name for name, app in apps.items() if app.home), "")
        counter = InvalidActionCounter()
        steps: list[StepRecord] = []
        actions: list[str] = []
        checked_at: list[int] = []  # the runner step of each state check (env.step)
        reward, partial, success, step_info = 0.0, 0.0, False, {}
        shot_dir = (out_dir / "screenshots" / self.episode_dir(spec)) if (out_dir and record_shots) else None
        if shot_dir:
            shot_dir.mkdir(parents=True, exist_ok=True)
        first_shot = self._save_shot(obs, shot_dir, 0, out_dir)
        log = StepLog(out_dir, self.episode_dir(spec))
        log.start(obs, agent.usage())
        first_thumb = log.start_thumbnail(obs)
        visits = Visits(known, home, urlparse(obs.get("url", "")).hostname or "")
        try:
            # the agent's own exception ends the episode as its failure (sweeps.failures)
            _, own_failure = call_agent(agent.reset, goal, task_info if agent.privileged else {}, seed=spec.agent_seed)
            for n in range(max_steps if own_failure is None else 0):
                if on_step is not None:
                    on_step(n)  # a heartbeat: the sweep's watchdog knows this worker is alive
                log.before(obs)
                action, own_failure = call_agent(agent.act, _agent_view(obs, agent))
                if own_failure is not None:
                    break
                actions.append(action)
                check = check_action(action, obs, agent.action_space, max_actions, spec.interface)
                if check.category != "valid":
                    counter.add(check.category, check.message, step=n)
                    obs = dict(
                        obs, last_action=action, last_action_error=f"invalid action ({check.category}): {check.message}"
                    )
                    steps.append(StepRecord(action, check.category, obs["last_action_error"], reward, obs["url"]))
                    log.after(agent, action, None, n)
                    continue
                try:
                    obs, reward, terminated, truncated, step_info = env.step(action)
                except Exception as exc:  # noqa: BLE001 - sorted below: the agent's failure or the infrastructure's
                    if isinstance(exc, ConfigError) or infrastructure_fault(env):
                        raise
                    # The browser and the server are alive: the agent's action broke the step (e.g.
                    # a page the observation cannot be read from). The agent's failure: a failed
                    # step, and the episode ends there, scored on the world state like any other end.
                    message = f"step failed: {type(exc).__name__}: {exc}".strip()[:1000]
                    counter.add("browser_error", message, step=n)
                    steps.append(StepRecord(action, "browser_error", message, float(reward), page_url(env)))
                    log.after(agent, action, None, n)
                    break
                checked_at.append(n + 1)
                category = classify_execution_error(obs["last_action_error"])  # "valid" when no error
                counter.add(category, obs["last_action_error"], step=n)  # valid steps count too
                visits.see(obs["url"], env.unwrapped.task)
                ti = step_info.get("task_info", {})
                partial = ti.get("partial_reward", partial)
                success = bool(ti.get("success", False))
                shot = self._save_shot(obs, shot_dir, n + 1, out_dir)
                steps.append(StepRecord(action, category, obs["last_action_error"], float(reward), obs["url"], shot))
                log.after(agent, action, obs, n)
                if terminated or truncated:
                    break
        except Exception as exc:
            # an infrastructure or model-service failure mid-episode: keep what happened so far,
            # tokens included
            kind = getattr(exc, "error_kind", INFRASTRUCTURE)
            record = error_record(spec, run_id, attempt, exc, time.perf_counter() - t0, kind=kind)
            record.update(
                goal=goal,
                steps=len(actions),
                actions=actions,
                invalid=counter.as_dict(),
                invalid_detail=counter.summary(),
                apps_visited=visits.apps,
                apps_opened_by_interruptions=visits.by_interruption,
                tokens=agent.usage(),
            )
            trajectory = {"episode_id": spec.episode_id, "goal": goal, "steps": [asdict(s) for s in steps]}
            exc.partial = EpisodeResult(record, trajectory)
            raise
        task = env.unwrapped.task
        final = task.last_evaluation
        if final is None:
            final = task.evaluate_now(None, page_url(env))
        # an agent that raised did not finish its episode: a failure, whatever the state shows
        success = final.success and own_failure is None
        reward = final.reward if own_failure is None else 0.0
        partial = final.partial
        apps_needed = list(task_info.get("apps", fam.apps))
        record = new_record(spec, run_id, attempt)
        record.update(
            task_apps=apps_needed,
            goal=goal,
            style=task_info.get("style", spec.style),
            reward=float(reward),
            partial_reward=float(partial),
            success=bool(success),
            steps=len(actions),
            actions=actions,
            invalid=counter.as_dict(),
            invalid_detail=counter.summary(),
            apps_visited=visits.apps,
            apps_opened_by_interruptions=visits.by_interruption,
            duration_s=round(time.perf_counter() - t0, 3),
            tokens=agent.usage(),
            state_diff=[d.as_dict() for d in final.diff[:20]],
            agent_error=own_failure[0] if own_failure else None,
            traceback=own_failure[1] if own_failure else None,
            **_progress_fields(fam, task, final, checked_at, len(actions)),
        )
        events = task.events()
        shown = task.interruptions()["shown"]
        record.update(
            interruptions=shown,
            harmful_accepted=any(e["harmful"] for e in shown),
            interruptible=bool(getattr(task, "interrupting", False)),
        )
        step_dicts = [asdict(s) for s in steps]
        record.update(step_changed=log.finish(step_dicts, events), stale_actions=log.drift(step_dicts, shown))
        trajectory = {
            "episode_id": spec.episode_id,
            "goal": goal,
            "task": spec.task,
            "variation": spec.variation,
            "seed": spec.seed,
            "trial": spec.trial,
            "agent": spec.agent,
            "params": task_info.get("params"),
            "first_screenshot": first_shot,
            "first_thumbnail": first_thumb,
            "steps": step_dicts,
            "events": events,
            "reward": float(reward),
            "agent_error": own_failure[0] if own_failure else None,
            "explanation": final.explain(events=events),
        }
        self.episodes += 1
        return EpisodeResult(record, trajectory)

    @staticmethod
    def episode_dir(spec: EpisodeSpec) -> str:
        return spec.episode_id

    @staticmethod
    def _save_shot(obs: dict, shot_dir: Path | None, n: int, out_dir: Path | None) -> str | None:
        if shot_dir is None or obs.get("screenshot") is None or not getattr(obs["screenshot"], "size", 0):
            return None
        from PIL import Image

        path = shot_dir / f"{n:03d}.png"
        Image.fromarray(obs["screenshot"]).save(path, optimize=False, compress_level=1)
        return str(path.relative_to(out_dir))


def _progress_fields(fam, task, final, checked_at: list[int], n_steps: int) -> dict:
    """Structure, answer, operations, decisions, W-LCS and milestones of the finished episode."""
    from openapps_sim.taskkit.progress import compact_events, milestone_summary, wlcs

    inst = task.instance
    ops = compact_events(task.events())
    reached = {
        name: (checked_at[i - 1] if i is not None and 0 < i <= len(checked_at) else None)
        for name, i in task.milestones_reached().items()
    }
    return {
        "structure": fam.structure,
        "category": fam.category,
        "answer": task.last_answer,
        "answer_ok": final.answer_ok,
        "ops": ops,
        "decisions": inst.branching.decisions(ops) if inst.branching is not None else None,
        "correct_branch": inst.branching.correct if inst.branching is not None else None,
        # W-LCS is undefined (N = 0 in DAC-Bench's formula) where the family expects no operation
        "wlcs": wlcs(ops, inst.oracle_ops) if inst.oracle_ops else None,
        "expected_ops": len(inst.oracle_ops) if inst.oracle_ops is not None else None,
        "milestones": reached,
        **milestone_summary(reached, n_steps),
        **completion_fields(task, checked_at, n_steps),
    }


def _agent_view(obs: dict, agent: Agent) -> dict:
    """Drop what the agent does not read (e.g. the screenshot taken only for the record)."""
    if agent.obs_mode == "axtree" and obs.get("screenshot") is not None and getattr(obs["screenshot"], "size", 0):
        obs = dict(obs)
        obs["screenshot"] = None
    return obs


_MAPPINGS: dict[str, Any] = {}


def _mapping_for(space: str, multiaction: bool = False):
    key = f"{space}:{multiaction}"
    if key not in _MAPPINGS:
        from openapps_sim.envs.env import action_mapping

        _MAPPINGS[key] = action_mapping(space, multiaction=multiaction)
    return _MAPPINGS[key]


def run_with_retry(
    worker: Worker,
    spec: EpisodeSpec,
    out_dir: Path | None,
    run_id: str,
    on_step: Callable[[int], None] | None = None,
    first_attempt: int = 1,
) -> EpisodeResult:
    """Run an episode; on an infrastructure crash restart the worker and try once more.
    ``first_attempt`` numbers the attempts (2 when the sweep retries the episode on a fresh
    worker after the old one hung or died), so the record says which try it is.

    Only what reaches here is infrastructure or a model-service failure
    (:mod:`openapps_sim.sweeps.failures`): :meth:`Worker.run` keeps a step that the agent's
    action broke (browser and server still alive) as the agent's failed step, and an exception
    of the agent's own as its failed episode (``agent_error``). An infrastructure crash is
    never counted as the agent's success or failure: the record carries ``error``,
    ``error_kind`` and the steps taken before the crash; its ``tokens`` add up both attempts (the
    first attempt's tokens were spent too). A model-service failure is tried once more too, but
    without restarting the worker's browser and server (they are fine). Configuration errors (unknown task, bad agent
    config) are not retried: they are raised. A permanent infrastructure error (a rejected API
    key, an unknown model, a prompt over the context length) raises :class:`SweepStopped`: it
    would fail every episode alike.
    """
    spent: dict = {}
    last = first_attempt + 1
    for attempt in (first_attempt, last):
        t0 = time.perf_counter()
        try:
            result = worker.run(spec, out_dir, run_id, attempt, on_step=on_step)
            result.record["tokens"] = add_usage(spent, result.record.get("tokens") or {})
            return result
        except ConfigError:
            raise
        except Exception as exc:  # noqa: BLE001 - recorded, never silently dropped
            if os.environ.get("OPENAPPS_DEBUG"):
                traceback.print_exc()
            if getattr(exc, "permanent", False):
                raise SweepStopped(
                    f"{type(exc).__name__}: {exc} (agent {spec.agent}, task {spec.task}); this fails every "
                    "episode alike, so the run stops. Fix the agent config or the model server, then resume."
                ) from None
            partial = getattr(exc, "partial", None)
            spent = add_usage(spent, partial.record.get("tokens") or {} if partial else {})
            kind = getattr(exc, "error_kind", INFRASTRUCTURE)
            if kind != MODEL_SERVICE:  # the browser and the server are fine when only the model API failed
                worker.restart()
            if attempt == last:
                if partial is None:
                    partial = EpisodeResult(error_record(spec, run_id, attempt, exc, time.perf_counter() - t0, kind))
                partial.record["tokens"] = spent
                return partial
    raise AssertionError("unreachable")


def add_usage(a: dict, b: dict) -> dict:
    """Two usage mappings added key by key (numbers summed; other values from ``b``)."""
    out = dict(a)
    for k, v in b.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and isinstance(out.get(k, 0), (int, float)):
            out[k] = round(out.get(k, 0) + v, 6)
        else:
            out[k] = v
    return out
