"""Return-value families on the messenger: what a contact said last, and how many messages they
sent."""

from __future__ import annotations

from collections import Counter

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang


def _contacts_with_messages(state: dict) -> list[dict]:
    m = state["messenger"]
    counts = Counter(norm_text(c["name"]) for c in m["contacts"])
    return [
        c
        for c in m["contacts"]
        if counts[norm_text(c["name"])] == 1
        and any(x["sender"] == c["id"] for x in m["conversations"].get(c["id"], []))
    ]


def _chat(ui, cid: str):
    yield from ui.open_app("messenger")
    yield ui.click(f"messenger-conv-{cid}")


@family
class LastFromContact(AnswerFamily):
    id = "messenger.last_from_contact"
    apps = ("messenger",)
    max_steps = 6
    category = "lookup"
    answer_kind = "text"
    description = "Answer with the text of the last message a named contact sent."
    phrasings = {
        "plain": [
            "What did {contact} say last?",
            "Tell me the text of the last message {contact} sent me.",
            "What was {contact}'s most recent message?",
        ],
        "casual": [
            "what was the last thing {contact} wrote?",
            "remind me what {contact} said last?",
            "What's {contact}'s latest message, word for word?",
        ],
        "context": [
            "I'm on the train with bad signal. What did {contact} say last?",
            "I think I missed something earlier. What was the last message from {contact}?",
            "Before I call {contact} back: what was their most recent message?",
        ],
        "de": ["Was hat {contact} zuletzt geschrieben?", "Wie lautet die letzte Nachricht von {contact}?"],
        "fr": ["Qu'a écrit {contact} en dernier ?", "Quel est le dernier message de {contact} ?"],
    }

    def sample(self, state, config, rng):
        c = pick(rng, _contacts_with_messages(state), "contact who wrote")
        conv = state["messenger"]["conversations"][c["id"]]
        last = [x for x in conv if x["sender"] == c["id"]][-1]
        return {"contact_id": c["id"], "contact": c["name"], "answer": last["text"], "lang": pack_lang(config)}

    def answer_pages(self, params):
        return [f"/messenger/chat/{params['contact_id']}"]

    def solve(self, params, ui):
        yield from _chat(ui, params["contact_id"])
        yield ui.answer(params["answer"])


@family
class CountFromContact(AnswerFamily):
    id = "messenger.count_from_contact"
    apps = ("messenger",)
    max_steps = 6
    category = "count"
    answer_kind = "number"
    description = "Answer how many messages a named contact has sent in our conversation."
    phrasings = {
        "plain": [
            "How many messages has {contact} sent me?",
            "Count the messages from {contact} in our conversation.",
            "Tell me how many messages in my chat with {contact} are from them.",
        ],
        "casual": [
            "how many msgs did {contact} send me?",
            "{contact} has been chatty, how many messages from them?",
            "count {contact}'s messages for me?",
        ],
        "context": [
            "I feel like I ignore {contact} a lot. How many messages have they sent me?",
            "For my chat statistics hobby: how many messages from {contact} are in our conversation?",
            "My inbox is a mess. How many messages did {contact} send me?",
        ],
        "de": ["Wie viele Nachrichten hat mir {contact} geschickt?", "Zähle die Nachrichten von {contact}."],
        "fr": ["Combien de messages {contact} m'a-t-il envoyés ?", "Compte les messages de {contact}."],
    }

    def sample(self, state, config, rng):
        c = pick(rng, _contacts_with_messages(state), "contact who wrote")
        conv = state["messenger"]["conversations"][c["id"]]
        n = sum(1 for x in conv if x["sender"] == c["id"])
        return {"contact_id": c["id"], "contact": c["name"], "answer": str(n), "lang": pack_lang(config)}

    def answer_pages(self, params):
        return [f"/messenger/chat/{params['contact_id']}"]

    def solve(self, params, ui):
        yield from _chat(ui, params["contact_id"])
        yield ui.answer(params["answer"])
