"""Todo task families."""

from __future__ import annotations

from openapps_sim.normalise import norm_text
from openapps_sim.taskkit import TaskFamily, family, pick

NEW_ITEMS = [
    "Buy oat milk",
    "Renew passport",
    "Send birthday card to Anna",
    "Fix the leaking tap",
    "Order printer ink",
    "Back up the laptop",
    "Prepare slides for Monday",
    "Clean the fridge",
    "Walk the dog at 6pm",
    "Reply to the landlord",
    "Schedule a car service",
    "Pick up dry cleaning",
    "Buy a gift for Tom",
    "Cancel the gym trial",
    "Update the CV",
    "Defrost the freezer",
]


@family
class AddItem(TaskFamily):
    id = "todo.add_item"
    apps = ("todo",)
    max_steps = 8
    description = "Add a new item with a given title to the todo list."
    phrasings = {
        "plain": [
            "Add '{title}' to my todo list.",
            "Create a new todo item: '{title}'.",
            "Put '{title}' on the todo list.",
        ],
        "casual": [
            "hey, can you stick '{title}' on my todo list?",
            "pls add '{title}' to my todos",
            "Could you jot down '{title}' in my to-do app real quick?",
        ],
        "context": [
            "I spilled coffee on my desk this morning, what a mess. Anyway, add '{title}' to my todo list.",
            "My sister is visiting next week and I keep forgetting things, so please add '{title}' to the todo list.",
            "It's raining again here. While I dry off, could you add '{title}' to my todo list?",
        ],
        "de": [
            "Füge '{title}' zu meiner Todo-Liste hinzu.",
            "Erstelle einen neuen Eintrag: '{title}'.",
            "Kannst du '{title}' auf meine Aufgabenliste setzen?",
        ],
        "fr": [
            "Ajoute '{title}' à ma liste de tâches.",
            "Crée une nouvelle tâche : '{title}'.",
            "Peux-tu mettre '{title}' sur ma liste de choses à faire ?",
        ],
    }

    def sample(self, state, config, rng):
        existing = {norm_text(i["title"]) for i in state["todo"]["items"]}
        title = pick(rng, [t for t in NEW_ITEMS if norm_text(t) not in existing], "new todo title")
        return {"title": title}

    def apply(self, state, params):
        todo = state["todo"]
        todo["items"].append({"id": f"t{todo['next_id']}", "title": params["title"], "done": False, "notes": ""})
        todo["next_id"] += 1

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.fill("todo-new-title", params["title"])
        yield ui.click("todo-add")
