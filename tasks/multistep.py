"""Multi-step, cross-app families in three tiers.

Tier 1: two sub-goals in two apps. Tier 2: three sub-goals in three apps. Tier 3: four
sub-goals in four apps. Parts are single-app families (see :mod:`openapps_sim.taskkit.composite`);
``link`` ties their parameters together, e.g. the message to send names the event just
created. Goals are assembled from one clause per part, in English (plain, casual, with
unrelated context), German and French.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import register_instance
from openapps_sim.taskkit.composite import MultiStepFamily

# One imperative clause per part family and language; {names} are the part's parameters.
CLAUSES: dict[str, dict[str, str]] = {
    "todo.add_item": {
        "en": "add '{title}' to my todo list",
        "de": "füge '{title}' zu meiner Todo-Liste hinzu",
        "fr": "ajoute '{title}' à ma liste de tâches",
    },
    "todo.mark_done": {
        "en": "mark '{title}' as done in my todo list",
        "de": "hake '{title}' in meiner Todo-Liste als erledigt ab",
        "fr": "marque '{title}' comme terminée dans ma liste de tâches",
    },
    "todo.remove_item": {
        "en": "delete '{title}' from my todo list",
        "de": "lösche '{title}' aus meiner Todo-Liste",
        "fr": "supprime '{title}' de ma liste de tâches",
    },
    "todo.clear_completed": {
        "en": "clear all completed items from my todo list",
        "de": "entferne alle erledigten Einträge aus meiner Todo-Liste",
        "fr": "efface toutes les tâches terminées de ma liste",
    },
    "calendar.add_event": {
        "en": "add an event '{title}' to my calendar on {date} at {time}",
        "de": "trage den Termin '{title}' am {date} um {time} in meinen Kalender ein",
        "fr": "ajoute l'événement '{title}' à mon calendrier le {date} à {time}",
    },
    "calendar.remove_event": {
        "en": "delete the event '{title}' from my calendar",
        "de": "lösche den Termin '{title}' aus meinem Kalender",
        "fr": "supprime l'événement '{title}' de mon calendrier",
    },
    "messenger.send_message": {
        "en": "send '{text}' to {contact} in the messenger",
        "de": "schicke '{text}' im Messenger an {contact}",
        "fr": "envoie '{text}' à {contact} dans la messagerie",
    },
    "messenger.forward_message": {
        "en": "forward the last message from {source} to {target}",
        "de": "leite die letzte Nachricht von {source} an {target} weiter",
        "fr": "transfère le dernier message de {source} à {target}",
    },
    "maps.save_place": {
        "en": "save '{name}' to my saved locations in Maps",
        "de": "speichere '{name}' in der Karten-App bei meinen gespeicherten Orten",
        "fr": "enregistre '{name}' dans mes lieux enregistrés de Maps",
    },
    "maps.remove_saved_place": {
        "en": "remove '{name}' from my saved locations in Maps",
        "de": "entferne '{name}' aus meinen gespeicherten Orten in der Karten-App",
        "fr": "retire '{name}' de mes lieux enregistrés dans Maps",
    },
    "shop.add_to_cart": {
        "en": 'add {qty} × "{product}" ({options_text}) to my shopping cart',
        "de": "lege {qty} × „{product}“ ({options_text}) in meinen Warenkorb",
        "fr": "ajoute {qty} × « {product} » ({options_text}) à mon panier",
    },
    "shop.remove_from_cart": {
        "en": 'remove "{product}" from my shopping cart',
        "de": "entferne „{product}“ aus meinem Warenkorb",
        "fr": "retire « {product} » de mon panier",
    },
    "shop.empty_cart": {
        "en": "empty my shopping cart",
        "de": "leere meinen Warenkorb",
        "fr": "vide mon panier",
    },
    "shop.checkout": {
        "en": "check out my shopping cart with the address {name}, {street}, {postcode} {city}, {country}",
        "de": "schließe die Bestellung im Shop ab, Lieferadresse: {name}, {street}, {postcode} {city}, {country}",
        "fr": "passe la commande de mon panier avec l'adresse {name}, {street}, {postcode} {city}, {country}",
    },
    "code_editor.create_file": {
        "en": "create a file '{name}' in the folder '{folder}' of the code editor",
        "de": "lege im Code-Editor eine Datei '{name}' im Ordner '{folder}' an",
        "fr": "crée un fichier '{name}' dans le dossier '{folder}' de l'éditeur de code",
    },
    "code_editor.remove_folder": {
        "en": "delete the folder '{path}' with everything in it in the code editor",
        "de": "lösche im Code-Editor den Ordner '{path}' mit seinem ganzen Inhalt",
        "fr": "supprime le dossier '{path}' et tout son contenu dans l'éditeur de code",
    },
    "code_editor.rename_file": {
        "en": "rename the file '{path}' to '{new_name}' in the code editor",
        "de": "benenne im Code-Editor die Datei '{path}' in '{new_name}' um",
        "fr": "renomme le fichier '{path}' en '{new_name}' dans l'éditeur de code",
    },
}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# Ways of joining clauses; each takes the list of clauses of one language.
JOINERS: dict[str, list[Callable[[list[str]], str]]] = {
    "plain": [
        lambda cs: _cap(cs[0]) + "".join(f", then {c}" for c in cs[1:]) + ".",
        lambda cs: "Please " + cs[0] + "." + "".join(f" After that, {c}." for c in cs[1:]),
        lambda cs: "I need a few things done: " + "; ".join(cs) + ".",
    ],
    "casual": [
        lambda cs: "hey, can you " + " and then ".join(cs) + "? thx",
        lambda cs: "quick favour: " + ", then ".join(cs) + " :)",
        lambda cs: "pls " + ", also ".join(cs),
    ],
    "context": [
        lambda cs: "I spilled coffee on my desk this morning, what a mess. Anyway, " + ", then ".join(cs) + ".",
        lambda cs: "My week is chaotic and I keep forgetting things. Could you " + " and then ".join(cs) + "?",
        lambda cs: "It's raining again here. While I dry off, please " + ", and after that ".join(cs) + ".",
    ],
    "de": [
        lambda cs: "Bitte " + cs[0] + "".join(f", danach {c}" for c in cs[1:]) + ".",
        lambda cs: "Erledige bitte Folgendes: " + "; ".join(cs) + ".",
        lambda cs: "Zuerst " + cs[0] + "." + "".join(f" Dann {c}." for c in cs[1:]),
    ],
    "fr": [
        lambda cs: "S'il te plaît, " + cs[0] + "".join(f", puis {c}" for c in cs[1:]) + ".",
        lambda cs: "Voici ce qu'il faut faire : " + " ; ".join(cs) + ".",
        lambda cs: "D'abord, " + cs[0] + "." + "".join(f" Ensuite, {c}." for c in cs[1:]),
    ],
}


def _indexed(clause: str, i: int) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: "{p" + str(i) + "_" + m.group(1) + "}", clause)


def build_phrasings(parts: tuple[str, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for style, joiners in JOINERS.items():
        lang = style if style in ("de", "fr") else "en"
        clauses = [_indexed(CLAUSES[p][lang], i) for i, p in enumerate(parts)]
        out[style] = [join(clauses) for join in joiners]
    return out


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
    p.update(location="", invitees=[], description="", extras_en="", extras_de="", extras_fr="")


def set_todo(p: dict, state: dict, title: str) -> None:
    p["title"] = _fresh(title, _todo_titles(state))


def set_text(p: dict, state: dict, text: str) -> None:
    p["text"] = _fresh(text, _messages(state, p["contact_id"]))


Link = Callable[[list[dict], dict], None]


def make_family(fid: str, tier: int, parts: tuple[str, ...], description: str, link: Link | None = None):
    cls = type(
        "MultiStep_" + fid.split(".", 1)[1],
        (MultiStepFamily,),
        {
            "id": fid,
            "tier": tier,
            "parts": parts,
            "description": description,
            "phrasings": build_phrasings(parts),
            "link": (lambda self, ps, state, config, rng: link(ps, state)) if link else MultiStepFamily.link,
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
    lambda ps, s: (set_event(ps[0], s, ps[0]["title"]), set_todo(ps[1], s, f"Prepare for {ps[0]['title']}")),
)
make_family(
    "multi.cancel_event_and_tell",
    1,
    ("calendar.remove_event", "messenger.send_message"),
    "Delete an event and tell a contact that it is cancelled.",
    lambda ps, s: set_text(ps[1], s, f"Sorry, I cancelled {ps[0]['title']}"),
)
make_family(
    "multi.save_place_and_invite",
    1,
    ("maps.save_place", "messenger.send_message"),
    "Save a place in Maps and invite a contact to meet there.",
    lambda ps, s: set_text(ps[1], s, f"Let's meet at {ps[0]['name']}"),
)
make_family(
    "multi.cart_and_reminder",
    1,
    ("shop.add_to_cart", "todo.add_item"),
    "Put a product in the cart and add a todo reminder about it.",
    lambda ps, s: set_todo(ps[1], s, f"Pick up {ps[0]['product']}"),
)
make_family(
    "multi.new_file_and_review",
    1,
    ("code_editor.create_file", "todo.add_item"),
    "Create a file in the code editor and a todo to review it.",
    lambda ps, s: set_todo(ps[1], s, f"Review {ps[0]['path']}"),
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


def _invite(ps, s):
    set_event(ps[0], s, ps[0]["title"])
    set_text(ps[1], s, f"Join me for {ps[0]['title']} on {ps[0]['date']} at {ps[0]['time']}")
    set_todo(ps[2], s, f"Prepare for {ps[0]['title']}")


make_family(
    "multi.event_invite_prep",
    2,
    ("calendar.add_event", "messenger.send_message", "todo.add_item"),
    "Create an event, invite a contact to it and add a todo to prepare.",
    _invite,
)


def _visit(ps, s):
    set_event(ps[1], s, f"Visit {ps[0]['name']}")
    set_text(ps[2], s, f"I'm visiting {ps[0]['name']} on {ps[1]['date']}")


make_family(
    "multi.place_visit_message",
    2,
    ("maps.save_place", "calendar.add_event", "messenger.send_message"),
    "Save a place, plan a visit in the calendar and tell a contact.",
    _visit,
)


def _ordered(ps, s):
    set_text(ps[1], s, f"My order is on its way to {ps[0]['city']}")
    set_todo(ps[2], s, f"Track the parcel to {ps[0]['city']}")


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
    lambda ps, s: set_text(ps[1], s, f"I renamed {ps[0]['path']} to {ps[0]['new_name']}"),
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
    lambda ps, s: set_todo(ps[1], s, f"Find a replacement for {ps[0]['product']}"),
)
make_family(
    "multi.folder_cleanup_tell",
    2,
    ("code_editor.remove_folder", "messenger.send_message", "todo.clear_completed"),
    "Delete a folder, tell a contact, and clear the completed todo items.",
    lambda ps, s: set_text(ps[1], s, f"I deleted the {ps[0]['path']} folder"),
)

# -- tier 3: four sub-goals in four apps ----------------------------------------------------


def _trip(ps, s):
    set_event(ps[1], s, f"Trip to {ps[0]['name']}")
    set_text(ps[2], s, f"I'm going to {ps[0]['name']} on {ps[1]['date']}, want to come?")
    set_todo(ps[3], s, f"Pack for {ps[0]['name']}")


make_family(
    "multi.trip_planning",
    3,
    ("maps.save_place", "calendar.add_event", "messenger.send_message", "todo.add_item"),
    "Plan a trip: save the place, add the trip to the calendar, invite a contact, add a packing todo.",
    _trip,
)


def _party(ps, s):
    set_event(ps[1], s, f"Party with {ps[2]['contact']}")
    set_text(ps[2], s, f"Party on {ps[1]['date']} at {ps[1]['time']}, I'm bringing {ps[0]['product']}!")
    set_todo(ps[3], s, f"Wrap {ps[0]['product']}")


make_family(
    "multi.party_prep",
    3,
    ("shop.add_to_cart", "calendar.add_event", "messenger.send_message", "todo.add_item"),
    "Prepare a party: a product in the cart, the event, a message and a todo.",
    _party,
)


def _release(ps, s):
    set_event(ps[1], s, f"Release of {ps[0]['name']}")
    set_text(ps[2], s, f"{ps[0]['path']} is ready for review")


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
    lambda ps, s: set_todo(ps[3], s, f"Collect the parcel near {ps[1]['name']}"),
)
