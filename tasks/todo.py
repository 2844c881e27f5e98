"""Todo task families."""

from __future__ import annotations

from openapps_sim.apps.todo import model

from openapps_sim.config.normalise import norm_text
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
        model.add_item(state["todo"], params["title"])

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.fill("todo-new-title", params["title"])
        yield ui.click("todo-add")


# -- helpers shared by the families below ------------------------------------------------------

RENAMES = {
    "en": [
        "Buy oat milk and bread",
        "Call the plumber about the boiler",
        "Prepare the budget for next year",
        "Email the photos to Grandpa",
        "Book a table for Friday",
        "Tidy the spare room",
        "Check the flight times",
        "Sign up for the pottery class",
    ],
    "de": [
        "Hafermilch und Brot kaufen",
        "Den Installateur wegen der Heizung anrufen",
        "Das Budget für nächstes Jahr vorbereiten",
        "Opa die Fotos schicken",
        "Einen Tisch für Freitag reservieren",
        "Das Gästezimmer aufräumen",
    ],
    "fr": [
        "Acheter du lait d’avoine et du pain",
        "Appeler le plombier pour la chaudière",
        "Préparer le budget de l’année prochaine",
        "Envoyer les photos à Papi",
        "Réserver une table pour vendredi",
        "Ranger la chambre d’amis",
    ],
    "es": [
        "Comprar leche de avena y pan",
        "Llamar al fontanero por la caldera",
        "Preparar el presupuesto del año que viene",
        "Enviar las fotos al abuelo",
        "Reservar una mesa para el viernes",
        "Ordenar la habitación de invitados",
    ],
    "zh": [
        "买燕麦奶和面包",
        "打电话叫水管工修热水器",
        "准备明年的预算",
        "把照片发给爷爷",
        "预订周五的餐桌",
        "整理客房",
    ],
}


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
    phrasings = {
        "plain": [
            'Remove "{title}" from my todo list.',
            'Delete the todo item "{title}".',
            'Take "{title}" off the todo list.',
        ],
        "casual": [
            'can you get rid of "{title}" on my todo list?',
            'pls delete "{title}" from my todos, not needed anymore',
            'Scratch "{title}" off my to-do app, thanks!',
        ],
        "context": [
            'My flatmate said she would handle it, so please delete "{title}" from my todo list.',
            'The heating is broken again, ugh. Unrelated: remove "{title}" from the todo list.',
            'I just got back from a long walk with the dog. Could you delete "{title}" from my todos?',
        ],
        "de": [
            "Lösche „{title}“ aus meiner Todo-Liste.",
            "Entferne den Eintrag „{title}“ von der Aufgabenliste.",
            "Kannst du „{title}“ von meiner To-do-Liste streichen?",
        ],
        "fr": [
            "Supprime « {title} » de ma liste de tâches.",
            "Retire la tâche « {title} » de la liste.",
            "Peux-tu effacer « {title} » de ma liste de choses à faire ?",
        ],
    }

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
    phrasings = {
        "plain": [
            'Mark "{title}" as done in my todo list.',
            'Tick off the todo item "{title}".',
            'Set the todo "{title}" to done.',
        ],
        "casual": [
            'I finally did "{title}"! can you tick it off?',
            'mark "{title}" done pls',
            'Check off "{title}" on my to-do list, it is sorted.',
        ],
        "context": [
            'What a day, the printer jammed twice. At least "{title}" is finished, so mark it as done.',
            'My cousin helped me this morning, so "{title}" is done now. Please tick it off my todo list.',
            'Before I forget, and while the pasta is boiling: mark "{title}" as done on the todo list.',
        ],
        "de": [
            "Markiere „{title}“ in meiner Todo-Liste als erledigt.",
            "Hake die Aufgabe „{title}“ ab.",
            "„{title}“ ist erledigt, bitte in der Aufgabenliste abhaken.",
        ],
        "fr": [
            "Marque « {title} » comme faite dans ma liste de tâches.",
            "Coche la tâche « {title} ».",
            "« {title} » est terminée, peux-tu la cocher dans ma liste ?",
        ],
    }

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
    phrasings = {
        "plain": [
            'Mark "{title}" as not done in my todo list.',
            'Reopen the completed todo item "{title}".',
            'Uncheck "{title}" on the todo list.',
        ],
        "casual": [
            'oops, "{title}" isn\'t actually done, can you untick it?',
            'set "{title}" back to not done pls',
            'Turns out I still have to do "{title}", mark it undone?',
        ],
        "context": [
            'The shop was closed when I got there, so "{title}" is not done after all. Please reopen it in my todos.',
            'I was on hold for an hour and gave up. Anyway, mark "{title}" as not done on my todo list.',
            'My neighbour borrowed my bike again. Also, "{title}" needs doing again, so uncheck it in the todo app.',
        ],
        "de": [
            "Markiere „{title}“ in meiner Todo-Liste wieder als offen.",
            "Setze die erledigte Aufgabe „{title}“ zurück auf nicht erledigt.",
            "„{title}“ ist doch nicht fertig, bitte den Haken entfernen.",
        ],
        "fr": [
            "Marque « {title} » comme non faite dans ma liste de tâches.",
            "Décoche la tâche terminée « {title} ».",
            "« {title} » n’est finalement pas faite, peux-tu la remettre à faire ?",
        ],
    }

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
    phrasings = {
        "plain": [
            'Rename the todo item "{title}" to "{new_title}".',
            'Change the title of "{title}" in my todo list to "{new_title}".',
            'Edit the todo "{title}" so that it reads "{new_title}".',
        ],
        "casual": [
            'can you change "{title}" to "{new_title}" in my todos?',
            'rename "{title}" -> "{new_title}" pls',
            'Hey, "{title}" should say "{new_title}" instead, could you fix that?',
        ],
        "context": [
            'Plans changed after the call with my boss. In my todo list, rename "{title}" to "{new_title}".',
            'It is way too hot in here today. Anyway, please edit "{title}" on my todo list to "{new_title}".',
            'My phone keeps autocorrecting everything, so please change the todo "{title}" to "{new_title}" for me.',
        ],
        "de": [
            "Benenne die Aufgabe „{title}“ in „{new_title}“ um.",
            "Ändere in meiner Todo-Liste „{title}“ zu „{new_title}“.",
            "Kannst du den Eintrag „{title}“ so bearbeiten, dass er „{new_title}“ heißt?",
        ],
        "fr": [
            "Renomme la tâche « {title} » en « {new_title} ».",
            "Dans ma liste de tâches, remplace « {title} » par « {new_title} ».",
            "Peux-tu modifier la tâche « {title} » pour qu’elle s’appelle « {new_title} » ?",
        ],
    }

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item to rename")
        lang = config.get("shell", {}).get("lang", "en")
        existing = {norm_text(i["title"]) for i in state["todo"]["items"]}
        candidates = [t for t in RENAMES.get(lang, RENAMES["en"]) if norm_text(t) not in existing]
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
    phrasings = {
        "plain": [
            "Clear all completed items from my todo list.",
            "Remove every todo item that is already done.",
            "Delete the finished tasks from the todo list and keep the open ones.",
        ],
        "casual": [
            "clean up my todo list, get rid of the done stuff",
            "can u clear out everything I've already ticked off in my todos?",
            "Zap all the completed to-dos please, keep the rest.",
        ],
        "context": [
            "New week, fresh start! Please clear the completed items from my todo list.",
            "I have a big presentation tomorrow and need focus, so remove all done items from my todos.",
            "The kids finally fell asleep. Could you clear out the completed tasks in my todo app?",
        ],
        "de": [
            "Entferne alle erledigten Aufgaben aus meiner Todo-Liste.",
            "Räum meine Aufgabenliste auf: alles Erledigte soll weg, der Rest bleibt.",
            "Kannst du die abgehakten Einträge aus der To-do-Liste löschen?",
        ],
        "fr": [
            "Efface toutes les tâches terminées de ma liste.",
            "Supprime de ma liste de tâches tout ce qui est déjà fait, garde le reste.",
            "Peux-tu faire le ménage dans ma liste et retirer les tâches cochées ?",
        ],
    }

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
