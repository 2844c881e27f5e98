"""The start page with 64 apps: a search box and a row of categories narrow the tiles (issue 38).
Text backend, through the environment an agent uses."""

from __future__ import annotations

import pytest
from openapps_sim.apps.start.views import category_slug

from openapps_sim.config.catalog import compose, discover_apps
from openapps_sim.config.categories import CATEGORIES
from openapps_sim.envs.registration import make_env
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit.observation import testid_bids, testid_texts


@pytest.fixture(scope="module")
def env():
    e = make_env("start.navigate_to_app", backend="text")
    yield e
    e.close()


def _tiles(obs: dict) -> set[str]:
    return {t.removeprefix("launch-") for t in testid_bids(obs) if t.startswith("launch-") and "-desc-" not in t}


def _search(env, text: str, variation: str = "default") -> dict:
    obs, _ = env.reset(seed=0, options={"task_kwargs": {"variation": variation}})
    bids = testid_bids(obs)
    obs, *_ = env.step(f"fill({bids['start-search']!r}, {text!r})")
    obs, *_ = env.step(f"click({testid_bids(obs)['start-search-submit']!r})")
    return obs


def test_the_start_page_shows_every_app_and_a_search_and_categories(env):
    obs, _ = env.reset(seed=0)
    apps = [a for a, s in discover_apps().items() if not s.home]
    assert _tiles(obs) == set(apps) and len(apps) >= 64
    bids = testid_bids(obs)
    assert {"start-search", "start-search-submit", "launcher-categories", "launcher-category-all"} <= set(bids)
    assert "launcher-category-finance" in bids and "launcher-category-maps-and-navigation" in bids


def test_a_search_keeps_the_apps_whose_title_description_or_category_match(env):
    obs = _search(env, "bank")
    assert "banking" in _tiles(obs) and "todo" not in _tiles(obs)
    obs = _search(env, "FINANCE")  # a category's name, case folded
    finance = {a for a, s in discover_apps().items() if s.category == "Finance"}
    assert finance <= _tiles(obs)
    obs = _search(env, "no app is called this")
    assert _tiles(obs) == set() and testid_texts(obs)["launcher-empty"] == "No app matches your search."


def test_a_category_narrows_the_tiles_and_a_tile_still_opens_its_app(env):
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(f"click({testid_bids(obs)['launcher-category-' + category_slug('Finance')]!r})")
    finance = {a for a, s in discover_apps().items() if s.category == "Finance"}
    assert _tiles(obs) == finance and len(finance) >= 2
    obs, *_ = env.step(f"click({testid_bids(obs)['launch-banking']!r})")
    assert obs["url"].endswith("/banking/")


def test_the_launchers_words_follow_the_language_pack(env):
    obs = _search(env, "nichts passt hierzu", "german")
    assert testid_texts(obs)["launcher-empty"] == "Keine App passt zu deiner Suche."
    assert "Alle Apps" in testid_texts(obs)["launcher-category-all"]


def test_the_categories_are_named_and_searched_in_the_worlds_language(env):
    obs, _ = env.reset(seed=0, options={"task_kwargs": {"variation": "german"}})
    texts = testid_texts(obs)
    assert texts["launcher-category-maps-and-navigation"] == "Karten & Navigation"
    assert texts["launcher-category-finance"] == "Finanzen"
    chips = [t for t in texts if t.startswith("launcher-category-") and t != "launcher-category-all"]
    shown = [texts[t] for t in chips]
    assert shown == sorted(shown, key=str.casefold) and "Finance" not in shown  # in German order
    obs, *_ = env.step(f"click({testid_bids(obs)['launcher-category-finance']!r})")
    finance = {a for a, s in discover_apps().items() if s.category == "Finance"}
    assert _tiles(obs) == finance and "category=Finance" in obs["url"]  # the link keeps Play's name
    obs = _search(env, "finanzen", "german")
    assert finance <= _tiles(obs)


@pytest.mark.parametrize("pack", ["arabic", "french", "german", "italian", "mandarin", "spanish"])
def test_every_language_pack_names_every_category(pack):
    names = compose(pack)["start"]["category_names"]
    assert sorted(names) == sorted(CATEGORIES) and len(set(names.values())) == len(CATEGORIES)


def test_a_category_no_app_store_has_is_one_error(pack_dir):
    (pack_dir / "cats.yaml").write_text("start:\n  category_names: {Finanze: Finanzen}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        compose("cats")
    assert err.value.source.endswith("cats.yaml") and err.value.path == "start.category_names.Finanze"
    assert "unknown key 'Finanze' (did you mean Finance?)" in err.value.problem, err.value.problem
    assert err.value.allowed.startswith("Art & Design, Auto & Vehicles"), err.value.allowed
