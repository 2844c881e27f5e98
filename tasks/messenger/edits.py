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


def fresh_text(rng, m: dict, choices: list[str]) -> str:
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


@family("messenger.send_message", apps="messenger", max_steps=8)
class SendMessage(TaskFamily):
    """Send a given text to a given contact in the messenger."""

    first = False  # to a contact never written to (a first message) instead of an open conversation

    def sample(self, state, config, rng):
        m = _messenger(state)
        contacts = [c for c in logic.unique_contacts(m) if bool(m["conversations"].get(c["id"])) != self.first]
        c = pick(rng, contacts, "contact without a conversation" if self.first else "contact with a conversation")
        texts = words(config, "messenger.greetings" if self.first else "messenger.new_messages")
        return {"contact_id": c["id"], "contact": c["name"], "text": fresh_text(rng, m, texts)}

    def plan(self, params, initial):
        return [Op.of("messenger", "send_message", contact=params["contact_id"], text=params["text"])]

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("message_sent", _sent(params["contact_id"], params["text"]))]

    def solve(self, params, ui):
        yield from ui.open_app("messenger")
        yield ui.click(f"messenger-conv-{params['contact_id']}")
        yield ui.fill("messenger-compose", params["text"])
        yield ui.click("messenger-send")


@family("messenger.forward_message", apps="messenger", max_steps=10)
class ForwardMessage(TaskFamily):
    """Forward the last message received from one contact to another contact."""

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

    def plan(self, params, initial):
        return [Op.of("messenger", "forward_message", id=params["message_id"], to=params["target_id"])]

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("forwarded", _sent(params["target_id"], params["message"], params["source_id"]))]

    def solve(self, params, ui):
        """Forward the last message the source's chat shows from them (read off the page)."""
        obs = yield from open_chat(ui, params["source_id"])
        theirs = [mid for mid, from_them, _ in read_chat(obs) if from_them]
        none = f"(no message from {params['source_id']} on the page)"
        yield ui.click(f"messenger-forward-{theirs[-1] if theirs else none}")
        yield ui.click(f"messenger-forward-to-{params['target_id']}")


@family("messenger.start_conversation", max_steps=10)
class StartConversation(SendMessage):
    """Find a contact you have never written to and send them a first message."""

    first = True

    def solve(self, params, ui):
        yield from ui.open_app("messenger")
        yield ui.fill("messenger-search", params["contact"])
        yield ui.click("messenger-search-submit")
        yield ui.click(f"messenger-contact-{params['contact_id']}")
        yield ui.fill("messenger-compose", params["text"])
        yield ui.click("messenger-send")
