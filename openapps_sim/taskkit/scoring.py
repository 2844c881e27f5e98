"""Scoring an instance: :func:`evaluate` compares the complete world state (and the answer, the
page, the order of operations, the infeasibility report) with the instance's expectation and
returns an :class:`Evaluation` that explains itself."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from openapps_sim.config.catalog import Undrawn
from openapps_sim.taskkit.progress import in_order
from openapps_sim.taskkit.reward import (
    StateDiff,
    describe_event,
    normalise_world,
    normalised_expected,
    outside_change,
    state_diff,
)

if TYPE_CHECKING:
    from openapps_sim.taskkit import Instance, TaskFamily


@dataclass
class Evaluation:
    success: bool
    reward: float
    partial: float
    diff: list[StateDiff]
    subgoals: dict[str, bool]
    answer_ok: bool | None = None
    #: differences outside the task's expected change (something it leaves alone was touched):
    #: while there is one, no sub-goal and no milestone holds
    outside: list[StateDiff] = field(default_factory=list)
    #: whether the agent's way of declaring was right: an infeasible task needs
    #: ``report_infeasible``, a feasible one must not be reported infeasible (None: nothing to check)
    declared_ok: bool | None = None
    #: termination ``agent``: the goal holds but the agent has not declared it done (reward 0)
    undeclared: bool = False
    #: the agent called ``report_infeasible``
    reported_infeasible: bool = False

    @property
    def intact(self) -> bool:
        """Nothing outside the task's expected change differs from the initial state."""
        return not self.outside

    def explain(self, limit: int = 12, events: list[dict] | None = None) -> str:
        """The reward in words: the differences from the expected state and, when ``events``
        (the world's event log) is given, what the episode changed, next to them."""
        if self.success:
            lines = ["success: the whole state equals the expected state"]
        elif self.undeclared:
            lines = ["the whole state equals the expected state, but the agent has not declared the task done"]
        else:
            lines = [f"{len(self.diff)} state difference(s):"] + [f"  {d}" for d in self.diff[:limit]]
            if len(self.diff) > limit:
                lines.append(f"  ... and {len(self.diff) - limit} more")
            if self.answer_ok is False:
                lines.append("  the returned answer is missing or wrong")
            if self.declared_ok is False:
                lines.append(
                    "  the agent reported the task infeasible, but it can be done"
                    if self.reported_infeasible
                    else "  the task cannot be done here: it had to be reported with report_infeasible"
                )
        if events is not None:
            lines.append(f"event log ({len(events)} change(s) in this episode):")
            lines.extend(f"  {describe_event(e)}" for e in events[-limit:])
            if len(events) > limit:
                lines.insert(-limit, f"  ... {len(events) - limit} earlier change(s)")
        return "\n".join(lines)


_ALIKE: dict[int, tuple] = {}  # id(instance) -> (instance, apps drawn late, instance with them drawn)


def drawn_alike(inst: Instance, actual: dict) -> tuple[Instance, dict]:
    """``inst`` and ``actual`` with an app drawn on one side drawn on the other as well.

    A world draws an app's state when something first reads it (``catalog.Undrawn``), so an app
    the agent opened after the instance was made is drawn in ``actual`` and not in the
    instance's states: there it is drawn too (once per instance and set of such apps), and
    compared as drawn, so that a change to it is a side effect and a visit is nothing. An app
    the instance drew and ``actual`` has not is drawn in a copy of ``actual``. An app drawn on
    neither side is the same on both."""
    initial = inst.initial
    late = tuple(a for a, v in actual.items() if type(v) is not Undrawn and type(initial.get(a)) is Undrawn)
    early = [a for a, v in actual.items() if type(v) is Undrawn and a in initial and type(initial[a]) is not Undrawn]
    if early:
        actual = {**actual, **{a: actual[a].draw() for a in early}}
    if not late:
        return inst, actual
    hit = _ALIKE.get(id(inst))
    if hit is None or hit[0] is not inst or hit[1] != late:
        if len(_ALIKE) > 256:  # a few per episode: 64 envs of one process fit
            _ALIKE.clear()
        initial, expected = dict(initial), dict(inst.expected)
        for app in late:
            initial[app] = initial[app].draw()
            if type(expected.get(app)) is Undrawn:
                expected[app] = initial[app]  # read only, as the instance's states are
        hit = _ALIKE[id(inst)] = (inst, late, dataclasses.replace(inst, initial=initial, expected=expected))
    return hit[2], actual


def evaluate(
    fam: TaskFamily,
    inst: Instance,
    actual: dict,
    answer: str | None = None,
    url: str | None = None,
    events: list[dict] | None = None,
    reported_infeasible: bool = False,
) -> Evaluation:
    """Score ``actual`` (the complete world state) against the instance.

    ``url`` is the active page's URL; it matters only for navigation goals
    (``expected_path``), where the state must stay unchanged and the page must be the target.
    ``events`` (the episode's app event log) matter only for ordered goals: the oracle's
    operations must appear in it in order. ``reported_infeasible``: the agent called
    ``report_infeasible``, which an infeasible task needs and a feasible one fails with.
    """
    inst, actual = drawn_alike(inst, actual)
    # an app the task leaves alone is normalised once, in the initial state
    initial = normalised_expected(inst.initial)
    want = normalised_expected(inst.expected, base=inst.initial)
    got = normalise_world(actual, memo=True, base=inst.initial)
    diff = state_diff(want, got)
    outside = outside_change(initial, want, got) if diff else []
    diff += page_and_order_diffs(inst, url, events)
    answer_ok = None
    if inst.expected_answer is not None:
        lang = str(inst.params.get("lang", "en")) if isinstance(inst.params, dict) else "en"
        answer_ok = answer is not None and fam.judge_answer(answer, inst.expected_answer, lang, actual)
    if inst.infeasible is not None:
        declared_ok: bool | None = reported_infeasible
    else:
        declared_ok = False if reported_infeasible else None
    success = not diff and answer_ok is not False and declared_ok is not False
    # A sub-goal holds only while nothing outside the expected change differs: deleting what the
    # task should have left alone (the whole cart, every todo) is never progress.
    checks = {g.name: not outside and bool(g.check(actual)) for g in inst.subgoals}
    partial = 1.0 if success else (sum(checks.values()) / len(checks) if checks else 0.0)
    return Evaluation(
        success,
        1.0 if success else 0.0,
        partial,
        diff,
        checks,
        answer_ok,
        outside,
        declared_ok,
        False,
        reported_infeasible,
    )


def page_and_order_diffs(inst: Instance, url: str | None, events: list[dict] | None) -> list[StateDiff]:
    """What differs besides the state: the page, for a navigation goal (``expected_path``), and
    the order of the operations, for an ordered goal."""
    out = []
    if inst.expected_path is not None:
        path = "/" + url.split("/", 3)[3] if url and url.count("/") >= 3 else (url or "")
        if not path.startswith(inst.expected_path):
            out.append(StateDiff("page", inst.expected_path, path))
    if inst.ordered and inst.oracle_ops:
        if not in_order(inst.oracle_ops, events or []):
            out.append(StateDiff("order", [str(o) for o in inst.oracle_ops], "another order"))
    return out
