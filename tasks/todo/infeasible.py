"""The infeasible family of the todo list: the goal names something it does not hold (the base and
what such a family is: ``tasks/infeasible.py``)."""

from __future__ import annotations

from openapps_sim.tasks.infeasible import InfeasibleFamily, taken_names
from openapps_sim.tasks.todo.edits import SeededTodo, seeded_done

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.language import words


@family("todo.tick_missing_item", apps="todo", max_steps=6)
class TickMissingItem(SeededTodo, InfeasibleFamily):
    """Mark a todo item done that is not on the list (infeasible: report it, change nothing)."""

    target_key = "title"

    def sample(self, state, config, rng):
        have = taken_names(i["title"] for i in state["todo"]["items"])
        title = pick(rng, [t for t in words(config, "todo.new_items") if norm_text(t) not in have], "missing todo")
        return {"title": title, "done_ids": seeded_done(state, rng)}

    def reason(self, params):
        return f"There is no item {params['title']!r} on the todo list."

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.report_infeasible(self.reason(params))
