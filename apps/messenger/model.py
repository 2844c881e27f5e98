"""Messenger state: building it from the config, changing it, and comparing it.

The route handlers and the task families share these functions, so a family's expected state
is produced by exactly the code that the app runs when a user sends or forwards a message.

State shape::

    {
      "contacts": [{"id": "c1", "name": "Alice Martin", "about": "Sister"}, ...],
      "conversations": {"c1": [{"id": "m1", "sender": "c1" | "me", "text": "...",
                                "time": "2024-05-14T17:48", "forwarded_from": "c2"?}, ...]},
      "next_id": 61,            # number of the next message id ("m61")
      "clock": "2024-05-14T18:30",  # logical time of the last message; never the wall clock
    }
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta

from openapps_sim.appkit import ItemKey
from openapps_sim.config.normalise import norm_text
from openapps_sim.config.schema import Field

ME = "me"
TIME_FORMAT = "%Y-%m-%dT%H:%M"

# the natural key of the items of each list in the normalised state (for reward explanations)
ITEM_KEYS = {"contacts": ItemKey("name", "contact"), "conversations.*": ItemKey((), "message")}


class Timestamp(Field):
    """A local date and time written ``YYYY-MM-DDTHH:MM`` (e.g. ``2024-05-14T18:30``)."""

    type_name = "a date and time written YYYY-MM-DDTHH:MM"
    _re = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$")

    def check(self, value, source, path):
        if isinstance(value, datetime):
            value = value.strftime(TIME_FORMAT)
        if not isinstance(value, str) or not self._re.match(value):
            raise self.fail(value, source, path)
        try:
            datetime.strptime(value, TIME_FORMAT)
        except ValueError:
            raise self.fail(value, source, path) from None
        return value


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def next_time(clock: str) -> str:
    """The logical time one minute after ``clock``."""
    return (parse_time(clock) + timedelta(minutes=1)).strftime(TIME_FORMAT)


def fold(text: str) -> str:
    """Text for searching: normalised, case-folded and without accents ("Chloé" finds "chloe")."""
    decomposed = unicodedata.normalize("NFKD", norm_text(text))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def initial_state(config: dict, rng) -> dict:
    """Built from the config only: no randomness, and contacts never reply."""
    return build_state(config)


def build_state(config: dict) -> dict:
    """The initial state from the app's config (contacts, conversations, extra messages).

    Duplicate contact ids keep their first entry; messages of unknown contacts are skipped;
    each conversation is ordered by time (stable for equal times); message ids are m1, m2 ...
    in that order.
    """
    contacts: list[dict] = []
    known: set[str] = set()
    for c in config["contacts"]:
        if c["id"] in known:
            continue
        known.add(c["id"])
        contacts.append({"id": c["id"], "name": c["name"], "about": c.get("about", "")})

    raw: dict[str, list[dict]] = {}
    for conv in config["conversations"]:
        cid = conv["contact"]
        if cid not in known:
            continue
        raw.setdefault(cid, []).extend(conv["messages"])
    for extra in config.get("extra_messages", []):
        if extra["contact"] in known:
            raw.setdefault(extra["contact"], []).append(extra)

    conversations: dict[str, list[dict]] = {}
    n = 1
    latest = config["now"]
    for cid, msgs in raw.items():
        out = []
        for m in sorted(msgs, key=lambda m: m["time"]):
            sender = ME if m["sender"] == ME else cid
            out.append({"id": f"m{n}", "sender": sender, "text": m["text"], "time": m["time"]})
            n += 1
            latest = max(latest, m["time"])
        conversations[cid] = out
    return {"contacts": contacts, "conversations": conversations, "next_id": n, "clock": latest}


def contact(state: dict, cid: str) -> dict | None:
    return next((c for c in state["contacts"] if c["id"] == cid), None)


def find_message(state: dict, mid: str) -> tuple[str, dict] | None:
    """The conversation (contact id) and the message with id ``mid``."""
    for cid, msgs in state["conversations"].items():
        for m in msgs:
            if m["id"] == mid:
                return cid, m
    return None


def receive(state: dict, cid: str, text: str) -> dict:
    """Append a message from contact ``cid`` to an existing conversation (a message arriving)."""
    state["clock"] = next_time(state["clock"])
    msg = {"id": f"m{state['next_id']}", "sender": cid, "text": text, "time": state["clock"]}
    state["next_id"] += 1
    state["conversations"][cid].append(msg)
    return msg


def add_message(state: dict, cid: str, text: str, forwarded_from: str | None = None) -> tuple[dict, bool]:
    """Append a message from me to the conversation with ``cid``.

    Returns the message and whether the conversation was new. The time is the logical clock
    plus one minute (the clock then moves on), so nothing depends on the wall clock.
    """
    state["clock"] = next_time(state["clock"])
    msg = {"id": f"m{state['next_id']}", "sender": ME, "text": text, "time": state["clock"]}
    if forwarded_from:
        msg["forwarded_from"] = forwarded_from
    state["next_id"] += 1
    created = cid not in state["conversations"]
    state["conversations"].setdefault(cid, []).append(msg)
    return msg, created


def forward(state: dict, mid: str, to: str) -> tuple[dict, bool] | None:
    """Forward message ``mid`` to contact ``to``; the copy remembers its original sender."""
    found = find_message(state, mid)
    if found is None or contact(state, to) is None:
        return None
    _, original = found
    origin = original.get("forwarded_from") or original["sender"]
    return add_message(state, to, original["text"], forwarded_from=origin)


def last_time(msgs: list[dict]) -> str:
    return msgs[-1]["time"] if msgs else ""


def conversation_order(state: dict) -> list[str]:
    """Contact ids of the conversations, most recent first (ties: by contact order)."""
    position = {c["id"]: i for i, c in enumerate(state["contacts"])}
    ids = [cid for cid in state["conversations"] if cid in position]
    ids.sort(key=lambda cid: position[cid])
    ids.sort(key=lambda cid: last_time(state["conversations"][cid]), reverse=True)
    return ids


def search_contacts(state: dict, query: str) -> list[dict]:
    """Contacts whose name contains ``query`` (case and accents ignored), in contact order."""
    q = fold(query)
    return [c for c in state["contacts"] if q in fold(c["name"])]


def unique_contacts(state: dict) -> list[dict]:
    """Contacts whose name no other contact shares (after normalisation)."""
    counts: dict[str, int] = {}
    for c in state["contacts"]:
        counts[norm_text(c["name"])] = counts.get(norm_text(c["name"]), 0) + 1
    return [c for c in state["contacts"] if counts[norm_text(c["name"])] == 1]


def normalise(state: dict) -> dict:
    """What rewards compare: contacts, and per conversation the ordered messages without ids
    and times, text folded with ``norm_text``."""
    contacts = [
        {"id": c["id"], "name": norm_text(c["name"]), "about": norm_text(c.get("about", ""))} for c in state["contacts"]
    ]
    conversations = {
        cid: [
            {"sender": m["sender"], "text": norm_text(m["text"]), "forwarded_from": m.get("forwarded_from", "")}
            for m in msgs
        ]
        for cid, msgs in state["conversations"].items()
    }
    return {"contacts": sorted(contacts, key=lambda c: c["id"]), "conversations": conversations}


def showcase(state: dict, config: dict) -> list:
    """Pages worth a look beyond the inbox: the first conversation and its forward form."""
    from openapps_sim.appkit import Showcase

    for cid, msgs in state["conversations"].items():
        if msgs:
            return [Showcase("chat", f"/chat/{cid}"), Showcase("forward form", f"/forward/{msgs[0]['id']}")]
    return []
