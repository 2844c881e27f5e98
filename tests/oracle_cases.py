"""Which (family, pack, seed) cases the oracle tests run."""

from __future__ import annotations

import pytest

from openapps_sim.config.packs import list_packs
from openapps_sim.taskkit import all_families

from .tested_families import tested_families


def representative() -> list[tuple[str, str, int]]:
    """Every family once, with packs rotated so that every pack is used at least once. The
    long-horizon families (20 to 70 steps) have their own case list, which counts their steps
    (tests/test_long_families.py)."""
    families = sorted(f for f in tested_families() if not f.startswith("multi.long_"))
    packs = sorted(list_packs())
    n = max(len(families), len(packs))
    return [(families[i % len(families)], packs[i % len(packs)], i % 3) for i in range(n)]


CHROMIUM_EVERY = 4  # every 4th case also runs under Chromium (docs/backends.md: parity)


def on_backends(cases: list[tuple], every: int = CHROMIUM_EVERY) -> list:
    """Every case on the text backend (no browser: the logic under test is the task's), and every
    ``every``-th case also under Chromium (marked ``browser``): ``tests/test_text_parity.py``
    holds the two backends to the same tree, these hold them to the same outcome."""
    out = [pytest.param(*c, "text") for c in cases]
    out += [pytest.param(*c, "chromium", marks=pytest.mark.browser) for c in cases[::every]]
    return out


def full_matrix(seeds=(0, 1, 2)) -> list[tuple[str, str, int]]:
    return [(f, p, s) for f in sorted(all_families()) for p in sorted(list_packs()) for s in seeds]


BRANCH_PACKS = ("default", "german", "mobile")


def branching_families() -> list[str]:
    return sorted(f for f, fam in all_families().items() if fam.structure in ("conditional", "hierarchical"))


def seeds_per_branch(family: str, pack: str, max_seed: int = 40) -> dict[str, int]:
    """The first seed at which the pack's world calls for each branch of the family."""
    from openapps_sim.taskkit import instantiate
    from openapps_sim.web.world import World

    world, fam, out = World(), all_families()[family], {}
    for seed in range(max_seed):
        world.reset(pack, seed)
        branching = instantiate(fam, world.state, world.config, seed, pack).branching
        out.setdefault(branching.correct, seed)
        if set(out) >= set(branching.branches):  # every leaf found: later seeds add nothing
            break
    return out
