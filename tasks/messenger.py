"""Messenger task families: send a message, forward a message, start a new conversation.

Contacts never reply (see docs/apps/messenger.md), so the expected state is the initial state
plus the user's own message, built with the same function the app uses.
"""

from __future__ import annotations

from openapps_sim.apps.messenger import model as logic

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Subgoal, TaskFamily, family, pick
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import page_testids, testid_classes, testid_texts
from openapps_sim.taskkit.progress import Op


def _messenger(state: dict) -> dict:
    return state["messenger"]


def _existing_texts(m: dict) -> set[str]:
    return {norm_text(x["text"]) for msgs in m["conversations"].values() for x in msgs}


def _fresh_text(rng, m: dict, choices: list[str]) -> str:
    used = _existing_texts(m)
    return pick(rng, [t for t in choices if norm_text(t) not in used], "new message text")


def last_from(m: dict, cid: str) -> dict | None:
    """The last message contact ``cid`` sent in our conversation (state as the app holds it)."""
    theirs = [x for x in m["conversations"].get(cid, []) if x["sender"] == cid]
    return theirs[-1] if theirs else None


def read_chat(obs: dict) -> list[tuple[str, bool, str]]:
    """The open chat as the page shows it: ``(message id, theirs, text)`` in order."""
    classes, texts, out = testid_classes(obs), testid_texts(obs), []
    for testid, cls in classes.items():
        if testid.startswith("messenger-msg-"):
            mid = testid.removeprefix("messenger-msg-")
            out.append((mid, "theirs" in cls, texts.get(f"messenger-text-{mid}", "")))
    return out


def open_chat(ui, cid: str):
    """Open the chat with ``cid`` through the launcher and its conversation row; returns the
    chat page's observation (clicking the row again when an interruption left another page)."""
    yield from ui.open_app("messenger")
    obs = yield ui.click(f"messenger-conv-{cid}")
    for _ in range(3):
        if f"messenger-chat-{cid}" in page_testids(obs or {}):
            break
        obs = yield ui.click(f"messenger-conv-{cid}")
    return obs


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

    def sample(self, state, config, rng):
        m = _messenger(state)
        with_chat = [c for c in logic.unique_contacts(m) if m["conversations"].get(c["id"])]
        c = pick(rng, with_chat, "contact with a conversation")
        return {
            "contact_id": c["id"],
            "contact": c["name"],
            "text": _fresh_text(rng, m, words(config, "messenger.new_messages")),
        }

    def apply(self, state, params):
        logic.add_message(_messenger(state), params["contact_id"], params["text"])

    def solve_api(self, params, api):
        yield api.call("messenger", "send_message", contact=params["contact_id"], text=params["text"])

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("message_sent", _sent(params["contact_id"], params["text"]))]

    def oracle_ops(self, params, initial):
        return [Op.of("messenger", "send", contact=params["contact_id"], text=params["text"])]

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

    def solve_api(self, params, api):
        """Read the source's last message from the messenger's data, then forward it."""
        last = last_from(api.result((yield api.read("messenger"))), params["source_id"])
        yield api.call("messenger", "forward_message", id=last["id"] if last else "", to=params["target_id"])

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("forwarded", _sent(params["target_id"], params["message"], params["source_id"]))]

    def oracle_ops(self, params, initial):
        return [Op.of("messenger", "forward", id=params["message_id"], to=params["target_id"])]

    def solve(self, params, ui):
        """Forward the last message the source's chat shows from them (read off the page)."""
        obs = yield from open_chat(ui, params["source_id"])
        theirs = [mid for mid, from_them, _ in read_chat(obs) if from_them]
        none = f"(no message from {params['source_id']} on the page)"
        yield ui.click(f"messenger-forward-{theirs[-1] if theirs else none}")
        yield ui.click(f"messenger-forward-to-{params['target_id']}")


@family
class StartConversation(TaskFamily):
    id = "messenger.start_conversation"
    apps = ("messenger",)
    max_steps = 10
    description = "Find a contact you have never written to and send them a first message."

    def sample(self, state, config, rng):
        m = _messenger(state)
        fresh = [c for c in logic.unique_contacts(m) if not m["conversations"].get(c["id"])]
        c = pick(rng, fresh, "contact without a conversation")
        return {
            "contact_id": c["id"],
            "contact": c["name"],
            "text": _fresh_text(rng, m, words(config, "messenger.greetings")),
        }

    def apply(self, state, params):
        logic.add_message(_messenger(state), params["contact_id"], params["text"])

    def solve_api(self, params, api):
        yield api.call("messenger", "send_message", contact=params["contact_id"], text=params["text"])

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("message_sent", _sent(params["contact_id"], params["text"]))]

    def oracle_ops(self, params, initial):
        return [
            Op.of("messenger", "start_conversation", contact=params["contact_id"]),
            Op.of("messenger", "send", contact=params["contact_id"], text=params["text"]),
        ]

    def solve(self, params, ui):
        yield from ui.open_app("messenger")
        yield ui.fill("messenger-search", params["contact"])
        yield ui.click("messenger-search-submit")
        yield ui.click(f"messenger-contact-{params['contact_id']}")
        yield ui.fill("messenger-compose", params["text"])
        yield ui.click("messenger-send")
