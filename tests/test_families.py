"""Every task family, under every pack and several seeds: feasible, not already solved, and
scored on the complete state (the expected change gives 1, plus a side effect 0, nothing 0)."""

from __future__ import annotations

import pytest

from openapps_sim.config.packs import list_packs
from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.taskkit.language import package_tasks_dir
from openapps_sim.taskkit.progress import MilestoneTracker, as_events
from openapps_sim.taskkit.statecopy import copy_state
from openapps_sim.web.world import World

from .familytools import with_side_effect

FAMILIES = sorted(all_families())
PACKS = sorted(list_packs())
SEEDS = [0, 1, 2]
SHIPPED_LANGUAGES = sorted(p.stem for p in (package_tasks_dir() / "phrasings").glob("*.yaml"))


@pytest.fixture(scope="module")
def local_world():
    return World()


_WORLDS: dict[tuple[str, int], tuple[dict, dict]] = {}


def world_of(world: World, pack: str, seed: int) -> tuple[dict, dict]:
    """A fresh copy of the state of ``pack`` at ``seed``, and its config: each world is built
    once per test process (a reset costs ~0.1 s, and every family reads the same 114 worlds;
    instantiating a family leaves the config as it was)."""
    if (pack, seed) not in _WORLDS:
        world.reset(pack, seed)
        _WORLDS[pack, seed] = (copy_state(world.state), world.config)
    state, config = _WORLDS[pack, seed]
    return copy_state(state), config


@pytest.mark.parametrize("family_id", FAMILIES)
def test_family_is_valid_under_every_pack(local_world, family_id):
    fam = all_families()[family_id]
    assert fam.apps and fam.description
    for lang in SHIPPED_LANGUAGES:  # a language from a pack folder may lack some: English stands in
        assert lang in fam.languages(), f"{family_id} has no {lang} phrasings"
    if any(fam.phrasings.get(s) for s in ("plain", "casual", "context")):
        assert sum(len(fam.phrasings.get(s, [])) for s in ("plain", "casual", "context")) >= 9
    for pack in PACKS:
        for seed in SEEDS:
            state, config = world_of(local_world, pack, seed)
            inst = instantiate(fam, state, config, seed, pack)
            where = f"{family_id} / {pack} / seed {seed}"
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
