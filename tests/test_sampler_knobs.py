"""Generated packs differ in structure too: they draw the apps' structural knobs (schema
fields marked ``vary``) and build on packs from a fixed pool: the shipped packs, or a pool file
the user names (never whatever else is on ``OPENAPPS_VARIATIONS``)."""

from __future__ import annotations

import pytest

import openapps_sim.config.catalog as catalog
from openapps_sim.config import packs, pool, sampler
from openapps_sim.config.catalog import compose
from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import EpisodeSpec, new_record

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
    """A folder of private packs on ``OPENAPPS_VARIATIONS``: a content pack and a language pack."""
    packs_dir = tmp_path / "packs"
    packs_dir.mkdir()
    (packs_dir / "office.yaml").write_text(
        "description: A private pack.\ntodo:\n  title: Office tasks\n", encoding="utf-8"
    )
    (packs_dir / "klingon").mkdir()
    (packs_dir / "klingon" / "pack.yaml").write_text(
        "description: A private language.\nshell: {lang: tlh}\n", encoding="utf-8"
    )
    monkeypatch.delenv(pool.POOL_ENV, raising=False)
    monkeypatch.setenv("OPENAPPS_VARIATIONS", str(packs_dir))
    _clear_caches()
    yield packs_dir
    _clear_caches()


NAMES = [f"random-0-{i}" for i in range(60)]


def test_private_packs_on_the_search_path_never_change_a_generated_version(private_dir, monkeypatch):
    """On 97af659 one private language pack on OPENAPPS_VARIATIONS turned 22 of random-0-0 ...
    random-0-59 into other worlds: generated packs drew from every pack on the search path."""
    assert {"office", "klingon"} <= set(packs.list_packs())  # found, usable by name
    (private_dir / "broken.yaml").write_text("description: [unclosed\n", encoding="utf-8")  # not even read
    with_private = [compose(n) for n in NAMES]
    with_private_ids = {pool.pool_of(n) for n in NAMES}
    monkeypatch.delenv("OPENAPPS_VARIATIONS")
    _clear_caches()
    assert [compose(n) for n in NAMES] == with_private
    assert with_private_ids == {pool.shipped_pool().id} and pool.shipped_pool().id.startswith("shipped-")
    assert "klingon" not in pool.shipped_pool().languages


def test_a_named_pool_adds_private_packs_and_is_recorded(private_dir, tmp_path, monkeypatch):
    pool_file = tmp_path / "office_pool.yaml"
    pool_file.write_text("description: ours\nlanguages: [klingon, german]\nextras: [office]\n", encoding="utf-8")
    shipped = [sampler.sample_pack_dict(n) for n in NAMES]
    monkeypatch.setenv(pool.POOL_ENV, str(pool_file))
    _clear_caches()
    drawn = [sampler.sample_pack_dict(n) for n in NAMES]
    using = [n for n, d in zip(NAMES, drawn, strict=True) if "office" in d["extends"]]
    assert 8 <= len(using) <= 32 and drawn != shipped
    assert compose(using[0])["todo"]["title"] == "Office tasks"
    assert all(set(d["extends"]) <= {"klingon", "german", "office", *pool.DESCRIPTION_PACKS} for d in drawn)
    ours = pool.active_pool()
    assert ours.id.startswith("office_pool-") and ours.id != pool.shipped_pool().id
    spec = EpisodeSpec(agent="random", task="todo.add_item", world=WorldSpec(f"dark_theme+{NAMES[3]}", 0))
    assert new_record(spec, "r", 1)["variation_pool"] == ours.id
    assert new_record(EpisodeSpec(agent="random", task="todo.add_item"), "r", 1)["variation_pool"] is None
    ours_id = spec.episode_id
    plain = EpisodeSpec(agent="random", task="todo.add_item", world=WorldSpec("dark_theme", 0))
    plain_id = plain.episode_id
    monkeypatch.delenv(pool.POOL_ENV)
    _clear_caches()
    assert new_record(spec, "r", 1)["variation_pool"] == pool.shipped_pool().id
    # the same name under another pool is another world: --resume must not take one for the other
    assert spec.episode_id != ours_id
    assert plain.episode_id == plain_id  # a version that generates nothing keeps its id


@pytest.mark.parametrize(
    "text, key, words",
    [
        ("languages: [office]\n", "languages", "'office' is not a language pack"),
        ("extras: [nowhere]\n", "extras", "'nowhere' is not a pack on the search path"),
        ("extras: office\n", "extras", "expected a list of pack names"),
        ("packs: [office]\n", "packs", "unknown key"),
    ],
)
def test_a_wrong_pool_file_is_one_clear_message(private_dir, tmp_path, monkeypatch, text, key, words):
    pool_file = tmp_path / "bad_pool.yaml"
    pool_file.write_text(text, encoding="utf-8")
    monkeypatch.setenv(pool.POOL_ENV, str(pool_file))
    with pytest.raises(ConfigError) as err:
        sampler.sample_pack_dict("random-1-1")
    assert err.value.source.endswith("bad_pool.yaml") and err.value.path == key and words in str(err.value)
    monkeypatch.setenv(pool.POOL_ENV, str(tmp_path / "missing.yaml"))
    with pytest.raises(ConfigError, match="does not exist"):
        sampler.sample_pack_dict("random-1-1")


def test_without_private_packs_none_is_drawn(monkeypatch):
    monkeypatch.delenv("OPENAPPS_VARIATIONS", raising=False)
    monkeypatch.delenv(pool.POOL_ENV, raising=False)
    for name in sampler.sample_names(20, 2):
        assert set(sampler.sample_pack_dict(name)["extends"]) <= set(packs.language_packs()) | set(
            sampler.DESCRIPTION_PACKS
        )
