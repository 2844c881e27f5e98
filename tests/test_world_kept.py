"""What a world's reset keeps across worlds (``config.catalog``: each app's initial state by the
app, the seed and its config section; a config's value by its text): every reset is the world
it names, whatever worlds came before, and no world can change another's."""

from __future__ import annotations

import json
import random

from openapps_sim.config import catalog
from openapps_sim.config.discovery import discover_apps
from openapps_sim.web.world import World

from .sample_apps import PLANTS
from .shared_fixtures import app_search_path, clear_app_caches

# packs in an order that goes back and forth between sections that differ (the language) and
# sections that are the same (a theme, an interruption), seeds too
ROUND = [("default", 0), ("german", 0), ("dark_theme", 0), ("german", 1), ("default", 1), ("interrupt_cookies", 0)]


def _drawn(variation: str, seed: int) -> dict:
    """The world's state as the app contract defines it: each app's ``initial_state`` under its
    config section and the random stream named ``<seed>:<app>``, as JSON gives it back."""
    config = catalog.compose(variation)
    return {
        name: json.loads(json.dumps(app.initial_state(config[name], random.Random(f"{seed}:{name}"))))
        for name, app in discover_apps().items()
    }


def test_each_reset_is_the_state_of_its_own_pack_and_seed():
    world = World()
    for variation, seed in ROUND + ROUND:
        world.reset(variation, seed)
        want = _drawn(variation, seed)
        if variation.startswith("interrupt"):
            want["device"] = world.app_state("device")
        assert world.state == want, (variation, seed)
        assert world.config == catalog.compose(variation)
    world.reset("german", 0)
    assert world.app_state("todo")["items"][0]["title"] == "Wocheneinkauf erledigen"
    world.reset("default", 0)
    assert world.app_state("todo")["items"][0]["title"] == "Buy groceries for the week"


def test_the_state_json_is_the_worlds_state():
    for variation, seed in ROUND:
        assert json.loads(catalog.initial_state_json(variation, (), seed)) == _drawn(variation, seed)


def test_no_world_changes_another_nor_the_next_reset():
    one, two = World(), World()
    one.reset("dark_theme", 2)
    two.reset("default", 2)  # the same sections: the same kept states underneath
    assert one.state == two.state
    for app in ("todo", "banking", "clips"):
        for key, value in one.app_state(app).items():
            if isinstance(value, (list, dict)):
                assert value is not two.app_state(app)[key], (app, key)
    banking = one.app_state("banking")
    collection = next(k for k, v in banking.items() if isinstance(v, list) and v)
    banking[collection][0]["changed"] = "by one"
    banking[collection].append({"id": "extra"})
    one.app_state("todo")["items"].clear()
    one.config["banking"]["title"] = "Changed by one"
    one.config["theme"]["layout"] = "changed"
    assert "changed" not in two.app_state("banking")[collection][0] and two.app_state("todo")["items"]
    assert two.config["banking"]["title"] == "Ledger Bank" and two.config["theme"]["layout"] != "changed"
    one.reset("dark_theme", 2)
    assert one.state == two.state and one.config["banking"]["title"] == "Ledger Bank"
    assert one.config == catalog.compose("dark_theme")


app_path = app_search_path()  # a folder on OPENAPPS_APPS, caches cleared before and after


def test_an_app_described_anew_starts_from_its_new_records(app_path):
    """The same name, title and config section, other records: a state kept for the old app
    is not the new one's."""
    (app_path / "plants").mkdir()
    for name in ("Aloe", "Cactus"):
        (app_path / "plants" / "app.yaml").write_text(PLANTS.replace("Monstera", name), encoding="utf-8")
        clear_app_caches()
        world = World()
        world.reset("default", 0)
        assert [p["name"] for p in world.app_state("plants")["plants"]] == [name, "Fern"]
        assert json.loads(catalog.initial_state_json("default", (), 0))["plants"]["plants"][0]["name"] == name
