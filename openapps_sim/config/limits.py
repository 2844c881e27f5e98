"""The bounds of every number a user gives: seeds, counts (seeds, trials, sampled versions,
workers), step budgets, viewport sizes and a sweep's episodes, with the checks that apply them.

One rule per kind of number, used wherever such a number is read (a sweep spec, ``task_kwargs``,
``reset``, the command line, MCP's ``reset``), so a value accepted in one place is never refused,
or failed on, in another. A seed is what BrowserGym's tasks seed NumPy's legacy generator with
(``RandomState`` takes 0 to 2**32 - 1); the counts are far above any real sweep and far below
what would exhaust memory. :class:`Seed` and :class:`Count` are the same rules as fields of the
schema language, for the records that declare an input (a sweep spec, a world spec).
"""

from __future__ import annotations

import operator
from typing import Any

from openapps_sim.config.fields import MISSING, Field
from openapps_sim.errors import ConfigError, Problems

SEED_LIMIT = 2**32  # seeds are 0 .. SEED_LIMIT - 1
MAX_SEEDS = 100_000  # seeds in one sweep (a count n, or a list)
MAX_TRIALS = 1_000  # runs of one instance in a sweep
MAX_SAMPLE = 10_000  # generated app versions of one {sample: {n}} or `variations sample --n`
MAX_STEPS = 1_000  # an episode's step budget (families use 5 to 60)
MAX_WORKERS = 512
MAX_EPISODES = 100_000  # episodes of one sweep (the largest shipped spec has 11,592)
VIEWPORT_SIDES = (100, 10_000)  # pixels, each of width and height

SEED_ALLOWED = f"0, 1, 2, ... {SEED_LIMIT - 1} (2**32 - 1)"


def whole_number(value: Any) -> int | None:
    """``value`` as an int when it is a whole number (an int, numpy's too; not a bool, float or
    string), else None."""
    if isinstance(value, (bool, str, bytes)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def whole_from_text(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits (an optional sign), else None: how a
    number typed on the command line or in a form is read, before its own check."""
    t = text.strip()
    digits = t[1:] if t[:1] in ("+", "-") else t
    return int(t) if digits.isascii() and digits.isdigit() else None


def check_seed(value: Any, source: str, key: str = "seed") -> int:
    """A seed: a whole number, 0 <= seed < 2**32."""
    number = whole_number(value)
    if number is None:
        raise ConfigError(source, key, f"expected a whole number, got {value!r}", SEED_ALLOWED)
    if number < 0:
        raise ConfigError(source, key, f"expected a whole number >= 0, got {value!r}", SEED_ALLOWED)
    if number >= SEED_LIMIT:
        raise ConfigError(source, key, f"expected a whole number < 2**32, got {value!r}", SEED_ALLOWED)
    return number


def check_count(value: Any, source: str, key: str, high: int, low: int = 1) -> int:
    """A whole number from ``low`` to ``high``."""
    number = whole_number(value)
    allowed = f"{low}, {low + 1}, ... {high}"
    if number is None:
        raise ConfigError(source, key, f"expected a whole number, got {value!r}", allowed)
    if not low <= number <= high:
        raise ConfigError(source, key, f"expected a whole number from {low} to {high}, got {value!r}", allowed)
    return number


def check_episodes(sizes: dict[str, int], source: str) -> None:
    """A sweep of the axes ``sizes`` (name -> values) is at most :data:`MAX_EPISODES` episodes."""
    total = 1
    for n in sizes.values():
        total *= n
    if total > MAX_EPISODES:
        product = " x ".join(f"{n} {name}" for name, n in sizes.items() if n != 1)
        raise ConfigError(
            source,
            "",
            f"{product} make {total} episodes",
            f"at most {MAX_EPISODES} episodes per sweep; split it into several specs",
        )


class Seed(Field):
    """A seed, in the schema language: :func:`check_seed`'s rule."""

    type_name = SEED_ALLOWED

    def check(self, value, source, path):
        return check_seed(value, source, path)


class Count(Field):
    """A whole number from ``low`` to ``high``, in the schema language: :func:`check_count`'s rule."""

    def __init__(self, high: int, default: Any = MISSING, doc: str = "", low: int = 1):
        super().__init__(default, doc)
        self.high, self.low = high, low

    def describe(self) -> str:
        return f"a whole number from {self.low} to {self.high}"

    def check(self, value, source, path):
        return check_count(value, source, path, self.high, self.low)


class Seeds(Field):
    """A count n (seeds 0..n-1) or a list of seeds (each checked by :func:`check_seed`), each
    seed once, in the order given."""

    type_name = f"a number n (seeds 0..n-1) or a list of seeds, 1 to {MAX_SEEDS}"

    def check(self, value, source, path):
        if not isinstance(value, list):
            return list(range(check_count(value, source, path, MAX_SEEDS)))
        if not 1 <= len(value) <= MAX_SEEDS:
            raise ConfigError(source, path, "the list is empty" if not value else f"{len(value)} seeds", self.type_name)
        problems = Problems()
        seeds = [problems.check(check_seed, x, source, f"{path}[{i}]") for i, x in enumerate(value)]
        problems.raise_any()
        return list(dict.fromkeys(seeds))
