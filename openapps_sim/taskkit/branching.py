r"""Branching task families (DAC-Bench's Conditional and Hierarchical structures).

The goal states a condition on the world and what to do in each case. A family states its
decision once, as a :class:`Decision` (``decision(params)``): :class:`Condition`\ s tried in
order, each a yes/no question about one app's data, and the leaf each outcome leads to. The
sampler draws which leaf holds (``sample`` names it with :meth:`Decision.leaf` and ``prepare``
makes the world agree, so every leaf occurs across seeds), the instance checks that the prepared
world calls for that leaf (:meth:`Decision.decide`), the API solution asks the same conditions of
the apps' data (:meth:`Decision.ask`) and the oracle's page script reads them off the pages
(:meth:`Decision.look`) before the leaf's page steps (``act``). The leaf is ``params["branch"]``
(``"busy"``, or ``"open/empty"`` for a nested decision). A choice among candidates (the one of
three that meets both constraints, the cheapest, the earliest free hour) is a :class:`Choice`:
a rule on facts, the facts read from the world, the pages or app tools. ``branch_plans`` states,
for every leaf, the plan of app operations that leaf calls for; the correct leaf's plan is the
family's plan (so its expected state, W-LCS gold and API solution), and the first operation of
an episode tells which branch the agent took (decision accuracy).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from openapps_sim.taskkit import TaskFamily
from openapps_sim.taskkit.progress import Branching, Op

#: the leaves of a chain of three conditions (``Decision.chain``): the first that holds, or none
CHAIN_LEAVES = ("yes", "no/yes", "no/no/yes", "no/no/no")


@dataclass(frozen=True)
class Condition:
    """One yes/no question about one app, stated once and answered three ways: ``test`` on the
    app's data (the world's ``state[app]``, or what the app's ``read`` tool returns), ``look`` on
    its pages (oracle steps that return True / False) and, when a ``read`` is not how an agent
    using app tools would find out, ``ask`` (app-tool steps that return True / False)."""

    app: str
    test: Callable[[dict], bool] | None
    look: Callable[[Any], Iterator]
    ask: Callable[[Any], Iterator] | None = None
    #: for a question of the configuration, not of the app's data (a price or rating in the shop's
    #: catalogue): the answer on the world's configuration (the sampler's and the instance's check)
    known: Callable[[dict], bool] | None = None

    def holds(self, state: dict, config: dict | None = None) -> bool | None:
        """On the world's state, or its configuration for a question of it (None: not answered
        there, or the configuration is not at hand)."""
        if self.test is not None:
            return bool(self.test(state.get(self.app) or {}))
        return None if self.known is None or config is None else bool(self.known(config))

    def negated(self) -> Condition:
        test, look, ask, known = self.test, self.look, self.ask, self.known
        return Condition(
            self.app,
            None if test is None else (lambda data: not test(data)),
            lambda ui: _not((yield from look(ui))),
            None if ask is None else (lambda api: _not((yield from ask(api)))),
            None if known is None else (lambda config: not known(config)),
        )


def _not(value: bool) -> bool:
    return not value


@dataclass(frozen=True)
class Decision:
    """Conditions tried in order: the first that holds picks its leaf (``leaves[i]``), and when
    none holds the last leaf. One condition is an if / otherwise, three a fallback chain."""

    conditions: tuple[Condition, ...]
    leaves: tuple[str, ...]

    @classmethod
    def when(cls, condition: Condition, yes: str, no: str) -> Decision:
        return cls((condition,), (yes, no))

    @classmethod
    def chain(cls, *conditions: Condition) -> Decision:
        return cls(conditions, CHAIN_LEAVES[: len(conditions)] + CHAIN_LEAVES[-1:])

    def leaf(self, holds: Sequence[bool]) -> str:
        """The leaf for these outcomes of the conditions (the sampler's draw)."""
        return self.leaves[next((i for i, h in enumerate(holds) if h), len(self.conditions))]

    def decide(self, state: dict, config: dict | None = None) -> str | None:
        """The leaf the world calls for: its state, or its configuration (``config``) for a
        question of the shop's catalogue (None when a condition is answered by neither at hand)."""
        for condition, leaf in zip(self.conditions, self.leaves, strict=False):
            holds = condition.holds(state, config)
            if holds is None:
                return None
            if holds:
                return leaf
        return self.leaves[-1]

    def look(self, ui) -> Iterator:
        """The page steps that read the conditions in order, up to the first that holds;
        returns the leaf."""
        for condition, leaf in zip(self.conditions, self.leaves, strict=False):
            if (yield from condition.look(ui)):
                return leaf
        return self.leaves[-1]

    def ask(self, api) -> Iterator:
        """The app-tool steps that answer the conditions in order (each app read when its
        condition is asked); returns the leaf and the apps' data read."""
        data: dict = {}
        for condition, leaf in zip(self.conditions, self.leaves, strict=False):
            if condition.ask is not None:
                holds = yield from condition.ask(api)
            else:
                data[condition.app] = api.result((yield api.read(condition.app))) or {}
                holds = condition.test(data[condition.app])
            if holds:
                return leaf, data
        return self.leaves[-1], data


@dataclass(frozen=True)
class Choice:
    """A decision among candidates (which todo, which event, which product, which slot, over or
    within a budget), stated once as ``rule``: the leaf the facts read so far call for, None while
    they do not settle it. The facts (a dict) are read three ways, each by readers tried in order
    until the rule settles: ``world`` on the world (the apps' state and configuration, the
    sampler's and the instance's check), ``pages`` off the pages (the oracle's page script) and
    ``tools`` through app tools (the API solution). Only the reading differs per way; the rule
    is the decision."""

    rule: Callable[[dict], str | None]
    world: Callable[[dict, dict | None], dict]
    pages: tuple[Callable[[Any], Iterator], ...]
    tools: tuple[Callable[[Any], Iterator], ...]

    @staticmethod
    def first(wanted: Callable[[dict], bool]) -> Callable[[dict], str | None]:
        """The rule "the first candidate whose facts are wanted" (facts: ``{leaf: its facts}``)."""
        return lambda facts: next((leaf for leaf, f in facts.items() if wanted(f)), None)

    def decide(self, state: dict, config: dict | None = None) -> str | None:
        """The leaf the world calls for."""
        return self.rule(self.world(state, config))

    def look(self, ui) -> Iterator:
        """The page steps that read the facts up to the decision; returns the leaf and the facts."""
        return self._read(self.pages, ui)

    def ask(self, api) -> Iterator:
        """The app-tool steps that read the facts up to the decision; returns the leaf and the facts."""
        return self._read(self.tools, api)

    def _read(self, readers, via) -> Iterator:
        facts: dict = {}
        for read in readers:
            facts |= yield from read(via)
            leaf = self.rule(facts)
            if leaf is not None:
                return leaf, facts
        return None, facts


class BranchingFamily(TaskFamily):
    structure = "conditional"
    category = "decision"
    #: the levels of decision of the deepest leaf (``"open/empty"``: 2); ``openapps tasks`` shows it
    levels = 1

    def branch_plans(self, params: dict, initial: dict) -> dict[str, list[Op]]:
        """Every leaf's plan, by leaf name."""
        raise NotImplementedError(f"{self.id}: define branch_plans")

    def decision(self, params: dict) -> Decision | Choice:
        """The decision, stated once (:class:`Decision`, or :class:`Choice` among candidates)."""
        raise NotImplementedError(f"{self.id}: define decision")

    def act(self, leaf: str, params: dict, ui) -> Iterator:
        """The page steps of a leaf, after :meth:`Decision.look` has read the decision."""
        raise NotImplementedError(f"{self.id}: define act (or solve)")

    def take(self, leaf: str | None, facts: dict, params: dict, ui) -> Iterator:
        """For a :class:`Choice`: the page steps of the chosen leaf (None: none was found), with
        the facts the pages showed (the page the last reader read is open)."""
        raise NotImplementedError(f"{self.id}: define take")

    def leaf_plan(self, leaf: str, facts: dict, params: dict) -> list[Op]:
        """For a :class:`Choice`: the plan of the chosen leaf, with the facts app tools returned
        (by default the leaf's plan in ``branch_plans``)."""
        return self.branch_plans(params, facts)[leaf]

    def solve(self, params, ui):
        """Read the decision off the pages, then do the leaf's page steps."""
        decision = self.decision(params)
        if isinstance(decision, Choice):
            leaf, facts = yield from decision.look(ui)
            yield from self.take(leaf, facts, params, ui)
            return
        leaf = yield from decision.look(ui)
        yield from self.act(leaf, params, ui)

    def solve_api(self, params, api):
        """Ask the decision of the apps' data, then call the plan of that leaf as app tools."""
        decision = self.decision(params)
        if isinstance(decision, Choice):
            leaf, facts = yield from decision.ask(api)
            if leaf is not None:
                yield from api.plan(self.leaf_plan(leaf, facts, params))
            return
        leaf, initial = yield from decision.ask(api)
        yield from api.plan(self.branch_plans(params, initial)[leaf])

    def plan(self, params, initial):
        return self.branching(params, initial).branches[params["branch"]]

    def branching(self, params, initial, config=None):
        """Every leaf's plan and the correct one: the sampler's leaf, which must be the one the
        prepared world calls for (a :class:`Choice` of the shop's catalogue needs ``config``)."""
        plans = self.branch_plans(params, initial)
        branch = params["branch"]
        if branch not in plans:
            raise ValueError(f"{self.id}: branch {branch!r} is not one of {sorted(plans)}")
        decision = self.decision(params)
        called = None
        # a Choice or a condition may read the configuration (the shop's catalogue): checked where
        # it is at hand
        # (at instantiation), not when ``plan`` is asked for again
        if config is not None or isinstance(decision, Decision):
            called = decision.decide(initial, config)
        if called not in (None, branch):
            raise ValueError(f"{self.id}: the sample says {branch!r}, the world calls for {called!r}")
        return Branching(plans, branch)


class OrderedFamily(TaskFamily):
    """Sequential goals whose order matters: the plan's operations must appear in the event log
    in that order (checked by ``taskkit.evaluate``), besides the final state being right."""

    structure = "sequential"
    category = "order"
    ordered = True


class FallbackChain(BranchingFamily):
    """Three conditions in order; the first that holds picks the action, none: the last one
    (DAC-Bench's Hierarchical structure: "if A, do a; otherwise, if B, do b; ...").

    ``sample`` draws which condition holds first and ``draw`` gives parameters under which exactly
    that happens (``prepare`` makes the world agree), so every leaf (``yes``, ``no/yes``,
    ``no/no/yes``, ``no/no/no``) occurs across seeds; a leaf's depth is the number of decisions
    taken to reach it, which the record keeps per level. The conditions are stated once
    (``conditions``); the oracle reads each off the page and acts on the first that holds (``act``),
    the API solution asks them of the apps' data."""

    structure = "hierarchical"
    levels = 3
    #: the app each level's condition is read in, and the app each leaf's action changes (for the
    #: milestones of a cross-app chain; a single-app chain leaves them empty)
    condition_apps: tuple[str, ...] = ()
    action_apps: tuple[str, ...] = ()

    def draw(self, state: dict, config: dict, rng, holds: list[bool]) -> dict:
        """Parameters under which condition ``i`` holds exactly when ``holds[i]``."""
        raise NotImplementedError

    def leaf_plans(self, params: dict) -> list[list[Op]]:
        """The plan of each leaf (app operations), in the order of :data:`CHAIN_LEAVES`."""
        raise NotImplementedError

    def conditions(self, params: dict) -> list[Condition]:
        """The condition of each level, in order."""
        raise NotImplementedError

    def act(self, leaf: int, params: dict, ui) -> Iterator:
        raise NotImplementedError

    def decision(self, params):
        return Decision.chain(*self.conditions(params))

    @staticmethod
    def leaf(params: dict) -> int:
        return CHAIN_LEAVES.index(params["branch"])

    def sample(self, state, config, rng):
        first = rng.randrange(self.levels + 1)
        # conditions after the first that holds are drawn at random: reading them tells nothing
        holds = [i == first if i <= first else rng.random() < 0.5 for i in range(self.levels)]
        params = self.draw(state, config, rng, holds)
        return dict(params, holds=holds, branch=self.decision(params).leaf(holds))

    def branch_plans(self, params, initial):
        return dict(zip(CHAIN_LEAVES, self.leaf_plans(params), strict=True))

    def milestone_apps(self, params):
        if not self.action_apps:  # a single-app chain
            return tuple(self.apps)
        k = self.leaf(params)
        apps = [*self.condition_apps[: min(k + 1, self.levels)], self.action_apps[k]]
        return tuple(dict.fromkeys(a for a in apps if a != "start"))

    def solve(self, params, ui):
        leaf = yield from self.decision(params).look(ui)
        yield from self.act(CHAIN_LEAVES.index(leaf), params, ui)


ROLES = ("target", "miss_first", "miss_second")


class OneOfThree(BranchingFamily):
    """Three candidates; the target meets both constraints, each other one misses one of them
    (DAC-Bench's Conjunctive structure with yes/no attributes: an agent that checks only one
    constraint picks wrong). ``params["order"]`` lists the roles in the order the goal (or the
    page) shows them."""

    structure = "conjunctive"
    category = "constraint"

    def roles(self, rng) -> dict:
        order = list(ROLES)
        rng.shuffle(order)
        return {"order": order}
