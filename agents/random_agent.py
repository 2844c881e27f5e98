"""The random agent: a floor. Clicks, fills, selects and scrolls at random on the page.

Seeded by ``reset(seed=...)``: the same seed and the same observations give the same actions.
It picks among the interactive elements of the accessibility tree (buttons, links, text
fields, drop-downs), ordered by bid, so its choices depend on the page only.
"""

from __future__ import annotations

import random

from openapps_sim.config.schema import Float, Int

from .base import ConfigurableAgent
from .page import TEXT_INPUT_ROLES, interactive_elements

WORDS = (
    "apple river lamp orange meeting blue window paper garden seven monday coffee ticket north "
    "quiet letter bottle cloud yellow table music station winter bread pencil"
).split()


def _q(text: str) -> str:
    return repr(str(text))


class RandomAgent(ConfigurableAgent):
    """Random clicks, fills, selections and scrolls: a floor, reproducible from the seed."""

    name = "random"

    OPTIONS = {
        "p_fill": Float(0.3, "probability of typing into a text field when there is one"),
        "p_select": Float(0.2, "probability of choosing an option in a drop-down when there is one"),
        "p_scroll": Float(0.1, "probability of scrolling"),
        "p_back": Float(0.05, "probability of going back in history"),
        "p_stop": Float(0.0, "probability of declaring the task done at each step"),
        "max_words": Int(3, "at most this many random words per fill"),
    }

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.rng = random.Random(f"random-agent:{seed}")
        self.steps = 0

    def act(self, obs: dict) -> str:
        self.steps += 1
        rng = self.rng
        o = self.options
        elements = sorted(interactive_elements(obs), key=lambda e: _bid_key(e.bid))
        selects = [e for e in elements if e.role in ("combobox", "listbox") and e.option_names()]
        fields = [e for e in elements if e.role in TEXT_INPUT_ROLES and e not in selects]
        clickables = [e for e in elements if e.role not in TEXT_INPUT_ROLES and e.role != "listbox"]
        if rng.random() < o["p_stop"]:
            return "send_msg_to_user('done')"
        if rng.random() < o["p_scroll"] or not elements:
            return f"scroll(0, {rng.choice([-400, -200, 200, 400])})"
        if rng.random() < o["p_back"]:
            return "go_back()"
        if selects and rng.random() < o["p_select"]:
            target = rng.choice(selects)
            return f"select_option({_q(target.bid)}, {_q(rng.choice(target.option_names()))})"
        if fields and rng.random() < o["p_fill"]:
            target = rng.choice(fields)
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, max(1, o["max_words"]))))
            return f"fill({_q(target.bid)}, {_q(words)})"
        target = rng.choice(clickables or fields or selects)
        return f"click({_q(target.bid)})"


def _bid_key(bid: str | None) -> tuple:
    text = bid or ""
    digits = "".join(ch for ch in text if ch.isdigit())
    return (text.rstrip("0123456789"), int(digits) if digits else -1, text)
