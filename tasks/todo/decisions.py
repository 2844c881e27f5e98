"""Branching, hierarchical, conjunctive and ordered families on the todo list (DAC-Bench's
Conditional, Hierarchical, Conjunctive and Sequential structures; see taskkit/branching.py)."""

from __future__ import annotations

from collections.abc import Iterator

from openapps_sim.tasks.picks import (
    read_app,
    set_field,
    three,
)
from openapps_sim.tasks.todo.edits import SeededTodo, seeded_done, unique_items

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import (
    ROLES,
    BranchingFamily,
    Choice,
    Condition,
    Decision,
    FallbackChain,
    OneOfThree,
    OrderedFamily,
)
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_classes, testid_text_parts
from openapps_sim.taskkit.progress import Op


def todo_is_done(ui, iid: str) -> Iterator:
    """Open the todo list: is the item's row ticked off?"""
    obs = yield from ui.open_app("todo")
    return "done" in testid_classes(obs).get(f"todo-item-{iid}", set())


def is_done(todo: dict, iid: str) -> bool:
    """Whether the todo list's data (``todo.read()``) has the item ticked off."""
    return any(i["id"] == iid and i["done"] for i in todo.get("items", []))


def todo_done(iid: str) -> Condition:
    """Is the todo ticked off? (its data; on the page, its row's ticked state)"""
    return Condition("todo", lambda todo: is_done(todo, iid), lambda ui: todo_is_done(ui, iid))


@family("todo.done_or_delete", apps="todo", max_steps=8)
class DoneOrDelete(SeededTodo, BranchingFamily):
    """If a named todo is already done, delete it; otherwise mark it done."""

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item")
        done = rng.random() < 0.5
        return {"id": item["id"], "title": item["title"], "done": done,
                "branch": self.decision({"id": item["id"]}).leaf([done]),
                "done_ids": seeded_done(state, rng, {item["id"]: done})}  # fmt: skip

    def decision(self, params):
        return Decision.when(todo_done(params["id"]), "done", "open")

    def branch_plans(self, params, initial):
        iid = params["id"]
        return {"done": [Op.of("todo", "delete_item", id=iid)], "open": [Op.of("todo", "toggle_item", id=iid)]}

    def act(self, leaf, params, ui):
        yield ui.click(f"todo-{'delete' if leaf == 'done' else 'toggle'}-{params['id']}")


@family("todo.add_in_order", apps="todo", max_steps=10)
class AddInOrder(OrderedFamily):
    """Add two new todo items, the first one first (the order is checked on the event log)."""

    def sample(self, state, config, rng):
        taken = {norm_text(i["title"]) for i in state["todo"]["items"]}
        free = [t for t in words(config, "todo.new_items") if norm_text(t) not in taken]
        if len(free) < 2:
            pick(rng, [], "two new todo titles")
        first, second = rng.sample(free, 2)
        return {"first": first, "second": second}

    def plan(self, params, initial):
        return [Op.of("todo", "add_item", title=params[key]) for key in ("first", "second")]

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        for key in ("first", "second"):
            yield ui.fill("todo-new-title", params[key])
            yield ui.click("todo-add")


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


@family("todo.open_without_notes", apps="todo", max_steps=8)
class OpenWithoutNotes(SeededTodo, OneOfThree):
    """Of three named todos, mark done the one that is still open and has no notes (yes/no
    attributes)."""

    def sample(self, state, config, rng):
        params = self.roles(rng)
        chosen = dict(zip(ROLES, three(rng, unique_items(state), "todo items with unique titles"), strict=True))
        done = {chosen["target"]["id"]: False, chosen["miss_first"]["id"]: True, chosen["miss_second"]["id"]: False}
        for key, role in zip("abc", params["order"], strict=True):
            params.update({f"{key}_id": chosen[role]["id"], key: chosen[role]["title"]})
        note = rng.choice(words(config, "todo.notes"))
        notes = {chosen["miss_second"]["id"]: note, chosen["target"]["id"]: "", chosen["miss_first"]["id"]: ""}
        # the leaf the decision calls for on the items as ``prepare`` will leave them
        items = [{"id": iid, "done": done[iid], "notes": notes[iid]} for iid in (params[f"{k}_id"] for k in "abc")]
        return dict(params, notes=notes, done_ids=seeded_done(state, rng, done),
                    branch=self.decision(params).rule(item_facts({"items": items}, params)))  # fmt: skip

    def prepare(self, state, params):
        super().prepare(state, params)
        for iid, note in params["notes"].items():
            set_field(state["todo"]["items"], iid, "notes", note)

    def branch_plans(self, params, initial):
        return {params[f"{k}_id"]: [Op.of("todo", "toggle_item", id=params[f"{k}_id"])] for k in "abc"}

    def decision(self, params):
        """The named todo that is open and has no notes: on the todo list's data, or on its page
        (a row ticked off or not, and text after the title: its notes)."""

        def on_page(ui):
            obs = yield from ui.open_app("todo")
            classes, parts = testid_classes(obs), testid_text_parts(obs)
            return {
                iid: {
                    "done": "done" in classes.get(f"todo-item-{iid}", set()),
                    "notes": len([t for t in parts.get(f"todo-title-{iid}", []) if t.strip()]) > 1,
                }
                for iid in (params[f"{k}_id"] for k in "abc")
            }

        def by_tools(api):
            return item_facts((yield from read_app(api, "todo")), params)

        wanted = Choice.first(lambda f: not f["done"] and not f["notes"])
        return Choice(wanted, lambda state, config: item_facts(state["todo"], params), (on_page,), (by_tools,))

    def take(self, leaf, facts, params, ui):
        if leaf is not None:
            yield ui.click(f"todo-toggle-{leaf}")


def item_facts(todo: dict, params: dict) -> dict:
    """The named todos' facts in the todo list's data: ticked off, and whether it has notes."""
    items = {i["id"]: i for i in todo.get("items", [])}
    named = [items[iid] for iid in (params[f"{k}_id"] for k in "abc") if iid in items]
    return {i["id"]: {"done": i["done"], "notes": bool(i.get("notes"))} for i in named}
