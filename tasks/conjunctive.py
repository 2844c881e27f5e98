"""Conjunctive constraint families with yes/no attributes (DAC-Bench's Conjunctive structure and its
boolean constraint type): of three candidates, act on the one that meets every constraint, where
a constraint is an attribute the app shows as present or absent ("still open and has NO notes",
"has a set time and NO location", "costs under a budget and comes in red"). Each candidate misses
exactly one constraint but the target, so an agent that checks only one of them picks wrong. The
oracle reads the attributes off the page. Also two cross-app conjunctive families (independent
parts, ``tasks/multi/steps.py``)."""

from __future__ import annotations

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.calendar.decisions import SLOTS, open_day
from openapps_sim.tasks.calendar.edits import day_text, free_titles
from openapps_sim.tasks.hierarchy import days_ahead, new_event, read_app, three
from openapps_sim.tasks.multi.chains import BUDGETS
from openapps_sim.tasks.multi.steps import make_family
from openapps_sim.tasks.picks import add_this_product, add_to_cart_op, find_product, set_field, unique_products
from openapps_sim.tasks.shop.decisions import price_shown
from openapps_sim.tasks.todo.edits import SeededTodo, seeded_done, unique_items

from openapps_sim.taskkit import Infeasible, family
from openapps_sim.taskkit.branching import BranchingFamily
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_classes, testid_text_parts
from openapps_sim.taskkit.progress import Op

ROLES = ("target", "miss_first", "miss_second")


class OneOfThree(BranchingFamily):
    """Three candidates; the target meets both constraints, each other one misses one of them.
    ``params["order"]`` lists the roles in the order the goal (or the page) shows them."""

    structure = "conjunctive"
    category = "constraint"

    def roles(self, rng) -> dict:
        order = list(ROLES)
        rng.shuffle(order)
        return {"order": order}


@family("todo.open_without_notes", apps="todo", max_steps=8)
class OpenWithoutNotes(SeededTodo, OneOfThree):
    """Of three named todos, mark done the one that is still open and has no notes (yes/no
    attributes)."""

    def sample(self, state, config, rng):
        params = self.roles(rng)
        chosen = dict(zip(ROLES, three(rng, unique_items(state), "todo items with unique titles"), strict=True))
        done = {chosen["target"]["id"]: False, chosen["miss_first"]["id"]: True, chosen["miss_second"]["id"]: False}
        for key, role in zip("abc", params["order"], strict=True):
            params.update({f"{key}_id": chosen[role]["id"], key: chosen[role]["title"]})
        note = rng.choice(words(config, "todo.notes"))
        return dict(params, notes={chosen["miss_second"]["id"]: note, chosen["target"]["id"]: "",
                                   chosen["miss_first"]["id"]: ""},
                    done_ids=seeded_done(state, rng, done), branch=chosen["target"]["id"])  # fmt: skip

    def prepare(self, state, params):
        super().prepare(state, params)
        for iid, note in params["notes"].items():
            set_field(state["todo"]["items"], iid, "notes", note)

    def branch_plans(self, params, initial):
        return {params[f"{k}_id"]: [Op.of("todo", "toggle_item", id=params[f"{k}_id"])] for k in "abc"}

    def solve(self, params, ui):
        """Read each named row: ticked off or not, and whether text follows the title (its notes)."""
        obs = yield from ui.open_app("todo")
        classes, parts = testid_classes(obs), testid_text_parts(obs)
        for k in "abc":
            iid = params[f"{k}_id"]
            has_notes = len([t for t in parts.get(f"todo-title-{iid}", []) if t.strip()]) > 1
            if "done" not in classes.get(f"todo-item-{iid}", set()) and not has_notes:
                yield ui.click(f"todo-toggle-{iid}")
                return

    def solve_api(self, params, api):
        items = {i["id"]: i for i in (yield from read_app(api, "todo")).get("items", [])}
        for k in "abc":
            item = items.get(params[f"{k}_id"], {"done": True})
            if not item["done"] and not item.get("notes"):
                yield api.call("todo", "toggle_item", id=item["id"])
                return


@family("calendar.timed_without_location", apps="calendar", max_steps=16)
class TimedWithoutLocation(OneOfThree):
    """On a day with three events, delete the one that has a set time (is not all day) and has no
    location (yes/no attributes)."""

    def sample(self, state, config, rng):
        titles = three(rng, free_titles(state, config), "new event titles")
        (day,), _ = days_ahead(state, config, rng, [True], [])
        params = self.roles(rng)
        first = state["calendar"]["next_id"]
        times = sorted(rng.sample(SLOTS, 3))
        where = rng.choice(words(config, "calendar.new_locations"))
        events = []
        for i, (role, title) in enumerate(zip(params["order"], titles, strict=True)):
            events.append({"id": f"e{first + i}", "title": title, "date": day,
                           "time": "" if role == "miss_first" else times[i],
                           "location": where if role == "miss_second" else ""})  # fmt: skip
        target = events[params["order"].index("target")]
        return dict(params, date=day, events=events, title=target["title"], branch=target["id"])

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), day=day_text(params["date"], language))

    def prepare(self, state, params):
        for ev in params["events"]:
            fields = {k: v for k, v in ev.items() if k != "id"}
            new_event(state, **fields)
            assert state["calendar"]["events"][-1]["id"] == ev["id"], "prepared event ids must match the sample"

    def branch_plans(self, params, initial):
        return {ev["id"]: [Op.of("calendar", "delete_event", id=ev["id"])] for ev in params["events"]}

    def solve(self, params, ui):
        """On the day's agenda each event shows its time (a clock time or "all day": no digit) and,
        when it has one, its location after the title; delete the timed one without a location."""
        obs = yield from open_day(ui, params["date"])
        for testid, parts in testid_text_parts(obs).items():
            if not testid.startswith("calendar-event-"):
                continue
            shown = [t.strip() for t in parts if t.strip()]
            if shown and any(ch.isdigit() for ch in shown[0]) and len(shown) == 2:
                yield ui.click(testid)
                yield ui.click(f"calendar-delete-{testid.removeprefix('calendar-event-')}")
                return

    def solve_api(self, params, api):
        for ev in (yield from read_app(api, "calendar")).get("events", []):
            if ev["date"] == params["date"] and ev["time"] and not ev["location"]:
                yield api.call("calendar", "delete_event", id=ev["id"])
                return


@family("shop.cheap_in_colour", apps="shop", max_steps=24)
class CheapInColour(OneOfThree):
    """Of three named products, add to the cart the one that costs less than a budget and comes in a
    named colour (yes/no attributes)."""

    def sample(self, state, config, rng):
        cfg = config["shop"]
        products, pool = cat.catalogue(cfg), unique_products(cfg)
        colours = lambda p: products[p]["options"].get("colour", [])  # noqa: E731
        for budget in rng.sample(BUDGETS, len(BUDGETS)):
            for code in rng.sample(sorted(cfg["option_values"]), len(cfg["option_values"])):
                cheap = [p for p in pool if products[p]["price"] < budget]
                pools = {
                    "target": [p for p in cheap if code in colours(p) and set(products[p]["options"]) == {"colour"}],
                    "miss_first": [p for p in cheap if code not in colours(p)],
                    "miss_second": [p for p in pool if products[p]["price"] >= budget and code in colours(p)],
                }
                if all(pools.values()):
                    break
            else:
                continue
            break
        else:
            raise Infeasible("no budget and colour split the products as the family needs")
        params = self.roles(rng)
        chosen = {role: rng.choice(pools[role]) for role in ROLES}
        for key, role in zip("abc", params["order"], strict=True):
            params.update({f"{key}_id": chosen[role], key: products[chosen[role]]["name"]})
        return dict(params, budget=budget, budget_text=cat.fmt_price(cfg, budget), colour=code,
                    colour_name=cfg["option_values"][code]["name"], branch=chosen["target"])  # fmt: skip

    def branch_plans(self, params, initial):
        return {params[f"{k}_id"]: [add_to_cart_op(params[f"{k}_id"], {"colour": params["colour"]})] for k in "abc"}

    def solve(self, params, ui):
        """Open each product's page: its price, and the colours its colour menu offers."""
        for k in "abc":
            obs = yield from find_product(ui, params[f"{k}_id"], search=params[k])
            price = price_shown(obs)
            offered = [t.strip() for t in testid_text_parts(obs or {}).get("shop-option-colour", [])]
            if price is not None and price < params["budget"] and params["colour_name"] in offered:
                yield from add_this_product(ui, {"colour": params["colour"]}, 1)
                return

    def solve_api(self, params, api):
        for k in "abc":
            found = api.result((yield api.call("shop", "find_products", query=params[k]))) or []
            p = next((p for p in found if p["id"] == params[f"{k}_id"]), None)
            if p and p["price"] < params["budget"] and params["colour"] in p["options"].get("colour", []):
                yield api.call("shop", "add_to_cart", product_id=p["id"], options=[f"colour={params['colour']}"], qty=1)
                return


make_family(
    "multi.tidy_up",
    2,
    ("todo.clear_completed", "maps.remove_saved_place", "shop.empty_cart"),
    "Clear the completed todos, remove a saved place and empty the cart (independent parts).",
)
make_family(
    "multi.file_and_event",
    1,
    ("code_editor.create_file", "calendar.add_event"),
    "Create a file in the code editor and add a calendar event (independent parts).",
)
