"""Branching and ordered families on the todo list (DAC-Bench's Conditional and Sequential
structures; see taskkit/branching.py)."""

from __future__ import annotations

from openapps_sim.tasks.todo import NEW_ITEMS, unique_items

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily, OrderedFamily
from openapps_sim.taskkit.progress import Op


def _item(state: dict, iid: str) -> dict:
    return next(i for i in state["todo"]["items"] if i["id"] == iid)


def _add(state: dict, title: str) -> None:
    todo = state["todo"]
    todo["items"].append({"id": f"t{todo['next_id']}", "title": title, "done": False, "notes": ""})
    todo["next_id"] += 1


@family
class DoneOrDelete(BranchingFamily):
    id = "todo.done_or_delete"
    apps = ("todo",)
    max_steps = 8
    description = "If a named todo is already done, delete it; otherwise mark it done."
    phrasings = {
        "plain": [
            "If '{title}' is already done, delete it from my todo list; otherwise mark it done.",
            "Check '{title}' on my todo list: delete it if it is done, else tick it off.",
            "For the todo '{title}': done already? Then remove it. Not done? Then mark it done.",
        ],
        "casual": [
            "if '{title}' is ticked off already just delete it, otherwise tick it off pls",
            "'{title}' on my todos: done -> delete, not done -> mark done",
            "Could you sort out '{title}'? Delete it if it's done, otherwise mark it as done.",
        ],
        "context": [
            "I'm cleaning up my lists today. If '{title}' is already done, delete it; otherwise mark it done.",
            "Long week behind me. Please check '{title}': if it's done, remove it, if not, mark it done.",
            "The cat knocked my coffee over, anyway: delete '{title}' if it's done, else mark it done.",
        ],
        "de": ["Wenn '{title}' schon erledigt ist, lösche den Eintrag; sonst hake ihn ab."],
        "fr": ["Si '{title}' est déjà faite, supprime-la ; sinon marque-la comme faite."],
    }

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item")
        done = rng.random() < 0.5
        return {"id": item["id"], "title": item["title"], "done": done, "branch": "done" if done else "open"}

    def prepare(self, state, params):
        _item(state, params["id"])["done"] = params["done"]

    def apply(self, state, params):
        if params["branch"] == "done":
            state["todo"]["items"] = [i for i in state["todo"]["items"] if i["id"] != params["id"]]
        else:
            _item(state, params["id"])["done"] = True

    def branch_ops(self, params):
        return {"done": [Op.of("todo", "delete", id=params["id"])], "open": [Op.of("todo", "toggle", id=params["id"])]}

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        kind = "delete" if params["branch"] == "done" else "toggle"
        yield ui.click(f"todo-{kind}-{params['id']}")


@family
class AddInOrder(OrderedFamily):
    id = "todo.add_in_order"
    apps = ("todo",)
    max_steps = 10
    description = "Add two new todo items, the first one first (the order is checked on the event log)."
    phrasings = {
        "plain": [
            "Add '{first}' to my todo list, and after that '{second}'.",
            "First add the todo '{first}', then add '{second}'.",
            "Put '{first}' on my todo list first and '{second}' second.",
        ],
        "casual": [
            "add '{first}' then '{second}' to my todos, in that order",
            "todo list: '{first}' first, then '{second}' pls",
            "Can you add '{first}' and then '{second}'? Order matters to me.",
        ],
        "context": [
            "I like my list in priority order. Add '{first}' first, then '{second}'.",
            "My therapist says order helps. Add the todo '{first}', then '{second}'.",
            "Busy day ahead: first add '{first}' to my todos, afterwards '{second}'.",
        ],
        "de": ["Füge zuerst '{first}' und danach '{second}' zu meiner Todo-Liste hinzu."],
        "fr": ["Ajoute d'abord '{first}' à ma liste, puis '{second}'."],
    }

    def sample(self, state, config, rng):
        taken = {norm_text(i["title"]) for i in state["todo"]["items"]}
        free = [t for t in NEW_ITEMS if norm_text(t) not in taken]
        if len(free) < 2:
            pick(rng, [], "two new todo titles")
        first, second = rng.sample(free, 2)
        return {"first": first, "second": second}

    def apply(self, state, params):
        _add(state, params["first"])
        _add(state, params["second"])

    def ordered_ops(self, params):
        return [Op.of("todo", "add", title=params["first"]), Op.of("todo", "add", title=params["second"])]

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        for key in ("first", "second"):
            yield ui.fill("todo-new-title", params[key])
            yield ui.click("todo-add")
