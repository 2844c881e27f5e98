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

from openapps_sim.agent import Agent
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import EpisodeResult, EpisodeSpec, StepRecord, error_record, new_record


def app_of_url(url: str, known_apps: set[str]) -> str | None:
    parts = url.split("/", 4)
    if len(parts) < 4:
        return None
    first = parts[3].split("?")[0].split("#")[0]
    if first == "":
        return "start"
    return first if first in known_apps else None


def make_agent_for(spec: EpisodeSpec) -> Agent:
    from openapps_sim.agents import make_agent  # the agents package owns configs and the registry

    agent = make_agent(spec.agent, spec.agent_config, spec.options)
    return agent


class Worker:
    """One environment reused across episodes."""

    def __init__(self, headless: bool = True):
        self.headless = headless
        self.env = None
        self.episodes = 0

    def _ensure_env(self):
        if self.env is None:
            from openapps_sim.envs.registration import make_env

            self.env = make_env("todo.add_item", headless=self.headless)
        return self.env

    def restart(self) -> None:
        """Throw away the browser and the server (after a crash)."""
        import openapps_sim.envs.client as client

        if self.env is not None:
            try:
                self.env.close()
            except Exception:
                pass
        self.env = None
        server = client._shared
        if server is not None and not server.alive():
            server.stop()
            client._shared = None

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
        from openapps_sim.envs.actions import InvalidActionCounter, classify_action, classify_execution_error
        from openapps_sim.taskkit import get_family

        t0 = time.perf_counter()
        env = self._ensure_env()
        fam = get_family(spec.task)
        agent = make_agent_for(spec)
        record_shots = spec.record_screenshots
        obs_mode = "both" if record_shots else agent.obs_mode
        obs, info = env.reset(
            seed=spec.seed,
            options={
                "task_kwargs": {"family": spec.task, "variation": spec.variation, "language": spec.language},
                "viewport": spec.viewport_dict,
                "obs_mode": obs_mode,
            },
        )
        env.unwrapped.action_mapping = _mapping_for(agent.action_space)
        task_info = info["task_info"]
        goal = obs["goal"]
        agent.reset(goal, task_info if agent.privileged else {}, seed=spec.seed)
        max_steps = spec.max_steps or task_info["max_steps"]
        known = set(discover_apps())
        counter = InvalidActionCounter()
        steps: list[StepRecord] = []
        actions: list[str] = []
        visited: list[str] = []
        reward, partial, success, step_info = 0.0, 0.0, False, {}
        shot_dir = (out_dir / "screenshots" / self.episode_dir(spec)) if (out_dir and record_shots) else None
        if shot_dir:
            shot_dir.mkdir(parents=True, exist_ok=True)
        first_shot = self._save_shot(obs, shot_dir, 0, out_dir)
        for n in range(max_steps):
            if on_step is not None:
                on_step(n)  # a heartbeat: the sweep's watchdog knows this worker is alive
            action = agent.act(_agent_view(obs, agent))
            actions.append(action)
            check = classify_action(action, obs, agent.action_space)
            if check.category != "valid":
                counter.add(check.category, check.message, step=n)
                obs = dict(
                    obs, last_action=action, last_action_error=f"invalid action ({check.category}): {check.message}"
                )
                steps.append(StepRecord(action, check.category, obs["last_action_error"], reward, obs["url"]))
                continue
            obs, reward, terminated, truncated, step_info = env.step(action)
            category = "valid"
            if obs["last_action_error"]:
                category = classify_execution_error(obs["last_action_error"])
                counter.add(category, obs["last_action_error"], step=n)
            app = app_of_url(obs["url"], known)
            if app and (not visited or visited[-1] != app):
                visited.append(app)
            ti = step_info.get("task_info", {})
            partial = ti.get("partial_reward", partial)
            success = bool(ti.get("success", False))
            shot = self._save_shot(obs, shot_dir, n + 1, out_dir)
            steps.append(StepRecord(action, category, obs["last_action_error"], float(reward), obs["url"], shot))
            if terminated or truncated:
                break
        task = env.unwrapped.task
        final = task.last_evaluation
        if final is None:
            final = task.evaluate_now(None, env.unwrapped.page.url)
        success = final.success
        reward = final.reward
        partial = final.partial
        apps_needed = list(task_info.get("apps", fam.apps))
        record = new_record(spec, run_id, attempt)
        record.update(
            task_apps=apps_needed,
            goal=goal,
            reward=float(reward),
            partial_reward=float(partial),
            success=bool(success),
            steps=len(actions),
            actions=actions,
            invalid=counter.as_dict(),
            invalid_detail=counter.summary(),
            apps_visited=visited,
            duration_s=round(time.perf_counter() - t0, 3),
            tokens=agent.usage(),
            state_diff=[d.as_dict() for d in final.diff[:20]],
        )
        events = task.events()
        trajectory = {
            "episode_id": spec.episode_id,
            "goal": goal,
            "task": spec.task,
            "variation": spec.variation,
            "seed": spec.seed,
            "agent": spec.agent,
            "params": task_info.get("params"),
            "first_screenshot": first_shot,
            "steps": [asdict(s) for s in steps],
            "events": events,
            "reward": float(reward),
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


def _agent_view(obs: dict, agent: Agent) -> dict:
    """Drop what the agent does not read (e.g. the screenshot taken only for the record)."""
    if agent.obs_mode == "axtree" and obs.get("screenshot") is not None and getattr(obs["screenshot"], "size", 0):
        obs = dict(obs)
        obs["screenshot"] = None
    return obs


_MAPPINGS: dict[str, Any] = {}


def _mapping_for(space: str):
    if space not in _MAPPINGS:
        from openapps_sim.envs.env import action_mapping

        _MAPPINGS[space] = action_mapping(space)
    return _MAPPINGS[space]


def run_with_retry(
    worker: Worker,
    spec: EpisodeSpec,
    out_dir: Path | None,
    run_id: str,
    on_step: Callable[[int], None] | None = None,
) -> EpisodeResult:
    """Run an episode; on an infrastructure crash restart the worker and try once more.

    A crash is never counted as the agent's success or failure: the record carries ``error``.
    Configuration errors (unknown task, bad agent config) are not retried: they are raised.
    """
    for attempt in (1, 2):
        t0 = time.perf_counter()
        try:
            return worker.run(spec, out_dir, run_id, attempt, on_step=on_step)
        except ConfigError:
            raise
        except Exception as exc:  # noqa: BLE001 - recorded, never silently dropped
            if os.environ.get("OPENAPPS_DEBUG"):
                traceback.print_exc()
            worker.restart()
            if attempt == 2:
                return EpisodeResult(error_record(spec, run_id, attempt, exc, time.perf_counter() - t0))
    raise AssertionError("unreachable")
