"""Return-value families on the todo list: a count and a look-up (see taskkit/answers.py)."""

from __future__ import annotations

from openapps_sim.tasks.picks import pick_noted, set_field
from openapps_sim.tasks.todo.edits import SeededTodo, seeded_done, unique_items

from openapps_sim.taskkit import family
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_classes, testid_text_parts


@family("todo.count_open", apps="todo", max_steps=6, category="count", answer_kind="number")
class CountOpen(SeededTodo, AnswerFamily):
    """Answer how many items on the todo list are still open (not done)."""

    def sample(self, state, config, rng):
        done_ids = seeded_done(state, rng)
        n = sum(1 for i in state["todo"]["items"] if i["id"] not in done_ids)
        return {"answer": str(n), "done_ids": done_ids, "lang": pack_lang(config)}

    def answer(self, state, params):
        return str(sum(1 for i in state["todo"]["items"] if not i["done"]))

    def solve(self, params, ui):
        """Count the rows the list shows that are not ticked off."""
        obs = yield from ui.open_app("todo")
        rows = [c for t, c in testid_classes(obs).items() if t.startswith("todo-item-")]
        yield ui.answer(str(sum(1 for c in rows if "done" not in c)))


@family("todo.item_notes", apps="todo", max_steps=6, category="lookup", answer_kind="text")
class ItemNotes(SeededTodo, AnswerFamily):
    """Answer with the notes written under a named todo item."""

    def sample(self, state, config, rng):
        item, notes = pick_noted(rng, unique_items(state), "notes", words(config, "todo.notes"), "todo item")
        return {"id": item["id"], "title": item["title"], "notes": notes, "answer": notes,
                "done_ids": seeded_done(state, rng), "lang": pack_lang(config)}  # fmt: skip

    def prepare(self, state, params):
        super().prepare(state, params)
        set_field(state["todo"]["items"], params["id"], "notes", params["notes"])

    def answer(self, state, params):
        return next((i.get("notes", "") for i in state["todo"]["items"] if i["id"] == params["id"]), "")

    def solve(self, params, ui):
        """Read the notes under the item's title (the title's text nodes after the first)."""
        obs = yield from ui.open_app("todo")
        parts = [t for t in testid_text_parts(obs).get(f"todo-title-{params['id']}", []) if t.strip()]
        yield ui.answer(" ".join(parts[1:]))
