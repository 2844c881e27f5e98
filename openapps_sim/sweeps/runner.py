"""Running episodes: one agent, one task instance, one variation, one seed -> one record.

A :class:`Worker` owns one environment (and through it one app server and one Chromium) and
reuses it across episodes: every episode gets an in-memory world reset and a fresh browser
context, so nothing of one episode leaks into the next."""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openapps_sim.agent import Agent
from openapps_sim.envs.registration import make_env
from openapps_sim.errors import ConfigError, SweepStopped
from openapps_sim.sweeps.episode import Episode
from openapps_sim.sweeps.heartbeat import ENV
from openapps_sim.sweeps.interface import prepare_agent
from openapps_sim.sweeps.record import INFRASTRUCTURE, MODEL_SERVICE, EpisodeResult, EpisodeSpec, error_record
from openapps_sim.taskkit import get_family


def make_agent_for(spec: EpisodeSpec) -> Agent:
    from openapps_sim.agents import make_agent  # the agents package owns configs and the registry

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
        """Throw away the env (after a crash)."""
        if self.env is not None:
            try:
                self.env.close()
            except Exception:
                pass
        self.env = None
        self.family = None

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
        beat: Callable[..., None] | None = None,
    ) -> EpisodeResult:
        """One episode of ``spec`` (:mod:`openapps_sim.sweeps.episode`): its record and trajectory.
        ``beat(step, phase, sofar=None)``: the worker's heartbeat (:mod:`.heartbeat`)."""
        t0 = time.perf_counter()
        get_family(spec.task)  # an unknown task is the user's mistake, before anything is made
        agent = make_agent_for(spec)
        max_actions = int(getattr(agent, "max_actions", 1) or 1)
        env = self._env_for(spec.task, agent.action_space, max_actions > 1, spec.interface, spec.backend)
        if beat is not None:
            beat(-1, ENV)  # a heartbeat once the server and browser are up, before the reset
        episode = Episode(spec, agent, env, out_dir, run_id, attempt, t0)
        episode.play(beat)
        result = episode.result()
        self.episodes += 1
        return result


_MAPPINGS: dict[str, Any] = {}


def _mapping_for(space: str, multiaction: bool = False):
    key = f"{space}:{multiaction}"
    if key not in _MAPPINGS:
        from openapps_sim.envs.spaces import action_mapping  # loads BrowserGym: in the worker only

        _MAPPINGS[key] = action_mapping(space, multiaction=multiaction)
    return _MAPPINGS[key]


def run_with_retry(
    worker: Worker,
    spec: EpisodeSpec,
    out_dir: Path | None,
    run_id: str,
    beat: Callable[..., None] | None = None,
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
            result = worker.run(spec, out_dir, run_id, attempt, beat=beat)
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
