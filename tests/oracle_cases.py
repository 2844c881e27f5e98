"""Which (family, pack, seed) cases the oracle tests run."""

from __future__ import annotations

from openapps_sim.config.packs import list_packs
from openapps_sim.taskkit import all_families


def representative() -> list[tuple[str, str, int]]:
    """Every family once, with packs rotated so that every pack is used at least once."""
    families = sorted(all_families())
    packs = sorted(list_packs())
    n = max(len(families), len(packs))
    return [(families[i % len(families)], packs[i % len(packs)], i % 3) for i in range(n)]


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
        out.setdefault(instantiate(fam, world.state, world.config, seed, pack).branching.correct, seed)
    return out
