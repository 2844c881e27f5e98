"""Branching task families (DAC-Bench's Conditional and Hierarchical structures).

The goal states a condition on the world and what to do in each case. ``sample`` decides which
case holds in this instance (it may ``prepare`` the world so that it does, so both cases occur
across seeds) and stores the leaf in ``params["branch"]`` (``"busy"``, or ``"open/empty"`` for
a nested decision). ``branch_plans`` states, for every leaf, the plan of app operations that
leaf calls for; the correct leaf's plan is the family's plan (so its expected state, W-LCS gold
and API solution), and the first operation of an episode tells which branch the agent took
(decision accuracy).
"""

from __future__ import annotations

from openapps_sim.taskkit import TaskFamily
from openapps_sim.taskkit.progress import Branching, Op


class BranchingFamily(TaskFamily):
    structure = "conditional"
    category = "decision"
    #: the levels of decision of the deepest leaf (``"open/empty"``: 2); ``openapps tasks`` shows it
    levels = 1

    def branch_plans(self, params: dict, initial: dict) -> dict[str, list[Op]]:
        """Every leaf's plan, by leaf name."""
        raise NotImplementedError(f"{self.id}: define branch_plans")

    def decide(self, params: dict, initial: dict) -> str:
        """The leaf the world calls for, read from the apps' data (``initial``: each app of the
        family as its ``read`` tool returns it), as an agent using app tools would decide: never
        from ``params["branch"]``. Used by :meth:`solve_api`."""
        raise NotImplementedError(f"{self.id}: define decide (or solve_api)")

    def solve_api(self, params, api):
        """Read the family's apps, decide from their data (:meth:`decide`), then call the plan of
        that leaf as app tools."""
        initial = {}
        for app in self.apps:
            initial[app] = api.result((yield api.read(app))) or {}
        yield from api.plan(self.branch_plans(params, initial)[self.decide(params, initial)])

    def plan(self, params, initial):
        return self.branching(params, initial).branches[params["branch"]]

    def branching(self, params, initial):
        plans = self.branch_plans(params, initial)
        branch = params["branch"]
        if branch not in plans:
            raise ValueError(f"{self.id}: branch {branch!r} is not one of {sorted(plans)}")
        return Branching(plans, branch)


class OrderedFamily(TaskFamily):
    """Sequential goals whose order matters: the plan's operations must appear in the event log
    in that order (checked by ``taskkit.evaluate``), besides the final state being right."""

    structure = "sequential"
    category = "order"
    ordered = True
