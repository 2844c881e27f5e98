"""An episode spec holds one world spec (issue 39): the variation and the seed are parsed once,
where the user wrote them, and an episode's id, its results line and its wire form are what they
were when the spec carried its own ``variation`` and ``seed`` -- results written before resume
without running or duplicating an episode. Every id and line here was written by that code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from openapps_sim.config.world import WorldSpec
from openapps_sim.sweeps.record import EpisodeSpec, new_record, spec_from_json, spec_to_json
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

MAIN_SWEEP = Path(__file__).parent / "data" / "main_sweep"  # spec.yaml, and what main wrote for 5 of its 16 episodes

FULL = dict(
    agent="openai",
    task="todo.mark_done",
    world=WorldSpec("random-3", 7),
    agent_options=(("temperature", 0.7),),
    agent_overrides=(("model", "m"),),
    trial=2,
    style="casual",
    interface="mixed",
    termination="agent",
    max_steps=9,
    viewport="480x320",
    label="x",
)

# (the spec, its id as the spec with its own variation and seed fields gave it)
IDS = [
    (dict(agent="oracle", task="todo.add_item"), "3709d29944756b37"),
    (
        dict(agent="oracle", task="todo.add_item", world=WorldSpec("dark_theme+german", 3), backend="text"),
        "d776510574c8765b",
    ),
    (dict(agent="oracle", task="todo.add_item", world=WorldSpec("german", 0, "en")), "3e19e754c43523eb"),
    (dict(agent="oracle", task="todo.add_item", world=WorldSpec("german", 0, "de")), "adc9160604f5c9f6"),
    (FULL, "47006a1fe1ae657e"),
    (
        dict(agent="oracle", task="todo.add_item", world=WorldSpec("random-1-0+dark_theme", 4294967295)),
        "c47a178596efc3ec",
    ),
]


@pytest.mark.parametrize("fields,episode_id", IDS, ids=[i for _, i in IDS])
def test_an_episode_keeps_the_id_it_had(fields, episode_id):
    assert EpisodeSpec(**fields).episode_id == episode_id


def test_the_agent_seed_of_a_trial_is_the_one_it_had():
    assert EpisodeSpec(**FULL).agent_seed == 2566887183
    assert EpisodeSpec("oracle", "todo.add_item", WorldSpec(seed=5)).agent_seed == 5


def test_the_wire_form_is_the_one_workers_read_before():
    wire = (
        '{"agent": "openai", "task": "todo.mark_done", "variation": "random-3", "seed": 7, "agent_config": null, '
        '"agent_options": [["temperature", 0.7]], "agent_overrides": [["model", "m"]], "label": "x", "max_steps": 9, '
        '"viewport": "480x320", "language": "auto", "record_screenshots": false, "trial": 2, "style": "casual", '
        '"interface": "mixed", "backend": "chromium", "termination": "agent"}'
    )
    spec = EpisodeSpec(**FULL)
    assert json.dumps(spec_to_json(spec)) == wire
    assert spec_from_json(json.loads(wire)) == spec


def test_a_world_with_overrides_crosses_to_a_worker_and_is_an_episode_of_its_own():
    plain = EpisodeSpec("oracle", "todo.add_item", WorldSpec("default", 0))
    changed = EpisodeSpec("oracle", "todo.add_item", WorldSpec("default", 0, overrides=("todo.title=T",)))
    assert spec_to_json(changed)["overrides"] == ["todo.title=T"] and "overrides" not in spec_to_json(plain)
    assert spec_from_json(json.loads(json.dumps(spec_to_json(changed)))) == changed
    assert changed.episode_id != plain.episode_id == "3709d29944756b37"


def test_a_record_names_the_episode_as_main_wrote_it():
    """The identity of main's first record, key for key and in its order, from the spec made now."""
    written = json.loads((MAIN_SWEEP / "results.jsonl").read_text().splitlines()[0])
    spec = EpisodeSpec("oracle", "todo.add_item", WorldSpec("dark_theme+german", 0), backend="text")
    record = new_record(spec, written["run_id"], written["attempt"])
    assert list(record) == list(written)
    identity = ["v", "episode_id", "run_id", "agent", "agent_config", "label", "agent_overrides", "task", "variation"]
    identity += ["variation_pool", "seed", "trial", "agent_seed", "viewport", "interface", "backend", "termination"]
    identity += ["language"]
    assert {k: record[k] for k in identity} == {k: written[k] for k in identity}


def test_results_written_by_main_resume_without_rerunning_or_duplicating(tmp_path):
    """A sweep folder main's code wrote (5 of 16 episodes, one world spelled 'dark_theme + german')
    resumes: the 5 are skipped, new episodes run, no id twice, main's lines kept byte for byte."""
    out = tmp_path / "out"
    out.mkdir()
    for name in ("results.jsonl", "manifest.json"):
        shutil.copy(MAIN_SWEEP / name, out / name)
    before = (out / "results.jsonl").read_bytes()
    spec = load_spec(MAIN_SWEEP / "spec.yaml")
    assert len(spec.episodes()) == 16
    summary = run_sweep(spec, out, workers=1, progress=False, resume=True, limit=2)
    assert (summary["skipped"], summary["ran"]) == (5, 2)
    after = (out / "results.jsonl").read_bytes()
    assert after.startswith(before)
    ids = [r["episode_id"] for r in read_results(out / "results.jsonl")]
    assert len(ids) == 7 == len(set(ids))
    assert ids[:5] == [
        "0f6f1affe91772f6",
        "54123aaa4f763fe9",
        "d776510574c8765b",
        "63c3397596d3c3c0",
        "f6dd9908a0723c94",
    ]


def test_an_episode_world_is_never_parsed_or_checked_again_on_its_way_to_the_page(monkeypatch):
    """Made once (here, as a sweep spec or openapps run makes it), the world crosses to a worker
    and runs an episode with every variation and seed reader of the code refusing to be called."""
    import openapps_sim.config.limits as limits
    import openapps_sim.config.world as world_module
    import openapps_sim.envs.env as env_module
    import openapps_sim.sweeps.record as record_module
    from openapps_sim.sweeps.runner import Worker

    spec = EpisodeSpec("oracle", "todo.add_item", WorldSpec.make("a sweep", " dark_theme + german", 3), backend="text")

    def refused(*args, **kwargs):
        raise AssertionError(f"parsed or checked again: {args!r}")

    for module, name in [
        (world_module, "canonical"),
        (world_module, "check_variation"),
        (world_module, "check_language"),
        (limits, "check_seed"),
        (env_module, "check_seed"),
        (record_module, "canonical"),
    ]:
        monkeypatch.setattr(module, name, refused, raising=False)
    crossed = spec_from_json(json.loads(json.dumps(spec_to_json(spec))))
    assert crossed == spec
    worker = Worker()
    try:
        record = worker.run(crossed).record
    finally:
        worker.close()
    assert record["success"] and (record["variation"], record["seed"], record["language"]) == (
        "dark_theme+german",
        3,
        "de",
    )
    assert record["episode_id"] == "d776510574c8765b"
