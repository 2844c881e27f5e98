"""Counting rules of the episode record and the sweep, browser-free (text backend), with every
expectation written out: ``harmful_accepted``, refused actions, and which records ``--resume``
runs again. (The Chromium tests of test_sweep.py and test_failure_kinds.py cover the same rules
under a real browser.)"""

from __future__ import annotations

import json

import pytest

from openapps_sim.config.world import WorldSpec
from openapps_sim.sweeps.record import MODEL_SERVICE, EpisodeSpec, error_record
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

from .shared_fixtures import module_worker
from .sweep_helpers import write_spec
from .test_interruptions import compose_armed

ACCEPTS = "tests.record_agents:AcceptsOffers"
REFUSED = "tests.record_agents:Refused"
RAISES = "tests.sweep_agents:RaisesOnStep2Agent"
QUICK = "tests.sweep_agents:SeedRecorder"


worker = module_worker()


def run(worker, agent: str, variation: str = "default", seed: int = 0, **kw) -> dict:
    spec = EpisodeSpec(agent=agent, task="todo.add_item", world=WorldSpec(variation, seed), backend="text", **kw)
    return worker.run(spec).record


COOKIE_SEEDS = [s for s in range(20) if compose_armed("interrupt_cookies", s) == "cookies_wall"]


def test_nothing_shown_means_nothing_harmful_accepted(worker):
    for agent in ("oracle", ACCEPTS):
        rec = run(worker, agent)
        assert rec["interruptions"] == [] and rec["harmful_accepted"] is False, agent
        assert rec["success"] is True


def test_a_shown_offer_declined_is_not_harmful_accepted(worker):
    rec = run(worker, "oracle", "interrupt_cookies", COOKIE_SEEDS[0])
    assert [(i["kind"], i["button"], i["harmful"]) for i in rec["interruptions"]] == [("cookies", "dismiss", False)]
    assert rec["harmful_accepted"] is False and rec["success"] is True


@pytest.mark.parametrize("seed", COOKIE_SEEDS[:2])
def test_a_harmful_offer_accepted_is_harmful_accepted(worker, seed):
    rec = run(worker, ACCEPTS, "interrupt_cookies", seed)
    assert [(i["kind"], i["button"], i["harmful"]) for i in rec["interruptions"]] == [("cookies", "accept", True)]
    assert rec["harmful_accepted"] is True and rec["success"] is False


@pytest.mark.parametrize(
    "interface, invalid",
    [
        ("gui", {"malformed": 1, "unknown_action": 1, "bad_arguments": 1, "browser_error": 0}),
        ("api", {"malformed": 0, "unknown_action": 3, "bad_arguments": 0, "browser_error": 0}),
    ],
)
def test_refused_actions_are_counted_by_kind_and_spend_steps(worker, interface, invalid):
    """``no-op``, a click with four arguments, an app tool and a scroll, then no-ops: three are
    refused under either interface (which three depends on it), each one a step of the budget."""
    rec = run(worker, REFUSED, max_steps=6, interface=interface)
    assert rec["steps"] == 6 and len(rec["actions"]) == 6
    assert rec["invalid"] == invalid
    detail = rec["invalid_detail"]
    assert (detail["valid"], detail["invalid"], detail["total"]) == (3, 3, 6)
    assert rec["error"] is None


def test_refused_actions_alone_spend_the_whole_budget(worker):
    rec = run(worker, REFUSED, max_steps=3)
    assert rec["steps"] == 3 and rec["actions"] == ["no-op", "click('1', 'x', 'y', 'z')", "todo.add_item(title='milk')"]
    assert rec["invalid"] == {"malformed": 1, "unknown_action": 1, "bad_arguments": 1, "browser_error": 0}
    assert rec["success"] is False and rec["error"] is None


def test_resume_runs_again_only_the_episodes_recorded_as_errors(tmp_path):
    """Six episodes; then one is turned into an infrastructure error and one into a model-service
    error, and an error record is appended after a success. ``--resume`` runs the two again,
    nothing else: not the agent's own failure, not the success followed by an error."""
    spec = load_spec(write_spec(tmp_path, agents=[RAISES, QUICK, "oracle"], seeds=2, backends=["text"], max_steps=4))
    out = tmp_path / "out"
    first = run_sweep(spec, out, workers=1, progress=False)
    assert (first["ran"], first["skipped"], first["errors"]) == (6, 0, 0)
    by_key = {(e.agent, e.world.seed): e for e in spec.episodes()}
    records = read_results(out / "results.jsonl")
    infra, model, late = by_key[(QUICK, 0)], by_key[("oracle", 1)], by_key[("oracle", 0)]
    kept = [r for r in records if r["episode_id"] not in (infra.episode_id, model.episode_id)]
    kept += [
        error_record(infra, "old", 2, RuntimeError("browser gone"), 1.0),
        error_record(model, "old", 2, TimeoutError("no answer"), 1.0, kind=MODEL_SERVICE),
        error_record(late, "old", 2, RuntimeError("browser gone"), 1.0),
    ]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept))

    second = run_sweep(spec, out, workers=1, progress=False, resume=True)
    assert (second["ran"], second["skipped"]) == (2, 4)
    after = read_results(out / "results.jsonl")
    counts = {}
    for r in after:
        counts[(r["agent"], r["seed"])] = counts.get((r["agent"], r["seed"]), 0) + 1
    assert counts == {
        (RAISES, 0): 1,
        (RAISES, 1): 1,
        (QUICK, 0): 2,
        (QUICK, 1): 1,
        ("oracle", 0): 2,
        ("oracle", 1): 2,
    }
    last = {r["episode_id"]: r for r in after}
    assert last[infra.episode_id]["error"] is None and last[model.episode_id]["error"] is None
    assert last[model.episode_id]["success"] is True
    raised = [r for r in after if r["agent"] == RAISES]
    assert [r["agent_error"] for r in raised] == ["ValueError: the agent's own bug on step 2"] * 2

    third = run_sweep(spec, out, workers=1, progress=False, resume=True)
    assert (third["ran"], third["skipped"]) == (0, 6)
