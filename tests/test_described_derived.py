"""The families beyond one change or one answer, derived for every described app from its
description (docs/apps/spec.md, "Task families"): navigate, conditional, sequence, long (at least
20 oracle steps), average / highest / lowest / difference and the cross-app families. Fast: no
episode is played (the oracle's runs are tests/test_described_oracle.py and CI's sweep)."""

from __future__ import annotations

from openapps_sim.tasks.described import kit

from openapps_sim.taskkit import UI, all_families, evaluate, instantiate
from openapps_sim.web.world import World

APPS = sorted(kit.described_apps())


def _of(app: str, marker: str) -> list[str]:
    return sorted(f for f in all_families() if f.startswith(f"{app}.") and marker in f)


def test_every_described_app_gets_the_kinds_its_description_allows():
    assert len(APPS) == 58
    for app in APPS:
        desc = kit.described_apps()[app]
        assert len(_of(app, ".open_")) == 1, app
        assert len(_of(app, ".if_")) == 1, app
        assert _of(app, ".sequence") == [f"{app}.sequence"], app
        assert len(_of(app, ".long_")) == 1, app
        assert len(_of(app, "_then_todo")) == 1, app  # every app has a change of a record
        colls = desc["collections"].values()
        priced = any(c["price"] and (c["filter"] or c["tabs"]) for c in colls)
        assert len(_of(app, ".average_")) == len(_of(app, ".extreme_")) == int(priced), app
        dated = [n for n, fl in desc["flows"].items()
                 if any(desc["collections"][fl["creates"]]["fields"][f]["type"] == "date" for f in fl["fields"])]  # fmt: skip
        assert _of(app, "_then_event") == sorted(f"{app}.{n}_then_event" for n in dated), app
    markers = (".average_", ".difference_", "_then_event", "_then_message")
    counts = {m: sum(len(_of(a, m)) for a in APPS) for m in markers}
    # 46 difference: stockroom's reorder list (a price, four lines) derives stockroom.difference_line
    assert counts == {".average_": 38, ".difference_": 46, "_then_event": 9, "_then_message": 11}


def test_the_long_family_needs_at_least_20_oracle_steps_in_every_app():
    world = World()
    world.reset("default", 0)
    for app in APPS:
        (fid,) = _of(app, ".long_")
        fam = all_families()[fid]
        inst = instantiate(fam, world.state, world.config, 0, "default", "en")
        steps = list(fam.solve(inst.params, UI))
        assert len(steps) >= 20, (fid, len(steps))
        assert len({a["id"] for a in inst.params["steps"]}) == 8, fid
        assert len(inst.milestones) >= 9, fid  # the app opened, then each record changed
        assert fam.max_steps >= len(steps) + 10, fid
        assert evaluate(fam, inst, inst.initial).reward == 0, fid


def test_a_conditional_has_both_leaves_and_a_sequence_keeps_its_order():
    world = World()
    world.reset("default", 0)
    for app in ("banking", "recipes", "hotels"):
        (fid,) = _of(app, ".if_")
        fam = all_families()[fid]
        leaves = {instantiate(fam, world.state, world.config, s, "default", "en").params["branch"] for s in range(8)}
        assert leaves == {"yes", "no"}, fid
        assert fam.structure == "conditional" and fam.category == "decision"
        seq = all_families()[f"{app}.sequence"]
        assert seq.ordered and seq.structure == "sequential"
        inst = instantiate(seq, world.state, world.config, 0, "default", "en")
        assert len(inst.params["steps"]) >= 2 and inst.ordered
        assert "(1)" in inst.goal and "(2)" in inst.goal


def test_the_goals_are_phrased_in_every_shipped_language():
    world = World()
    for pack in ("german", "french", "spanish", "italian", "mandarin", "arabic"):
        world.reset(pack, 0)
        for fid in _of("banking", ""):
            fam = all_families()[fid]
            inst = instantiate(fam, world.state, world.config, 0, pack, "auto")
            assert not inst.fallbacks, (fid, pack, inst.fallbacks)
            assert "{" not in inst.goal, (fid, inst.goal)


def test_the_described_apps_are_each_calls_own_dict_and_follow_a_new_discovery(monkeypatch):
    """``kit.described_apps`` gathers the descriptions once per discovery of the apps: a caller
    may change the dict it got without another seeing it, and apps discovered anew are read anew."""
    from openapps_sim.config import discovery

    first = kit.described_apps()
    first.pop("banking")
    again = kit.described_apps()
    assert "banking" in again and again is not first and len(again) == 58
    assert again["banking"] is discovery.discover_apps()["banking"].desc
    only = {"banking": discovery.discover_apps()["banking"], "todo": discovery.discover_apps()["todo"]}
    monkeypatch.setattr(discovery, "discover_apps", lambda: only)
    assert kit.described_apps() == {"banking": only["banking"].desc}
