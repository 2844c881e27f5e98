"""How many distinct instances a task family has: offline, without a browser or a server.

An instance is what the agent must achieve -- the start state, the expected state, and the
expected answer or page (or, for an infeasible goal, what it names that is missing) -- of the
family's apps; the goal's phrasing is not part of it. A
family whose seeds mostly change the phrasing measures memorised phrasings, not agents: every
family reaches :data:`DEFAULT_FLOOR`, unless it declares why its world cannot hold that many
(``TaskFamily.instance_cap``); docs/tasks.md, "Instance diversity".
"""

from __future__ import annotations

import json

from openapps_sim.taskkit import TaskFamily, instantiate
from openapps_sim.taskkit.reward import normalise_world

DEFAULT_SEEDS = 100

DEFAULT_FLOOR = 30
"""Distinct instances over :data:`DEFAULT_SEEDS` seeds (default pack) every family must reach,
but those that declare an ``instance_cap`` (the reason their world holds fewer)."""


def floor_of(fam: TaskFamily) -> int:
    """The family's floor: :data:`DEFAULT_FLOOR`, or none for a family with an ``instance_cap``."""
    return 0 if fam.instance_cap else DEFAULT_FLOOR


def instance_key(fam: TaskFamily, state: dict, config: dict, seed: int, variation: str = "default") -> str:
    """The identity of the instance ``seed`` draws (phrasing left out), as a string."""
    # Only the family's own apps: instantiating copies the state three times, and the other
    # apps never change (a side effect there fails every family).
    own = {app: state[app] for app in fam.apps if app in state}
    try:
        inst = instantiate(fam, own, config, seed, variation)
    except KeyError:  # the family reads an app it does not list: give it the whole world
        inst = instantiate(fam, state, config, seed, variation)
    return json.dumps(
        [
            normalise_world(inst.initial),
            normalise_world(inst.expected),
            inst.expected_answer,
            inst.expected_path,
            # an infeasible goal: what it names that the world does not hold is what must be noticed
            *([inst.infeasible] if inst.infeasible is not None else []),
        ],
        sort_keys=True,
        default=str,
    )


def distinct_instances(
    families: dict[str, TaskFamily],
    seeds: int = DEFAULT_SEEDS,
    variation: str = "default",
    stop_at: int | None = None,
) -> dict[str, int]:
    """For each family, the number of distinct instances over seeds ``0 .. seeds-1`` under
    ``variation`` (one world reset per seed, shared by every family). With ``stop_at``, a family
    is no longer sampled once it has that many (enough to know it reaches a floor)."""
    from openapps_sim.web.world import World  # the web layer (FastHTML), only when instances are counted

    world = World()
    keys: dict[str, set[str]] = {fid: set() for fid in families}
    for seed in range(seeds):
        todo = [fid for fid in families if stop_at is None or len(keys[fid]) < stop_at]
        if not todo:
            break
        world.reset(variation, seed)
        for fid in todo:
            keys[fid].add(instance_key(families[fid], world.state, world.config, seed, variation))
    return {fid: len(k) for fid, k in keys.items()}


def below_floor(families: dict[str, TaskFamily], counts: dict[str, int]) -> dict[str, tuple[int, int]]:
    """The families counted below their floor: ``{id: (distinct, floor)}``."""
    return {fid: (n, floor_of(families[fid])) for fid, n in counts.items() if n < floor_of(families[fid])}


def cap_notes(families: dict[str, TaskFamily]) -> list[str]:
    """One line per family whose world cannot hold :data:`DEFAULT_FLOOR` instances, with why."""
    return [f"  {fid}: {fam.instance_cap}" for fid, fam in families.items() if fam.instance_cap]
