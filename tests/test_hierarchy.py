"""Hierarchical families with three levels of decision, conjunctive yes/no constraint families and
decision accuracy by level (issue 25, point 1). Text backend only: the pages the oracle reads are
what is under test, not the browser."""

from __future__ import annotations

import pandas as pd
import pytest

from openapps_sim.analysis.metrics.progress import decisions_by_level
from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.taskkit.branching import BranchingFamily
from openapps_sim.taskkit.plan import run_plan
from openapps_sim.taskkit.progress import as_events
from openapps_sim.taskkit.statecopy import copy_state
from openapps_sim.web.world import World

from .oracle_cases import seeds_per_branch
from .oracle_play import play_oracle

FAMS = all_families()
CHAINS = sorted(f for f, fam in FAMS.items() if fam.structure == "hierarchical" and getattr(fam, "levels", 1) >= 3)
YES_NO = ["calendar.timed_without_location", "shop.cheap_in_colour", "todo.open_without_notes"]
URL = "http://127.0.0.1:1/"
#: every family whose goal hinges on a decision the world settles (conditional, hierarchical,
#: yes/no constraint and constraint families with branches)
BRANCHING = sorted(f for f, fam in FAMS.items() if isinstance(fam, BranchingFamily))
# what the parameters know of the decision: the oracle must find it on the pages instead
DECISION_KEYS = ("branch", "holds", "order", "done_ids", "notes", "events", "lines", "blockers")
#: what else a family's parameters know of its decision (booleans are flipped, the rest replaced)
FAMILY_KEYS = {
    "todo.done_or_delete": ("done",),
    "calendar.add_if_free": ("target",),
    "calendar.earliest_free_slot": ("slot", "taken"),
    "shop.under_budget": ("value",),
    "shop.rated_at_least": ("value",),
    "shop.cart_over_budget": ("total", "top_line", "order_lines"),
    "shop.cheapest_in_category": ("product_id", "others"),
    "multi.todo_cart_fallback": ("done",),
}


@pytest.fixture(scope="module")
def world():
    return World()


def test_the_counts_the_issue_asks_for():
    assert len(CHAINS) >= 6 and len({a for f in CHAINS for a in FAMS[f].apps}) >= 4
    assert sum(1 for fam in FAMS.values() if fam.structure == "conjunctive") >= 8
    assert all(FAMS[f].structure == "conjunctive" and FAMS[f].category == "constraint" for f in YES_NO)


@pytest.mark.parametrize("family_id", CHAINS)
def test_every_leaf_of_a_chain_occurs_and_its_depth_is_the_declared_levels(family_id):
    seen = seeds_per_branch(family_id, "default", max_seed=40)  # the first seed of each leaf
    assert set(seen) == {"yes", "no/yes", "no/no/yes", "no/no/no"}, seen
    assert max(len(leaf.split("/")) for leaf in seen) == FAMS[family_id].levels == 3


@pytest.mark.parametrize("family_id", CHAINS)
def test_a_wrong_decision_at_any_level_scores_zero(world, family_id):
    """Acting on another leaf fails, and its decisions are wrong from the level it left the path."""
    fam = FAMS[family_id]
    for seed in range(6):
        world.reset("german", seed)
        inst = instantiate(fam, world.state, world.config, seed, "german")
        right = inst.branching.correct.split("/")
        for other, ops in inst.branching.branches.items():
            if other == inst.branching.correct:
                continue
            state = copy_state(inst.initial)
            events = run_plan(ops, state, world.config)
            assert not evaluate(fam, inst, state, None, URL, events).success, (seed, other)
            flags = inst.branching.decisions(as_events(ops))
            path = other.split("/")
            first_wrong = next(i for i in range(len(right)) if i >= len(path) or path[i] != right[i])
            assert flags == [i < first_wrong for i in range(len(right))], (other, flags)


@pytest.mark.parametrize("family_id", YES_NO)
def test_each_other_candidate_misses_exactly_one_yes_no_constraint(world, family_id):
    """Of the three candidates only the target meets both constraints; each other one meets one,
    so an agent that checks a single constraint picks wrong; acting on it scores 0."""
    fam = FAMS[family_id]
    for pack in ("default", "sparse", "dense"):
        for seed in range(4):
            world.reset(pack, seed)
            inst = instantiate(fam, world.state, world.config, seed, pack)
            met = {cid: _constraints_met(family_id, inst, world.config, cid) for cid in inst.branching.branches}
            assert met.pop(inst.branching.correct) == [True, True]
            assert sorted(sum(v) for v in met.values()) == [1, 1] and len(met) == 2, met
            for other in met:
                state = copy_state(inst.initial)
                events = run_plan(_runnable(inst.branching.branches[other], world.config), state, world.config)
                assert not evaluate(fam, inst, state, None, URL, events).success


def _runnable(ops: list, config: dict) -> list:
    """A wrong candidate's plan as a call the app accepts: a product added with the first value
    of each option it has (its leaf names the product only)."""
    from openapps_sim.apps.shop import model as cat
    from openapps_sim.tasks.picks import add_to_cart_op

    products = cat.catalogue(config["shop"])
    pids = [dict(op.args).get("product_id") for op in ops]
    return [
        add_to_cart_op(pid, {k: v[0] for k, v in products[pid]["options"].items()}) if pid else op
        for op, pid in zip(ops, pids, strict=True)
    ]


def _constraints_met(family_id: str, inst, config: dict, cid: str) -> list[bool]:
    """The two yes/no constraints of a candidate, read from the instance's start state."""
    s, p = inst.initial, inst.params
    if family_id == "todo.open_without_notes":
        item = next(i for i in s["todo"]["items"] if i["id"] == cid)
        return [not item["done"], not item.get("notes")]
    if family_id == "calendar.timed_without_location":
        ev = next(e for e in s["calendar"]["events"] if e["id"] == cid)
        return [bool(ev["time"]), not ev["location"]]
    from openapps_sim.apps.shop import model as cat

    product = cat.catalogue(config["shop"])[cid]
    return [product["price"] < p["budget"], p["colour"] in product["options"].get("colour", [])]


def _run_poisoned(env, fid: str, pack: str, seed: int) -> float:
    """The oracle with what its parameters know of the decision replaced by a wrong value."""
    obs, info = env.reset(seed=seed, options={"task_kwargs": {"family": fid, "variation": pack}})
    task_info = dict(info["task_info"])
    params = dict(task_info["params"])
    leaves = sorted(env.unwrapped.task.instance.branching.branches)
    params["branch"] = next(b for b in leaves if b != params["branch"])
    for key in [*DECISION_KEYS[1:], *FAMILY_KEYS.get(fid, ())]:
        params[key] = "poisoned" if key in params else None
    task_info["params"] = {k: v for k, v in params.items() if v is not None}
    for k in [k for k in task_info["params"] if k.endswith("_theirs") or k == "done"]:
        task_info["params"][k] = not info["task_info"]["params"][k]
    return play_oracle(env, obs, task_info)[0]


@pytest.mark.parametrize("interface,pack", [("gui", "german"), ("api", "mandarin")])
@pytest.mark.parametrize("family_id", BRANCHING)
def test_the_oracle_decides_from_the_world_not_its_parameters(interface_envs, family_id, interface, pack):
    """Through the pages (``solve``) and through the apps' data (``solve_api``), on every leaf
    (the first four leaves the pack's seeds call for, for a family whose leaves are ids)."""
    seeds = sorted(seeds_per_branch(family_id, pack).values())[:4]
    for seed in seeds:
        assert _run_poisoned(interface_envs[interface], family_id, pack, seed) == 1.0, (family_id, seed)


def test_decision_accuracy_by_level():
    base = {"run_id": "r", "variation": "default", "error": None, "steps": 4, "success": True, "reward": 1.0}
    rows = [
        dict(base, agent="A", task="h", seed=0, decisions=[True, True, False]),
        dict(base, agent="A", task="h", seed=1, decisions=[True, False, False]),
        dict(base, agent="A", task="h", seed=2, decisions=[False]),
        dict(base, agent="A", task="c", seed=0, decisions=[True]),
        dict(base, agent="A", task="x", seed=0, decisions=None),
    ]
    s = decisions_by_level(pd.DataFrame(rows), ["agent"]).set_index("level")
    assert list(s["n"]) == [4, 2, 2] and list(s["accuracy"]) == [0.75, 0.5, 0.0]
    assert list(s["n_reached"]) == [4, 2, 1] and s.loc[3, "accuracy_reached"] == 0.0
    from openapps_sim.analysis.metrics.progress import decision_level_table

    headers, cells = decision_level_table(pd.DataFrame(rows))
    assert headers[:3] == ["Agent", "Level", "Episodes"] and cells[2][:4] == ["A", "3", "2", "0.0%"]
    assert decision_level_table(pd.DataFrame([dict(base, agent="A", task="x", seed=0, decisions=None)])) is None


def test_openapps_tasks_shows_the_levels_of_hierarchical_families(capsys):
    from openapps_sim.cli.main import main

    assert main(["tasks"]) == 0
    out = capsys.readouterr().out
    assert "hierarchical/3" in out and "hierarchical/2" in out
    row = next(line for line in out.splitlines() if line.startswith("multi.errand_chain "))
    assert "hierarchical/3" in row and "todo,shop,calendar,messenger" in row


#: the families whose decision asks about the shop's catalogue (prices, ratings), not the world's state:
#: answered on the configuration (``Condition.known``), so checked where it is at hand
CATALOGUE_QUESTIONS = ("shop.price_fallback", "shop.under_budget", "shop.rated_at_least")
#: the families that state their decision once (``decision``): conditions and leaves
STATED = [f for f in BRANCHING if type(FAMS[f]).decision is not BranchingFamily.decision]


@pytest.mark.parametrize("family_id", STATED)
def test_decide_reads_the_leaf_the_instance_calls_for_from_the_apps_data(world, family_id):
    """The stated decision (what the API solution acts on) finds, in the initial state (and the
    configuration, for a question of the catalogue's: a price, a rating), the leaf the instance was drawn for, in
    every pack's world."""
    fam = FAMS[family_id]
    for pack in ("default", "sparse", "dense", "arabic"):
        for seed in range(3):
            world.reset(pack, seed)
            inst = instantiate(fam, world.state, world.config, seed, pack)
            params = {k: v for k, v in inst.params.items() if k != "branch"}
            decision = fam.decision(params)
            found = decision.decide(copy_state(inst.initial), world.config)
            assert found == inst.branching.correct, (pack, seed)


def test_a_stated_decision_is_written_once():
    """A family with a stated decision writes it nowhere else: no ``decide``, no API solution and
    no page script of its own (both come from the decision), no per-level ``check``."""
    assert STATED == BRANCHING  # every branching family states its decision
    for fid in STATED:
        mro = [k for k in type(FAMS[fid]).__mro__ if k.__name__ not in ("FallbackChain", "BranchingFamily")]
        own = {name for k in mro if k.__module__.startswith("openapps_sim.tasks") for name in vars(k)}
        assert not own & {"decide", "solve", "solve_api", "check", "check_api"}, fid


def test_the_sampled_leaf_must_be_the_one_the_world_calls_for(world):
    """The instance checks the sampler's leaf against the stated decision on the prepared world."""
    fam = FAMS["todo.done_or_delete"]
    world.reset("default", 0)
    inst = instantiate(fam, world.state, world.config, 0, "default")
    wrong = dict(inst.params, branch="open" if inst.params["branch"] == "done" else "done")
    with pytest.raises(ValueError, match="the world calls for"):
        fam.branching(wrong, inst.initial)


@pytest.mark.parametrize("family_id", CATALOGUE_QUESTIONS)
def test_a_question_of_the_catalogue_is_checked_against_the_configuration(world, family_id):
    """A price or rating is the catalogue's: the instance checks the sampler's leaf against the
    stated decision on the configuration (without it, a wrong leaf passed unchecked)."""
    fam = FAMS[family_id]
    world.reset("default", 0)
    inst = instantiate(fam, world.state, world.config, 0, "default")
    assert fam.decision(inst.params).decide(inst.initial) is None  # not a question of the state
    wrong = next(leaf for leaf in inst.branching.branches if leaf != inst.params["branch"])
    with pytest.raises(ValueError, match="the world calls for"):
        fam.branching(dict(inst.params, branch=wrong), inst.initial, world.config)
