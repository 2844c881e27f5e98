"""The BrowserGym task: one seeded instance of a family under one variation."""

from __future__ import annotations

import copy
import dataclasses

import playwright.sync_api
from browsergym.core.task import AbstractBrowserTask

from openapps_sim.config.catalog import Undrawn
from openapps_sim.config.interruptions import apply_arrival
from openapps_sim.config.world import KEYS, WorldSpec, split_kwargs
from openapps_sim.envs.guard import same_origin
from openapps_sim.errors import ConfigError, Problems, unknown_key, unknown_name
from openapps_sim.taskkit import ENGLISH_STYLES, TERMINATIONS, Evaluation, evaluate, get_family, instantiate
from openapps_sim.taskkit.arrivals import arrival_rules, task_keys
from openapps_sim.taskkit.language import goal_languages
from openapps_sim.taskkit.progress import MilestoneTracker
from openapps_sim.taskkit.scoring import drawn_alike
from openapps_sim.taskkit.statecopy import copy_state
from openapps_sim.web.server import app_server
from openapps_sim.web.world import World

DEFAULT_VIEWPORT = {"width": 1280, "height": 720}
# what ``task_kwargs`` may hold besides the world's keys (config.world.KEYS): OpenAppsTask's arguments
TASK_KEYS = ("family", "style", "viewport", "live", "start_path", "termination")


def check_task_kwargs(kwargs: dict, source: str, world_keys: tuple[str, ...]) -> None:
    """``kwargs`` (a ``task_kwargs`` without the world's ``world_keys``) holds only keys the task
    takes, its ``style`` and ``termination`` known ones; else a :class:`ConfigError` (every problem)."""
    problems = Problems()
    for key in kwargs:
        if key not in TASK_KEYS:
            problems.add(unknown_key(source, str(key), key, (*world_keys, *TASK_KEYS), keep_order=True))
    style = kwargs.get("style")
    if style is not None and style not in ENGLISH_STYLES:
        problems.add(unknown_name(source, "style", style, ENGLISH_STYLES, what="style", keep_order=True))
    end = kwargs.get("termination", "auto")
    if end not in TERMINATIONS:
        problems.add(unknown_name(source, "termination", end, TERMINATIONS, what="termination", keep_order=True))
    problems.raise_any()


def checked_kwargs(task_kwargs: dict, source: str, world: WorldSpec) -> tuple[WorldSpec, dict]:
    """``task_kwargs`` as the world spec it gives (``world`` with its keys) and the task's own
    keys, both checked: every problem of both at once."""
    world_kwargs, own = split_kwargs(task_kwargs)
    problems = Problems()
    problems.check(check_task_kwargs, own, source, KEYS)
    spec = problems.check(world.updated, source, world_kwargs, goal_languages())
    problems.raise_any()
    return spec, own


def _changed(value: object, was: object) -> bool:
    """Whether an instance's initial state of an app (``value``) is not the world's (``was``): it
    prepared it, or drew it where the world has not yet (it is set in the world either way)."""
    return value is not was and (type(was) is Undrawn or value != was)


class OpenAppsTask(AbstractBrowserTask):
    """Resets the world to ``world`` (a :class:`~openapps_sim.config.world.WorldSpec`: variation,
    seed, goal language, overrides; ``seed`` chooses its seed), prepares the instance, scores
    the state.

    ``validate`` reads the complete state of the live world after every step; the
    episode ends with reward 1 as soon as the normalised state equals the expected one (and,
    for tasks that return a value, the agent's message carries it), or with reward 0 when the
    agent declares it is done (``send_msg_to_user``) in any other state. Only messages after
    the last user message (the goal) count, so BrowserGym's greeting is never an answer.

    ``termination="agent"``: the episode ends only when the agent declares it is done (a message,
    or ``report_infeasible``) or its step budget runs out; success is the state at that moment
    (plus the answer, for tasks that return a value). ``"auto"`` (the default) is the above.

    ``live`` is the :class:`~openapps_sim.web.world.World` the task runs in (an ``OpenAppsEnv``
    passes its own); without one the task serves a world of its own on the process's app server
    and drops it at teardown.
    A navigation goal counts only on the world's own origin (scheme, host and port).
    """

    def __init__(
        self,
        seed: int | None,
        family: str,
        world: WorldSpec | None = None,
        style: str | None = None,
        viewport: dict | None = None,
        live: World | None = None,
        start_path: str = "/",
        termination: str = "auto",
    ) -> None:
        super().__init__(seed or 0)
        if termination not in TERMINATIONS:
            raise unknown_name(
                "task_kwargs", "termination", termination, TERMINATIONS, what="termination", keep_order=True
            )
        self.termination = termination
        self.family_id = family
        self.family = get_family(family)
        world = world or WorldSpec()
        self.world = world.seeded(seed if seed is not None else world.seed or 0)
        self.seed = self.world.seed
        self.style = style
        self.viewport = dict(viewport or DEFAULT_VIEWPORT)
        # the browser's locale follows the world's language, so date and time inputs read
        # "10.03.2026" and "14:30" in a German world, not the US "03/10/2026" and "--:-- --"
        try:
            self.locale = self.world.world_language()
        except ConfigError:
            self.locale = None  # the world's reset reports the variation's mistake at setup
        self.slow_mo = 0
        self.timeout = 5000
        self._live = live
        self._owns_live = False
        self.start_path = start_path
        self.instance = None
        self.last_evaluation: Evaluation | None = None
        self.interrupting = False  # the variation declares interruptions
        self.actions_taken = 0
        self.last_answer: str | None = None
        self.last_interruptions: dict = {"shown": [], "arrivals": []}  # as of the last state check
        self._tracker: MilestoneTracker | None = None
        self._arrivals_seen = 0  # arrivals the milestones were last built with
        self._checks = 0
        self._forget_checks()
        self.completion: dict = {}

    @classmethod
    def get_task_id(cls) -> str:
        return "openapps"

    @property
    def live(self) -> World:
        """The world the episode runs in."""
        if self._live is None:
            self._live = app_server().add()
            self._owns_live = True
        return self._live

    def setup(self, page: playwright.sync_api.Page) -> tuple[str, dict]:
        live, world = self.live, self.world
        with live.lock:
            live.reset(world)
            state = live.snapshot()[1]
        config = world.config()
        self.instance = instantiate(self.family, state, config, world.seed, world.variation, world.language, self.style)
        with live.lock:
            # only what the instance prepared: its other apps are the snapshot's own objects
            initial = self.instance.initial
            prepared = [app for app, value in initial.items() if _changed(value, state.get(app))]
            if prepared:
                live.set_state(initial, only=prepared)
            if arrival_rules(config):  # no arrival may land in what the task refers to (docs/variations.md)
                inst = self.instance
                live.interrupts.refer_task(list(inst.apps), task_keys(inst.params, inst.initial, inst.expected, config))
        self._tracker = MilestoneTracker(list(self.instance.milestones))
        self._arrivals_seen = 0
        self._checks = 0
        self._forget_checks()
        # how the episode ended: declared (message / infeasible / None), the check it was declared
        # at, whether the state was not yet right then, and the check the goal first held at
        self.completion = {"declared": None, "declared_at": None, "premature": False, "goal_met_at": None}
        self.last_answer = None
        self.last_interruptions = {"shown": [], "arrivals": []}
        # the episode's first page may wait for a busy machine longer than a step's 5 s
        page.goto(live.url + self.start_path, timeout=max(self.timeout, 30_000))
        self.interrupting = bool(config.get("interruptions"))
        self.actions_taken = 0
        if self.interrupting:
            live.interrupts.set_step(0)
            # the step budget grows by what the armed interruptions may cost (see docs/variations.md)
            self.instance.max_steps += int(self.interruptions().get("allowance", 0))
        if self.termination == "agent":
            self.instance.max_steps += 1  # the declaring step is part of the task under agent termination
        info = self.instance.public_info()
        info["goal"] = self.instance.goal
        info["termination"] = self.termination
        return self.instance.goal, info

    def evaluate_now(self, answer: str | None = None, url: str | None = None) -> Evaluation:
        ev, _ = self._evaluate(answer, url)
        if self.termination == "agent" and ev.success:  # nothing was declared
            ev = self.last_evaluation = dataclasses.replace(ev, success=False, reward=0.0, undeclared=True)
        return ev

    # -- checking the state ------------------------------------------------------------------
    # The world's revision (web.world.World.revision) moves whenever something a check reads may
    # have changed: the state, the event log, what arrived during an interruption. A check at the
    # revision of the last one reuses its state, events and evaluation (for the same answer and
    # page), so a step that changed nothing (a fill, a focus, a link to another page) costs no
    # copy of the state and no normalisation.
    def _forget_checks(self) -> None:
        self._revision: int | None = None  # the revision _actual and _events belong to
        self._actual: dict = {}
        self._events: list[dict] | None = None
        self._evaluated: tuple | None = None  # (key, Evaluation) of the last evaluation
        self._observed: tuple | None = None  # what the milestones were last observed with
        self._with_arrivals: tuple | None = None  # (arrivals, instance with them applied)

    def _current_state(self) -> dict:
        if self._revision != self.live.revision:
            self._revision, self._actual = self.live.snapshot()
            self._events = None
        return self._actual

    def _current_events(self) -> list[dict]:
        """The event log at the revision of the last state check."""
        if self._events is None:
            self._events = self.events()
        return self._events

    def _instance_with(self, base, arrivals: list[dict]):
        """The instance with what arrived on its own (a message) in its initial and expected
        states (and never the agent's change); made once per list of arrivals."""
        if self._with_arrivals is None or self._with_arrivals[0] != arrivals or self._with_arrivals[2] is not base:
            initial, expected = copy_state(base.initial), copy_state(base.expected)
            for effect in arrivals:
                apply_arrival(initial, effect)
                apply_arrival(expected, effect)
            instance = dataclasses.replace(base, initial=initial, expected=expected)
            self._with_arrivals = (copy.deepcopy(arrivals), instance, base)
        return self._with_arrivals[1]

    def _evaluate(self, answer: str | None, url: str | None, reported: bool = False) -> tuple[Evaluation, dict]:
        actual = self._current_state()
        if url is not None and not same_origin(url, self.live.url):
            url = ""  # a page outside the world is never the navigation target
        instance, actual = drawn_alike(self.instance, actual)  # an app opened since is drawn in it too
        self.last_interruptions = self.interruptions()
        arrivals = self.last_interruptions["arrivals"]
        if arrivals:  # what arrived on its own (a message) is part of the expected state too
            instance = self._instance_with(instance, arrivals)
            self._follow_arrivals(instance.initial, instance.expected, arrivals)
        # the page matters only to a navigation goal: another page is the same evaluation
        key = (self._revision, answer, url if instance.expected_path is not None else None, reported, id(instance))
        if self._evaluated is not None and self._evaluated[0] == key:
            self.last_evaluation = self._evaluated[1]
            return self.last_evaluation, actual
        events = self._current_events() if instance.ordered else None
        self.last_evaluation = evaluate(self.family, instance, actual, answer, url, events, reported)
        self._evaluated = (key, self.last_evaluation)
        return self.last_evaluation, actual

    def _follow_arrivals(self, initial: dict, expected: dict, arrivals: list[dict]) -> None:
        """Milestones that compare an app with its expected state are rebuilt once something
        arrived in the world on its own (a message), so that an agent that did everything still
        reaches them (``initial`` and ``expected`` hold the arrivals); milestones already
        reached keep their step."""
        if self._tracker is None or len(arrivals) == self._arrivals_seen:
            return
        self._arrivals_seen = len(arrivals)
        self._tracker.milestones = list(self.family.milestones(self.instance.params, initial, expected))

    def milestones_reached(self) -> dict[str, int | None]:
        """Each milestone with the check (1 = after the first env step) that first found it
        reached, or None."""
        return dict(self._tracker.first) if self._tracker else {}

    def validate(self, page: playwright.sync_api.Page, chat_messages: list) -> tuple[float, bool, str, dict]:
        users = [i for i, m in enumerate(chat_messages) if m.get("role") in ("user", "user_image")]
        since_goal = chat_messages[users[-1] + 1 :] if users else chat_messages
        answers = [m["message"] for m in since_goal if m.get("role") == "assistant"]
        answer = answers[-1] if answers else None
        if self.interrupting:
            self.actions_taken += 1
            self.live.interrupts.set_step(self.actions_taken)
        self.last_answer = answer
        reported = any(m.get("role") == "infeasible" for m in since_goal)
        ev, actual = self._evaluate(answer, page.url, reported)
        self._checks += 1
        if self._tracker is not None:
            # the same state, page and milestones as at the last observation: nothing new is reached
            seen = (self._revision, page.url, ev.intact, id(self._tracker.milestones))
            if seen != self._observed:
                self._tracker.observe(self._checks, actual, page.url, intact=ev.intact)
                self._observed = seen
        declared = "infeasible" if reported else ("message" if answers else None)
        done = self._follow_completion(ev, declared)
        ev = self.last_evaluation
        info = {
            "success": ev.success,
            "partial_reward": ev.partial,
            # fresh objects every step (an evaluation is reused while nothing changed)
            "subgoals": dict(ev.subgoals),
            "state_diff": copy.deepcopy([d.as_dict() for d in ev.diff[:50]]),
            "explanation": self._explanation(ev),
            "answer_ok": ev.answer_ok,
            # the check at which each milestone was first reached; NaN: not yet. Floats throughout,
            # so that vectorised envs can batch the info (gymnasium stacks info values in arrays)
            "milestones": {k: float("nan") if v is None else float(v) for k, v in self.milestones_reached().items()},
        }
        return ev.reward, done, "", info

    def _explanation(self, ev: Evaluation) -> str:
        if self._evaluated is None or self._evaluated[1] is not ev:
            return ev.explain(events=self.events())
        if len(self._evaluated) == 2:  # explained once per evaluation
            self._evaluated = (*self._evaluated, ev.explain(events=self._current_events()))
        return self._evaluated[2]

    def _follow_completion(self, ev: Evaluation, declared: str | None) -> bool:
        """Whether the episode ends now, noting when the goal first held and how the agent
        declared completion. Under ``agent`` termination a goal that holds without a
        declaration scores 0 and the episode goes on."""
        c = self.completion
        if ev.success and c["goal_met_at"] is None:
            c["goal_met_at"] = self._checks
        if declared and c["declared"] is None:
            # a premature stop: declared done while the state (or page, or order) was not yet right
            c.update(declared=declared, declared_at=self._checks, premature=bool(ev.diff))
        if self.termination == "agent":
            if not declared and ev.success:
                self.last_evaluation = dataclasses.replace(ev, success=False, reward=0.0, undeclared=True)
            return bool(declared)
        return ev.success or bool(declared)

    def events(self) -> list[dict]:
        """The app event log of this episode's world (every state change, in order)."""
        with self.live.lock:
            return list(self.live.events)

    def interruptions(self) -> dict:
        """What interrupted this episode: ``shown`` (one entry per interruption shown: id, kind,
        presentation, buttons, step, page, button chosen, resolved_step, steps_to_recover,
        harmful, change) and ``arrivals`` (values that arrived in the apps' state)."""
        if not self.interrupting:
            return {"shown": [], "arrivals": []}
        with self.live.lock:
            return copy.deepcopy(self.live.interrupts.report())

    def teardown(self) -> None:
        if self._owns_live and self._live is not None:
            app_server().drop(self._live)
            self._live = None
            self._owns_live = False
