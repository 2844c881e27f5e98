"""Instance diversity: every family draws at least the floor of distinct instances over 100
seeds (phrasing left out), unless it says why its world cannot hold that many; sampling only,
no episode is run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from openapps_sim.tasks.todo.edits import RemoveItem

from openapps_sim.cli.instances import DEFAULT_FLOOR, DEFAULT_SEEDS, below_floor, distinct_instances
from openapps_sim.taskkit import all_families

DOCS = Path(__file__).resolve().parent.parent / "docs" / "tasks.md"


def test_every_family_reaches_the_floor_or_says_why_not():
    fams = all_families()
    # a family is sampled only until it reaches the floor: whether it does is all that is asked
    counts = distinct_instances(fams, DEFAULT_SEEDS, stop_at=DEFAULT_FLOOR)
    assert not below_floor(fams, counts), (
        f"below the floor of {DEFAULT_FLOOR} (distinct, floor): {below_floor(fams, counts)}"
    )
    stale = {fid: n for fid, n in counts.items() if fams[fid].instance_cap and n >= DEFAULT_FLOOR}
    assert not stale, f"these declare an instance_cap but reach the floor: drop the cap {stale}"
    capped = {fid: n for fid, n in counts.items() if fams[fid].instance_cap}
    assert capped == {}  # the launcher once held fewer apps than the floor; no family is capped now


class _OneInstance(RemoveItem):
    """``todo.remove_item`` as it would be with one item to ask about and no seeded start state."""

    def sample(self, state, config, rng):
        item = state["todo"]["items"][0]
        return {"id": item["id"], "title": item["title"], "done_ids": None}


def test_a_family_that_repeats_itself_is_below_the_floor():
    fams = {"todo.remove_item": _OneInstance()}
    counts = distinct_instances(fams, 5)
    assert counts == {"todo.remove_item": 1}
    assert below_floor(fams, counts) == {"todo.remove_item": (1, DEFAULT_FLOOR)}
    _OneInstance.instance_cap = "one instance: the test says so"
    try:
        assert below_floor(fams, counts) == {}
    finally:
        _OneInstance.instance_cap = ""


def test_openapps_tasks_says_which_families_hold_fewer_and_why():
    out = subprocess.run(
        [sys.executable, "-m", "openapps_sim.cli", "tasks"], capture_output=True, text=True, check=True
    ).stdout
    for fid, fam in all_families().items():
        if fam.instance_cap:
            assert f"  {fid}: {fam.instance_cap}" in out


def test_the_floor_and_the_caps_are_documented():
    text = DOCS.read_text()
    assert f"| every family | {DEFAULT_FLOOR} |" in text
    for fid, fam in all_families().items():
        if fam.instance_cap:
            assert f"| `{fid}` | {fam.instance_cap} |" in text, fid
