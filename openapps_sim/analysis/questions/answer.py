"""What an agent is shown of a question and how its answer is read; the choosers.

An agent sees the question, the options lettered A, B, C... and the page (its accessibility
tree, or its screenshot on Chromium, as the agent reads pages). The reply is read strictly:
one letter (``B``, ``B.``, ``(B)``, ``Answer: B``) or one option's exact text; anything else,
a hedge between two letters included, is no answer and scores as wrong.

Choosers answer a question on a shown page: the oracle (the question's kind asked again of the
live world: its state and page), ``random`` (a letter drawn uniformly from a seeded stream), an
LLM agent (its own client, one request) and any other agent (asked through ``act`` with the
question as its goal; its ``send_msg_to_user`` is its answer).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from openapps_sim.analysis.questions.kinds import LETTERS, Page, Question
from openapps_sim.analysis.questions.options import same
from openapps_sim.analysis.questions.pages import PageSource, Shown
from openapps_sim.analysis.questions.registry import all_kinds

SYSTEM = (
    "You are shown one page of an app and a multiple-choice question about it. Answer with the "
    "letter of the one right option and nothing else."
)
_LETTER = re.compile(r"^(?:answer\s*[:\-]?\s*)?\(?([A-E])\)?[.:)]?$", re.IGNORECASE)
_MSG = re.compile(r"""^\s*send_msg_to_user\(\s*(['"])(.*)\1\s*\)\s*$""", re.DOTALL)


def prompt(q: Question) -> str:
    lines = [q.question, ""] + [f"{LETTERS[i]}. {o}" for i, o in enumerate(q.options)]
    return "\n".join(lines) + "\n\nAnswer with one letter."


def parse_choice(reply: str, options: list[str]) -> int | None:
    """The index of the option a reply names, or None (no answer, or more than one)."""
    text = (reply or "").strip().strip("*` ").strip()
    m = _LETTER.match(text)
    if m:
        index = LETTERS.index(m.group(1).upper())
        return index if index < len(options) else None
    matches = [i for i, o in enumerate(options) if same(o, text)]
    return matches[0] if len(matches) == 1 else None


@dataclass
class Reply:
    choice: int | None
    text: str
    tokens: int = 0


class Chooser:
    name = ""
    tree = True  # shown the page's accessibility tree
    screenshot = False  # shown the page's screenshot (Chromium only)

    def choose(self, q: Question, shown: Shown, src: PageSource) -> Reply:
        raise NotImplementedError


def reads(agent) -> tuple[bool, bool]:
    """``(tree, screenshot)``: what the agent reads of a page, by its ``obs_mode``."""
    mode = (getattr(agent, "options", None) or {}).get("obs_mode") or agent.obs_mode
    return mode in ("axtree", "both"), mode in ("screenshot", "both")


class OracleChooser(Chooser):
    """Asks the question's kind again of the live world and picks the option that reads as its truth."""

    name = "oracle"

    def choose(self, q, shown, src):
        world = src.world
        page = Page(q.app, q.pack, q.seed, q.url, shown.tree, world.draw_all(), world.config, src.apps, {}, src.tree)
        truth = all_kinds()[q.kind].truth(page, q.subject)
        picks = [i for i, o in enumerate(q.options) if truth and same(o, truth)]
        choice = picks[0] if len(picks) == 1 else None
        return Reply(choice, LETTERS[choice] if choice is not None else f"(no option reads {truth!r})")


class RandomChooser(Chooser):
    """A letter drawn uniformly, from a stream named by the run's seed and the question."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, q, shown, src):
        choice = random.Random(f"questions-random:{self.seed}:{q.id}").randrange(len(q.options))
        return Reply(choice, LETTERS[choice])


class ChatChooser(Chooser):
    """An LLM agent's model, through the agent's own client: the tree or the screenshot as the
    agent's ``obs_mode`` says, one request per question."""

    def __init__(self, agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.tree, self.screenshot = reads(agent)

    def choose(self, q, shown, src):
        parts: list[tuple[str, str]] = []
        if self.tree:
            parts.append(("text", f"The page ({q.url}), as its accessibility tree:\n{shown.tree.text}\n"))
        if self.screenshot and shown.screenshot:
            parts += [("text", f"The page ({q.url}), as a screenshot:"), ("image", shown.screenshot)]
        parts.append(("text", prompt(q)))
        reply, usage, _attempts, _seconds = self.agent.complete(SYSTEM, parts, [])
        tokens = int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)
        return Reply(parse_choice(reply, q.options), reply, tokens)


class ActChooser(Chooser):
    """Any other agent: reset with the question as its goal, one ``act`` on the page's
    observation; the text of its ``send_msg_to_user`` is read as its answer."""

    def __init__(self, agent, seed: int = 0) -> None:
        self.agent = agent
        self.name = agent.name
        self.seed = seed
        self.tree, self.screenshot = reads(agent)

    def choose(self, q, shown, src):
        goal = prompt(q)
        self.agent.reset(goal, None, self.seed)
        obs = {**shown.obs, "goal": goal, "goal_object": ({"type": "text", "text": goal},), "chat_messages": ()}
        action = self.agent.act(obs)
        m = _MSG.match(action or "")
        text = m.group(2) if m else (action or "")
        return Reply(parse_choice(text, q.options) if m else None, text)
