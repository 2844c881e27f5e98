"""Todo task families."""

from __future__ import annotations

from openapps_sim.apps.todo import model

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import TaskFamily, family, pick
from openapps_sim.taskkit.language import words


@family
class AddItem(TaskFamily):
    id = "todo.add_item"
    apps = ("todo",)
    max_steps = 8
    description = "Add a new item with a given title to the todo list."

    def sample(self, state, config, rng):
        existing = {norm_text(i["title"]) for i in state["todo"]["items"]}
        title = pick(
            rng, [t for t in words(config, "todo.new_items") if norm_text(t) not in existing], "new todo title"
        )
        return {"title": title}

    def apply(self, state, params):
        model.add_item(state["todo"], params["title"])

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.fill("todo-new-title", params["title"])
        yield ui.click("todo-add")


# -- helpers shared by the families below ------------------------------------------------------


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


def _find_item(state: dict, item_id: str) -> dict:
    item = model.find_item(state["todo"], item_id)
    if item is None:
        raise KeyError(f"no todo item {item_id}")
    return item


def _pick_with_flag(state: dict, rng, done: bool, what: str) -> dict:
    """An item with ``done`` set as wanted; if none exists, one of the other kind to flip first.

    Returns the params ``id``, ``title`` and ``flip`` (flip: ``prepare`` sets the item's flag to
    ``done`` before the episode, so the family stays feasible in packs without such an item).
    """
    matching = unique_items(state, done)
    if matching:
        item = rng.choice(matching)
        return {"id": item["id"], "title": item["title"], "flip": False}
    item = pick(rng, unique_items(state), what)
    return {"id": item["id"], "title": item["title"], "flip": True}


def _flip_for_prepare(state: dict, params: dict, done: bool) -> None:
    if params.get("flip"):
        model.set_done(_find_item(state, params["id"]), done)


@family
class RemoveItem(TaskFamily):
    id = "todo.remove_item"
    apps = ("todo",)
    max_steps = 8
    description = "Delete the item with a given title from the todo list."

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item to remove")
        return {"id": item["id"], "title": item["title"]}

    def apply(self, state, params):
        model.delete_item(state["todo"], params["id"])

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.click(f"todo-delete-{params['id']}")


@family
class MarkDone(TaskFamily):
    id = "todo.mark_done"
    apps = ("todo",)
    max_steps = 8
    description = "Mark the (not yet done) item with a given title as done."

    def sample(self, state, config, rng):
        return _pick_with_flag(state, rng, False, "todo item to mark done")

    def prepare(self, state, params):
        _flip_for_prepare(state, params, False)

    def apply(self, state, params):
        model.set_done(_find_item(state, params["id"]), True)

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.click(f"todo-toggle-{params['id']}")


@family
class MarkUndone(TaskFamily):
    id = "todo.mark_undone"
    apps = ("todo",)
    max_steps = 8
    description = "Mark a done item with a given title as not done again."

    def sample(self, state, config, rng):
        return _pick_with_flag(state, rng, True, "todo item to mark undone")

    def prepare(self, state, params):
        _flip_for_prepare(state, params, True)

    def apply(self, state, params):
        model.set_done(_find_item(state, params["id"]), False)

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.click(f"todo-toggle-{params['id']}")


@family
class EditItem(TaskFamily):
    id = "todo.edit_item"
    apps = ("todo",)
    max_steps = 10
    description = "Rename the item with a given title to a given new title."

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item to rename")
        existing = {norm_text(i["title"]) for i in state["todo"]["items"]}
        candidates = [t for t in words(config, "todo.renames") if norm_text(t) not in existing]
        new_title = pick(rng, candidates, "new title for a todo item")
        return {"id": item["id"], "title": item["title"], "new_title": new_title}

    def apply(self, state, params):
        model.rename(_find_item(state, params["id"]), params["new_title"])

    def solve(self, params, ui):
        iid = params["id"]
        yield from ui.open_app("todo")
        yield ui.click(f"todo-edit-{iid}")
        yield ui.fill(f"todo-edit-input-{iid}", params["new_title"])
        yield ui.click(f"todo-save-{iid}")


@family
class ClearCompleted(TaskFamily):
    id = "todo.clear_completed"
    apps = ("todo",)
    max_steps = 8
    description = "Remove every done item from the todo list at once (the open items stay)."

    def sample(self, state, config, rng):
        done = [i for i in state["todo"]["items"] if i["done"]]
        if done:
            return {"n_done": len(done), "flip_id": ""}
        # No done item in this state: one is ticked off before the episode starts.
        item = pick(rng, state["todo"]["items"], "todo item")
        return {"n_done": 1, "flip_id": item["id"]}

    def prepare(self, state, params):
        if params.get("flip_id"):
            model.set_done(_find_item(state, params["flip_id"]), True)

    def apply(self, state, params):
        model.clear_completed(state["todo"])

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.click("todo-clear-completed")
