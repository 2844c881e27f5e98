"""Branching task families (DAC-Bench's Conditional and Hierarchical structures).

The goal states a condition on the world and what to do in each case. ``sample`` decides which
case holds in this instance (it may ``prepare`` the world so that it does, so both cases occur
across seeds) and stores the leaf in ``params["branch"]`` (``"busy"``, or ``"open/empty"`` for
a nested decision); ``apply`` builds the expected state of that leaf only. ``branch_ops`` lists,
for every leaf, the state-changing operations its plan performs, as the app logs them: the
first operation of the episode tells which branch the agent took (decision accuracy) and the
correct leaf's list is the gold sequence for W-LCS.
"""

from __future__ import annotations

from openapps_sim.taskkit import TaskFamily
from openapps_sim.taskkit.progress import Branching, Op


class BranchingFamily(TaskFamily):
    structure = "conditional"
    category = "decision"
    #: the levels of decision of the deepest leaf (``"open/empty"``: 2); ``openapps tasks`` shows it
    levels = 1

    def branch_ops(self, params: dict) -> dict[str, list[Op]]:
        raise NotImplementedError

    def branching(self, params, initial):
        ops = self.branch_ops(params)
        branch = params["branch"]
        if branch not in ops:
            raise ValueError(f"{self.id}: branch {branch!r} is not one of {sorted(ops)}")
        return Branching(ops, branch)


class OrderedFamily(TaskFamily):
    """Sequential goals whose order matters: ``ordered_ops`` must appear in the event log in
    that order (checked by ``taskkit.evaluate``), besides the final state being right."""

    structure = "sequential"
    category = "order"
    ordered = True

    def ordered_ops(self, params: dict) -> list[Op]:
        raise NotImplementedError

    def oracle_ops(self, params, initial):
        return self.ordered_ops(params)
