"""A variant's own generator (docs/apps/spec.md, "Keys": ``variants``): values that belong
together are drawn together, so a generated record is coherent: a city in its country with the
season's temperatures, a match between two teams of its league whose date, score and status
agree, a trip's stop in its city on its days at the hour of its kind. ``openapps apps check``
names a broken one. Text only."""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pytest
import yaml

from openapps_sim.config.discovery import check_app_folder
from openapps_sim.web.world import World

from .sample_apps import PLANTS
from .shared_fixtures import check_problems

SEEDS = range(8)
LIBRARY = Path(__file__).resolve().parent.parent / "apps" / "described" / "library"


def _states(app: str):
    for seed in SEEDS:
        world = World()
        world.reset("default", seed)
        yield world.app_state(app)


def test_a_city_is_drawn_in_its_country_with_its_seasons_temperatures():
    variants = {
        "Germany": ("Hamburg", -3, 9),
        "Canada": ("Calgary", -16, 3),
        "Australia": ("Darwin", 15, 34),
        "Brazil": ("Manaus", 19, 33),
    }
    seen = set()
    for state in _states("weather"):
        places = state["places"]
        assert len(places) >= 20 and len({p["city"] for p in places}) == len(places)
        for place in places[6:]:  # the generated ones
            if place["country"] in variants:
                _, lo, hi = variants[place["country"]]
                assert lo <= place["temperature"] <= hi, place
                seen.add(place["country"])
            assert not (place["condition"] == "snow" and place["temperature"] > 9), place
    assert seen == set(variants)


def test_a_match_is_coherent():
    leagues = {"premier": "Liverpool", "bundesliga": "Freiburg"}
    for state in _states("scores"):
        for match in state["matches"][5:]:
            day = datetime.date.fromisoformat(match["kickoff"])
            if match["status"] == "scheduled":
                assert match["score"] == "–" and day > datetime.date(2026, 11, 28), match
            elif match["status"] == "finished":
                assert match["score"] != "–" and day < datetime.date(2026, 11, 28), match
            home, away = match["fixture"].split(" v ")
            assert home != away
        by_league = {m["league"]: m["fixture"] for m in state["matches"]}
        assert all(league in by_league for league in leagues)
    raw = yaml.safe_load(LIBRARY.joinpath("scores", "app.yaml").read_text(encoding="utf-8"))
    teams = {v["league"]: set(sum(v["fixture"]["combine"], [])) for v in raw["collections"]["matches"]["variants"]}
    for state in _states("scores"):
        for match in state["matches"][5:]:
            assert set(match["fixture"].split(" v ")) <= teams[match["league"]], match


def test_a_trips_stop_is_in_its_city_on_its_days_at_its_hour():
    for state in _states("itinerary"):
        trips = {t["id"]: t for t in state["trips"]}
        for stop in state["stops"][5:]:
            trip = trips[stop["trip"]]
            first = datetime.date.fromisoformat(trip["starts"])
            day = datetime.date.fromisoformat(stop["day"])
            assert first <= day <= first + datetime.timedelta(days=trip["nights"]), (stop, trip)
            if stop["name"].startswith("Dinner"):
                assert stop["time"] >= "18:30", stop
            if stop["name"].startswith("Lunch"):
                assert "12:00" <= stop["time"] <= "15:00", stop
        assert len({s["name"] for s in state["stops"]}) == len(state["stops"])


def _with_variants(variants: str) -> str:
    return PLANTS.replace("    records:\n", f"    count: 3\n    variants:\n{variants}    records:\n", 1).replace(
        "      name: {type: text}\n", "      name: {type: text}\n      height: {type: number, default: 1}\n"
    )


def test_a_variant_generator_draws_its_own_values(tmp_path):
    variants = (
        "      - {room: kitchen, name: {pool: [Basil, Mint, Thyme]}, height: {range: [5, 9]}}\n"
        "      - {room: bedroom, name: {pool: [Fern, Calathea]}, height: {range: [40, 60], step: 10}}\n"
    )
    (tmp_path / "leafy").mkdir()
    (tmp_path / "leafy" / "app.yaml").write_text(_with_variants(variants), encoding="utf-8")

    app = check_app_folder(tmp_path / "leafy")
    for seed in range(10):
        for plant in app.initial_state({}, random.Random(seed))["plants"][2:]:
            if plant["room"] == "kitchen":
                assert plant["name"] in ("Basil", "Mint", "Thyme") and 5 <= plant["height"] <= 9, plant
            else:
                assert plant["name"] in ("Fern", "Calathea") and plant["height"] in (40, 50, 60), plant


BAD_VARIANTS = [
    ("{pool: [attic]}", "room", "collections.plants.variants[0].room.pool[0]: 'attic' is no value of this field"),
    ("{range: [1, 2], ranges: 3}", "height", "collections.plants.variants[0].height.ranges: unknown key"),
    ("{times: [height]}", "height", "collections.plants.variants[0].height: a variant draws, it does not compute"),
]


@pytest.mark.parametrize("gen,field,message", BAD_VARIANTS, ids=[g for g, _, _ in BAD_VARIANTS])
def test_apps_check_names_a_broken_variant_generator(tmp_path, gen, field, message):
    lines = check_problems(tmp_path / "leafy", _with_variants(f"      - {{{field}: {gen}}}\n"))
    assert any(line.startswith(message) for line in lines), lines
