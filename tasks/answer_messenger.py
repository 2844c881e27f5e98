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
