"""The question kinds: what a kind is, the question it makes, and the registry.

A kind reads one page of one app in one world (its :class:`Page`: the app, the world's state
and configuration, the page's tree) and names what it can ask about there (``subjects``), the
true answer for a subject (``truth``, read from the state or the page) and plausible wrong
answers of the same type (``candidates``). :func:`make_question` draws a subject and
distractors with a seeded random stream; the oracle calls ``truth`` again on the page it is
shown, so a question whose world or page changed is not answered from the file.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from openapps_sim.analysis.questions.options import choose_options, near_numbers
from openapps_sim.analysis.questions.tree import PageTree

CONCEPTS = ("element_content", "state", "location", "identification", "interaction", "counting", "navigation")
"""What a kind asks about (the official OpenApps' seven question types)."""
LETTERS = "ABCDE"


@dataclass
class Page:
    """One page of one app in one world, as a kind reads it."""

    app: str
    pack: str
    seed: int
    url: str  # the path, e.g. ``/todo/``
    tree: PageTree
    state: dict  # the whole world's state, keyed by app
    config: dict  # the whole world's configuration, keyed by app
    apps: dict = field(default_factory=dict)  # name -> AppSpec
    others: dict = field(default_factory=dict)  # facts of the world's other pages (distractor pools)
    open_tree: Callable[[str], PageTree] | None = None  # another page of the world, by URL


@dataclass
class Question:
    id: str
    kind: str
    concept: str
    app: str
    pack: str
    seed: int
    url: str
    family: str
    question: str
    options: list[str]
    answer: int  # index into options
    subject: dict

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Kind:
    """A question kind. Subclasses set ``question`` and implement ``subjects``, ``truth`` and
    ``candidates`` (or set ``answers``); ``text`` too where the question's wording needs more
    than the subject. :func:`kind` registers one under its ``name`` and ``concept``."""

    name = ""
    concept = ""
    question = ""  # the question's wording; ``{key}`` is the subject's ``key`` (``{key!r}`` quoted)
    answers: tuple[str, ...] = ()  # a fixed set of answers, when the kind has one: the candidates
    n_options = 4

    def subjects(self, page: Page) -> list[dict]:
        raise NotImplementedError

    def truth(self, page: Page, subject: dict) -> str:
        raise NotImplementedError

    def candidates(self, page: Page, subject: dict) -> list[str]:
        return list(self.answers)

    def text(self, page: Page, subject: dict) -> str:
        return self.question.format(**subject)

    def also_true(self, page: Page, subject: dict, option: str) -> bool:
        """Whether a candidate would be a right answer too (it is then never an option)."""
        return False


class CountKind(Kind):
    """A kind whose answer is a whole number: its wrong answers are the numbers near it."""

    def candidates(self, page: Page, subject: dict) -> list[str]:
        return near_numbers(int(self.truth(page, subject)))


KINDS: dict[str, Kind] = {}


def kind(name: str, concept: str) -> Callable[[type[Kind]], type[Kind]]:
    """Register a kind under ``name``, asking about ``concept`` (one of :data:`CONCEPTS`)."""
    assert concept in CONCEPTS, f"{name}: concept {concept!r} is not one of {CONCEPTS}"

    def register(cls: type[Kind]) -> type[Kind]:
        cls.name, cls.concept = name, concept
        KINDS[name] = cls()
        return cls

    return register


def make_question(k: Kind, page: Page, family: str, rng: random.Random) -> Question | None:
    """One question of kind ``k`` about ``page``, or None when the page offers nothing to ask
    (no subject, or too few distractors that are certainly wrong)."""
    subjects = k.subjects(page)
    rng.shuffle(subjects)
    for subject in subjects[:3]:
        right = k.truth(page, subject)
        if not right:
            continue
        wrong = [c for c in k.candidates(page, subject) if not k.also_true(page, subject, c)]
        picked = choose_options(rng, right, wrong, k.n_options)
        if picked is None:
            continue
        options, answer = picked
        qid = f"{page.pack}/{page.seed}/{page.app}/{k.name}"
        return Question(
            qid, k.name, k.concept, page.app, page.pack, page.seed, page.url, family,
            k.text(page, subject), options, answer, subject,
        )  # fmt: skip
    return None
