"""Messenger's operations: each state change with its log entry, called by the route handlers
and, as app tools, by agents (``messenger.send_message(contact='c2', text='On my way')``)."""

from __future__ import annotations

from openapps_sim.apps.messenger import model

from openapps_sim.appkit import AppContext, OperationError, operation


def _contact(ctx: AppContext, cid: str, key: str) -> dict:
    found = model.contact(ctx.state, cid)
    if found is None:
        ids = ", ".join(c["id"] for c in ctx.state["contacts"])
        raise OperationError("messenger", key, f"no contact {cid!r}", ids)
    return found


@operation
def send_message(ctx: AppContext, contact: str, text: str) -> dict:
    """Send `text` to the contact with this id (starting a conversation if there is none); returns the message."""
    _contact(ctx, contact, "contact")
    text = text.strip()
    if not text:
        raise OperationError("messenger.send_message", "text", "is empty", "a non-empty message")
    msg, created = model.add_message(ctx.state, contact, text)
    ctx.log(contact=contact, id=msg["id"], text=text, new_conversation=created)
    return msg


@operation
def forward_message(ctx: AppContext, id: str, to: str) -> dict:
    """Forward the message with this id to the contact `to`; returns the copy."""
    if model.find_message(ctx.state, id) is None:
        raise OperationError("messenger.forward_message", "id", f"no message {id!r}", "a message id from read()")
    _contact(ctx, to, "to")
    msg, created = model.forward(ctx.state, id, to)
    forwarded = {"new_id": msg["id"], "text": msg["text"], "forwarded_from": msg["forwarded_from"]}
    ctx.log(id=id, to=to, **forwarded, new_conversation=created)
    return msg
