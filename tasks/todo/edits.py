"""Todo task families."""

from __future__ import annotations

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Infeasible, TaskFamily, family, pick
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.progress import Op

# -- helpers shared by the todo families (here and in other modules) ------------------------------


def unique_items(state: dict, done: bool | None = None) -> list[dict]:
    """Items whose title no other item shares (after normalisation), optionally by done flag.

    A goal that names one of them by its title is never ambiguous.
    """
    items = state["todo"]["items"]
    counts: dict[str, int] = {}
    for it in items:
        key = norm_text(it["title"])
        counts[key] = counts.get(key, 0) + 1
    return [it for it in items if counts[norm_text(it["title"])] == 1 and (done is None or it["done"] == done)]


def seeded_done(state: dict, rng, fixed: dict[str, bool] | None = None) -> list[str]:
    """A seeded start state: which items are done (each with probability 0.4), with the items of
    ``fixed`` set as given. Returns the done ids, which :class:`SeededTodo` sets in ``prepare``.

    Without it an instance is little more than the target item, and the seed mostly changes
    the phrasing (see docs/tasks.md, instance diversity).
    """
    fixed = fixed or {}
    return [i["id"] for i in state["todo"]["items"] if fixed.get(i["id"], rng.random() < 0.4)]


class SeededTodo(TaskFamily):
    """A family on a seeded todo list: ``sample`` draws which items are done before the episode
    (``done_ids``, from :func:`seeded_done`) and ``prepare`` sets them (``None``: the flags stay
    as the pack has them). A family that prepares more calls ``super().prepare`` first."""

    def prepare(self, state: dict, params: dict) -> None:
        if params.get("done_ids") is None:
            return
        done = set(params["done_ids"])
        for item in state["todo"]["items"]:
            item["done"] = item["id"] in done


def _pick_with_flag(state: dict, rng, done: bool, what: str) -> dict:
    """An item to change, and a seeded start state in which it has the flag ``done``.

    Returns the params ``id``, ``title`` and ``done_ids`` (the done items before the episode,
    set by ``prepare``), so the family is feasible in every pack and its instances vary.
    """
    item = pick(rng, unique_items(state), what)
    return {"id": item["id"], "title": item["title"], "done_ids": seeded_done(state, rng, {item["id"]: done})}


@family("todo.add_item", apps="todo", max_steps=8)
class AddItem(SeededTodo):
    """Add a new item with a given title to the todo list."""

    def sample(self, state, config, rng):
        existing = {norm_text(i["title"]) for i in state["todo"]["items"]}
        title = pick(
            rng, [t for t in words(config, "todo.new_items") if norm_text(t) not in existing], "new todo title"
        )
        return {"title": title, "done_ids": seeded_done(state, rng)}

    def plan(self, params, initial):
        return [Op.of("todo", "add_item", title=params["title"])]

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.fill("todo-new-title", params["title"])
        yield ui.click("todo-add")


@family("todo.remove_item", apps="todo", max_steps=8, clicks="todo-delete-{id}")
class RemoveItem(SeededTodo):
    """Delete the item with a given title from the todo list."""

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item to remove")
        return {"id": item["id"], "title": item["title"], "done_ids": seeded_done(state, rng)}

    def plan(self, params, initial):
        return [Op.of("todo", "delete_item", id=params["id"])]


@family("todo.mark_done", apps="todo", max_steps=8, clicks="todo-toggle-{id}")
class MarkDone(SeededTodo):
    """Mark the (not yet done) item with a given title as done."""

    done_before = False  # the item's flag at the start; the goal flips it

    def sample(self, state, config, rng):
        what = f"todo item to mark {'undone' if self.done_before else 'done'}"
        return _pick_with_flag(state, rng, self.done_before, what)

    def plan(self, params, initial):
        return [Op.of("todo", "toggle_item", id=params["id"])]


@family("todo.mark_undone")
class MarkUndone(MarkDone):
    """Mark a done item with a given title as not done again."""

    done_before = True


@family("todo.edit_item", apps="todo", max_steps=10)
class EditItem(TaskFamily):
    """Rename the item with a given title to a given new title."""

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item to rename")
        existing = {norm_text(i["title"]) for i in state["todo"]["items"]}
        candidates = [t for t in words(config, "todo.renames") if norm_text(t) not in existing]
        new_title = pick(rng, candidates, "new title for a todo item")
        return {"id": item["id"], "title": item["title"], "new_title": new_title}

    def plan(self, params, initial):
        return [Op.of("todo", "edit_item", id=params["id"], title=params["new_title"])]

    def solve(self, params, ui):
        iid = params["id"]
        yield from ui.open_app("todo")
        yield ui.click(f"todo-edit-{iid}")
        yield ui.fill(f"todo-edit-input-{iid}", params["new_title"])
        yield ui.click(f"todo-save-{iid}")


@family("todo.clear_completed", apps="todo", max_steps=8, clicks="todo-clear-completed")
class ClearCompleted(SeededTodo):
    """Remove every done item from the todo list at once (the open items stay)."""

    def sample(self, state, config, rng):
        items = state["todo"]["items"]
        if not items:
            raise Infeasible("no todo item")
        # A seeded mix of done and open items: at least one done, and one open when there are two.
        done_id = rng.choice(items)["id"]
        fixed = {done_id: True}
        if len(items) > 1:
            fixed[rng.choice([i for i in items if i["id"] != done_id])["id"]] = False
        done_ids = seeded_done(state, rng, fixed)
        return {"n_done": len(done_ids), "done_ids": done_ids}

    def plan(self, params, initial):
        return [Op.of("todo", "clear_completed")]
