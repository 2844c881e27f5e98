"""Messenger: conversations with contacts — read, send, forward, search contacts, start chats.

Contacts never reply: the state changes only through the user's own actions, so a task's
expected state is exactly the user's messages (see docs/apps/messenger.md).
"""

from __future__ import annotations

from openapps_sim.appkit import AppSpec

APP = AppSpec.from_package(__name__, category="Communication", order=30, icon_svg="M4 5h16v11H9l-5 4z")
