"""Instance diversity: every family has many distinct instances over 100 seeds (phrasing left
out), each at least its documented floor."""

from __future__ import annotations

import re
from pathlib import Path

from openapps_sim.cli.instances import DEFAULT_FLOOR, DEFAULT_SEEDS, FLOORS, distinct_instances, floor_of
from openapps_sim.taskkit import all_families

DOCS = Path(__file__).resolve().parent.parent / "docs" / "tasks.md"


def test_every_family_reaches_its_floor():
    counts = distinct_instances(all_families(), DEFAULT_SEEDS)
    low = {fid: (n, floor_of(fid)) for fid, n in counts.items() if n < floor_of(fid)}
    assert not low, f"families below their floor (distinct, floor): {low}"


def test_the_floors_are_documented():
    text = DOCS.read_text()
    assert re.search(rf"\| every family not listed \| {DEFAULT_FLOOR} \|", text)
    for fid, floor in FLOORS.items():
        assert f"| `{fid}` | {floor} |" in text, fid
