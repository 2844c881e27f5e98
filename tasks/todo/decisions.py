"""Branching and ordered families on the todo list (DAC-Bench's Conditional and Sequential
structures; see taskkit/branching.py)."""

from __future__ import annotations

from collections.abc import Iterator

from openapps_sim.tasks.todo.edits import SeededTodo, seeded_done, unique_items

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily, Condition, Decision, OrderedFamily
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_classes
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
