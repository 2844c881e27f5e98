"""How many distinct instances a task family has: offline, without a browser or a server.

An instance is what the agent must achieve -- the start state, the expected state, and the
expected answer or page (or, for an infeasible goal, what it names that is missing) -- of the
family's apps; the goal's phrasing is not part of it. A
family whose seeds mostly change the phrasing measures memorised phrasings, not agents; the
floors each family is held to are in docs/tasks.md.
"""

from __future__ import annotations

import json

from openapps_sim.taskkit import TaskFamily, instantiate
from openapps_sim.taskkit.reward import normalise_world

DEFAULT_SEEDS = 100

DEFAULT_FLOOR = 30
"""Distinct instances over :data:`DEFAULT_SEEDS` seeds (default pack) every family must reach..."""

FLOORS: dict[str, int] = {
    "start.navigate_to_app": 6,  # one instance per app: the launcher has six
    "calendar.event_time": 23,  # reads the base world as it is: one question per item it can ask about
    "code_editor.count_lines": 15,  # reads the base world as it is: one question per item it can ask about
    "code_editor.folder_summary": 7,  # reads the base world as it is: one question per item it can ask about
    "maps.distance_km": 10,  # reads the base world as it is: one question per item it can ask about
    "maps.place_note": 4,  # reads the base world as it is: one question per item it can ask about
}
"""...except these, whose app allows fewer (the reasons are in docs/tasks.md)."""


def floor_of(family_id: str) -> int:
    return FLOORS.get(family_id, DEFAULT_FLOOR)


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
    families: dict[str, TaskFamily], seeds: int = DEFAULT_SEEDS, variation: str = "default"
) -> dict[str, int]:
    """For each family, the number of distinct instances over seeds ``0 .. seeds-1`` under
    ``variation`` (one world reset per seed, shared by every family)."""
    from openapps_sim.web.world import World  # the web layer (FastHTML), only when instances are counted

    world = World()
    keys: dict[str, set[str]] = {fid: set() for fid in families}
    for seed in range(seeds):
        world.reset(variation, seed)
        for fid, fam in families.items():
            keys[fid].add(instance_key(fam, world.state, world.config, seed, variation))
    return {fid: len(k) for fid, k in keys.items()}
