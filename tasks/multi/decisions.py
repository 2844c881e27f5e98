"""Cross-app branching and ordered families: a calendar condition decides between a message and
an event; a nested todo / cart decision; a todo tick that must precede a message."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.calendar.decisions import add_event_steps, create_event_op, day_is_empty
from openapps_sim.tasks.calendar.edits import calendar_today, day_text
from openapps_sim.tasks.messenger.decisions import send_chat_message, send_op, with_chat
from openapps_sim.tasks.messenger.edits import fresh_text
from openapps_sim.tasks.picks import add_this_product, add_to_cart_op, cart_lines, fill_cart, open_shop, unique_products
from openapps_sim.tasks.todo.decisions import todo_done
from openapps_sim.tasks.todo.edits import unique_items

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import parse_numbers
from openapps_sim.taskkit.branching import BranchingFamily, Condition, Decision, OrderedFamily
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_texts
from openapps_sim.taskkit.progress import Op


def cart_is_empty(ui) -> Iterator:
    """Open the shop: does the cart badge say 0?"""
    obs = yield from open_shop(ui)
    return parse_numbers(testid_texts(obs or {}).get("shop-cart-count", "")) == [0.0]


#: is the cart empty? (the shop's data; on the page, the cart badge)
CART_EMPTY = Condition("shop", lambda shop: not shop.get("cart"), cart_is_empty)


@family("multi.busy_evening", apps=("calendar", "messenger"), max_steps=24)
class BusyEvening(BranchingFamily):
    """If the calendar has anything on a given day, tell a contact you can't make dinner; otherwise
    add a dinner with them at 19:00 that day."""

    def sample(self, state, config, rng):
        c = pick(rng, with_chat(state), "contact with a conversation")
        today = calendar_today(config)
        busy_days = {e["date"] for e in state["calendar"]["events"]}
        days = [(today + timedelta(days=k)).isoformat() for k in range(1, 90)]
        want_busy = rng.random() < 0.5
        iso = rng.choice([d for d in days if (d in busy_days) == want_busy] or days)
        first = c["name"].split()[0]
        return {"contact_id": c["id"], "contact": c["name"], "date": iso,
                "cant": words(config, "multi.cant_make_dinner"),
                "dinner": words(config, "multi.dinner_with").format(name=first),
                "branch": self.decision({"date": iso}).decide(state)}  # fmt: skip

    def decision(self, params):
        return Decision.when(day_is_empty(params["date"]), "free", "busy")

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), day=day_text(params["date"], language))

    def milestone_apps(self, params):
        return ("calendar", "messenger") if params["branch"] == "busy" else ("calendar",)

    def branch_plans(self, params, initial):
        return {
            "busy": [send_op(params["contact_id"], params["cant"])],
            "free": [create_event_op(params["dinner"], params["date"], "19:00")],
        }

    def act(self, leaf, params, ui):
        if leaf == "free":
            yield from add_event_steps(ui, params["dinner"], params["date"], "19:00")
            return
        yield from send_chat_message(ui, params["contact_id"], params["cant"])


@family("multi.todo_cart_fallback", apps=("todo", "shop"), max_steps=24, structure="hierarchical", levels=2)
class TodoCartFallback(BranchingFamily):
    """Nested decision: if a todo is still open, then add a product to an empty cart, or tick the
    todo off when the cart is not empty; if the todo is done already, delete it."""

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item")
        cfg = config["shop"]
        products = cat.catalogue(cfg)
        pid = pick(rng, unique_products(cfg), "product with a unique name")
        options = {kind: rng.choice(codes) for kind, codes in products[pid]["options"].items()}
        opts = cat.options_text(cfg, products[pid], options)
        done = rng.random() < 0.4
        full = rng.random() < 0.5
        lines = [ln for ln in cart_lines(state, config, rng, 1, 1) if ln["product_id"] != pid] if full else []
        branch = self.decision({"id": item["id"]}).leaf([done, bool(lines)])
        return {"id": item["id"], "title": item["title"], "done": done, "lines": lines, "product_id": pid,
                "product": products[pid]["name"] + (f" ({opts})" if options else ""), "name": products[pid]["name"],
                "options": options, "branch": branch}  # fmt: skip

    def milestone_apps(self, params):
        return ("todo", "shop") if params["branch"] != "done" else ("todo",)

    def prepare(self, state, params):
        next(i for i in state["todo"]["items"] if i["id"] == params["id"])["done"] = params["done"]
        fill_cart(state, params["lines"])

    def branch_plans(self, params, initial):
        return {
            "done": [Op.of("todo", "delete_item", id=params["id"])],
            "open/full": [Op.of("todo", "toggle_item", id=params["id"])],
            "open/empty": [add_to_cart_op(params["product_id"], params["options"]).keyed("product_id")],
        }

    def decision(self, params):
        """The todo row (ticked off?), then the cart (not empty?)."""
        return Decision((todo_done(params["id"]), CART_EMPTY.negated()), ("done", "open/full", "open/empty"))

    def act(self, leaf, params, ui):
        if leaf == "done":
            yield ui.click(f"todo-delete-{params['id']}")
            return
        if leaf == "open/full":
            yield from ui.open_app("todo")
            yield ui.click(f"todo-toggle-{params['id']}")
            return
        yield ui.fill("shop-search", params["name"])
        yield ui.click("shop-search-submit")
        yield ui.click(f"shop-product-{params['product_id']}")
        yield from add_this_product(ui, params["options"], 1)


@family("multi.tick_then_tell", apps=("todo", "messenger"), max_steps=14)
class TickThenTell(OrderedFamily):
    """Mark a todo done and only then send a contact a message (the order is checked)."""

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state, done=False), "open todo item")
        c = pick(rng, with_chat(state), "contact with a conversation")
        text = fresh_text(rng, state["messenger"], words(config, "messenger.new_messages"))
        return {"id": item["id"], "title": item["title"], "contact_id": c["id"], "contact": c["name"], "text": text}

    def plan(self, params, initial):
        return [Op.of("todo", "toggle_item", id=params["id"]), send_op(params["contact_id"], params["text"])]

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.click(f"todo-toggle-{params['id']}")
        yield from send_chat_message(ui, params["contact_id"], params["text"])
