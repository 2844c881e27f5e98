"""Multi-step, cross-app families in three tiers.

Tier 1: two sub-goals in two apps. Tier 2: three sub-goals in three apps. Tier 3: four
sub-goals in four apps. Parts are single-app families (see :mod:`openapps_sim.taskkit.composite`);
``link`` ties their parameters together, e.g. the message to send names the event just
created. Goals are assembled from one clause per part, joined as each language's phrasing file
says (``tasks/phrasings/<lang>.yaml``: ``clauses`` and ``joiners``); the texts a link brings
in ("Prepare for ...") are in the world's language (``tasks/content/<lang>.yaml``: ``multi``).
"""

from __future__ import annotations

from collections.abc import Callable

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import register_instance
from openapps_sim.taskkit.composite import MultiStepFamily
from openapps_sim.taskkit.language import words


def _fresh(candidate: str, taken: set[str]) -> str:
    """``candidate``, or a numbered variant when the same text (normalised) already exists."""
    text, n = candidate, 2
    while norm_text(text) in taken:
        text, n = f"{candidate} ({n})", n + 1
    return text


def _todo_titles(state: dict) -> set[str]:
    return {norm_text(i["title"]) for i in state["todo"]["items"]}


def _event_titles(state: dict) -> set[str]:
    return {norm_text(e["title"]) for e in state["calendar"]["events"]}


def _messages(state: dict, contact_id: str) -> set[str]:
    return {norm_text(m["text"]) for m in state["messenger"]["conversations"].get(contact_id, [])}


def set_event(p: dict, state: dict, title: str) -> None:
    """Give a calendar.add_event part a linked title and no optional fields."""
    p["title"] = _fresh(title, _event_titles(state))
    p.update(location="", invitees=[], description="")


def set_todo(p: dict, state: dict, title: str) -> None:
    p["title"] = _fresh(title, _todo_titles(state))


def set_text(p: dict, state: dict, text: str) -> None:
    p["text"] = _fresh(text, _messages(state, p["contact_id"]))


Text = Callable[..., str]  # t("prepare_for", title=...): a link text in the world's language
Link = Callable[[list[dict], dict, Text], None]


def _texts(config: dict) -> Text:
    table = words(config, "multi")
    return lambda key, **values: str(table[key]).format(**values)


def make_family(fid: str, tier: int, parts: tuple[str, ...], description: str, link: Link | None = None):
    cls = type(
        "MultiStep_" + fid.split(".", 1)[1],
        (MultiStepFamily,),
        {
            "id": fid,
            "tier": tier,
            "parts": parts,
            "description": description,
            "link": (lambda self, ps, state, config, rng: link(ps, state, _texts(config)))
            if link
            else MultiStepFamily.link,
        },
    )
    return register_instance(cls())


# -- tier 1: two sub-goals in two apps ------------------------------------------------------

make_family(
    "multi.todo_and_message", 1, ("todo.add_item", "messenger.send_message"), "Add a todo item and send a message."
)
make_family(
    "multi.event_and_prep_todo",
    1,
    ("calendar.add_event", "todo.add_item"),
    "Create an event and a todo item to prepare for it.",
    lambda ps, s, t: (set_event(ps[0], s, ps[0]["title"]), set_todo(ps[1], s, t("prepare_for", title=ps[0]["title"]))),
)
make_family(
    "multi.cancel_event_and_tell",
    1,
    ("calendar.remove_event", "messenger.send_message"),
    "Delete an event and tell a contact that it is cancelled.",
    lambda ps, s, t: set_text(ps[1], s, t("cancelled", title=ps[0]["title"])),
)
make_family(
    "multi.save_place_and_invite",
    1,
    ("maps.save_place", "messenger.send_message"),
    "Save a place in Maps and invite a contact to meet there.",
    lambda ps, s, t: set_text(ps[1], s, t("meet_at", place=ps[0]["name"])),
)
make_family(
    "multi.cart_and_reminder",
    1,
    ("shop.add_to_cart", "todo.add_item"),
    "Put a product in the cart and add a todo reminder about it.",
    lambda ps, s, t: set_todo(ps[1], s, t("pick_up", product=ps[0]["product"])),
)
make_family(
    "multi.new_file_and_review",
    1,
    ("code_editor.create_file", "todo.add_item"),
    "Create a file in the code editor and a todo to review it.",
    lambda ps, s, t: set_todo(ps[1], s, t("review", path=ps[0]["path"])),
)
make_family(
    "multi.forward_and_tick",
    1,
    ("messenger.forward_message", "todo.mark_done"),
    "Forward a message and tick off a todo item.",
)
make_family(
    "multi.empty_cart_and_unsave",
    1,
    ("shop.empty_cart", "maps.remove_saved_place"),
    "Empty the shopping cart and remove a saved place.",
)

# -- tier 2: three sub-goals in three apps --------------------------------------------------


def _invite(ps, s, t):
    set_event(ps[0], s, ps[0]["title"])
    set_text(ps[1], s, t("join_me", title=ps[0]["title"], date=ps[0]["date"], time=ps[0]["time"]))
    set_todo(ps[2], s, t("prepare_for", title=ps[0]["title"]))


make_family(
    "multi.event_invite_prep",
    2,
    ("calendar.add_event", "messenger.send_message", "todo.add_item"),
    "Create an event, invite a contact to it and add a todo to prepare.",
    _invite,
)


def _visit(ps, s, t):
    set_event(ps[1], s, t("visit", place=ps[0]["name"]))
    set_text(ps[2], s, t("visiting", place=ps[0]["name"], date=ps[1]["date"]))


make_family(
    "multi.place_visit_message",
    2,
    ("maps.save_place", "calendar.add_event", "messenger.send_message"),
    "Save a place, plan a visit in the calendar and tell a contact.",
    _visit,
)


def _ordered(ps, s, t):
    set_text(ps[1], s, t("order_on_way", city=ps[0]["city"]))
    set_todo(ps[2], s, t("track_parcel", city=ps[0]["city"]))


make_family(
    "multi.checkout_tell_todo",
    2,
    ("shop.checkout", "messenger.send_message", "todo.add_item"),
    "Check out the cart, tell a contact and add a todo to track the parcel.",
    _ordered,
)
make_family(
    "multi.rename_announce_tick",
    2,
    ("code_editor.rename_file", "messenger.send_message", "todo.mark_done"),
    "Rename a file, announce it to a contact and tick off a todo item.",
    lambda ps, s, t: set_text(ps[1], s, t("renamed", path=ps[0]["path"], new_name=ps[0]["new_name"])),
)
make_family(
    "multi.cleanup_three",
    2,
    ("todo.remove_item", "calendar.remove_event", "maps.remove_saved_place"),
    "Remove a todo item, an event and a saved place.",
)
make_family(
    "multi.cart_swap",
    2,
    ("shop.remove_from_cart", "todo.add_item", "messenger.forward_message"),
    "Remove a product from the cart, note a replacement to find, and forward a message.",
    lambda ps, s, t: set_todo(ps[1], s, t("find_replacement", product=ps[0]["product"])),
)
make_family(
    "multi.folder_cleanup_tell",
    2,
    ("code_editor.remove_folder", "messenger.send_message", "todo.clear_completed"),
    "Delete a folder, tell a contact, and clear the completed todo items.",
    lambda ps, s, t: set_text(ps[1], s, t("deleted_folder", path=ps[0]["path"])),
)

# -- tier 3: four sub-goals in four apps ----------------------------------------------------


def _trip(ps, s, t):
    set_event(ps[1], s, t("trip_to", place=ps[0]["name"]))
    set_text(ps[2], s, t("going_to", place=ps[0]["name"], date=ps[1]["date"]))
    set_todo(ps[3], s, t("pack_for", place=ps[0]["name"]))


make_family(
    "multi.trip_planning",
    3,
    ("maps.save_place", "calendar.add_event", "messenger.send_message", "todo.add_item"),
    "Plan a trip: save the place, add the trip to the calendar, invite a contact, add a packing todo.",
    _trip,
)


def _party(ps, s, t):
    set_event(ps[1], s, t("party_with", contact=ps[2]["contact"]))
    set_text(ps[2], s, t("party_on", date=ps[1]["date"], time=ps[1]["time"], product=ps[0]["product"]))
    set_todo(ps[3], s, t("wrap", product=ps[0]["product"]))


make_family(
    "multi.party_prep",
    3,
    ("shop.add_to_cart", "calendar.add_event", "messenger.send_message", "todo.add_item"),
    "Prepare a party: a product in the cart, the event, a message and a todo.",
    _party,
)


def _release(ps, s, t):
    set_event(ps[1], s, t("release_of", name=ps[0]["name"]))
    set_text(ps[2], s, t("ready_for_review", path=ps[0]["path"]))


make_family(
    "multi.release_day",
    3,
    ("code_editor.create_file", "calendar.add_event", "messenger.send_message", "todo.mark_done"),
    "Create a file, schedule its release, tell a contact and tick off a todo.",
    _release,
)
make_family(
    "multi.weekly_cleanup",
    3,
    ("todo.clear_completed", "calendar.remove_event", "shop.empty_cart", "code_editor.remove_folder"),
    "Clean up four apps: completed todos, an event, the cart and a folder.",
)
make_family(
    "multi.errands",
    3,
    ("shop.checkout", "maps.save_place", "messenger.forward_message", "todo.add_item"),
    "Run errands: check out, save a place, forward a message and add a todo.",
    lambda ps, s, t: set_todo(ps[3], s, t("collect_parcel", place=ps[1]["name"])),
)

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
