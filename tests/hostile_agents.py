"""Agents that try to turn their own episode into something other than their own outcome (issue
42, point 1), found by the sweep like any agent file (``tests.hostile_agents:<Class>``)."""

from __future__ import annotations

from openapps_sim.agents.base import ConfigurableAgent
from openapps_sim.agents.lexical import LexicalAgent

from openapps_sim.agent import Agent
from openapps_sim.config.schema import Enum, Str


class BrokenStr(str):
    """A string whose every method the checker might call raises."""

    def __len__(self):
        raise RuntimeError("len of a hostile string")

    def strip(self, *args):
        raise RuntimeError("strip of a hostile string")

    def __contains__(self, item):
        raise RuntimeError("contains of a hostile string")

    def encode(self, *args, **kwargs):
        raise RuntimeError("encode of a hostile string")


# What a hostile agent returns, by kind. Every one of them is the agent's invalid action.
HOSTILE_ACTIONS = {
    "bare_words_5000": " ".join(["word"] * 5000),  # Python's parser: MemoryError
    "bare_words_1500": " ".join(["w"] * 1500),  # short enough for any length cap, still MemoryError
    "words_in_a_call": "click(" + " ".join(["x"] * 1500) + ")",
    "one_megabyte": "x" * 1_000_000,
    "one_megabyte_fill": "fill('12', '" + "y" * 1_000_000 + "')",
    "nested_parentheses": "(" * 5000 + ")" * 5000,
    "nested_call": "click(" * 300 + "'1'" + ")" * 300,
    "attribute_chain": ".".join(["a"] * 3000) + "()",  # RecursionError in the parser
    "unary_chain": "click(" + "-" * 3000 + "1)",
    "nul_bytes": "click('1\x00')",
    "only_nul": "\x00" * 10,
    "lone_surrogate": "fill('12', '\ud800')",
    "huge_integer": "scroll(0, " + "9" * 5000 + ")",
    "chinese_words": " ".join(["字"] * 2000),
    "int": 42,
    "none": None,
    "bytes": b"click('12')",
    "list": ["click('12')"],
    "broken_str": BrokenStr("no-op"),  # judged by its text (malformed), whatever its methods do
}


class HostileAgent(ConfigurableAgent):
    """Returns the hostile action of kind ``kind`` at every step."""

    name = "hostile"
    OPTIONS = {"kind": Enum(tuple(HOSTILE_ACTIONS), "bare_words_5000", "a key of HOSTILE_ACTIONS")}

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        pass

    def act(self, obs: dict):
        return HOSTILE_ACTIONS[self.options["kind"]]


class RaisesAgent(ConfigurableAgent):
    """Raises ``kind`` (a MemoryError, a RecursionError, a SystemExit ...) from ``act``."""

    name = "raises"
    OPTIONS = {"kind": Str("MemoryError", "the exception class to raise")}

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        pass

    def act(self, obs: dict):
        raise {"MemoryError": MemoryError, "RecursionError": RecursionError, "SystemExit": SystemExit}[
            self.options["kind"]
        ]("raised by the agent")


class NoopAgent(Agent):
    """Waits; used with an env whose step is made to raise."""

    name = "noop"

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        pass

    def act(self, obs: dict) -> str:
        return "noop()"


class CheatingLexicalAgent(LexicalAgent):
    """The lexical agent, except that where it would give up (the page is too hard for it) it
    sends an action that made the action check raise, to have the episode recorded as an
    infrastructure error and left out of its success rate."""

    name = "cheating_lexical"

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        super().reset(goal, task_info, seed)
        self.cheating = False

    def act(self, obs: dict) -> str:
        if not self.cheating:
            action = super().act(obs)
            if action != f"send_msg_to_user({self.options['stop_message']!r})":
                return action
            self.cheating = True
        return HOSTILE_ACTIONS["bare_words_5000"]
