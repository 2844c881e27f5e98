"""Messenger: conversations with contacts — read, send, forward, search contacts, start chats.

Contacts never reply: the state changes only through the user's own actions, so a task's
expected state is exactly the user's messages (see docs/apps/messenger.md).
"""

from __future__ import annotations

from pathlib import Path

from openapps_sim.apps.messenger.model import initial_state, normalise
from openapps_sim.apps.messenger.schema import SCHEMA
from openapps_sim.apps.messenger.style import CSS

from openapps_sim.appkit import AppSpec

APP = AppSpec(
    name="messenger",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes="openapps_sim.apps.messenger.routes",
    normalise=normalise,
    order=30,
    css=CSS,
    icon_svg="M4 5h16v11H9l-5 4z",
)
