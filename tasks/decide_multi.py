"""Cross-app branching and ordered families: a calendar condition decides between a message and
an event; a nested todo / cart decision; a todo tick that must precede a message."""

from __future__ import annotations

from datetime import timedelta

from openapps_sim.apps.messenger import logic
from openapps_sim.apps.shop import catalog as cat
from openapps_sim.tasks.calendar import _date_params, _lang, _new_event, _today
from openapps_sim.tasks.decide_calendar import _add_steps
from openapps_sim.tasks.decide_messenger import _send, _with_chat
from openapps_sim.tasks.messenger import NEW_MESSAGES, _fresh_text
from openapps_sim.tasks.shop import _cart_lines, _fill_cart, _open_shop, _unique_products
from openapps_sim.tasks.todo import unique_items

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily, OrderedFamily
from openapps_sim.taskkit.progress import Op

CANT = {"en": "Sorry, I can't make dinner", "de": "Sorry, ich schaffe das Abendessen nicht",
        "fr": "Désolé, je ne peux pas venir au dîner"}  # fmt: skip
DINNER = {"en": "Dinner with {}", "de": "Abendessen mit {}", "fr": "Dîner avec {}"}


@family
class BusyEvening(BranchingFamily):
    id = "multi.busy_evening"
    apps = ("calendar", "messenger")
    max_steps = 24
    description = (
        "If the calendar has anything on a given day, tell a contact you can't make dinner; otherwise add a dinner "
        "with them at 19:00 that day."
    )
    phrasings = {
        "plain": [
            "If I have anything in my calendar on {day_en}, tell {contact} '{cant}'; otherwise add '{dinner}' on "
            "{day_en} at 19:00.",
            "Check {day_en} in my calendar. Busy: message {contact} '{cant}'. Free: add '{dinner}' at 19:00.",
            "Add '{dinner}' on {day_en} at 19:00 if that day is empty in my calendar; if not, send {contact} '{cant}'.",
        ],
        "casual": [
            "am I busy on {day_en}? if so text {contact} '{cant}', if not put '{dinner}' in at 19:00",
            "{day_en}: anything on? -> tell {contact} '{cant}'. nothing? -> '{dinner}' at 7pm in the calendar",
            "If {day_en} has stuff in my calendar send {contact} '{cant}', else book '{dinner}' at 19:00.",
        ],
        "context": [
            "{contact} invited me over. If I have anything in my calendar on {day_en}, tell them '{cant}'; "
            "otherwise add '{dinner}' on {day_en} at 19:00.",
            "I'm bad at saying no. If {day_en} already has something, message {contact} '{cant}'; else add "
            "'{dinner}' at 19:00 that day.",
            "Dinner plans again! If my calendar has anything on {day_en}, send {contact} '{cant}'; otherwise "
            "schedule '{dinner}' at 19:00.",
        ],
        "de": [
            "Wenn ich am {day_de} etwas im Kalender habe, schreib {contact} '{cant}'; sonst trage '{dinner}' "
            "am {day_de} um 19:00 ein."
        ],  # fmt: skip
        "fr": [
            "Si j'ai quelque chose le {day_fr}, écris à {contact} '{cant}' ; sinon ajoute '{dinner}' le "
            "{day_fr} à 19:00."
        ],  # fmt: skip
    }

    def sample(self, state, config, rng):
        lang = _lang(config)
        c = pick(rng, _with_chat(state), "contact with a conversation")
        today = _today(config)
        busy_days = {e["date"] for e in state["calendar"]["events"]}
        days = [(today + timedelta(days=k)).isoformat() for k in range(1, 90)]
        want_busy = rng.random() < 0.5
        iso = rng.choice([d for d in days if (d in busy_days) == want_busy] or days)
        first = c["name"].split()[0]
        return {"contact_id": c["id"], "contact": c["name"], "date": iso, **_date_params("day", iso),
                "cant": CANT.get(lang, CANT["en"]), "dinner": DINNER.get(lang, DINNER["en"]).format(first),
                "branch": "busy" if iso in busy_days else "free"}  # fmt: skip

    def milestone_apps(self, params):
        return ("calendar", "messenger") if params["branch"] == "busy" else ("calendar",)

    def apply(self, state, params):
        if params["branch"] == "busy":
            logic.add_message(state["messenger"], params["contact_id"], params["cant"])
        else:
            _new_event(state, title=params["dinner"], date=params["date"], time="19:00")

    def branch_ops(self, params):
        return {
            "busy": [Op.of("messenger", "send", contact=params["contact_id"], text=params["cant"])],
            "free": [Op.of("calendar", "add", title=params["dinner"], date=params["date"])],
        }

    def solve(self, params, ui):
        if params["branch"] == "free":
            yield from _add_steps(ui, params["dinner"], params["date"], "19:00")
            return
        yield from ui.open_app("calendar")  # look before deciding, as a user would
        yield from _send(ui, params["contact_id"], params["cant"])


@family
class TodoCartFallback(BranchingFamily):
    id = "multi.todo_cart_fallback"
    apps = ("todo", "shop")
    max_steps = 24
    structure = "hierarchical"
    description = (
        "Nested decision: if a todo is still open, then add a product to an empty cart, or tick the todo off when "
        "the cart is not empty; if the todo is done already, delete it."
    )
    phrasings = {
        "plain": [
            "If '{title}' is still open on my todo list: add one {product} to my cart if the cart is empty, "
            "otherwise mark '{title}' done. If it is already done, delete it.",
            "Todo '{title}' open? Then, with an empty cart, add one {product} to it; with a non-empty cart, tick "
            "'{title}' off. Todo done? Delete it.",
            "Check '{title}' in my todos. Done: delete it. Open: if my cart is empty, add one {product}; else "
            "mark the todo done.",
        ],
        "casual": [
            "'{title}' still open? if my cart's empty throw one {product} in, otherwise tick the todo. if it's "
            "done already just delete it",
            "todo '{title}': done -> delete. open + empty cart -> add one {product}. open + stuff in cart -> "
            "mark it done",
            "Sort out '{title}' for me: open and cart empty means one {product} in the cart, open and cart full "
            "means tick it, done means delete.",
        ],
        "context": [
            "I keep forgetting errands. If '{title}' is still open: add one {product} to my cart if it is "
            "empty, otherwise mark '{title}' done. If it's done already, delete it.",
            "Saturday chores! '{title}' open? Empty cart: add one {product}; otherwise tick it. Already done? "
            "Delete it.",
            "Before my trip: if the todo '{title}' is open, add one {product} to an empty cart or, if the cart "
            "has things, mark the todo done; if it's done, delete it.",
        ],
        "de": [
            "Wenn '{title}' noch offen ist: leg ein {product} in den leeren Warenkorb, sonst hake '{title}' "
            "ab. Ist es schon erledigt, lösche es."
        ],  # fmt: skip
        "fr": [
            "Si '{title}' est encore ouverte : ajoute un {product} au panier s'il est vide, sinon marque "
            "'{title}' comme faite. Si elle est déjà faite, supprime-la."
        ],  # fmt: skip
    }

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state), "todo item")
        cfg = config["shop"]
        products = cat.catalogue(cfg)
        pid = pick(rng, _unique_products(cfg), "product with a unique name")
        options = {kind: rng.choice(codes) for kind, codes in products[pid]["options"].items()}
        opts = cat.options_text(cfg, products[pid], options)
        done = rng.random() < 0.4
        full = rng.random() < 0.5
        lines = [ln for ln in _cart_lines(state, config, rng, 1, 1) if ln["product_id"] != pid] if full else []
        branch = "done" if done else ("open/full" if lines else "open/empty")
        return {"id": item["id"], "title": item["title"], "done": done, "lines": lines, "product_id": pid,
                "product": products[pid]["name"] + (f" ({opts})" if options else ""), "name": products[pid]["name"],
                "options": options, "branch": branch}  # fmt: skip

    def milestone_apps(self, params):
        return ("todo", "shop") if params["branch"] != "done" else ("todo",)

    def prepare(self, state, params):
        next(i for i in state["todo"]["items"] if i["id"] == params["id"])["done"] = params["done"]
        _fill_cart(state, params["lines"])

    def apply(self, state, params):
        items = state["todo"]["items"]
        if params["branch"] == "done":
            state["todo"]["items"] = [i for i in items if i["id"] != params["id"]]
        elif params["branch"] == "open/full":
            next(i for i in items if i["id"] == params["id"])["done"] = True
        else:
            cat.add_line(state["shop"], params["product_id"], params["options"], 1)

    def branch_ops(self, params):
        return {
            "done": [Op.of("todo", "delete", id=params["id"])],
            "open/full": [Op.of("todo", "toggle", id=params["id"])],
            "open/empty": [Op.of("shop", "add_to_cart", product_id=params["product_id"])],
        }

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        if params["branch"] == "done":
            yield ui.click(f"todo-delete-{params['id']}")
            return
        yield from _open_shop(ui)
        yield ui.click("shop-cart")
        if params["branch"] == "open/full":
            yield from ui.open_app("todo")
            yield ui.click(f"todo-toggle-{params['id']}")
            return
        yield ui.fill("shop-search", params["name"])
        yield ui.click("shop-search-submit")
        yield ui.click(f"shop-product-{params['product_id']}")
        for kind, code in params["options"].items():
            yield ui.select(f"shop-option-{kind}", code)
        yield ui.fill("shop-qty", "1")
        yield ui.click("shop-add-to-cart")


@family
class TickThenTell(OrderedFamily):
    id = "multi.tick_then_tell"
    apps = ("todo", "messenger")
    max_steps = 14
    description = "Mark a todo done and only then send a contact a message (the order is checked)."
    phrasings = {
        "plain": [
            "First mark '{title}' done on my todo list, then send {contact} '{text}'.",
            "Tick off '{title}' and after that message {contact} '{text}'.",
            "Mark the todo '{title}' as done; once that's done, tell {contact} '{text}'.",
        ],
        "casual": [
            "tick '{title}' first, then text {contact} '{text}'",
            "mark '{title}' done and THEN send {contact} '{text}' pls",
            "'{title}' -> done, after that '{text}' to {contact}.",
        ],
        "context": [
            "I only want to tell {contact} once it's really done: mark '{title}' done, then send '{text}'.",
            "Honesty first. Tick off '{title}' in my todos and afterwards message {contact} '{text}'.",
            "Wrapping up the day: mark '{title}' done first, then send {contact} '{text}'.",
        ],
        "de": ["Hake zuerst '{title}' ab und schick danach {contact} '{text}'."],
        "fr": ["Marque d'abord '{title}' comme faite, puis envoie '{text}' à {contact}."],
    }

    def sample(self, state, config, rng):
        item = pick(rng, unique_items(state, done=False), "open todo item")
        c = pick(rng, _with_chat(state), "contact with a conversation")
        text = _fresh_text(rng, state["messenger"], NEW_MESSAGES)
        return {"id": item["id"], "title": item["title"], "contact_id": c["id"], "contact": c["name"], "text": text}

    def apply(self, state, params):
        next(i for i in state["todo"]["items"] if i["id"] == params["id"])["done"] = True
        logic.add_message(state["messenger"], params["contact_id"], params["text"])

    def ordered_ops(self, params):
        return [
            Op.of("todo", "toggle", id=params["id"]),
            Op.of("messenger", "send", contact=params["contact_id"], text=params["text"]),
        ]

    def solve(self, params, ui):
        yield from ui.open_app("todo")
        yield ui.click(f"todo-toggle-{params['id']}")
        yield from _send(ui, params["contact_id"], params["text"])
