"""Seeded options: the right answer among distractors of the same type, none equal to it."""

from __future__ import annotations

import random

from openapps_sim.config.normalise import norm_text

MIN_OPTIONS = 3


def same(a: str, b: str) -> bool:
    """Whether two option texts say the same (case, spacing and Unicode form aside)."""
    return norm_text(str(a)) == norm_text(str(b))


def choose_options(rng: random.Random, right: str, wrong: list[str], n: int) -> tuple[list[str], int] | None:
    """``(options, index of the right one)``: ``right`` and up to ``n - 1`` distinct distractors
    drawn from ``wrong`` (those that read as ``right`` left out), shuffled; None with fewer than
    :data:`MIN_OPTIONS` options in all."""
    pool: list[str] = []
    for w in wrong:
        w = str(w).strip()
        if w and not same(w, right) and not any(same(w, p) for p in pool):
            pool.append(w)
    if len(pool) + 1 < MIN_OPTIONS:
        return None
    picked = rng.sample(pool, min(n - 1, len(pool)))
    options = [*picked, str(right)]
    rng.shuffle(options)
    return options, options.index(str(right))


def near_numbers(value: int) -> list[str]:
    """Counts near ``value`` (never negative, never ``value``): plausible wrong counts."""
    return [str(value + d) for d in (-3, -2, -1, 1, 2, 3) if value + d >= 0]
