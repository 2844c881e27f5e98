"""Infeasible families: the goal names something this world does not hold, so it cannot be done.

The right answer is to say so (``report_infeasible(...)``) and to change nothing: success is the
report with the complete state unchanged, under either termination mode; adding a similar
product, messaging a similar contact or renaming onto the existing file fails. What the goal
names is made from the world's own content, in its language, so that it reads like any other
goal: a product of one series under another series' name ("Zephyr Mixing Bowl" where only
"Aurora Mixing Bowl" is on sale), a contact's first name with another contact's surname, a
todo or an event title the task content offers that the list does not hold, a sibling file's
name, a place the gazetteer does not know. Each seed also draws a start state (which todos are
done, the cart, extra saved places), and what is missing is part of the instance
(``infeasible_target``).

The oracle looks first (opens the app, searches for the name or opens the form) and then
reports; under the api interface it reads the app's data and reports.
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from importlib import resources

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.calendar.edits import CalendarFamily, calendar_today, free_titles, go_to_day
from openapps_sim.tasks.code_editor.edits import P as ce_model
from openapps_sim.tasks.code_editor.edits import ce_state, file_paths, open_code_editor
from openapps_sim.tasks.picks import cart_lines, earlier_saves, fill_cart, open_shop, save_earlier
from openapps_sim.tasks.todo.edits import SeededTodo, seeded_done

from openapps_sim.config.normalise import norm_text
from openapps_sim.config.yamlfile import load_yaml
from openapps_sim.taskkit import TaskFamily, family, pick
from openapps_sim.taskkit.language import words


class InfeasibleFamily(TaskFamily):
    """Success is ``report_infeasible`` with nothing changed (the expected state is the initial one)."""

    infeasible = True
    category = "infeasible"
    structure = "single"
    target_key = "name"

    def plan(self, params, initial):
        """Nothing: the world must stay as it is."""
        return []

    def infeasible_target(self, params):
        return f"{self.id}:{params[self.target_key]}"

    def reason(self, params) -> str:
        return f"{params[self.target_key]!r} does not exist here"

    def solve_api(self, params, api):
        yield api.read(self.apps[0])
        yield api.report_infeasible(self.reason(params))

    #: for families whose oracle looks the name up first: the app whose search box it tries
    searched_in = ""

    def solve(self, params, ui):
        """Open the app, search for the name, then report."""
        yield from (open_shop(ui) if self.searched_in == "shop" else ui.open_app(self.searched_in))
        yield ui.fill(f"{self.searched_in}-search", params[self.target_key])
        yield ui.click(f"{self.searched_in}-search-submit")
        yield ui.report_infeasible(self.reason(params))


def _taken(names) -> set[str]:
    return {norm_text(n) for n in names}


# -- todo ------------------------------------------------------------------------------------------
@family("todo.tick_missing_item", apps="todo", max_steps=6)
class TickMissingItem(SeededTodo, InfeasibleFamily):
    """Mark a todo item done that is not on the list (infeasible: report it, change nothing)."""

    target_key = "title"

    def sample(self, state, config, rng):
        have = _taken(i["title"] for i in state["todo"]["items"])
        title = pick(rng, [t for t in words(config, "todo.new_items") if norm_text(t) not in have], "missing todo")
        return {"title": title, "done_ids": seeded_done(state, rng)}

    def reason(self, params):
        return f"There is no item {params['title']!r} on the todo list."

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.report_infeasible(self.reason(params))


# -- calendar --------------------------------------------------------------------------------------
@family("calendar.move_missing_event", apps="calendar", max_steps=12)
class MoveMissingEvent(InfeasibleFamily, CalendarFamily):
    """Move an event that is not in the calendar to another day (infeasible: report it, change
    nothing)."""

    target_key = "title"

    def sample(self, state, config, rng):
        title = pick(rng, free_titles(state, config), "missing event title")
        day = calendar_today(config) + timedelta(days=rng.randint(1, 24))
        return {"title": title, "new_date": day.isoformat()}

    def infeasible_target(self, params):
        return f"{self.id}:{params['title']}:{params['new_date']}"

    def reason(self, params):
        return f"There is no event {params['title']!r} in the calendar."

    def solve(self, params, ui):
        obs = yield from ui.open_app("calendar")
        yield from go_to_day(ui, obs, params["new_date"])  # look around the day it should go to
        yield ui.report_infeasible(self.reason(params))


# -- messenger -------------------------------------------------------------------------------------
def missing_contact_names(state: dict) -> list[str]:
    """A contact's first name with another contact's surname, where no contact has that name
    (nor a name containing it, so searching for it finds nobody)."""
    names = [c["name"] for c in state["messenger"]["contacts"]]
    parts = [n.split(" ", 1) for n in names if " " in n.strip()]
    folded = [norm_text(n) for n in names]
    out = []
    for i, (first, _) in enumerate(parts):
        for j, (_, last) in enumerate(parts):
            name = f"{first} {last}"
            if i != j and not any(norm_text(name) in f for f in folded) and name not in out:
                out.append(name)
    return out


@family("messenger.message_unknown_contact", apps="messenger", max_steps=8)
class MessageUnknownContact(InfeasibleFamily):
    """Send a message to a contact who is not in the contact list (infeasible: report it, change
    nothing)."""

    def sample(self, state, config, rng):
        name = pick(rng, missing_contact_names(state), "name of a missing contact")
        return {"name": name, "text": rng.choice(words(config, "messenger.new_messages"))}

    searched_in = "messenger"

    def reason(self, params):
        return f"There is no contact named {params['name']!r}."


# -- shop ------------------------------------------------------------------------------------------
@cache
def shop_series() -> tuple[str, ...]:
    """The product lines (proper names, the same in every language) of the shop's vocabulary."""
    text = (resources.files("openapps_sim.apps.shop") / "vocab.yaml").read_text(encoding="utf-8")
    return tuple(str(s["name"]) for s in load_yaml(text, "apps/shop/vocab.yaml")["series"])


def missing_products(cfg: dict) -> list[str]:
    """Names of products the shop does not sell: a product of one series under another's name."""
    taken = _taken(p["name"] for p in cfg["products"].values())
    out = []
    for p in cat.catalogue(cfg).values():
        words_ = p["name"].split(" ")
        own = [s for s in shop_series() if s in words_]
        for series in own[:1]:
            for other in shop_series():
                name = " ".join(other if w == series else w for w in words_)
                if other != series and norm_text(name) not in taken and name not in out:
                    out.append(name)
    return out


@family("shop.add_missing_product", apps="shop", max_steps=10)
class AddMissingProduct(InfeasibleFamily):
    """Add a product the shop does not sell to the cart (infeasible: report it, change nothing)."""

    def sample(self, state, config, rng):
        cfg = config["shop"]
        name = pick(rng, missing_products(cfg), "product name not in the catalogue")
        # a seeded start state: the cart holds zero to two products already
        return {"name": name, "qty": rng.randint(1, 3), "lines": cart_lines(state, config, rng, 0, 2)}

    def prepare(self, state, params):
        fill_cart(state, params.get("lines") or [])

    searched_in = "shop"

    def reason(self, params):
        return f"The shop does not sell {params['name']!r}."


# -- code editor -----------------------------------------------------------------------------------
@family("code_editor.rename_onto_existing", apps="code_editor", max_steps=8)
class RenameOntoExisting(InfeasibleFamily):
    """Rename a file to the name of another file in the same folder, which the editor cannot do
    (infeasible: report it, change nothing)."""

    target_key = "path"

    def sample(self, state, config, rng):
        ce, files = ce_state(state), file_paths(state)
        pairs = [(a, b) for a in files for b in files if a != b and ce_model.parent_of(a) == ce_model.parent_of(b)]
        # a name of the same kind reads naturally ("test_storage.py" onto "test_search.py"), so half of
        # the seeds draw one; where no
        # folder holds two files (the sparse project), a sibling folder's name is taken as well
        alike = [(a, b) for a, b in pairs if ce_model.extension(a) == ce_model.extension(b)]
        folders = [
            (a, b) for a in files for b in sorted(ce["folders"]) if b and ce_model.parent_of(a) == ce_model.parent_of(b)
        ]
        pool = alike if alike and rng.random() < 0.5 else (pairs or folders)
        path, other = pick(rng, pool, "a file and another name in its folder")
        return {"path": path, "name": ce_model.name_of(path), "new_name": ce_model.name_of(other), "existing": other}

    def infeasible_target(self, params):
        return f"{self.id}:{params['path']}->{params['existing']}"

    def reason(self, params):
        return f"{params['existing']!r} exists already, so {params['path']!r} cannot be renamed to it."

    def solve(self, params, ui):
        from openapps_sim.apps.code_editor.model import path_id

        pid = path_id(params["path"])
        yield from open_code_editor(ui)
        yield ui.click(f"code_editor-file-{pid}")
        yield ui.click(f"code_editor-rename-{pid}")  # the form: the folder already holds that name
        yield ui.report_infeasible(self.reason(params))


# -- maps ------------------------------------------------------------------------------------------
def unknown_places(state: dict, config: dict) -> list[str]:
    """Places the task content names (a café, a library...) that neither the gazetteer nor the
    saved places know; names with a digit (a meeting room) and the last entry ("Online") are
    no places on a map."""
    known = _taken([p["name"] for p in config["maps"]["places"]] + [s["name"] for s in state["maps"]["saved"]])
    names = list(words(config, "calendar.new_locations"))[:-1]
    return [n for n in names if not any(ch.isdigit() for ch in n) and not any(norm_text(n) in k for k in known | {""})]


@family("maps.save_unknown_place", apps="maps", max_steps=8)
class SaveUnknownPlace(InfeasibleFamily):
    """Save a place the map does not know (infeasible: report it, change nothing)."""

    def sample(self, state, config, rng):
        name = pick(rng, unknown_places(state, config), "place the map does not know")
        return {"name": name, "extra_places": earlier_saves(state, config, rng)}

    def prepare(self, state, params):
        save_earlier(state, params.get("extra_places"))

    searched_in = "maps"

    def reason(self, params):
        return f"The map knows no place called {params['name']!r}."
