"""Long-horizon families whose oracle needs 20 to 50 steps (the longer ones are in long.py)."""

from __future__ import annotations

from openapps_sim.apps.code_editor import model as P
from openapps_sim.tasks.calendar.edits import free_titles
from openapps_sim.tasks.multi.long import (
    contacts,
    days_from,
    messages,
    new_events,
    new_todos,
    own_text,
    places,
    products,
    text,
)
from openapps_sim.tasks.multi.longkit import LongFamily, piece
from openapps_sim.tasks.todo.edits import unique_items

from openapps_sim.taskkit import Infeasible, family, pick


@family("multi.long_weekend_errands", apps=("shop", "todo", "calendar", "messenger"), max_steps=70)
class WeekendErrands(LongFamily):
    """Weekend errands: two products in the cart, a pick-up todo for each, an appointment on the
    weekend and a message to a contact."""

    def draw(self, state, config, rng):
        goods = products(state, config, rng, 2)
        todos = new_todos(state, [text(config, "pick_up", product=g["name"]) for g in goods])
        (day,) = days_from(config, rng, 1)
        event = new_events(state, [pick(rng, free_titles(state, config), "new event title")], [day], "11:00")
        tell = messages(state, contacts(state, rng, 1), own_text(state, config, rng))
        return {"pieces": goods + todos + event + tell}


@family("multi.long_team_update", apps=("messenger",), max_steps=50, category="edit")
class TeamUpdate(LongFamily):
    """Send the same update to five contacts, one chat after the other."""

    def draw(self, state, config, rng):
        return {"pieces": messages(state, contacts(state, rng, 5), own_text(state, config, rng))}


@family("multi.long_tidy_desk", apps=("code_editor", "todo", "messenger"), max_steps=55)
class TidyDesk(LongFamily):
    """Tidy up: move two files into a folder, tick off three todos and tell a contact."""

    def draw(self, state, config, rng):
        ce = state["code_editor"]
        moves = []
        for folder in rng.sample(sorted(ce["folders"]), len(ce["folders"])):
            names = {P.name_of(f) for f in ce["files"] if P.parent_of(f) == folder}
            out = [f for f in sorted(ce["files"]) if P.parent_of(f) != folder and P.name_of(f) not in names]
            by_name = {P.name_of(f): f for f in rng.sample(out, len(out))}
            if by_name:
                chosen = list(by_name.values())[:2]
                moves = [
                    piece("file_move", path=f, parent=folder, new_path=P.join(folder, P.name_of(f))) for f in chosen
                ]
                break
        if not moves:
            raise Infeasible("no file to move into another folder")
        items = rng.sample(unique_items(state), min(3, len(unique_items(state))))
        if not items:
            raise Infeasible("no todo item")
        ticks = [piece("todo_toggle", id=i["id"], title=i["title"], done=True) for i in items]
        tell = messages(state, contacts(state, rng, 1), own_text(state, config, rng))
        return {"folder": moves[0]["parent"], "reopen": [i["id"] for i in items], "pieces": moves + ticks + tell}


@family("multi.long_visit_friends", apps=("maps", "calendar", "messenger"), max_steps=60)
class VisitFriends(LongFamily):
    """Visit two places on two days in a row: save both, a visit event for each, and tell a
    contact about the first."""

    def draw(self, state, config, rng):
        stops = places(state, config, rng, 2)
        days = days_from(config, rng, 2)
        visits = new_events(state, [text(config, "visit", place=p["name"]) for p in stops], days, "15:00")
        going = text(config, "visiting", place=stops[0]["name"], date=days[0])
        return {"pieces": stops + visits + messages(state, contacts(state, rng, 1), going)}
