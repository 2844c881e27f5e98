"""Return-value families on the messenger: what a contact said last, and how many messages they
sent."""

from __future__ import annotations

from collections import Counter

from openapps_sim.apps.messenger import model as logic

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang
from openapps_sim.taskkit.language import words


def _contacts_with_messages(state: dict) -> list[dict]:
    m = state["messenger"]
    counts = Counter(norm_text(c["name"]) for c in m["contacts"])
    return [
        c
        for c in m["contacts"]
        if counts[norm_text(c["name"])] == 1
        and any(x["sender"] == c["id"] for x in m["conversations"].get(c["id"], []))
    ]


def _arrivals(config: dict, rng) -> list[str]:
    """A seeded start state: zero to three more messages the contact sent (the last ones)."""
    return rng.sample(words(config, "messenger.incoming") + words(config, "messenger.new_messages"), rng.randint(0, 3))


def _receive(state: dict, params: dict) -> None:
    for text in params["arrivals"]:
        logic.receive(state["messenger"], params["contact_id"], text)


def _chat(ui, cid: str):
    yield from ui.open_app("messenger")
    yield ui.click(f"messenger-conv-{cid}")


class ChatAnswer(AnswerFamily):
    """A question about one contact's messages, answered in their chat (which may first receive
    zero to three more messages, ``arrivals``)."""

    apps = ("messenger",)
    max_steps = 6

    def contact_and_arrivals(self, state, config, rng) -> tuple[dict, list[str]]:
        """The contact's params (with the seeded ``arrivals``) and the texts of every message the
        contact sent, the arrivals last."""
        c = pick(rng, _contacts_with_messages(state), "contact who wrote")
        conv = state["messenger"]["conversations"][c["id"]]
        arrivals = _arrivals(config, rng)
        theirs = [x["text"] for x in conv if x["sender"] == c["id"]] + arrivals
        return {"contact_id": c["id"], "contact": c["name"], "arrivals": arrivals, "lang": pack_lang(config)}, theirs

    def prepare(self, state, params):
        _receive(state, params)

    def answer_pages(self, params):
        return [f"/messenger/chat/{params['contact_id']}"]

    def solve(self, params, ui):
        yield from _chat(ui, params["contact_id"])
        yield ui.answer(params["answer"])


@family
class LastFromContact(ChatAnswer):
    id = "messenger.last_from_contact"
    category = "lookup"
    answer_kind = "text"
    description = "Answer with the text of the last message a named contact sent."

    def sample(self, state, config, rng):
        params, theirs = self.contact_and_arrivals(state, config, rng)
        return {**params, "answer": theirs[-1]}


@family
class CountFromContact(ChatAnswer):
    id = "messenger.count_from_contact"
    category = "count"
    answer_kind = "number"
    description = "Answer how many messages a named contact has sent in our conversation."

    def sample(self, state, config, rng):
        params, theirs = self.contact_and_arrivals(state, config, rng)
        return {**params, "answer": str(len(theirs))}
