"""Branching and ordered families in the messenger: reply only when the contact is waiting
for an answer, reply to the first of three contacts who is (three levels), and send two messages
in a given order."""

from __future__ import annotations

from collections.abc import Iterator

from openapps_sim.apps.messenger import model as logic
from openapps_sim.tasks.messenger.edits import fresh_text, open_chat, read_chat
from openapps_sim.tasks.picks import (
    three,
)

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import (
    BranchingFamily,
    Condition,
    Decision,
    FallbackChain,
    OrderedFamily,
)
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.progress import Op


def send_chat_message(ui, cid: str, text: str) -> Iterator:
    """Open the chat with ``cid`` and send ``text`` in it."""
    yield from open_chat(ui, cid)
    yield ui.fill("messenger-compose", text)
    yield ui.click("messenger-send")


def with_chat(state: dict) -> list[dict]:
    m = state["messenger"]
    return [c for c in logic.unique_contacts(m) if m["conversations"].get(c["id"])]


def contact_waiting(ui, cid: str) -> Iterator:
    """Open the chat: did the contact write its last message?"""
    shown = read_chat((yield from open_chat(ui, cid)))
    return bool(shown and shown[-1][1])


def waiting(messenger: dict, cid: str) -> bool:
    """Whether the messenger's data (``messenger.read()``) has the contact's last message theirs."""
    chat = messenger.get("conversations", {}).get(cid) or []
    return bool(chat) and chat[-1]["sender"] == cid


def contact_wrote_last(cid: str) -> Condition:
    """Did the contact write the last message of our chat? (its data; on the page, the chat)"""
    return Condition("messenger", lambda m: waiting(m, cid), lambda ui: contact_waiting(ui, cid))


def send_op(contact: str, text: str) -> Op:
    return Op.of("messenger", "send_message", contact=contact, text=text)


@family("messenger.reply_if_waiting", apps="messenger", max_steps=8)
class ReplyIfWaiting(BranchingFamily):
    """If a contact wrote the last message of our conversation, send them one text; otherwise send
    another."""

    def sample(self, state, config, rng):
        m = state["messenger"]
        new_messages = words(config, "messenger.new_messages")
        c = pick(rng, with_chat(state), "contact with a conversation")
        reply = fresh_text(rng, m, new_messages)
        nudge = fresh_text(rng, m, [t for t in new_messages if t != reply])
        theirs = rng.random() < 0.5
        return {"contact_id": c["id"], "contact": c["name"], "reply": reply, "nudge": nudge,
                "incoming": rng.choice(words(config, "messenger.incoming")),
                "branch": self.decision({"contact_id": c["id"]}).leaf([theirs]),
                "earlier": words(config, "messenger.earlier")}  # fmt: skip

    def decision(self, params):
        return Decision.when(contact_wrote_last(params["contact_id"]), "theirs", "mine")

    def prepare(self, state, params):
        m = state["messenger"]
        cid = params["contact_id"]
        if params["branch"] == "mine":
            logic.add_message(m, cid, f"{params['nudge']} {params.get('earlier', '(earlier)')}")
        else:
            logic.receive(m, cid, params["incoming"])

    def branch_plans(self, params, initial):
        cid = params["contact_id"]
        return {"theirs": [send_op(cid, params["reply"])], "mine": [send_op(cid, params["nudge"])]}

    def act(self, leaf, params, ui):  # the chat is open: the decision was read there
        yield ui.fill("messenger-compose", params["reply"] if leaf == "theirs" else params["nudge"])
        yield ui.click("messenger-send")


@family("messenger.tell_in_order", apps="messenger", max_steps=10)
class TellInOrder(OrderedFamily):
    """Send one text to one contact and then another text to a second contact, in that order."""

    def sample(self, state, config, rng):
        m = state["messenger"]
        new_messages = words(config, "messenger.new_messages")
        pool = with_chat(state)
        if len(pool) < 2:
            pick(rng, [], "two contacts with a conversation")
        a, b = rng.sample(pool, 2)
        text_a = fresh_text(rng, m, new_messages)
        text_b = fresh_text(rng, m, [t for t in new_messages if t != text_a])
        return {"a_id": a["id"], "a": a["name"], "b_id": b["id"], "b": b["name"], "text_a": text_a, "text_b": text_b}

    def plan(self, params, initial):
        return [send_op(params["a_id"], params["text_a"]), send_op(params["b_id"], params["text_b"])]

    def solve(self, params, ui):
        yield from send_chat_message(ui, params["a_id"], params["text_a"])
        yield from send_chat_message(ui, params["b_id"], params["text_b"])


def set_waiting(m: dict, cid: str, theirs: bool, incoming: str, earlier: str) -> None:
    """Make the contact's chat end with their message (``theirs``) or with one of mine."""
    if theirs:
        logic.receive(m, cid, incoming)
    else:
        logic.add_message(m, cid, earlier)


def waiting_params(state: dict, config: dict, rng, contact: dict, theirs: bool, avoid: list[str]) -> dict:
    texts = [t for t in words(config, "messenger.new_messages") if t not in avoid]
    mine = fresh_text(rng, state["messenger"], texts)
    return {"contact_id": contact["id"], "contact": contact["name"], "theirs": theirs,
            "incoming": rng.choice(words(config, "messenger.incoming")),
            "earlier": f"{mine} {words(config, 'messenger.earlier')}"}  # fmt: skip


@family("messenger.first_waiting_chain", apps="messenger", max_steps=16)
class FirstWaitingContact(FallbackChain):
    """Three contacts in order: reply to the first of them who wrote the last message of our chat;
    if none did, send the first one a nudge (three levels of decision)."""

    def draw(self, state, config, rng, holds):
        people = three(rng, with_chat(state), "contacts with a conversation")
        texts = words(config, "messenger.new_messages")
        reply = fresh_text(rng, state["messenger"], texts)
        nudge = fresh_text(rng, state["messenger"], [t for t in texts if t != reply])
        params = {"reply": reply, "nudge": nudge}
        for key, c, theirs in zip("abc", people, holds, strict=True):
            wait = waiting_params(state, config, rng, c, theirs, [reply, nudge])
            params.update({f"{key}_{k}": v for k, v in wait.items()}, **{key: c["name"]})
        return params

    def prepare(self, state, params):
        for k in "abc":
            p = {f: params[f"{k}_{f}"] for f in ("contact_id", "theirs", "incoming", "earlier")}
            set_waiting(state["messenger"], p["contact_id"], p["theirs"], p["incoming"], p["earlier"])

    def leaf_plans(self, params):
        to = [params[f"{k}_contact_id"] for k in "abc"]
        texts = [params["reply"]] * 3 + [params["nudge"]]
        return [
            [Op.of("messenger", "send_message", contact=c, text=t)] for c, t in zip([*to, to[0]], texts, strict=True)
        ]

    def conditions(self, params):
        return [contact_wrote_last(params[k + "_contact_id"]) for k in "abc"]

    def act(self, leaf, params, ui):
        args = dict(self.leaf_plans(params)[leaf][0].args)
        yield from send_chat_message(ui, args["contact"], args["text"])
