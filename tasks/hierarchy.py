r"""Hierarchical families with three levels of decision (DAC-Bench's Hierarchical structure):
"if A, do a; otherwise, if B, do b; otherwise, if C, do c; otherwise do d".

A :class:`FallbackChain` draws which condition holds first (``sample``: the first of ``levels``
conditions that holds, or none) and prepares the world so that exactly that happens, so every
leaf occurs across seeds. The leaves are ``yes``, ``no/yes``, ``no/no/yes`` and ``no/no/no``: a
leaf's depth is the number of decisions taken to reach it, which the record keeps per level
(``decisions``) and the report shows by level. The conditions are stated once (``conditions``:
:class:`~openapps_sim.taskkit.branching.Condition`\ s); the oracle reads each off the page, never
from its parameters, and acts on the first that holds (``act``); the API solution asks the same
conditions of the apps' data.

This module holds the base, the page readers the chains share, and the single-app chains; the
cross-app chains are in ``tasks/multi/chains.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from openapps_sim.apps.calendar import model as cal_model
from openapps_sim.apps.messenger import model as logic
from openapps_sim.tasks.calendar.decisions import SLOTS, add_event_steps, day_is_empty
from openapps_sim.tasks.calendar.edits import calendar_today, day_text, free_titles
from openapps_sim.tasks.messenger.decisions import contact_wrote_last, send_chat_message, with_chat
from openapps_sim.tasks.messenger.edits import fresh_text
from openapps_sim.tasks.todo.decisions import todo_done
from openapps_sim.tasks.todo.edits import SeededTodo, seeded_done, unique_items

from openapps_sim.taskkit import Infeasible, family, pick
from openapps_sim.taskkit.branching import CHAIN_LEAVES, BranchingFamily, Condition, Decision
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.progress import Op

LEAVES = CHAIN_LEAVES


class FallbackChain(BranchingFamily):
    """Three conditions in order; the first that holds picks the action, none: the last one."""

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
        """The plan of each leaf (app operations), in the order of :data:`LEAVES`."""
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
        return LEAVES.index(params["branch"])

    def sample(self, state, config, rng):
        first = rng.randrange(self.levels + 1)
        # conditions after the first that holds are drawn at random: reading them tells nothing
        holds = [i == first if i <= first else rng.random() < 0.5 for i in range(self.levels)]
        params = self.draw(state, config, rng, holds)
        return dict(params, holds=holds, branch=self.decision(params).leaf(holds))

    def branch_plans(self, params, initial):
        return dict(zip(LEAVES, self.leaf_plans(params), strict=True))

    def milestone_apps(self, params):
        if not self.action_apps:  # a single-app chain
            return tuple(self.apps)
        k = self.leaf(params)
        apps = [*self.condition_apps[: min(k + 1, self.levels)], self.action_apps[k]]
        return tuple(dict.fromkeys(a for a in apps if a != "start"))

    def solve(self, params, ui):
        leaf = yield from self.decision(params).look(ui)
        yield from self.act(LEAVES.index(leaf), params, ui)


def read_app(api, app: str) -> Iterator:
    """``<app>.read()``: the app's data."""
    return api.result((yield api.read(app))) or {}


# -- world setup (the conditions are beside the single-decision families: tasks/decide_*.py) ------
def set_waiting(m: dict, cid: str, theirs: bool, incoming: str, earlier: str) -> None:
    """Make the contact's chat end with their message (``theirs``) or with one of mine."""
    if theirs:
        logic.receive(m, cid, incoming)
    else:
        logic.add_message(m, cid, earlier)


def waiting_params(state: dict, config: dict, rng, contact: dict, theirs: bool, avoid: list[str]) -> dict:
    texts = [t for t in words(config, "messenger.new_messages") if t not in avoid]
    mine = fresh_text(rng, state["messenger"], texts)
    return {"contact_id": contact["id"], "contact": contact["name"], "theirs": theirs,
            "incoming": rng.choice(words(config, "messenger.incoming")),
            "earlier": f"{mine} {words(config, 'messenger.earlier')}"}  # fmt: skip


def three(rng, pool: list, what: str) -> list:
    """Three distinct entries of ``pool``, drawn (:class:`Infeasible` when it has fewer)."""
    if len(pool) < 3:
        raise Infeasible(f"fewer than three {what}")
    return rng.sample(pool, 3)


def new_event(state: dict, **fields) -> None:
    """Add an event the way the app does (``apps/calendar/model.py``)."""
    raw = {"title": "", "date": "", "time": "", "description": "", "location": "", "invitees": []}
    cal_model.add_event(state["calendar"], raw | fields)


def days_ahead(state: dict, config: dict, rng, wants: list[bool | None], blocker_titles: list[str]) -> tuple:
    """Distinct days after today, one per entry of ``wants``: free (True), busy (False) or either
    (None). Returns the days and the blocker events ``prepare`` adds to make a free day busy when
    the calendar has too few busy days (dense packs have few free ones, sparse few busy ones)."""
    today = calendar_today(config)
    busy = {e["date"] for e in state["calendar"]["events"]}
    pool = [(today + timedelta(days=k)).isoformat() for k in range(1, 60)]
    rng.shuffle(pool)
    days, blockers = [], []
    for want in wants:
        left = [d for d in pool if d not in days]
        fits = [d for d in left if want is None or (d not in busy) == want]
        if not fits and want is False and left:
            fits = left[:1]
            blockers.append({"date": left[0], "title": pick(rng, blocker_titles, "blocker title"), "time": "12:00"})
        days.append(pick(rng, fits, "day after today"))
    return days, blockers


# -- single-app chains ---------------------------------------------------------------------------
@family("todo.first_done_chain", apps="todo", max_steps=10)
class FirstDoneTodo(SeededTodo, FallbackChain):
    """Three todos in order: delete the first of them that is done; if none is, add a new todo
    (three levels of decision)."""

    def draw(self, state, config, rng, holds):
        a, b, c = three(rng, unique_items(state), "todo items with unique titles")
        titles = {i["title"].casefold() for i in state["todo"]["items"]}
        new = pick(rng, [t for t in words(config, "todo.new_items") if t.casefold() not in titles], "new todo")
        fixed = {x["id"]: h for x, h in zip((a, b, c), holds, strict=True)}
        return {"a_id": a["id"], "a": a["title"], "b_id": b["id"], "b": b["title"], "c_id": c["id"],
                "c": c["title"], "new": new, "done_ids": seeded_done(state, rng, fixed)}  # fmt: skip

    def leaf_plans(self, params):
        deletes = [[Op.of("todo", "delete_item", id=params[f"{k}_id"])] for k in "abc"]
        return [*deletes, [Op.of("todo", "add_item", title=params["new"])]]

    def conditions(self, params):
        return [todo_done(params[k + "_id"]) for k in "abc"]

    def act(self, leaf, params, ui):
        if leaf < 3:
            yield ui.click(f"todo-delete-{params['abc'[leaf] + '_id']}")
            return
        yield ui.fill("todo-new-title", params["new"])
        yield ui.click("todo-add")


@family("calendar.first_free_day", apps="calendar", max_steps=36)
class FirstFreeDay(FallbackChain):
    """Add an event on the first of three days that has nothing planned; if none is free, on a
    fourth day (three levels of decision)."""

    def draw(self, state, config, rng, holds):
        titles = free_titles(state, config)
        title = pick(rng, titles, "new event title")
        days, blockers = days_ahead(state, config, rng, [*holds, None], [t for t in titles if t != title])
        return {"title": title, "time": rng.choice(SLOTS), "blockers": blockers,
                **{f"d{i + 1}": d for i, d in enumerate(days)}}  # fmt: skip

    def goal_values(self, params, language):
        values = super().goal_values(params, language)
        return values | {f"day{i}": day_text(params[f"d{i}"], language) for i in range(1, 5)}

    def prepare(self, state, params):
        for b in params["blockers"]:
            new_event(state, **b)

    def leaf_plans(self, params):
        return [
            [Op.of("calendar", "create_event", title=params["title"], date=params[f"d{i}"], time=params["time"])]
            for i in range(1, 5)
        ]

    def conditions(self, params):
        return [day_is_empty(params[f"d{i}"]) for i in (1, 2, 3)]

    def act(self, leaf, params, ui):
        yield from add_event_steps(ui, params["title"], params[f"d{leaf + 1}"], params["time"])


@family("messenger.first_waiting_chain", apps="messenger", max_steps=16)
class FirstWaitingContact(FallbackChain):
    """Three contacts in order: reply to the first of them who wrote the last message of our chat;
    if none did, send the first one a nudge (three levels of decision)."""

    def draw(self, state, config, rng, holds):
        people = three(rng, with_chat(state), "contacts with a conversation")
        texts = words(config, "messenger.new_messages")
        reply = fresh_text(rng, state["messenger"], texts)
        nudge = fresh_text(rng, state["messenger"], [t for t in texts if t != reply])
        params = {"reply": reply, "nudge": nudge}
        for key, c, theirs in zip("abc", people, holds, strict=True):
            wait = waiting_params(state, config, rng, c, theirs, [reply, nudge])
            params.update({f"{key}_{k}": v for k, v in wait.items()}, **{key: c["name"]})
        return params

    def prepare(self, state, params):
        for k in "abc":
            p = {f: params[f"{k}_{f}"] for f in ("contact_id", "theirs", "incoming", "earlier")}
            set_waiting(state["messenger"], p["contact_id"], p["theirs"], p["incoming"], p["earlier"])

    def leaf_plans(self, params):
        to = [params[f"{k}_contact_id"] for k in "abc"]
        texts = [params["reply"]] * 3 + [params["nudge"]]
        return [
            [Op.of("messenger", "send_message", contact=c, text=t)] for c, t in zip([*to, to[0]], texts, strict=True)
        ]

    def conditions(self, params):
        return [contact_wrote_last(params[k + "_contact_id"]) for k in "abc"]

    def act(self, leaf, params, ui):
        args = dict(self.leaf_plans(params)[leaf][0].args)
        yield from send_chat_message(ui, args["contact"], args["text"])
