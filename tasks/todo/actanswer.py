"""Act, then answer, on the todo list: a clean-up or an addition, then a count of the list as it
is afterwards (see taskkit/answers.py, ``ActAnswerFamily``)."""

from __future__ import annotations

from openapps_sim.tasks.todo.edits import AddItem, ClearCompleted

from openapps_sim.taskkit import family
from openapps_sim.taskkit.answers import ActAnswerFamily, pack_lang
from openapps_sim.taskkit.observation import testid_classes


def _rows(obs: dict) -> list[str]:
    """The classes of the todo rows the page shows."""
    return [c for t, c in testid_classes(obs).items() if t.startswith("todo-item-")]


@family("todo.clear_done_count", apps="todo", max_steps=8, category="count", answer_kind="number")
class ClearDoneCount(ClearCompleted, ActAnswerFamily):
    """Remove every done item from the todo list, then answer how many items are left on it."""

    def sample(self, state, config, rng):
        return dict(super().sample(state, config, rng), lang=pack_lang(config))

    def answer(self, state, params):
        return str(len(state["todo"]["items"]))

    def solve(self, params, ui):
        """Clear the done items, then count the rows the list still shows."""
        yield from ui.open_app("todo")
        obs = yield ui.click("todo-clear-completed")
        yield ui.answer(str(len(_rows(obs))))


@family("todo.add_count_open", apps="todo", max_steps=8, category="count", answer_kind="number")
class AddCountOpen(AddItem, ActAnswerFamily):
    """Add a new item with a given title to the todo list, then answer how many items are open
    (not done) now."""

    def sample(self, state, config, rng):
        return dict(super().sample(state, config, rng), lang=pack_lang(config))

    def answer(self, state, params):
        return str(sum(1 for i in state["todo"]["items"] if not i["done"]))

    def solve(self, params, ui):
        """Add the item, then count the rows of the list that are not ticked off."""
        yield from ui.open_app("todo")
        yield ui.fill("todo-new-title", params["title"])
        obs = yield ui.click("todo-add")
        yield ui.answer(str(sum(1 for c in _rows(obs) if "done" not in c)))
