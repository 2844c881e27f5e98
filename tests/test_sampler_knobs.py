"""Generated packs differ in structure too: they draw the apps' structural knobs (schema
fields marked ``vary``) and build on private packs from ``OPENAPPS_VARIATIONS``."""

from __future__ import annotations

import pytest

import openapps_sim.config.catalog as catalog
from openapps_sim.config import packs, sampler
from openapps_sim.config.catalog import compose

EXPECTED_KNOBS = {
    ("calendar", "week_start"),
    ("calendar", "clock"),
    ("shop", "page_size"),
    ("messenger", "show_previews"),
    ("code_editor", "folders_first"),
    ("start", "tile_order"),
}


def _clear_caches() -> None:
    catalog.composed_json.cache_clear()
    catalog.initial_state_json.cache_clear()
    packs._load_pack_file.cache_clear()


def test_the_apps_declare_their_structural_knobs():
    found = {(app, key) for app, fields in sampler.knobs().items() for key in fields}
    assert EXPECTED_KNOBS <= found
    for app, fields in sampler.knobs().items():
        for key, values in fields.items():
            assert len(set(values)) >= 2, f"{app}.{key} has nothing to draw from"


def test_generated_packs_draw_every_knob_both_ways():
    names = sampler.sample_names(60, 11)
    seen: dict[tuple[str, str], set] = {}
    for name in names:
        cfg = compose(name)
        for app, fields in sampler.knobs().items():
            for key in fields:
                seen.setdefault((app, key), set()).add(repr(cfg[app][key]))
    for knob, values in seen.items():
        assert len(values) >= 2, f"{knob} is the same in 60 generated packs"


def test_generated_knobs_are_deterministic_and_written_to_files(tmp_path):
    assert sampler.sample_pack_dict("random-4-2") == sampler.sample_pack_dict("random-4-2")
    sampler.write_samples(3, 4, tmp_path)
    for i in range(3):
        name = f"random-4-{i}"
        from_file = compose(str(tmp_path / f"{name}.yaml"))
        assert from_file == compose(name)


@pytest.fixture()
def private_dir(tmp_path, monkeypatch):
    (tmp_path / "office.yaml").write_text(
        "description: A private pack.\ntodo:\n  title: Office tasks\n", encoding="utf-8"
    )
    monkeypatch.setenv("OPENAPPS_VARIATIONS", str(tmp_path))
    _clear_caches()
    yield tmp_path
    _clear_caches()


def test_generated_packs_include_private_packs(private_dir):
    names = sampler.sample_names(40, 2)
    using = [n for n in names if "office" in sampler.sample_pack_dict(n)["extends"]]
    assert 5 <= len(using) <= 25
    assert compose(using[0])["todo"]["title"] == "Office tasks"


def test_without_private_packs_none_is_drawn(monkeypatch):
    monkeypatch.delenv("OPENAPPS_VARIATIONS", raising=False)
    assert sampler.private_packs() == []
    for name in sampler.sample_names(20, 2):
        assert set(sampler.sample_pack_dict(name)["extends"]) <= set(packs.language_packs()) | set(
            sampler.DESCRIPTION_PACKS
        )
