"""The chat of an episode without a browser window: BrowserGym's chat messages, kept in memory."""

from __future__ import annotations

import time

CHAT_ROLES = ("user", "user_image", "assistant", "info", "infeasible")
GREETING = "Hi! I am your UI assistant, I can perform web tasks for you. What can I help you with?"


class LightChat:
    """BrowserGym's chat, without the browser window that shows it. As in BrowserGym, ``info``
    messages are shown to a human only and never enter ``chat_messages``."""

    def __init__(self) -> None:
        self.messages: list[dict] = []

    def add_message(self, role: str, msg: str) -> None:
        if role not in CHAT_ROLES:
            raise ValueError(f"invalid chat role {role!r}; allowed: {', '.join(CHAT_ROLES)}")
        if role != "info":
            self.messages.append({"role": role, "timestamp": time.time(), "message": msg})

    def wait_for_user_message(self) -> None:
        raise RuntimeError("OpenAppsEnv has no interactive chat; use wait_for_user_message=False")

    def close(self) -> None:
        pass
