"""Return-value families on the messenger: what a contact said last, and how many messages they
sent."""

from __future__ import annotations

from collections import Counter

from openapps_sim.apps.messenger import model as logic
from openapps_sim.tasks.messenger.edits import open_chat, read_chat

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

    def answer(self, state, params):
        """The value computed from the messenger's data (the API oracle's reading)."""
        m = state["messenger"]
        return self.from_texts([x["text"] for x in m["conversations"].get(params["contact_id"], [])
                                if x["sender"] == params["contact_id"]])  # fmt: skip

    def from_texts(self, theirs: list[str]) -> str:
        """The answer from the texts the contact sent, in order."""
        raise NotImplementedError

    def solve(self, params, ui):
        """Read the contact's messages off their chat page, then answer."""
        obs = yield from open_chat(ui, params["contact_id"])
        yield ui.answer(self.from_texts([text for _, theirs, text in read_chat(obs) if theirs]))


@family("messenger.last_from_contact", category="lookup", answer_kind="text")
class LastFromContact(ChatAnswer):
    """Answer with the text of the last message a named contact sent."""

    def sample(self, state, config, rng):
        params, theirs = self.contact_and_arrivals(state, config, rng)
        return {**params, "answer": theirs[-1]}

    def from_texts(self, theirs):
        return theirs[-1] if theirs else ""


@family("messenger.count_from_contact", category="count", answer_kind="number")
class CountFromContact(ChatAnswer):
    """Answer how many messages a named contact has sent in our conversation."""

    def sample(self, state, config, rng):
        params, theirs = self.contact_and_arrivals(state, config, rng)
        return {**params, "answer": str(len(theirs))}

    def from_texts(self, theirs):
        return str(len(theirs))
