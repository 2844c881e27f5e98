"""Hierarchical families with three levels of decision across apps (the base,
:class:`~openapps_sim.taskkit.branching.FallbackChain`, is in taskkit/branching.py)."""

from __future__ import annotations

from openapps_sim.tasks.calendar.decisions import SLOTS, add_event_steps, day_is_empty, days_ahead, new_event
from openapps_sim.tasks.calendar.edits import day_text, free_titles
from openapps_sim.tasks.messenger.decisions import (
    contact_wrote_last,
    send_chat_message,
    set_waiting,
    waiting_params,
    with_chat,
)
from openapps_sim.tasks.messenger.edits import fresh_text
from openapps_sim.tasks.multi.decisions import CART_EMPTY
from openapps_sim.tasks.picks import (
    add_this_product,
    cart_lines,
    fill_cart,
    find_product,
    unique_products,
)
from openapps_sim.tasks.shop.budget import add_op, product_params
from openapps_sim.tasks.todo.decisions import todo_done
from openapps_sim.tasks.todo.edits import SeededTodo, seeded_done, unique_items

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import FallbackChain
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.progress import Op


@family("multi.errand_chain", apps=("todo", "shop", "calendar", "messenger"), max_steps=40)
class ErrandChain(SeededTodo, FallbackChain):
    """If a todo is done, delete it; otherwise, if the cart is empty, add a product; otherwise, if a
    day is free, add an event that day; otherwise message a contact (three levels of decision, four
    apps)."""

    condition_apps = ("todo", "shop", "calendar")
    action_apps = ("todo", "shop", "calendar", "messenger")

    def draw(self, state, config, rng, holds):
        item = pick(rng, unique_items(state), "todo item")
        cfg = config["shop"]
        lines = [] if holds[1] else cart_lines(state, config, rng, 1, 2)
        in_cart = {ln["product_id"] for ln in lines}
        pid = pick(rng, [p for p in unique_products(cfg) if p not in in_cart], "product with a unique name")
        titles = free_titles(state, config)
        title = pick(rng, titles, "new event title")
        (day,), blockers = days_ahead(state, config, rng, [holds[2]], [t for t in titles if t != title])
        contact = pick(rng, with_chat(state), "contact with a conversation")
        text = fresh_text(rng, state["messenger"], words(config, "messenger.new_messages"))
        return {"id": item["id"], "title": item["title"], "lines": lines, "event": title, "date": day,
                "time": rng.choice(SLOTS), "blockers": blockers, "contact_id": contact["id"],
                "contact": contact["name"], "text": text,
                "done_ids": seeded_done(state, rng, {item["id"]: holds[0]}),
                **product_params(cfg, rng, "product", pid)}  # fmt: skip

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), day=day_text(params["date"], language))

    def prepare(self, state, params):
        super().prepare(state, params)
        state["shop"]["cart"] = []
        fill_cart(state, params["lines"])
        for b in params["blockers"]:
            new_event(state, **b)

    def leaf_plans(self, params):
        event = {"title": params["event"], "date": params["date"], "time": params["time"]}
        return [
            [Op.of("todo", "delete_item", id=params["id"])],
            [add_op(params, "product")],
            [Op.of("calendar", "create_event", **event)],
            [Op.of("messenger", "send_message", contact=params["contact_id"], text=params["text"])],
        ]

    def conditions(self, params):
        return [todo_done(params["id"]), CART_EMPTY, day_is_empty(params["date"])]

    def act(self, leaf, params, ui):
        if leaf == 0:
            yield ui.click(f"todo-delete-{params['id']}")
        elif leaf == 1:
            yield from find_product(ui, params["product_id"], search=params["product_name"])
            yield from add_this_product(ui, params["product_options"], 1)
        elif leaf == 2:
            yield from add_event_steps(ui, params["event"], params["date"], params["time"])
        else:
            yield from send_chat_message(ui, params["contact_id"], params["text"])


@family("multi.evening_chain", apps=("calendar", "messenger", "todo"), max_steps=30)
class EveningChain(SeededTodo, FallbackChain):
    """If a day is free, add a dinner with a contact; otherwise, if the contact wrote last, tell
    them I can't make it; otherwise tick a todo off if it is open, or delete it if it is done (three
    levels, three apps)."""

    condition_apps = ("calendar", "messenger", "todo")
    action_apps = ("calendar", "messenger", "todo", "todo")

    def draw(self, state, config, rng, holds):
        taken = {e["title"].casefold() for e in state["calendar"]["events"]}
        dinner_with = lambda c: words(config, "multi.dinner_with").format(name=c["name"].split()[0])  # noqa: E731
        free = [c for c in with_chat(state) if dinner_with(c).casefold() not in taken]
        contact = pick(rng, free, "contact with a conversation and no dinner planned")
        cant, dinner = words(config, "multi.cant_make_dinner"), dinner_with(contact)
        (day,), blockers = days_ahead(state, config, rng, [holds[0]], free_titles(state, config))
        item = pick(rng, unique_items(state), "todo item")
        return {"date": day, "blockers": blockers, "dinner": dinner, "cant": cant, "id": item["id"],
                "title": item["title"], "done_ids": seeded_done(state, rng, {item["id"]: not holds[2]}),
                **waiting_params(state, config, rng, contact, holds[1], [cant])}  # fmt: skip

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), day=day_text(params["date"], language))

    def prepare(self, state, params):
        super().prepare(state, params)
        for b in params["blockers"]:
            new_event(state, **b)
        set_waiting(state["messenger"], params["contact_id"], params["theirs"], params["incoming"], params["earlier"])

    def leaf_plans(self, params):
        return [
            [Op.of("calendar", "create_event", title=params["dinner"], date=params["date"], time="19:00")],
            [Op.of("messenger", "send_message", contact=params["contact_id"], text=params["cant"])],
            [Op.of("todo", "toggle_item", id=params["id"])],
            [Op.of("todo", "delete_item", id=params["id"])],
        ]

    def conditions(self, params):
        return [
            day_is_empty(params["date"]),
            contact_wrote_last(params["contact_id"]),
            todo_done(params["id"]).negated(),
        ]

    def act(self, leaf, params, ui):
        if leaf == 0:
            yield from add_event_steps(ui, params["dinner"], params["date"], "19:00")
        elif leaf == 1:
            yield ui.fill("messenger-compose", params["cant"])
            yield ui.click("messenger-send")
        else:
            yield ui.click(f"todo-{'toggle' if leaf == 2 else 'delete'}-{params['id']}")
