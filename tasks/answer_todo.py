"""Return-value families on the todo list: a count and a look-up (see taskkit/answers.py)."""

from __future__ import annotations

from openapps_sim.tasks.todo import unique_items

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang

NOTES = ["Ask at the front desk first", "Receipt is in the blue folder", "Only after payday", "Use the spare key"]


@family
class CountOpen(AnswerFamily):
    id = "todo.count_open"
    apps = ("todo",)
    max_steps = 6
    category = "count"
    answer_kind = "number"
    description = "Answer how many items on the todo list are still open (not done)."
    phrasings = {
        "plain": [
            "How many items on my todo list are still open?",
            "Count the todo items that are not done yet and tell me the number.",
            "Tell me how many of my todos are still unfinished.",
        ],
        "casual": [
            "how many todos do I still have open?",
            "quick q: how many things are left on my to-do list?",
            "How many open items am I looking at on the todo app?",
        ],
        "context": [
            "I'm trying to plan my evening. How many items on my todo list are still open?",
            "The weekend is coming up fast. Could you tell me how many todos are not done yet?",
            "My manager asked how busy I am; how many open items does my todo list have?",
        ],
        "de": [
            "Wie viele Einträge auf meiner Todo-Liste sind noch offen?",
            "Wie viele Aufgaben sind noch nicht erledigt?",
        ],
        "fr": ["Combien de tâches de ma liste sont encore ouvertes ?", "Combien de tâches ne sont pas encore faites ?"],
    }

    def sample(self, state, config, rng):
        n = sum(1 for i in state["todo"]["items"] if not i["done"])
        return {"answer": str(n), "lang": pack_lang(config)}

    def answer_pages(self, params):
        return ["/todo"]

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.answer(params["answer"])


@family
class ItemNotes(AnswerFamily):
    id = "todo.item_notes"
    apps = ("todo",)
    max_steps = 6
    category = "lookup"
    answer_kind = "text"
    description = "Answer with the notes written under a named todo item."
    phrasings = {
        "plain": [
            "What are the notes on my todo '{title}'?",
            "Tell me the notes attached to the todo item '{title}'.",
            "Read me the notes of '{title}' on my todo list.",
        ],
        "casual": [
            "what did I jot down under '{title}' in my todos?",
            "remind me what the note on '{title}' says?",
            "What's the little note under '{title}' on my to-do list?",
        ],
        "context": [
            "I'm about to leave the house. What are the notes on my todo '{title}'?",
            "My phone is nearly dead, so quickly: what do the notes under '{title}' say?",
            "I wrote something down yesterday and forgot it. What are the notes on '{title}'?",
        ],
        "de": ["Was steht in den Notizen zu '{title}' auf meiner Todo-Liste?", "Welche Notiz hat '{title}'?"],
        "fr": ["Quelles sont les notes de la tâche '{title}' ?", "Que dit la note sous '{title}' ?"],
    }

    def sample(self, state, config, rng):
        items = unique_items(state)
        with_notes = [i for i in items if i.get("notes")]
        item = rng.choice(with_notes) if with_notes else pick(rng, items, "todo item")
        notes = item.get("notes") or rng.choice(NOTES)
        return {"id": item["id"], "title": item["title"], "notes": notes, "answer": notes, "lang": pack_lang(config)}

    def prepare(self, state, params):
        for it in state["todo"]["items"]:
            if it["id"] == params["id"]:
                it["notes"] = params["notes"]

    def answer_pages(self, params):
        return ["/todo"]

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.answer(params["answer"])
