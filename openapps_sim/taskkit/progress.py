"""Progress along a task: milestones (A3's essential states), the state-changing operations of
an episode (from the app event log), decisions at branches and W-LCS (DAC-Bench).

Pure functions of states, URLs and event lists: the task evaluates them at every step, the
runner stores their results in the record, the analysis aggregates them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from openapps_sim.config.normalise import norm_text


@dataclass
class Milestone:
    """An essential state: a predicate on the raw world state and the active page's path."""

    name: str
    check: Callable[[dict, str], bool]  # (state, path) -> reached?


def url_path(url: str | None) -> str:
    """The path of a URL (``http://host:1/todo/?q=1`` -> ``/todo/?q=1``); ``/`` when empty."""
    if not url:
        return "/"
    if "://" in url:
        rest = url.split("://", 1)[1]
        return "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    return url


def page_milestone(name: str, prefix: str) -> Milestone:
    """Reached while the page's path starts with ``prefix`` (e.g. ``/messenger/chat/c3``)."""
    return Milestone(name, lambda state, path, prefix=prefix: path.startswith(prefix))


def state_milestone(name: str, check: Callable[[dict], bool]) -> Milestone:
    return Milestone(name, lambda state, path, check=check: bool(check(state)))


@dataclass(frozen=True)
class Op:
    """One call of an app's own operation (``apps/<app>/operations.py``): ``app``, the operation
    ``op`` and its arguments. A task family's plan is a list of them; the event log names each
    entry after the operation that wrote it, so the same value matches the log: an event matches
    when app and operation agree and every argument the event records is equal (after text
    normalisation; arguments the log does not record, and logged ones the call did not pass,
    are ignored). ``keys`` narrows the comparison to the arguments that say which change it is
    when others may rightly differ (a pin dropped by a click lands near, not on, the planned
    coordinates): see :meth:`keyed`."""

    app: str
    op: str
    args: tuple[tuple[str, Any], ...] = ()
    keys: tuple[str, ...] | None = None

    @classmethod
    def of(cls, app: str, op: str, **args: Any) -> Op:
        return cls(app, op, tuple(sorted(args.items())))

    def matches(self, event: dict) -> bool:
        if event.get("app") != self.app or event.get("op") != self.op:
            return False
        got = event.get("args") or {}
        return all(_same(got[k], v) for k, v in self.args if k in got and (self.keys is None or k in self.keys))

    def keyed(self, *names: str) -> Op:
        """The same call, matched in the log by ``names`` only."""
        return Op(self.app, self.op, self.args, tuple(names))

    def as_dict(self) -> dict:
        out = {"app": self.app, "op": self.op, "args": dict(self.args)}
        return out if self.keys is None else {**out, "keys": list(self.keys)}

    @classmethod
    def from_dict(cls, d: dict) -> Op:
        op = cls.of(d["app"], d["op"], **(d.get("args") or {}))
        return op if d.get("keys") is None else op.keyed(*d["keys"])

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.args)
        return f"{self.app}.{self.op}({inner})"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return norm_text(a) == norm_text(b)
    return a == b


def compact_events(events: list[dict]) -> list[dict]:
    """The agent's operations: the event log without timestamps and counters (``{"app", "op",
    "args"}`` per change), leaving out changes the world made on its own (``"by": "world"``, e.g.
    a message arriving during an interruption), which decisions and W-LCS must not count."""
    return [
        {"app": e.get("app"), "op": e.get("op"), "args": e.get("args") or {}}
        for e in events
        if e.get("by", "agent") == "agent"
    ]


def in_order(expected: list[Op], events: list[dict]) -> bool:
    """Whether the expected operations occur in the event log in this order (others may come
    between them)."""
    i = 0
    for ev in events:
        if i < len(expected) and expected[i].matches(ev):
            i += 1
    return i == len(expected)


def wlcs(events: list[dict], gold: list[Op] | None) -> float | None:
    """DAC-Bench's weighted LCS: matched 1-indexed gold positions summed, over ``1 + ... + N``.

    Among the longest common subsequences of the agent's events and the gold operations, the
    one matching the latest gold positions counts (so the score is unique). An empty gold
    sequence (return-value and navigation families: the oracle changes nothing) scores 1 when
    the agent changed nothing too, else 0; None only when no gold is declared.
    """
    if gold is None:
        return None
    if not gold:
        return 0.0 if events else 1.0
    return weighted_lcs(len(events), len(gold), lambda i, j: gold[j].matches(events[i]))


def weighted_lcs(n_done: int, n_gold: int, same: Callable[[int, int], bool]) -> float:
    """DAC-Bench's W-LCS of a sequence of ``n_done`` items against ``n_gold`` gold items, where
    ``same(i, j)`` says whether item ``i`` matches gold item ``j`` (both 0-based): the 1-indexed
    gold positions of a longest common subsequence summed, over ``1 + ... + n_gold``. Among the
    longest ones, the one matching the latest gold positions counts (so the score is unique)."""
    if n_gold == 0:
        return 0.0
    # best[i][j] = (length, weight) of the best common subsequence of done[:i], gold[:j]
    best = [[(0, 0)] * (n_gold + 1) for _ in range(n_done + 1)]
    for i in range(1, n_done + 1):
        for j in range(1, n_gold + 1):
            cand = max(best[i - 1][j], best[i][j - 1])
            if same(i - 1, j - 1):
                length, weight = best[i - 1][j - 1]
                cand = max(cand, (length + 1, weight + j))
            best[i][j] = cand
    return best[n_done][n_gold][1] / (n_gold * (n_gold + 1) / 2)


@dataclass
class Branching:
    """A task's decision tree, flattened: each leaf's path (``"busy"``, ``"open/empty"``) and the
    operations that leaf's plan performs; ``correct`` is the leaf the world calls for."""

    branches: dict[str, list[Op]]
    correct: str

    @property
    def depth(self) -> int:
        return len(self.correct.split("/"))

    def chosen(self, events: list[dict]) -> str | None:
        """The leaf the agent's first state-changing operation belongs to (the correct leaf
        when it belongs to several), or None when it did nothing or something unrelated."""
        if not events:
            return None
        first = events[0]
        leaves = [name for name, ops in self.branches.items() if any(op.matches(first) for op in ops)]
        if not leaves:
            return None
        return self.correct if self.correct in leaves else leaves[0]

    def decisions(self, events: list[dict]) -> list[bool]:
        """One flag per decision depth: did the agent's first operation take the correct side?"""
        chosen = self.chosen(events)
        want = self.correct.split("/")
        got = chosen.split("/") if chosen else []
        return [got[: d + 1] == want[: d + 1] for d in range(len(want))]

    def decision_step(self, step_events: list[list[dict]]) -> int | None:
        """Of a trajectory's steps (each with the operations it made), the one that took the
        correct branch: the first whose operations include one of the correct leaf's (0-based;
        None when no step did). Its decision is at :attr:`depth`."""
        ops = self.branches[self.correct]
        return next((n for n, evs in enumerate(step_events) if any(o.matches(e) for o in ops for e in evs)), None)

    def as_dict(self) -> dict:
        return {"correct": self.correct, "branches": {k: [o.as_dict() for o in v] for k, v in self.branches.items()}}


@dataclass
class MilestoneTracker:
    """Evaluates milestones after every step and keeps the step each was first reached at.

    A milestone is reached only at a step whose state is ``intact``: nothing outside the task's
    expected change differs (``Evaluation.intact``), so a destructive shortcut (emptying the whole
    cart to remove one line) reaches none, not even the page it was done on."""

    milestones: list[Milestone]
    first: dict[str, int | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.first = {m.name: None for m in self.milestones}

    def observe(self, step: int, state: dict, url: str | None, *, intact: bool) -> None:
        if not intact:
            return
        path = url_path(url)
        for m in self.milestones:
            if self.first[m.name] is None:
                try:
                    hit = bool(m.check(state, path))
                except (KeyError, IndexError, TypeError):
                    hit = False
                if hit:
                    self.first[m.name] = step


def milestone_summary(first: dict[str, int | None], steps: int) -> dict:
    """ESAR (share reached), the step of the first milestone and the steps after the last one."""
    reached = [s for s in first.values() if s is not None]
    return {
        "esar": (len(reached) / len(first)) if first else None,
        "first_milestone_step": min(reached) if reached else None,
        "steps_after_last_milestone": (steps - max(reached)) if reached else None,
    }


def as_events(ops: list[Op]) -> list[dict]:
    """Event-log entries that the given operations match (for tests and dry runs)."""
    return [{"app": o.app, "op": o.op, "args": dict(o.args)} for o in ops]
