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
