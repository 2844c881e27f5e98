"""Messenger's configuration section."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.apps.messenger.model import Timestamp

from openapps_sim.config.schema import Bool, ListOf, Record, Str
from openapps_sim.config.texts import texts

STRINGS = texts(Path(__file__).with_name("strings.yaml"), months=ListOf(Str()))
MONTHS = STRINGS.fields["months"].default

CONTACT = Record(
    id=Str(doc="stable id used in URLs and data-testids, e.g. c7"),
    name=Str(),
    about=Str("", doc="a short line under the name (relation, job, status)"),
)
MESSAGE = Record(
    sender=Str(doc="'me' or the contact's id"),
    text=Str(),
    time=Timestamp(),
)

SCHEMA = Record(
    strings=STRINGS,
    now=Timestamp(
        "2024-05-14T18:30", doc="the app's clock: 'today' in dates; new messages come one minute apart after it"
    ),
    contacts=ListOf(CONTACT, default=[], unique="name"),
    conversations=ListOf(
        Record(contact=Str(doc="a contact id"), messages=ListOf(MESSAGE, default=[])),
        default=[],
        doc="the message history per contact (messages are put in time order)",
    ),
    extra_messages=ListOf(
        Record(contact=Str(), sender=Str(), text=Str(), time=Timestamp()),
        default=[],
        doc="messages added to the conversations above (for packs that add a few without repeating the history)",
    ),
    show_previews=Bool(True, doc="show the last message under each conversation in the list", vary=True),
    show_avatars=Bool(True, doc="show the initials avatars", vary=True),
)
