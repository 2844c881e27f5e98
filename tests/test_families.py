"""Every task family, under every pack and several seeds: feasible, not already solved, and
scored on the complete state (the expected change gives 1, plus a side effect 0, nothing 0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openapps_sim.config.packs import list_packs
from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.taskkit.language import package_tasks_dir
from openapps_sim.taskkit.progress import MilestoneTracker, as_events
from openapps_sim.taskkit.statecopy import copy_state
from openapps_sim.web.world import World

from .familytools import with_side_effect
from .tested_families import tested_families

FAMILIES = sorted(tested_families())
PACKS = sorted(list_packs())
SEEDS = [0, 1, 2]
ROOT = Path(__file__).resolve().parent.parent
SHIPPED_LANGUAGES = sorted(p.stem for p in (package_tasks_dir() / "phrasings").glob("*.yaml"))


@pytest.fixture(scope="module")
def local_world():
    return World()


_WORLDS: list[tuple[str, int, dict, dict]] = []


def distinct_worlds(world: World) -> list[tuple[str, int, dict, dict]]:
    """``(packs, seed, state, config)`` for every pack and seed, where packs whose worlds differ
    only in their theme share one entry (``packs`` names them all): no family reads the theme
    (test_no_family_reads_the_theme), so they would give every family the same instance and the
    same scores again (default and 16 visual packs share one; 78 distinct worlds of 126). Built
    once per test process (a reset costs ~0.1 s); ``instantiate`` copies the state it is given."""
    if not _WORLDS:
        seen: dict[str, tuple[list[str], int, dict, dict]] = {}
        for pack in PACKS:
            for seed in SEEDS:
                world.reset(pack, seed)
                content = {k: v for k, v in world.config.items() if k != "theme"}
                key = json.dumps([seed, world.draw_all(), content], sort_keys=True, default=str)
                if key in seen:
                    seen[key][0].append(pack)
                else:
                    seen[key] = ([pack], seed, copy_state(world.state), world.config)
        _WORLDS.extend((" / ".join(packs), seed, state, config) for packs, seed, state, config in seen.values())
    return _WORLDS


def test_no_family_reads_the_theme():
    """What lets distinct_worlds check the visual packs once: the theme is the pages' alone."""
    import re

    sources = [*(ROOT / "tasks").rglob("*.py"), *(ROOT / "openapps_sim" / "taskkit").rglob("*.py")]
    assert sources
    readers = [str(p) for p in sources if re.search(r"""["']theme["']""", p.read_text(encoding="utf-8"))]
    assert not readers, f"these read the theme: make distinct_worlds tell themes apart again: {readers}"


@pytest.mark.slow
@pytest.mark.parametrize("family_id", FAMILIES)
def test_family_is_valid_under_every_pack(local_world, family_id):
    check_family(family_id, distinct_worlds(local_world))


@pytest.mark.parametrize("family_id", FAMILIES)
def test_family_is_valid_under_a_share_of_the_packs(local_world, family_id):
    """The same checks in the first distinct world and a third of the others (which third turns with
    the family, so every world is checked by a third of the families); ``make test-all`` checks
    every family in every world (test_family_is_valid_under_every_pack)."""
    worlds = distinct_worlds(local_world)
    turn = FAMILIES.index(family_id) % SHARE
    check_family(family_id, [w for i, w in enumerate(worlds) if i == 0 or i % SHARE == turn])


SHARE = 3


def check_family(family_id: str, worlds: list[tuple[str, int, dict, dict]]) -> None:
    fam = all_families()[family_id]
    assert fam.apps and fam.description
    for lang in SHIPPED_LANGUAGES:  # a language from a pack folder may lack some: English stands in
        assert lang in fam.languages(), f"{family_id} has no {lang} phrasings"
    if any(fam.phrasings.get(s) for s in ("plain", "casual", "context")):
        assert sum(len(fam.phrasings.get(s, [])) for s in ("plain", "casual", "context")) >= 9
    for packs, seed, state, config in worlds:
        inst = instantiate(fam, state, config, seed, packs.split(" / ")[0])
        where = f"{family_id} / {packs} / seed {seed}"
        start_url = "http://127.0.0.1:1/"
        target_url = "http://127.0.0.1:1" + (inst.expected_path or "/")
        nothing = evaluate(fam, inst, inst.initial, answer=None, url=start_url, events=[])
        assert not nothing.success, f"{where}: doing nothing already succeeds"
        assert inst.milestones, f"{where}: no milestone declared"
        tracker = MilestoneTracker(inst.milestones)
        tracker.observe(1, inst.initial, start_url, intact=nothing.intact)
        assert not any(v is not None for v in tracker.first.values()), f"{where}: milestone at the start"
        answer = inst.expected_answer
        events = as_events(inst.oracle_ops) if inst.oracle_ops else None
        # an infeasible goal is done by reporting it (report_infeasible) and changing nothing
        report = inst.infeasible is not None
        done = evaluate(fam, inst, inst.expected, answer, target_url, events, reported_infeasible=report)
        assert done.success, f"{where}: the expected state fails: {done.explain()}"
        side_app = next((a for a in fam.apps if a != "start"), "todo")
        noisy = evaluate(
            fam,
            inst,
            with_side_effect(inst.expected, side_app),
            answer,
            target_url,
            events,
            reported_infeasible=report,
        )
        assert not noisy.success, f"{where}: a side effect was not noticed"
        assert inst.goal and "{" not in inst.goal, f"{where}: unformatted goal {inst.goal!r}"


@pytest.mark.parametrize("family_id", FAMILIES)
def test_same_seed_same_instance(local_world, family_id):
    fam = all_families()[family_id]
    local_world.reset("default", 5)
    a = instantiate(fam, local_world.state, local_world.config, 5)
    local_world.reset("default", 5)
    b = instantiate(fam, local_world.state, local_world.config, 5)
    assert (a.goal, a.params, a.expected) == (b.goal, b.params, b.expected)


def test_the_command_line_and_sweeps_accept_every_goal_language(tmp_path):
    from openapps_sim.cli.main import build_parser
    from openapps_sim.sweeps.spec import load_spec

    args = build_parser().parse_args(["run", "--agent", "oracle", "--task", "todo.add_item", "--language", "it"])
    assert args.language == "it"
    spec = tmp_path / "spec.yaml"
    spec.write_text("name: s\nagents: [oracle]\ntasks: [todo.add_item]\nlanguages: [es, zh, it, auto]\n")
    assert load_spec(spec).languages == ["es", "zh", "it", "auto"]
