"""One episode, played and recorded: the agent acts, each action is checked (an invalid one runs
nothing), run on the env and logged; at the end the complete state is scored once more and the
record and trajectory are written down. :class:`~openapps_sim.sweeps.runner.Worker` makes the
agent and the env and starts the episode; this module plays it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from urllib.parse import urlparse

from openapps_sim.agent import Agent, task_info_for
from openapps_sim.config.catalog import discover_apps
from openapps_sim.envs.actions import ActionCheck, InvalidActionCounter, classify_execution_error, shown_action
from openapps_sim.envs.apptools import check_action
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.completion import completion_fields
from openapps_sim.sweeps.failures import call_agent, infrastructure_fault, page_url
from openapps_sim.sweeps.heartbeat import AGENT, ENV, RECORD
from openapps_sim.sweeps.record import INFRASTRUCTURE, EpisodeResult, EpisodeSpec, StepRecord, error_record, new_record
from openapps_sim.sweeps.steplog import THUMB_QUALITY, THUMB_WIDTH, StepLog
from openapps_sim.sweeps.visits import Visits
from openapps_sim.taskkit import get_family
from openapps_sim.taskkit.progress import compact_events, milestone_summary, wlcs

Beat = Callable[..., None]  # beat(step, phase, sofar=None): a worker's heartbeat (sweeps.heartbeat)


def reset_options(spec: EpisodeSpec, agent: Agent, out_dir: Path | None) -> dict:
    """What ``env.reset`` is given for ``spec``: its world (as a value), the rest of the task
    kwargs, the viewport, what to observe and the step budget."""
    thumbnail = None
    if spec.backend == "text":
        obs_mode = "axtree"  # no pixels: no thumbnails (a screenshot agent is refused by the env)
    elif spec.record_screenshots or (out_dir and agent.obs_mode != "axtree"):
        obs_mode = "both"  # the step log reads the tree; thumbnails come from the screenshot
    else:
        obs_mode = agent.obs_mode
        if out_dir and obs_mode == "axtree":  # a tree reader's thumbnails: Chromium's, batched with the tree
            thumbnail = (THUMB_WIDTH, THUMB_QUALITY)
    return {
        "world": spec.world,
        "task_kwargs": {"style": spec.style, "termination": spec.termination},
        "viewport": spec.viewport_dict,
        "obs_mode": obs_mode,
        "thumbnail": thumbnail,
        "max_steps": spec.max_steps,  # None: the task's own budget, with its interruption allowance
    }


class Episode:
    """One episode of ``spec``: started (the env reset to the spec's world) when made, then
    :meth:`play` and :meth:`result`. ``t0`` is when the episode's clock started (its
    ``duration_s`` counts making the agent and the env too)."""

    def __init__(
        self,
        spec: EpisodeSpec,
        agent: Agent,
        env,
        out_dir: Path | None,
        run_id: str = "",
        attempt: int = 1,
        t0: float | None = None,
    ):
        self.spec, self.agent, self.env, self.out_dir = spec, agent, env, out_dir
        self.run_id, self.attempt = run_id, attempt
        self.t0 = time.perf_counter() if t0 is None else t0
        obs, info = env.reset(options=reset_options(spec, agent, out_dir))  # the seed: in the world
        self.obs = obs
        self.max_actions = int(getattr(agent, "max_actions", 1) or 1)
        self.task_info = info["task_info"]
        self.goal = obs["goal"]
        # the env's budget, so the episode ends here exactly where a plain gym loop is truncated
        # (here invalid actions, which never reach the env, count too)
        self.max_steps = env.unwrapped.step_budget
        apps = discover_apps()
        home = next((name for name, app in apps.items() if app.home), "")
        self.counter = InvalidActionCounter()
        self.steps: list[StepRecord] = []
        self.actions: list[str] = []
        self.checked_at: list[int] = []  # the runner step of each state check (env.step)
        self.reward = 0.0
        self.own_failure: tuple[str, str] | None = None  # the agent's own exception (sweeps.failures)
        record_shots = out_dir is not None and spec.record_screenshots
        self.shot_dir = (out_dir / "screenshots" / spec.episode_id) if record_shots else None
        if self.shot_dir:
            self.shot_dir.mkdir(parents=True, exist_ok=True)
        self.first_shot = self._save_shot(obs, 0)
        self.log = StepLog(
            out_dir, spec.episode_id, grab=getattr(env.unwrapped, "thumbnail_jpeg", None), exchange_images=record_shots
        )
        self.log.start(obs, agent.usage())
        self.first_thumb = self.log.start_thumbnail(obs)
        self.visits = Visits(set(apps), home, urlparse(obs.get("url", "")).hostname or "")

    # -- playing -----------------------------------------------------------------------------
    def play(self, beat: Beat | None = None) -> None:
        """The agent acts until the episode ends, its budget is spent or it raises (its own
        failure); an infrastructure failure is raised, with what happened so far as ``partial``.
        ``beat(step, phase, sofar)`` is the worker's heartbeat (:mod:`.heartbeat`): it tells the
        sweep's watchdog whose time each stretch is (``sofar``: :meth:`sofar`, called by a beat
        that sends it)."""
        beat = beat or (lambda *_: None)
        try:
            self._play(beat)
        except Exception as exc:
            beat(len(self.actions), ENV)  # (a model-service failure leaves the agent's turn)
            exc.partial = self._partial(exc)
            raise
        beat(len(self.actions), RECORD)

    def _play(self, beat: Beat) -> None:
        agent = self.agent
        beat(-1, AGENT, self.sofar)
        given = task_info_for(agent, self.task_info)
        _, self.own_failure = call_agent(agent.reset, self.goal, given, seed=self.spec.agent_seed)
        beat(-1, ENV)
        for n in range(self.max_steps if self.own_failure is None else 0):
            self.log.before(self.obs)
            beat(n, AGENT, self.sofar)
            action, self.own_failure = call_agent(agent.act, agent_view(self.obs, agent))
            beat(n, ENV)
            if self.own_failure is not None:
                break
            if isinstance(action, str):
                action = str.__str__(action)  # a plain str, whatever subclass the agent returned
            self.actions.append(shown_action(action))
            if not self._step(n, action):
                break

    def _check(self, action: object) -> ActionCheck:
        """The action's check. Whatever the agent returned, the check's verdict is the agent's:
        an exception raised while checking its action makes it a malformed action, never an
        error of the episode (docs/sweeps.md)."""
        try:
            return check_action(action, self.obs, self.agent.action_space, self.max_actions, self.spec.interface)
        except Exception as exc:  # noqa: BLE001 - caused by the agent's action, judged as its action
            return ActionCheck("malformed", f"the action cannot be checked ({type(exc).__name__}: {exc})"[:300])

    def _step(self, n: int, action: object) -> bool:
        """Step ``n``: the action checked, then run; whether the episode goes on."""
        check = self._check(action)
        if check.category != "valid":
            shown = shown_action(action)
            self.counter.add(check.category, check.message, step=n)
            error = f"invalid action ({check.category}): {check.message}"
            self.obs = dict(self.obs, last_action=shown, last_action_error=error)
            self.steps.append(StepRecord(shown, check.category, error, self.reward, self.obs["url"]))
            self.log.after(self.agent, shown, None, n)
            return True
        try:
            obs, reward, terminated, truncated, _ = self.env.step(action)
        except Exception as exc:  # noqa: BLE001 - sorted here: the agent's failure or the infrastructure's
            if isinstance(exc, ConfigError) or infrastructure_fault(self.env):
                raise
            # The browser and the server are alive: the agent's action broke the step (e.g. a page
            # the observation cannot be read from). The agent's failure: a failed step, and the
            # episode ends there, scored on the world state like any other end.
            message = f"step failed: {type(exc).__name__}: {exc}".strip()[:1000]
            self.counter.add("browser_error", message, step=n)
            self.steps.append(StepRecord(action, "browser_error", message, float(self.reward), page_url(self.env)))
            self.log.after(self.agent, action, None, n)
            return False
        self._took(n, action, obs, reward)
        return not (terminated or truncated)

    def _took(self, n: int, action: str, obs: dict, reward: float) -> None:
        """A step the env ran: counted, its page visit noted, its screenshot and log kept."""
        self.obs, self.reward = obs, reward
        self.checked_at.append(n + 1)
        category = classify_execution_error(obs["last_action_error"])  # "valid" when no error
        self.counter.add(category, obs["last_action_error"], step=n)  # valid steps count too
        self.visits.see(obs["url"], self.env.unwrapped.task)
        shot = self._save_shot(obs, n + 1)
        self.steps.append(StepRecord(action, category, obs["last_action_error"], float(reward), obs["url"], shot))
        self.log.after(self.agent, action, obs, n)

    def _save_shot(self, obs: dict, n: int) -> str | None:
        if self.shot_dir is None or obs.get("screenshot") is None or not getattr(obs["screenshot"], "size", 0):
            return None
        from PIL import Image  # only sweeps that record screenshots need it

        path = self.shot_dir / f"{n:03d}.png"
        Image.fromarray(obs["screenshot"]).save(path, optimize=False, compress_level=1)
        return str(path.relative_to(self.out_dir))

    # -- the record --------------------------------------------------------------------------
    def _partial(self, exc: Exception) -> EpisodeResult:
        """What an infrastructure or model-service failure mid-episode leaves: the steps so far,
        tokens included."""
        kind = getattr(exc, "error_kind", INFRASTRUCTURE)
        spec = self.spec
        record = error_record(spec, self.run_id, self.attempt, exc, time.perf_counter() - self.t0, kind=kind)
        record.update(goal=self.goal, steps=len(self.actions), actions=self.actions, **self._behaviour())
        trajectory = {"episode_id": spec.episode_id, "goal": self.goal, "steps": [asdict(s) for s in self.steps]}
        return EpisodeResult(record, trajectory)

    def _behaviour(self) -> dict:
        return {
            "invalid": self.counter.as_dict(),
            "invalid_detail": self.counter.summary(),
            "apps_visited": self.visits.apps,
            "apps_opened_by_interruptions": self.visits.by_interruption,
            "tokens": self.agent.usage(),
        }

    def sofar(self) -> dict:
        """What the record holds if the agent never answers from here (it hangs, or its worker
        dies): the episode so far, read from memory only. The sweep's parent writes it as the
        agent's failed episode (:func:`~openapps_sim.sweeps.record.agent_fault_record`)."""
        task, fam = self.env.unwrapped.task, get_family(self.spec.task)
        last = task.last_evaluation
        shown = list((task.last_interruptions or {}).get("shown") or [])
        return {
            "task_apps": list(self.task_info.get("apps", fam.apps)),
            "goal": self.goal,
            "style": self.task_info.get("style", self.spec.style),
            "partial_reward": float(last.partial) if last is not None else 0.0,
            "steps": len(self.actions),
            "actions": list(self.actions),
            **self._behaviour(),
            "interruptions": shown,
            "harmful_accepted": any(e.get("harmful") for e in shown),
            "interruptible": bool(getattr(task, "interrupting", False)),
            "structure": fam.structure,
            "category": fam.category,
        }

    def result(self) -> EpisodeResult:
        """The finished episode's record and trajectory, its state scored once more."""
        spec, task, failure = self.spec, self.env.unwrapped.task, self.own_failure
        fam = get_family(spec.task)
        final = task.last_evaluation
        if final is None:
            final = task.evaluate_now(None, page_url(self.env))
        # an agent that raised did not finish its episode: a failure, whatever the state shows
        reward = final.reward if failure is None else 0.0
        record = new_record(spec, self.run_id, self.attempt)
        record.update(
            task_apps=list(self.task_info.get("apps", fam.apps)),
            goal=self.goal,
            style=self.task_info.get("style", spec.style),
            reward=float(reward),
            partial_reward=float(final.partial),
            success=bool(final.success and failure is None),
            steps=len(self.actions),
            actions=self.actions,
            **self._behaviour(),
            duration_s=round(time.perf_counter() - self.t0, 3),
            state_diff=[d.as_dict() for d in final.diff[:20]],
            agent_error=failure[0] if failure else None,
            traceback=failure[1] if failure else None,
            **progress_fields(fam, task, final, self.checked_at, len(self.actions)),
        )
        events = task.events()
        shown = task.interruptions()["shown"]
        record.update(
            interruptions=shown,
            harmful_accepted=any(e["harmful"] for e in shown),
            interruptible=bool(getattr(task, "interrupting", False)),
        )
        step_dicts = [asdict(s) for s in self.steps]
        record.update(step_changed=self.log.finish(step_dicts, events), stale_actions=self.log.drift(step_dicts, shown))
        return EpisodeResult(record, self._trajectory(step_dicts, events, float(reward), final))

    def _trajectory(self, step_dicts: list[dict], events: list[dict], reward: float, final) -> dict:
        spec = self.spec
        return {
            "episode_id": spec.episode_id,
            "goal": self.goal,
            "task": spec.task,
            "variation": spec.world.variation,
            "seed": spec.world.seed,
            "trial": spec.trial,
            "agent": spec.agent,
            "label": spec.label,
            "params": self.task_info.get("params"),
            "first_screenshot": self.first_shot,
            "first_thumbnail": self.first_thumb,
            "steps": step_dicts,
            "system_prompts": self.log.system_prompts,
            "events": events,
            "reward": reward,
            "agent_error": self.own_failure[0] if self.own_failure else None,
            "explanation": final.explain(events=events),
        }


def progress_fields(fam, task, final, checked_at: list[int], n_steps: int) -> dict:
    """Structure, answer, operations, decisions, W-LCS and milestones of the finished episode."""
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


def agent_view(obs: dict, agent: Agent) -> dict:
    """Drop what the agent does not read (e.g. the screenshot taken only for the record)."""
    if agent.obs_mode == "axtree" and obs.get("screenshot") is not None and getattr(obs["screenshot"], "size", 0):
        obs = dict(obs)
        obs["screenshot"] = None
    return obs
