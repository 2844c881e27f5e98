"""Messenger's configuration section."""

from __future__ import annotations

from openapps_sim.apps.messenger.model import Timestamp

from openapps_sim.config.schema import Bool, ListOf, Record, Str

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

STRINGS = Record(
    heading=Str("Messages"),
    search_placeholder=Str("Search contacts"),
    search_button=Str("Search"),
    clear_search=Str("Clear"),
    conversations=Str("Conversations"),
    new_chat=Str("New message"),
    all_contacts=Str("All contacts"),
    results=Str("Contacts matching “{q}”"),
    no_results=Str("No contact matches “{q}”."),
    no_conversations=Str("No conversations yet. Search a contact to start one."),
    select_conversation=Str("Pick a conversation, or search a contact to start a new one."),
    compose_placeholder=Str("Write a message…"),
    send=Str("Send"),
    forward=Str("Forward"),
    forward_heading=Str("Forward message"),
    forward_to=Str("Send it to"),
    forward_button=Str("Send"),
    forward_label=Str("Forward to {name}"),
    forward_filter=Str("Filter contacts"),
    forward_filter_button=Str("Filter"),
    forwarded_from=Str("Forwarded from {name}"),
    you=Str("You"),
    you_prefix=Str("You: {text}"),
    new_conversation=Str("This is the beginning of your conversation with {name}."),
    no_messages=Str("No messages yet. Say hello!"),
    back=Str("All conversations"),
    cancel=Str("Cancel"),
    open_conversation=Str("Open conversation"),
    start_conversation=Str("Start a conversation"),
    not_found=Str("This conversation or message does not exist."),
    today=Str("Today"),
    yesterday=Str("Yesterday"),
    date_format=Str("{day} {month}", doc="how dates are written; {day}, {month} (a name from months), {year}"),
    months=ListOf(Str(), default=MONTHS, doc="the twelve month names used in dates"),
)

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
