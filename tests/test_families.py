"""Every task family, under every pack and several seeds: feasible, not already solved, and
scored on the complete state (the expected change gives 1, plus a side effect 0, nothing 0)."""

from __future__ import annotations

import pytest

import openapps_sim.config.catalog as catalog
from openapps_sim.config import packs
from openapps_sim.config.packs import language_packs, list_packs
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.taskkit.language import content_languages, goal_languages, words
from openapps_sim.taskkit.progress import MilestoneTracker, as_events
from openapps_sim.web.world import World

from .familytools import with_side_effect

FAMILIES = sorted(all_families())
PACKS = sorted(list_packs())
SEEDS = [0, 1, 2]


@pytest.fixture(scope="module")
def local_world():
    return World()


@pytest.mark.parametrize("family_id", FAMILIES)
def test_family_is_valid_under_every_pack(local_world, family_id):
    fam = all_families()[family_id]
    assert fam.apps and fam.description
    for lang in goal_languages():
        assert lang in fam.languages(), f"{family_id} has no {lang} phrasings"
    if any(fam.phrasings.get(s) for s in ("plain", "casual", "context")):
        assert sum(len(fam.phrasings.get(s, [])) for s in ("plain", "casual", "context")) >= 9
    for pack in PACKS:
        for seed in SEEDS:
            local_world.reset(pack, seed)
            inst = instantiate(fam, local_world.state, local_world.config, seed, pack)
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


# -- languages -----------------------------------------------------------------------------------
SHIPPED = {"en", "de", "fr", "es", "zh", "it"}


def test_goals_and_content_in_every_shipped_language():
    assert SHIPPED <= set(goal_languages()) and SHIPPED <= set(content_languages())
    # every language pack's language has goals and content: adding a pack means adding both files
    for pack, lang in language_packs().items():
        assert lang in goal_languages() and lang in content_languages(), pack


@pytest.mark.parametrize("pack", sorted(language_packs()))
def test_auto_is_the_worlds_language(local_world, pack):
    lang = language_packs()[pack]
    for fid, fam in all_families().items():
        local_world.reset(pack, 1)
        inst = instantiate(fam, local_world.state, local_world.config, 1, pack, "auto")
        assert inst.language == lang and inst.style in fam.styles(lang), fid
        en = instantiate(fam, local_world.state, local_world.config, 1, pack, "en")
        assert inst.goal != en.goal, f"{fid}: the {lang} goal is the English one"


@pytest.mark.parametrize("pack", sorted(language_packs()))
def test_content_a_task_brings_in_is_in_the_worlds_language(local_world, pack):
    lang = language_packs()[pack]
    fams = all_families()

    def params(fid, seed=0):
        local_world.reset(pack, seed)
        return instantiate(fams[fid], local_world.state, local_world.config, seed, pack, "auto").params

    assert params("todo.add_item")["title"] in words(lang, "todo.new_items")
    assert params("todo.add_item")["title"] not in words("en", "todo.new_items")
    assert params("messenger.send_message")["text"] in words(lang, "messenger.new_messages")
    assert params("messenger.start_conversation")["text"] in words(lang, "messenger.greetings")
    assert params("calendar.add_event")["title"] in words(lang, "calendar.new_titles")
    assert params("maps.drop_pin")["label"] in words(lang, "maps.pin_labels")
    cancel = params("multi.cancel_event_and_tell")["parts"]
    assert cancel[1]["text"] == words(lang, "multi.cancelled").format(title=cancel[0]["title"])
    lines = {line for ls in words(lang, "code_editor.append_lines").values() for line in ls}
    appended = [params("code_editor.edit_file", s) for s in range(8)]
    assert any(p.get("line") in lines for p in appended if p["mode"] == "append")
    # dates in goals are written in the goal's language
    local_world.reset(pack, 0)
    inst = instantiate(fams["calendar.remove_event"], local_world.state, local_world.config, 0, pack, "auto")
    months = words(lang, "calendar.months")
    assert any(m in inst.goal for m in months) or inst.params["date"] in inst.goal


@pytest.fixture()
def private_pack(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAPPS_VARIATIONS", str(tmp_path))
    catalog.composed_json.cache_clear()
    catalog.initial_state_json.cache_clear()
    packs._load_pack_file.cache_clear()
    (tmp_path / "klingon").mkdir()
    (tmp_path / "klingon" / "pack.yaml").write_text("description: x\nshell: {lang: tlh}\n", encoding="utf-8")
    yield "klingon"
    catalog.composed_json.cache_clear()
    catalog.initial_state_json.cache_clear()


def test_a_language_without_phrasings_is_a_clear_error(local_world, private_pack):
    assert language_packs()[private_pack] == "tlh"  # discovered, like a shipped language
    local_world.reset(private_pack, 0)
    fam = all_families()["todo.remove_item"]
    with pytest.raises(ConfigError) as err:
        instantiate(fam, local_world.state, local_world.config, 0, private_pack, "auto")
    assert "no goal phrasing in 'tlh'" in str(err.value) and "tasks/phrasings/tlh.yaml" in str(err.value)
    assert "it" in str(err.value).split("allowed: ")[1]
    with pytest.raises(ConfigError) as err:  # content too: never English in a Klingon world
        instantiate(all_families()["todo.add_item"], local_world.state, local_world.config, 0, private_pack, "en")
    assert "tasks/content/tlh.yaml: todo.new_items" in str(err.value)


def test_the_command_line_and_sweeps_accept_every_goal_language(tmp_path):
    from openapps_sim.cli.main import build_parser
    from openapps_sim.sweeps.spec import load_spec

    args = build_parser().parse_args(["run", "--agent", "oracle", "--task", "todo.add_item", "--language", "it"])
    assert args.language == "it"
    spec = tmp_path / "spec.yaml"
    spec.write_text("name: s\nagents: [oracle]\ntasks: [todo.add_item]\nlanguages: [es, zh, it, auto]\n")
    assert load_spec(spec).languages == ["es", "zh", "it", "auto"]
