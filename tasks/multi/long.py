"""Long-horizon families (issue 43): real user goals across apps whose oracle needs 50 steps or
more (the families of 20 to 50 steps are in long_more.py). Each is a list of pieces
(:mod:`openapps_sim.tasks.multi.longkit`): one sub-goal and one milestone per piece, so partial
progress is measured; docs/tasks.md, "Long-horizon families", lists them with their oracle steps.

What each brings into the world (dish names, the texts it sends) is in the world's language
(``tasks/content/<lang>.yaml``: ``multi.meals``, ``multi.meal_plan_ready``, ...).
"""

from __future__ import annotations

from datetime import timedelta

from openapps_sim.apps.code_editor import model as P
from openapps_sim.apps.messenger import model as logic
from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.calendar.edits import calendar_today, free_titles, unique_events
from openapps_sim.tasks.code_editor.edits import NEW_FILE_NAMES, NEW_FOLDER_NAMES
from openapps_sim.tasks.messenger.decisions import with_chat
from openapps_sim.tasks.messenger.edits import fresh_text
from openapps_sim.tasks.multi.longkit import LongFamily, piece
from openapps_sim.tasks.picks import choose_options, unique_names, unique_products, unsaved_places
from openapps_sim.tasks.todo.edits import unique_items

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Infeasible, family, pick
from openapps_sim.taskkit.language import words

# -- what the families draw -----------------------------------------------------------------


def text(config: dict, key: str, **values) -> str:
    return str(words(config, f"multi.{key}")).format(**values)


def fresh(candidate: str, taken: set[str]) -> str:
    """``candidate``, or a numbered variant when the same text (normalised) is taken; the
    result is added to ``taken``."""
    out, n = candidate, 2
    while norm_text(out) in taken:
        out, n = f"{candidate} ({n})", n + 1
    taken.add(norm_text(out))
    return out


def event_titles(state: dict) -> set[str]:
    return {norm_text(e["title"]) for e in state["calendar"]["events"]}


def todo_titles(state: dict) -> set[str]:
    return {norm_text(i["title"]) for i in state["todo"]["items"]}


def days_from(config: dict, rng, n: int) -> list[str]:
    """``n`` consecutive days starting one to 20 days after the calendar's today."""
    start = calendar_today(config) + timedelta(days=rng.randint(1, 20))
    return [(start + timedelta(days=k)).isoformat() for k in range(n)]


def contacts(state: dict, rng, most: int) -> list[dict]:
    """Up to ``most`` contacts with a conversation (at least one), drawn."""
    pool = with_chat(state)
    if not pool:
        raise Infeasible("no contact with a conversation")
    return rng.sample(pool, min(most, len(pool)))


def messages(state: dict, people: list[dict], message: str) -> list[dict]:
    """The same text sent to each of ``people``."""
    return [piece("message", contact_id=c["id"], contact=c["name"], text=message) for c in people]


def own_text(state: dict, config: dict, rng) -> str:
    return fresh_text(rng, state["messenger"], words(config, "messenger.new_messages"))


def products(state: dict, config: dict, rng, n: int) -> list[dict]:
    """``n`` cart pieces: distinct products with unique names that are not in the cart yet."""
    cfg = config["shop"]
    in_cart = {ln["product_id"] for ln in state["shop"]["cart"]}
    pool = [pid for pid in unique_products(cfg) if pid not in in_cart]
    if len(pool) < n:
        raise Infeasible(f"fewer than {n} products to add")
    out = []
    for pid in rng.sample(pool, n):
        p = cat.catalogue(cfg)[pid]
        options = choose_options(rng, p)
        label = p["name"] + (f" ({cat.options_text(cfg, p, options)})" if options else "")
        out.append(piece("cart_add", product_id=pid, name=p["name"], options=options, label=label))
    return out


def places(state: dict, config: dict, rng, n: int) -> list[dict]:
    pool = unsaved_places(state, config)
    if len(pool) < n:
        raise Infeasible(f"fewer than {n} places to save")
    return [piece("place_save", place_id=p["id"], name=p["name"]) for p in rng.sample(pool, n)]


def new_todos(state: dict, titles: list[str]) -> list[dict]:
    taken = todo_titles(state)
    return [piece("todo_add", title=fresh(t, taken)) for t in titles]


def new_events(state: dict, titles: list[str], days: list[str], time: str) -> list[dict]:
    taken = event_titles(state)
    return [piece("event_add", title=fresh(t, taken), date=d, time=time) for t, d in zip(titles, days, strict=True)]


# -- the families ---------------------------------------------------------------------------


@family("multi.long_meal_week", apps=("calendar", "shop", "messenger"), max_steps=110)
class MealWeek(LongFamily):
    """Plan a week of dinners: seven dinner events on seven days in a row, two products for them
    in the cart, and the plan announced to a contact."""

    def draw(self, state, config, rng):
        meals = rng.sample(list(words(config, "multi.meals")), 7)
        days = days_from(config, rng, 7)
        time = rng.choice(["18:30", "19:00", "19:30"])
        dinners = new_events(state, [text(config, "meal_event", meal=m) for m in meals], days, time)
        (who,) = contacts(state, rng, 1)
        tell = messages(state, [who], text(config, "meal_plan_ready", day=days[0]))
        return {"first_day": days[0], "pieces": dinners + products(state, config, rng, 2) + tell}


@family("multi.long_project_move", apps=("code_editor", "messenger", "todo"), max_steps=95)
class ProjectMove(LongFamily):
    """Move a project's files: make a new folder, move five files from elsewhere into it, tell
    three contacts where they went and add a todo to update the links."""

    def draw(self, state, config, rng):
        ce = state["code_editor"]
        parent = rng.choice(["", *sorted(ce["folders"])])
        names = [n for n in NEW_FOLDER_NAMES if not P.exists(ce, P.join(parent, n))]
        folder = P.join(parent, pick(rng, names, "new folder name"))
        by_name: dict[str, str] = {}
        for path in rng.sample(sorted(ce["files"]), len(ce["files"])):
            by_name.setdefault(P.name_of(path), path)  # one file per name: they meet in one folder
        files = list(by_name.values())[:5]
        if not files:
            raise Infeasible("no file to move")
        moves = [piece("file_move", path=f, parent=folder, new_path=P.join(folder, P.name_of(f))) for f in files]
        name = P.name_of(folder)
        tell = messages(state, contacts(state, rng, 3), text(config, "moved_files", folder=folder))
        todo = new_todos(state, [text(config, "update_links", folder=folder)])
        create = piece("folder_create", path=folder, name=name, parent=parent)
        return {"folder": folder, "pieces": [create, *moves, *tell, *todo]}


@family("multi.long_month_messages", apps=("messenger", "todo", "calendar"), max_steps=95)
class MonthMessages(LongFamily):
    """Reconcile a month of messages: six contacts wrote last and each has a "Reply to" todo;
    answer each with a given text and tick the todo off, then book a catch-up with the first."""

    def draw(self, state, config, rng):
        people = contacts(state, rng, 6)
        taken, pieces, setup = todo_titles(state), [], []
        next_id = state["todo"]["next_id"]
        pool = [t for t in words(config, "messenger.new_messages")]
        used = {norm_text(m["text"]) for ms in state["messenger"]["conversations"].values() for m in ms}
        replies = [t for t in pool if norm_text(t) not in used]
        if len(replies) < len(people):
            raise Infeasible("too few new message texts")
        for k, (c, reply) in enumerate(zip(people, rng.sample(replies, len(people)), strict=False)):
            title = fresh(text(config, "reply_to", name=c["name"]), taken)
            tid = f"t{next_id + k}"
            setup.append(
                {"contact_id": c["id"], "incoming": rng.choice(words(config, "messenger.incoming")), "todo": title}
            )
            pieces += [
                piece("message", contact_id=c["id"], contact=c["name"], text=reply),
                piece("todo_toggle", id=tid, title=title, done=True),
            ]
        (day,) = days_from(config, rng, 1)
        pieces += new_events(state, [text(config, "catch_up", name=people[0]["name"])], [day], "17:00")
        return {"setup": setup, "first": people[0]["name"], "pieces": pieces}

    def prepare(self, state, params):
        from openapps_sim.apps.todo import model as todo_model

        for s in params["setup"]:
            logic.receive(state["messenger"], s["contact_id"], s["incoming"])
            todo_model.add_item(state["todo"], s["todo"])


@family("multi.long_trip_week", apps=("maps", "calendar", "messenger", "todo"), max_steps=100)
class TripWeek(LongFamily):
    """Plan a trip of three stops: save three places, a visit to each on three days in a row,
    tell two contacts about the first and add a packing todo for each of the first two."""

    def draw(self, state, config, rng):
        stops = places(state, config, rng, 3)
        days = days_from(config, rng, 3)
        visits = new_events(state, [text(config, "visit", place=p["name"]) for p in stops], days, "10:00")
        going = text(config, "going_to", place=stops[0]["name"], date=days[0])
        tell = messages(state, contacts(state, rng, 2), going)
        packing = new_todos(state, [text(config, "pack_for", place=p["name"]) for p in stops[:2]])
        return {"pieces": stops + visits + tell + packing}


@family("multi.long_spring_cleaning", apps=("maps", "calendar", "todo", "code_editor", "messenger"), max_steps=95)
class SpringCleaning(LongFamily):
    """Clean up five apps: remove four saved places, four events, four todos and two files, then
    tell a contact it is done."""

    def draw(self, state, config, rng):
        saved = state["maps"]["saved"]
        ok = unique_names(saved)
        spots = [s for s in saved if norm_text(s["name"]) in ok]
        # at most all but one of each: cleaning up is not emptying an app
        some = lambda pool, most, held: rng.sample(pool, max(0, min(most, len(pool), len(held) - 1)))  # noqa: E731
        spots = some(spots, 4, saved)
        events = some(unique_events(state), 4, state["calendar"]["events"])
        items = some(unique_items(state), 4, state["todo"]["items"])
        files = some(sorted(state["code_editor"]["files"]), 2, state["code_editor"]["files"])
        if not (spots and events and items and files):
            raise Infeasible("nothing to clean up in some app")
        pieces = [piece("saved_remove", id=s["id"], name=s["name"]) for s in spots]
        pieces += [piece("event_delete", id=e["id"], title=e["title"], date=e["date"]) for e in events]
        pieces += [piece("todo_delete", id=i["id"], title=i["title"]) for i in items]
        pieces += [piece("file_delete", path=f) for f in files]
        pieces += messages(state, contacts(state, rng, 1), own_text(state, config, rng))
        return {"pieces": pieces}


@family("multi.long_party_week", apps=("shop", "calendar", "messenger"), max_steps=100)
class PartyWeek(LongFamily):
    """Throw a party: four products in the cart, the party in the calendar and an invitation
    to four contacts."""

    def draw(self, state, config, rng):
        goods = products(state, config, rng, 4)
        people = contacts(state, rng, 4)
        (day,) = days_from(config, rng, 1)
        time = rng.choice(["18:00", "19:00", "20:00"])
        party = new_events(state, [text(config, "party_with", contact=people[0]["name"])], [day], time)
        invite = text(config, "party_on", date=day, time=time, product=goods[0]["name"])
        return {"pieces": goods + party + messages(state, people, invite)}


@family("multi.long_release_sprint", apps=("code_editor", "todo", "calendar", "messenger"), max_steps=95)
class ReleaseSprint(LongFamily):
    """Prepare a release: four new files in a folder, a review todo for each, the release in the
    calendar and two contacts told the files are ready for review."""

    def draw(self, state, config, rng):
        ce = state["code_editor"]
        folder = rng.choice(["", *sorted(ce["folders"])])
        names = [n for n in NEW_FILE_NAMES if not P.exists(ce, P.join(folder, n))]
        if len(names) < 4:
            raise Infeasible("fewer than four new file names")
        paths = [P.join(folder, n) for n in rng.sample(names, 4)]
        files = [piece("file_create", path=p, name=P.name_of(p), parent=folder) for p in paths]
        reviews = new_todos(state, [text(config, "review", path=p) for p in paths])
        (day,) = days_from(config, rng, 1)
        release = new_events(state, [text(config, "release_of", name=P.name_of(paths[0]))], [day], "11:00")
        tell = messages(state, contacts(state, rng, 2), text(config, "ready_for_review", path=paths[0]))
        return {"folder": folder or "/", "pieces": files + reviews + release + tell}


@family("multi.long_week_ahead", apps=("calendar", "todo", "messenger"), max_steps=95)
class WeekAhead(LongFamily):
    """Plan the week ahead: five appointments on five days in a row, a todo to prepare for each
    of the first three and an invitation to the first two sent to a contact each."""

    def draw(self, state, config, rng):
        titles = free_titles(state, config)
        if len(titles) < 5:
            raise Infeasible("fewer than five new event titles")
        days = days_from(config, rng, 5)
        time = rng.choice(["09:00", "10:00", "14:00", "16:00"])
        plans = new_events(state, rng.sample(titles, 5), days, time)
        prep = new_todos(state, [text(config, "prepare_for", title=e["title"]) for e in plans[:3]])
        people = contacts(state, rng, 2)
        invites = []
        for c, e in zip(people, plans, strict=False):
            join = text(config, "join_me", title=e["title"], date=e["date"], time=e["time"])
            invites += messages(state, [c], join)
        return {"pieces": plans + prep + invites}
