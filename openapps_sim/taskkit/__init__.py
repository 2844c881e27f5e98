"""Task families: seeded instances, goal phrasings, expected states and oracle scripts.

A family is a :class:`TaskFamily` subclass in ``tasks/`` whose header is its decorator and whose
description is its docstring::

    @family("todo.remove_item", apps="todo", max_steps=8, clicks="todo-delete-{id}")
    class RemoveItem(SeededTodo):
        \"\"\"Delete the item with a given title from the todo list.\"\"\"

(:func:`family` registers it; any class attribute can be declared there: ``category``,
``answer_kind``, ``no_api``, ...). For one kind of goal it says:

* ``sample(state, config, rng)`` — parameters drawn from the seed, always feasible in this
  state (raise :class:`Infeasible` when the state allows none);
* ``prepare(state, params)`` — optional change of the initial state (e.g. put items in a
  cart before "empty the cart");
* ``plan(params, initial)`` — the change, stated once: a list of :class:`Op`, each one call of
  an app's own operation (``apps/<app>/operations.py``) with its arguments. The expected state
  is what those operations make of a copy of the initial state (:mod:`.plan`), the task
  succeeding only when the whole normalised world state equals it; W-LCS compares the
  episode's event log with the plan (``oracle_ops``), and the API solution (``solve_api``)
  calls the plan's operations as app tools. A family that cannot be solved through app tools
  alone says why in ``no_api``;
* goal templates — data files, one per language (``tasks/phrasings/<lang>.yaml``, see
  :mod:`openapps_sim.taskkit.language`): English in three styles (``plain``, ``casual``,
  ``context``), every other language as one list, formatted with :meth:`goal_values`;
* ``solve(params, ui)`` — the oracle's script: a generator of UI steps addressed by
  ``data-testid`` (see :class:`UI`), which the oracle agent turns into BrowserGym actions; a
  script that only opens the family's app and clicks is declared as ``clicks`` instead.

Families are looked up with :func:`get_family`; :func:`all_families` lists them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from openapps_sim.config.catalog import drawn
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit import language as lang_data
from openapps_sim.taskkit.language import tidy_punctuation
from openapps_sim.taskkit.plan import Unread, run_plan
from openapps_sim.taskkit.progress import Op
from openapps_sim.taskkit.registry import all_families, family, get_family, register_instance, unknown_task  # noqa: F401
from openapps_sim.taskkit.reward import normalise_world, normalised_expected
from openapps_sim.taskkit.scoring import Evaluation, evaluate  # noqa: F401 - re-exported
from openapps_sim.taskkit.scripts import API, UI, Step
from openapps_sim.taskkit.statecopy import copy_apps

ENGLISH_STYLES = ("plain", "casual", "context")

#: how an episode ends: ``auto`` (the paper's: as soon as the state is right) or ``agent`` (only
#: when the agent declares it is done, with ``send_msg_to_user`` or ``report_infeasible``)
TERMINATIONS = ("auto", "agent")


class Infeasible(Exception):
    """The state offers no valid parameters for this family (e.g. nothing to remove)."""


@dataclass
class Subgoal:
    name: str
    check: Callable[[dict], bool]  # on the raw world state


@dataclass
class Instance:
    family: str
    seed: int
    variation: str
    language: str  # the language asked for (``auto`` resolved to the world's)
    style: str
    goal: str
    params: dict
    initial: dict
    expected: dict
    max_steps: int
    expected_answer: str | None = None
    #: what the agent is told of the answer to send: its type and JSON Schema (None: no answer)
    answer_spec: dict | None = None
    expected_path: str | None = None
    apps: tuple[str, ...] = ()
    subgoals: list[Subgoal] = field(default_factory=list)
    milestones: list = field(default_factory=list)  # progress.Milestone, checked every step
    oracle_ops: list | None = None  # progress.Op: the oracle's state-changing operations
    branching: Any = None  # progress.Branching for conditional / hierarchical families
    ordered: bool = False  # the oracle's operations must appear in the event log in order
    #: the goal cannot be done in this world: success is ``report_infeasible`` with nothing changed;
    #: the value names what is missing (part of the instance, never shown to the agent)
    infeasible: str | None = None
    goal_language: str = ""  # the language the goal is written in (English when ``language`` lacks it)
    #: every English fallback taken for this instance (a goal, a content key), in words
    fallbacks: list[str] = field(default_factory=list)

    def public_info(self) -> dict:
        """What the environment reports about the instance (the oracle reads ``params``)."""
        return {
            "family": self.family,
            "seed": self.seed,
            "variation": self.variation,
            "language": self.language,
            "goal_language": self.goal_language or self.language,
            "language_fallbacks": list(self.fallbacks),
            "style": self.style,
            "params": self.params,
            "apps": list(self.apps),
            "max_steps": self.max_steps,
            "returns_value": self.expected_answer is not None,
            "answer_schema": self.answer_spec,
            "milestones": [m.name for m in self.milestones],
        }


class TaskFamily:
    id: str = ""
    apps: tuple[str, ...] = ()
    max_steps: int = 15
    description: str = ""
    returns_value: bool = False
    #: single | sequential | conjunctive | conditional | hierarchical | answer
    structure: str = "single"
    #: what the family exercises (edit, navigate, decision, constraint, count, lookup, math, ...)
    category: str = "edit"
    #: the order of the oracle's operations is part of the goal (checked on the event log)
    ordered: bool = False
    #: the goal cannot be done in the world (``infeasible_target`` names what is missing): success
    #: is ``report_infeasible`` with nothing changed (``tasks/<app>/infeasible.py``)
    infeasible: bool = False
    #: why the world holds fewer distinct instances than the floor of docs/tasks.md ("one per
    #: app: ..."); ``openapps tasks`` shows it. Empty: the family is held to the floor.
    instance_cap: str = ""

    #: why the goal cannot be reached through app tools alone ("" when it can, the default)
    no_api: str = ""
    #: the oracle's script when all it does is open the family's first app and click: the
    #: ``data-testid`` of each click, formatted with the params (``"todo-delete-{id}"``); a
    #: family whose script does more writes ``solve``
    clicks: tuple[str, ...] = ()

    # -- to implement ------------------------------------------------------------------------
    def sample(self, state: dict, config: dict, rng: random.Random) -> dict:
        raise NotImplementedError

    def prepare(self, state: dict, params: dict) -> None:
        """Optionally change the initial state in place."""

    def plan(self, params: dict, initial: dict) -> list[Op]:
        """The change, once: the app operations that reach the goal from ``initial``, in order
        (``Op.of("todo", "delete_item", id="t3")``); ``[]`` when the goal changes nothing."""
        raise NotImplementedError(f"{self.id}: no plan (define plan)")

    def solve(self, params: dict, ui: type[UI]) -> Iterator[Step]:
        """The oracle's script (by default: open the first app and click each of ``clicks``)."""
        if not self.clicks:
            raise NotImplementedError(f"{self.id}: no oracle script (define solve, or declare clicks)")
        return ui.open_and_click(self.apps[0], [testid.format(**params) for testid in self.clicks])

    # -- derived from the plan ---------------------------------------------------------------
    def expect(self, initial: dict, params: dict, config: dict) -> dict:
        """The expected state: the plan's operations run on a copy of ``initial`` (of the apps
        they and the family touch; the others are ``initial``'s own, unchanged)."""
        plan = self.plan(params, initial)
        apps = {*self.apps, *(op.app for op in plan)}
        for app in apps:  # drawn in both states (an app the world has not read is compared as itself)
            initial[app] = drawn(initial[app])
        expected = copy_apps(initial, apps)
        run_plan(plan, expected, config, f"task {self.id}")
        return expected

    def oracle_ops(self, params: dict, initial: dict) -> list[Op]:
        """The state-changing operations W-LCS compares with and ordered goals check: the plan."""
        return self.plan(params, initial)

    def solve_api(self, params: dict, api: type[API]) -> Iterator[Step]:
        """The goal reached through app tools only (``api`` and ``mixed`` interfaces): each
        planned operation called as an app tool; a plan that looks at the world gets it read
        first with the apps' ``read`` tools (one step per app of the family)."""
        try:
            plan = self.plan(params, Unread())
        except Unread.Needed:
            initial = {}
            for app in self.apps:
                initial[app] = api.result((yield api.read(app)))
            plan = self.plan(params, initial)
        yield from api.plan(plan)

    @property
    def api_solvable(self) -> bool:
        """Whether the oracle can solve it through app tools alone (its plan, or its own
        ``solve_api``), that is: it gives no ``no_api`` reason."""
        return not self.no_api

    def answer(self, state: dict, params: dict) -> str | None:
        """The value a return-value task must send back (None: no value expected)."""
        return None

    def answer_spec(self) -> dict | None:
        """The answer's type and JSON Schema, as the agent is told them (None: no value expected)."""
        return None

    def check_answer(self, given: str, expected: str, lang: str = "en") -> bool:
        from openapps_sim.config.normalise import norm_text

        return norm_text(given) == norm_text(expected)

    def judge_answer(self, given: str, expected: str, lang: str = "en", state: dict | None = None) -> bool:
        """The answer's verdict with the world ``state`` at hand (return-value families add the
        competing candidates of :mod:`.answers`); :meth:`check_answer` by default."""
        return self.check_answer(given, expected, lang)

    def infeasible_target(self, params: dict) -> str:
        """For infeasible families: what the goal names that the world does not hold (part of
        the instance: two seeds naming different missing things are different instances)."""
        return ""

    def expected_path(self, params: dict) -> str | None:
        """For navigation goals: the URL path (prefix) the browser must end on; None: any page."""
        return None

    def subgoals(self, params: dict, initial: dict | None = None, expected: dict | None = None) -> list[Subgoal]:
        """Named checks on the raw world state, for partial credit (default: none).

        Families may define it with ``params`` alone; ``initial`` and ``expected`` are passed
        to those that accept them.
        """
        return []

    def branching(self, params: dict, initial: dict, config: dict | None = None):
        """For conditional / hierarchical families: a ``progress.Branching`` (every leaf's
        operations and the correct leaf). None for families without decisions."""
        return None

    def milestone_apps(self, params: dict) -> tuple[str, ...]:
        """The apps whose opening is an essential state (default: every app of the family)."""
        return tuple(self.apps)

    def milestones(self, params: dict, initial: dict | None = None, expected: dict | None = None) -> list:
        """Essential states (``progress.Milestone``), checked after every step.

        Default: each app (but the start page) opened, the target page for navigation goals,
        then the family's sub-goals, or else each changed app holding its expected state.
        """
        from openapps_sim.taskkit import progress

        out = [progress.page_milestone(f"open {a}", f"/{a}") for a in self.milestone_apps(params) if a != "start"]
        path = self.expected_path(params)
        if path:
            out.append(progress.page_milestone(f"page {path}", path))
        subgoals = _call_subgoals(self, params, initial, expected)
        if subgoals:
            return out + [progress.state_milestone(g.name, g.check) for g in subgoals]
        if initial is not None and expected is not None:
            # the instance's states, normalised once: scoring takes the same from the cache
            want, before = normalised_expected(expected, base=initial), normalised_expected(initial)
            for app in self.apps:
                if app in want and want[app] != before.get(app):
                    out.append(
                        progress.state_milestone(
                            f"{app} as expected", lambda s, a=app, t=want[app]: normalise_world({a: s[a]})[a] == t
                        )
                    )
        return out

    def styles(self, language: str) -> dict[str, list[str]]:
        """The goal templates in ``language``, by style (from ``tasks/phrasings/<language>.yaml``)."""
        return lang_data.family_styles(self.id, language)

    def phrasing_id(self, params: dict) -> str:
        """Whose templates phrase this instance (a family with several kinds of goal names one
        entry per kind, such as ``code_editor.edit_file.replace``)."""
        return self.id

    def goal_values(self, params: dict, language: str) -> dict:
        """The values goal templates are formatted with (families add language-dependent ones,
        such as a date written out in ``language``)."""
        return {k: v for k, v in params.items() if isinstance(v, (str, int, float))}

    # -- provided ----------------------------------------------------------------------------
    @property
    def phrasings(self) -> dict[str, list[str]]:
        """Every template of every language, by style."""
        out: dict[str, list[str]] = {}
        for lang in lang_data.goal_languages():
            out.update(self.styles(lang))
        return out

    def languages(self) -> list[str]:
        return [lang for lang in lang_data.goal_languages() if self.styles(lang)]

    def goal_text(
        self, params: dict, rng: random.Random, language: str = "en", style: str | None = None
    ) -> tuple[str, str, str]:
        """The goal in ``language`` (in English when the family has no phrasing in it, noted as
        a fallback): the text, its style and the language it is written in."""
        key = self.phrasing_id(params)
        styles = self.styles(language) if key == self.id else lang_data.family_styles(key, language)
        if not styles and language != lang_data.ENGLISH:
            without = lambda lang=language: (  # noqa: E731 - the families without a goal in it, of all
                [f for f, fam in all_families().items() if not fam.styles(lang)],
                len(all_families()),
            )
            named = self.id if key == self.id else f"{self.id} ({key})"  # the family, then its phrasing
            language = lang_data.phrasing_fallback(named, language, without)
            styles = self.styles(language) if key == self.id else lang_data.family_styles(key, language)
        if not styles:
            raise ConfigError(
                f"task {self.id}",
                "language",
                f"no goal phrasing in {language!r} (add it to tasks/phrasings/{language}.yaml)",
                ", ".join(self.languages()),
            )
        if style not in styles:
            style = next(iter(styles)) if len(styles) == 1 else rng.choice(list(styles))
        template = rng.choice(styles[style])
        return tidy_punctuation(template.format(**self.goal_values(params, language))), style, language


def instantiate(
    fam: TaskFamily,
    state: dict,
    config: dict,
    seed: int,
    variation: str = "default",
    language: str = "en",
    style: str | None = None,
) -> Instance:
    rng = random.Random(f"{fam.id}:{seed}")
    if language == "auto":
        language = lang_data.world_language(config)
    elif language not in lang_data.goal_languages():  # a typo, not a language that lacks a goal
        raise ConfigError("task_kwargs", "language", f"no goal phrasings in {language!r} anywhere", _languages())
    with lang_data.collect_fallbacks() as fallbacks:  # what the languages lacked, in English
        # only the family's apps are copied: the others are ``state``'s own objects in the
        # instance's states, read and never changed (the caller leaves ``state`` as it is)
        params = fam.sample(copy_apps(state, fam.apps), config, rng)
        initial = copy_apps(state, fam.apps)
        fam.prepare(initial, params)
        expected = fam.expect(initial, params, config)
        goal, style, goal_language = fam.goal_text(params, rng, language, style)
    br = fam.branching(params, initial, config)
    return Instance(
        family=fam.id,
        seed=seed,
        variation=variation,
        language=language,
        style=style,
        goal=goal,
        params=params,
        initial=initial,
        expected=expected,
        max_steps=fam.max_steps,
        # the value of the world the goal asks for: after the plan (the initial one if it looks only)
        expected_answer=fam.answer(expected, params) if fam.returns_value else None,
        answer_spec=fam.answer_spec() if fam.returns_value else None,
        expected_path=fam.expected_path(params),
        apps=needed_apps(fam.apps, fam.expected_path(params)),
        subgoals=_call_subgoals(fam, params, initial, expected),
        milestones=fam.milestones(params, initial, expected),
        oracle_ops=fam.oracle_ops(params, initial),
        branching=br,
        ordered=fam.ordered,
        infeasible=(fam.infeasible_target(params) or fam.id) if fam.infeasible else None,
        goal_language=goal_language,
        fallbacks=fallbacks,
    )


def _languages() -> str:
    return ", ".join([*lang_data.goal_languages(), "auto"])


def needed_apps(apps: tuple[str, ...] | list[str], expected_path: str | None) -> tuple[str, ...]:
    """The apps an instance needs: its family's, plus the app a navigation goal must end on
    (``/todo/`` -> ``todo``), so opening the target is never an unneeded app."""
    target = (expected_path or "").strip("/").split("/")[0].split("?")[0]
    return tuple(dict.fromkeys([*apps, *([target] if target else [])]))


def _call_subgoals(fam: TaskFamily, params: dict, initial: dict | None, expected: dict | None) -> list[Subgoal]:
    try:
        return fam.subgoals(params, initial, expected)
    except TypeError:
        return fam.subgoals(params)


def pick(rng: random.Random, items: list, what: str) -> Any:
    """``rng.choice`` that raises :class:`Infeasible` on an empty list."""
    if not items:
        raise Infeasible(f"no {what} to choose from")
    return rng.choice(items)
