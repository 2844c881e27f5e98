"""Described apps (docs/apps/spec.md): the format check reports every problem at once, the
search path finds an app outside the package, the listing, the pages and operations, and every
kind of pack applying to a described app unchanged. Text only: no browser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from starlette.testclient import TestClient

from openapps_sim.cli.main import main
from openapps_sim.config.discovery import check_app_folder, discover_apps, require_apps
from openapps_sim.errors import ConfigError, ConfigErrors
from openapps_sim.web import server
from openapps_sim.web.world import World

from .sample_apps import PLANTS
from .shared_fixtures import app_search_path, world_client

LIBRARY = Path(__file__).resolve().parent.parent / "apps" / "described" / "library"


app_path = app_search_path()  # a folder on OPENAPPS_APPS, caches cleared before and after


def _broken(tmp_path: Path) -> Path:
    raw = yaml.safe_load((LIBRARY / "banking" / "app.yaml").read_text(encoding="utf-8"))
    raw["category"] = "Banking"
    raw["colour"] = "red"
    raw["collections"]["transactions"]["title"] = "payer"
    raw["collections"]["accounts"]["records"][0]["kind"] = "checking"
    raw["flows"]["transfer"]["creates"] = "transfers"
    raw["strings"]["de"]["transactions.payer"] = "Zahler"
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "app.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return folder


def test_the_check_reports_every_problem_at_once(tmp_path):
    with pytest.raises(ConfigErrors) as err:
        check_app_folder(_broken(tmp_path))
    found = {(e.path, e.problem.split(" (")[0]): e for e in err.value.errors}
    assert set(found) == {
        ("category", "unknown value 'Banking'"),
        ("colour", "unknown key"),
        ("collections.transactions.title", "unknown text field 'payer'"),
        ("collections.transactions.records[0].payer", "a record needs its title field"),
        ("collections.transactions.records[1].payer", "a record needs its title field"),
        ("collections.accounts.records[0].kind", "'checking' is no value of this field"),
        ("flows.transfer.creates", "unknown collection 'transfers'"),
        ("strings.de.transactions.payer", "unknown text key 'transactions.payer'"),
    }, sorted(found)
    assert all(e.source.endswith("broken/app.yaml") for e in err.value.errors)
    assert found[("collections.accounts.records[0].kind", "'checking' is no value of this field")].allowed == (
        "current, savings, credit"
    )
    assert found[("collections.transactions.title", "unknown text field 'payer'")].allowed == "payee"
    assert "Finance" in found[("category", "unknown value 'Banking'")].allowed


def test_openapps_apps_check_prints_each_problem_on_a_line(tmp_path, capsys):
    code = main(["apps", "check", str(_broken(tmp_path))])
    err = capsys.readouterr().err
    assert code != 0
    lines = [ln for ln in err.splitlines() if "broken/app.yaml: " in ln]
    assert len(lines) == 8, err
    assert any("flows.transfer.creates: unknown collection 'transfers'" in ln for ln in lines), err


def test_the_shipped_apps_pass_the_check(capsys):
    for name in ("banking", "recipes", "hotels"):
        assert main(["apps", "check", str(LIBRARY / name)]) == 0
    assert "app 'hotels' (Travel & Local) is valid" in capsys.readouterr().out


def test_the_search_path_finds_an_app_outside_the_package(app_path):
    (app_path / "plants").mkdir()
    (app_path / "plants" / "app.yaml").write_text(PLANTS, encoding="utf-8")
    apps = discover_apps()
    assert apps["plants"].category == "House & Home" and apps["plants"].source == "described"
    world = World()
    world.reset("default", 0)
    assert [p["name"] for p in world.app_state("plants")["plants"]] == ["Monstera", "Fern"]
    client = TestClient(server.build_app(world))
    assert 'data-testid="launch-plants"' in client.get("/").text
    client.post("/plants/c/plants/new", data={"name": "Basil", "room": "kitchen"})
    client.post("/plants/c/plants/plant-1/toggle/thirsty")
    assert [(p["name"], p["thirsty"]) for p in world.app_state("plants")["plants"]] == [
        ("Monstera", True),
        ("Fern", True),
        ("Basil", False),
    ]


def test_an_app_may_not_take_the_name_of_another(app_path):
    (app_path / "todo").mkdir()
    (app_path / "todo" / "app.yaml").write_text(PLANTS, encoding="utf-8")
    assert "todo" in discover_apps() and getattr(discover_apps()["todo"], "source", "") != "described"  # left out
    with pytest.raises(ConfigError, match="todo/app.yaml: name: 'todo' is the name of another app"):
        require_apps()


def test_the_listing_names_category_source_and_families(capsys):
    assert main(["apps", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["todo"]["category"] == "Productivity" and rows["todo"]["source"] == "hand-built"
    assert rows["maps"]["category"] == "Maps & Navigation"
    assert rows["banking"]["category"] == "Finance" and rows["banking"]["source"] == "described"
    assert {"banking.transfer", "banking.create_transaction", "banking.count_transaction"} <= set(
        rows["banking"]["families"]
    )
    assert rows["hotels"]["category"] == "Travel & Local" and "hotels.book" in rows["hotels"]["families"]
    assert all(len(rows[a]["families"]) >= 8 for a in ("banking", "recipes", "hotels"))
    assert "start" not in rows


client = world_client("module")


def test_every_page_of_the_described_apps_renders(client):
    world, http = client
    for name in ("banking", "recipes", "hotels"):
        spec = discover_apps()[name]
        pages = ["/", *(s.path for s in spec.showcase(world.app_state(name), world.config[name]))]
        for path in pages:
            page = http.get(f"/{name}{path}")
            assert page.status_code == 200, (name, path)
        assert len(pages) >= 5, (name, pages)


def test_operations_change_the_state_and_nothing_before_the_confirm(client):
    world, http = client
    accounts = world.app_state("banking")["accounts"]
    assert accounts[0]["balance"] == 2418.35
    form = {"account": "account-1", "payee": "Maria Keller", "amount": "50"}
    review = http.post("/banking/flow/transfer/review", data=form)
    assert 'data-testid="banking-confirm"' in review.text and accounts[0]["balance"] == 2418.35
    done = http.post("/banking/flow/transfer/confirm", data=form, follow_redirects=False)
    assert done.status_code == 303 and accounts[0]["balance"] == 2368.35
    made = world.app_state("banking")["transactions"][-1]
    assert (made["payee"], made["amount"], made["category"], made["account"]) == (
        "Maria Keller",
        50.0,
        "transfer",
        "account-1",
    )
    shopping = world.app_state("recipes")["shopping"]
    http.post("/recipes/c/shopping/ingredient-3/qty/quantity", data={"by": "1"})
    assert shopping[2]["ingredient"] == "Chickpeas (tin)" and shopping[2]["quantity"] == 4
    http.post("/hotels/c/bookings/booking-1/status/status", data={"value": "cancelled"})
    assert world.app_state("hotels")["bookings"][0]["status"] == "cancelled"


def test_each_world_seed_draws_other_records():
    one, two = World(), World()
    one.reset("default", 0)
    two.reset("default", 1)
    titles = [[t["payee"] for t in w.app_state("banking")["transactions"]] for w in (one, two)]
    assert len(titles[0]) == 26 and titles[0][:2] == titles[1][:2] and titles[0][2:] != titles[1][2:]


def test_every_kind_of_pack_applies_to_a_described_app():
    world = World()
    http = TestClient(server.build_app(world))
    world.reset("german", 0)
    page = http.get("/banking/").text
    assert 'lang="de"' in page and "Umsätze" in page and "Suchen" in page and "Lebensmittel" in page
    world.reset("mandarin", 0)
    assert "交易" in http.get("/banking/").text and "搜索" in http.get("/banking/").text
    world.reset("mobile", 0)
    assert re.search(r'<body class="layout-mobile', http.get("/recipes/").text)
    world.reset("dark_theme", 0)
    dark = world.config["theme"]["colors"]["background"]
    assert dark != "#f4f5f7" and dark in http.get("/hotels/").text
    world.reset("interrupt_cookies", 0)
    assert "cookies_wall" in world.config["interruptions"]


def test_records_may_come_from_a_data_file_beside_the_description(tmp_path):
    folder = tmp_path / "plants"
    folder.mkdir()
    (folder / "app.yaml").write_text(
        PLANTS.replace("    records:\n", "    records: plants.csv\n    old:\n"), encoding="utf-8"
    )
    (folder / "plants.csv").write_text("name,room,thirsty\nMonstera,kitchen,yes\nFern,bedroom,\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:  # the rows left under `old:` are an unknown key
        check_app_folder(folder)
    assert [(e.path, e.problem.split(" (")[0]) for e in err.value.each()] == [("collections.plants.old", "unknown key")]
    (folder / "app.yaml").write_text(PLANTS.split("    records:\n")[0] + "    records: plants.csv\n", encoding="utf-8")
    app = check_app_folder(folder)
    import random

    state = app.initial_state({}, random.Random(0))
    assert [(p["name"], p["room"], p["thirsty"]) for p in state["plants"]] == [
        ("Monstera", "kitchen", True),
        ("Fern", "bedroom", False),
    ]
    (folder / "plants.csv").write_text("name,room\nMonstera,garden\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"collections.plants.records\[0\].room: 'garden' is no value of this field"):
        check_app_folder(folder)
