"""Messenger task families: send a message, forward a message, start a new conversation.

Contacts never reply (see docs/apps/messenger.md), so the expected state is the initial state
plus the user's own message, built with the same function the app uses.
"""

from __future__ import annotations

from openapps_sim.apps.messenger import logic

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Subgoal, TaskFamily, family, pick

NEW_MESSAGES = [
    "Running ten minutes late, sorry!",
    "Can we talk tomorrow morning?",
    "Thanks for your help today.",
    "I'll call you after lunch.",
    "Did you get my email about Friday?",
    "Happy to help, just let me know when.",
    "See you at the station at six.",
    "Could you send me the address again?",
    "Lunch on Thursday?",
    "I left the keys with the neighbour.",
    "Great news, congratulations!",
    "Let's move it to next week.",
    "Please call me when you can.",
    "The meeting starts at 9:30.",
    "I'm on my way.",
    "Don't forget to bring the charger.",
]

GREETINGS = [
    "Hi, it's been a while! How are you?",
    "Hello! Are you free for a coffee next week?",
    "Hi, I got your number from Alice. Do you have a minute?",
    "Hello, quick question about Saturday.",
    "Hi! Do you still have my book?",
    "Hey, are you coming to the party on Friday?",
    "Hello, thanks for last time!",
    "Hi, could you call me back when you're free?",
]


def _messenger(state: dict) -> dict:
    return state["messenger"]


def _existing_texts(m: dict) -> set[str]:
    return {norm_text(x["text"]) for msgs in m["conversations"].values() for x in msgs}


def _fresh_text(rng, m: dict, choices: list[str]) -> str:
    used = _existing_texts(m)
    return pick(rng, [t for t in choices if norm_text(t) not in used], "new message text")


def _sent(cid: str, text: str, forwarded_from: str = ""):
    """Subgoal check: the conversation with ``cid`` ends with my message ``text``."""

    def check(state: dict) -> bool:
        msgs = state["messenger"]["conversations"].get(cid) or []
        if not msgs:
            return False
        last = msgs[-1]
        return (
            last["sender"] == logic.ME
            and norm_text(last["text"]) == norm_text(text)
            and last.get("forwarded_from", "") == forwarded_from
        )

    return check


@family
class SendMessage(TaskFamily):
    id = "messenger.send_message"
    apps = ("messenger",)
    max_steps = 8
    description = "Send a given text to a given contact in the messenger."
    phrasings = {
        "plain": [
            "Send '{text}' to {contact} in the messenger.",
            "In the messenger, write to {contact}: '{text}'.",
            "Message {contact} with the text '{text}'.",
        ],
        "casual": [
            "can you text {contact} '{text}'?",
            "pls message {contact}: '{text}'",
            "Shoot {contact} a quick message saying '{text}', thanks!",
        ],
        "context": [
            "I'm stuck in a meeting that is running over. Please send '{text}' to {contact} in the messenger.",
            "My phone battery just died. Could you message {contact} for me: '{text}'?",
            "The train is packed and I can't type. Send {contact} the message '{text}' in the messenger, please.",
        ],
        "de": [
            "Schicke '{text}' im Messenger an {contact}.",
            "Schreib {contact} im Messenger: '{text}'.",
            "Sende {contact} die Nachricht '{text}'.",
        ],
        "fr": [
            "Envoie '{text}' à {contact} dans la messagerie.",
            "Écris à {contact} dans la messagerie : '{text}'.",
            "Envoie le message '{text}' à {contact}.",
        ],
    }

    def sample(self, state, config, rng):
        m = _messenger(state)
        with_chat = [c for c in logic.unique_contacts(m) if m["conversations"].get(c["id"])]
        c = pick(rng, with_chat, "contact with a conversation")
        return {"contact_id": c["id"], "contact": c["name"], "text": _fresh_text(rng, m, NEW_MESSAGES)}

    def apply(self, state, params):
        logic.add_message(_messenger(state), params["contact_id"], params["text"])

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("message_sent", _sent(params["contact_id"], params["text"]))]

    def solve(self, params, ui):
        yield from ui.open_app("messenger")
        yield ui.click(f"messenger-conv-{params['contact_id']}")
        yield ui.fill("messenger-compose", params["text"])
        yield ui.click("messenger-send")


@family
class ForwardMessage(TaskFamily):
    id = "messenger.forward_message"
    apps = ("messenger",)
    max_steps = 10
    description = "Forward the last message received from one contact to another contact."
    phrasings = {
        "plain": [
            "Forward the last message from {source} to {target}.",
            "In the messenger, forward {source}'s most recent message to {target}.",
            "Take the latest message {source} sent me and forward it to {target}.",
        ],
        "casual": [
            "can you forward {source}'s last message to {target}?",
            "fwd the last thing {source} sent me to {target} pls",
            "Pass {source}'s latest message on to {target}, would you?",
        ],
        "context": [
            "I'm organising too many things at once today. Forward the last message from {source} to {target}.",
            "{target} keeps asking me for updates and I'm on the road. Forward {source}'s last message to them.",
            "The kettle just boiled, give me a second. Meanwhile, forward the latest message from {source} to {target}.",
        ],
        "de": [
            "Leite die letzte Nachricht von {source} an {target} weiter.",
            "Leite im Messenger die neueste Nachricht von {source} an {target} weiter.",
            "Schick die letzte Nachricht, die {source} mir geschrieben hat, an {target} weiter.",
        ],
        "fr": [
            "Transfère le dernier message de {source} à {target}.",
            "Dans la messagerie, transfère le message le plus récent de {source} à {target}.",
            "Fais suivre à {target} le dernier message que {source} m'a envoyé.",
        ],
    }

    def sample(self, state, config, rng):
        m = _messenger(state)
        unique = logic.unique_contacts(m)
        sources = [c for c in unique if any(x["sender"] == c["id"] for x in m["conversations"].get(c["id"], []))]
        src = pick(rng, sources, "contact who sent a message")
        tgt = pick(rng, [c for c in unique if c["id"] != src["id"]], "other contact")
        last = [x for x in m["conversations"][src["id"]] if x["sender"] == src["id"]][-1]
        return {
            "source_id": src["id"],
            "source": src["name"],
            "target_id": tgt["id"],
            "target": tgt["name"],
            "message_id": last["id"],
            "message": last["text"],
        }

    def apply(self, state, params):
        logic.forward(_messenger(state), params["message_id"], params["target_id"])

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("forwarded", _sent(params["target_id"], params["message"], params["source_id"]))]

    def solve(self, params, ui):
        yield from ui.open_app("messenger")
        yield ui.click(f"messenger-conv-{params['source_id']}")
        yield ui.click(f"messenger-forward-{params['message_id']}")
        yield ui.click(f"messenger-forward-to-{params['target_id']}")


@family
class StartConversation(TaskFamily):
    id = "messenger.start_conversation"
    apps = ("messenger",)
    max_steps = 10
    description = "Find a contact you have never written to and send them a first message."
    phrasings = {
        "plain": [
            "Start a new conversation with {contact} in the messenger and send '{text}'.",
            "Find {contact} in the messenger contacts and send them '{text}'.",
            "Write a first message to {contact}: '{text}'.",
        ],
        "casual": [
            "I've never texted {contact} before, can you send them '{text}'?",
            "look up {contact} in the messenger and say '{text}'",
            "pls start a chat with {contact}: '{text}'",
        ],
        "context": [
            "I finally got {contact}'s contact at the party last night. Start a conversation with them and send '{text}'.",
            "My inbox is a mess today. Anyway, search for {contact} in the messenger and send them '{text}'.",
            "It's my first week here and I should introduce myself. Send {contact} a new message: '{text}'.",
        ],
        "de": [
            "Beginne im Messenger eine neue Unterhaltung mit {contact} und schicke '{text}'.",
            "Suche {contact} in den Kontakten und schreib: '{text}'.",
            "Schreib {contact} eine erste Nachricht: '{text}'.",
        ],
        "fr": [
            "Commence une nouvelle conversation avec {contact} dans la messagerie et envoie '{text}'.",
            "Cherche {contact} dans les contacts et envoie-lui '{text}'.",
            "Écris un premier message à {contact} : '{text}'.",
        ],
    }

    def sample(self, state, config, rng):
        m = _messenger(state)
        fresh = [c for c in logic.unique_contacts(m) if not m["conversations"].get(c["id"])]
        c = pick(rng, fresh, "contact without a conversation")
        return {"contact_id": c["id"], "contact": c["name"], "text": _fresh_text(rng, m, GREETINGS)}

    def apply(self, state, params):
        logic.add_message(_messenger(state), params["contact_id"], params["text"])

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("message_sent", _sent(params["contact_id"], params["text"]))]

    def solve(self, params, ui):
        yield from ui.open_app("messenger")
        yield ui.fill("messenger-search", params["contact"])
        yield ui.click("messenger-search-submit")
        yield ui.click(f"messenger-contact-{params['contact_id']}")
        yield ui.fill("messenger-compose", params["text"])
        yield ui.click("messenger-send")
