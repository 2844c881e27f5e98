"""Rules of the described-app engine (docs/apps/spec.md) that the library once worked around:
a broken app.yaml breaks no other command, and the defects fixed with it. Text only."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from openapps_sim.apps.described.values import initials
from openapps_sim.tasks.described.kit import said
from starlette.testclient import TestClient

from openapps_sim.config.discovery import check_app_folder, discover_apps
from openapps_sim.errors import ConfigError
from openapps_sim.web import server
from openapps_sim.web.world import World

from .cli_process import openapps
from .sample_apps import PLANTS
from .shared_fixtures import app_search_path

ROOT = Path(__file__).resolve().parent.parent
# a small app that derives the 8 families an app needs (apps check passes it)
PLANTS_FULL = """
title: Windowsill
category: House & Home
collections:
  pots:
    label: Pots
    title: nickname
    filter: spot
    fields:
      nickname: {type: text}
      spot: {type: choice, choices: [kitchen, bedroom]}
      water_every: {type: number, unit: days, default: 7}
    actions: {create: true, edit: [spot, water_every], delete: true}
    records:
      - {nickname: Monstera, spot: kitchen, water_every: 7}
      - {nickname: Fern, spot: bedroom, water_every: 3}
settings:
  reminders: {type: boolean, label: Watering reminders, default: true}
"""
# an unquoted comma in a flow map: YAML reads `b` as a key of its own
BAD_KEY = """
title: Broken
category: Tools
collections:
  things:
    label: Things
    title: name
    fields:
      name: {type: text, label: a, b}
"""
BAD_SYNTAX = "title: Broken\ncategory: Tools\ncollections: {things: [\n"


def _cli(args: list[str], apps: Path) -> subprocess.CompletedProcess:
    return openapps(*args, cwd=ROOT, env={**os.environ, "OPENAPPS_APPS": str(apps)}, timeout=300)


@pytest.mark.parametrize("broken", [BAD_KEY, BAD_SYNTAX], ids=["format", "syntax"])
def test_one_broken_app_breaks_no_command(tmp_path, broken):
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "app.yaml").write_text(broken, encoding="utf-8")
    (tmp_path / "plants").mkdir()
    (tmp_path / "plants" / "app.yaml").write_text(PLANTS_FULL, encoding="utf-8")
    where = str(tmp_path / "broken" / "app.yaml")
    commands = (
        ["tasks"],
        ["apps"],
        ["sweep", "demo", "--out", str(tmp_path / "out")],
        ["apps", "check", str(tmp_path / "broken")],
    )
    for args in commands:
        run = _cli(args, tmp_path)
        assert run.returncode == 2, (args, run.stderr)
        assert "Traceback" not in run.stderr, (args, run.stderr)
        lines = run.stderr.strip().splitlines()
        assert lines and all(line.startswith(f"openapps: error: {where}") for line in lines), (args, lines)
    other = _cli(["apps", "check", str(tmp_path / "plants")], tmp_path)
    assert other.returncode == 0, other.stderr
    assert "app 'plants' (House & Home) is valid" in other.stdout
    assert "Traceback" not in other.stderr


app_path = app_search_path()  # a folder on OPENAPPS_APPS, caches cleared before and after


def _app(folder: Path, name: str, text: str) -> None:
    (folder / name).mkdir()
    (folder / name / "app.yaml").write_text(text, encoding="utf-8")


# fields named like the arguments of the engine's calls (ctx.log, an operation, its log entry)
CLASHES = """
title: Shelf
category: Books & Reference
collections:
  books:
    label: Books
    title: name
    fields:
      name: {type: text}
      title: {type: text}
      ctx: {type: text}
      self: {type: text}
      changed: {type: text}
      by: {type: number}
      value: {type: boolean}
    actions: {create: true, edit: [title, ctx, self, changed, by], toggle: [value]}
    records:
      - {name: Dune, title: Dr, ctx: a, self: b, changed: c, by: 1}
"""


def test_fields_may_have_the_names_of_the_engines_arguments(app_path):
    _app(app_path, "shelf", CLASHES)
    world = World()
    world.reset("default", 0)
    http = TestClient(server.build_app(world))
    made = {"name": "Emma", "title": "Mrs", "ctx": "x", "self": "y", "changed": "z", "by": "2"}
    assert http.post("/shelf/c/books/new", data=made).status_code == 200
    edit = {"title": "Miss", "ctx": "x2", "self": "y2", "changed": "z2", "by": "3"}
    assert http.post("/shelf/c/books/book-1/edit", data=edit).status_code == 200
    assert http.post("/shelf/c/books/book-1/toggle/value").status_code == 200
    books = world.app_state("shelf")["books"]
    assert [(b["name"], b["title"], b["ctx"], b["self"], b["changed"], b["by"], b["value"]) for b in books] == [
        ("Dune", "Miss", "x2", "y2", "z2", 3, True),
        ("Emma", "Mrs", "x", "y", "z", 2, False),
    ]
    logged = [(e["op"], e["args"].get("title")) for e in world.events if e["app"] == "shelf"]
    assert logged == [("create_book", "Mrs"), ("edit_book", "Miss"), ("toggle_book_value", "Dune")]


# a table with a price and a filter (total), a flow whose choice's default is not its first
# choice and whose time has a default (the form shows both), an adjust by a constant
DEPOT = """
title: Depot
category: Shopping
collections:
  items:
    label: Items
    title: name
    layout: table
    columns: [name, kind]
    price: price
    filter: kind
    fields:
      name: {type: text}
      kind: {type: choice, choices: [tool, food]}
      price: {type: money}
      stock: {type: number}
    records:
      - {name: Hammer, kind: tool, price: 12.5, stock: 10}
      - {name: Saw, kind: tool, price: 20.25, stock: 5}
      - {name: Bread, kind: food, price: 3.1, stock: 40}
      - {name: Cheese, kind: food, price: 7.45, stock: 8}
  orders:
    label: Orders
    title: code
    fields:
      code: {type: text}
      item: {type: ref, to: items}
      size: {type: choice, choices: [small, medium, large], default: medium}
      at: {type: time, default: "09:30"}
    records:
      - {code: O-1, item: Hammer}
flows:
  order:
    label: Order
    creates: orders
    fields: [item, size, at]
    set: {code: "O-{n}"}
    adjust: [{ref: item, field: stock, by: 1, sign: -1}]
"""
# nothing but a title and a number: no look-up can be asked of it
BARE = """
title: Tally
category: Tools
collections:
  notes:
    label: Notes
    title: name
    fields:
      name: {type: text}
      amount: {type: number}
    actions: {create: true}
    records:
      - {name: First, amount: 1}
"""


def test_a_flows_form_shows_the_defaults_and_adjusts_by_a_number(app_path):
    _app(app_path, "depot", DEPOT)
    world = World()
    world.reset("default", 0)
    http = TestClient(server.build_app(world))
    form = http.get("/depot/flow/order").text
    assert re.search(r'<option[^>]*value="medium"[^>]*selected', form), form
    assert not re.search(r'<option[^>]*value="small"[^>]*selected', form)
    assert re.search(r'<input[^>]*type="time"[^>]*value="09:30"', form) or re.search(
        r'<input[^>]*value="09:30"[^>]*type="time"', form
    )
    done = http.post("/depot/flow/order/confirm", data={"item": "item-2", "size": "medium", "at": "09:30"})
    assert done.status_code == 200
    made = world.app_state("depot")["orders"][-1]
    assert (made["code"], made["item"], made["size"], made["at"]) == ("O-2", "item-2", "medium", "09:30")
    assert [i["stock"] for i in world.app_state("depot")["items"]] == [10, 4, 40, 8]


def test_a_tables_price_cells_have_the_price_test_id(app_path):
    _app(app_path, "depot", DEPOT)
    world = World()
    world.reset("default", 0)
    page = TestClient(server.build_app(world)).get("/depot/c/items?filter=tool").text
    prices = re.findall(r'data-testid="depot-items-price-(item-\d)"[^>]*>([^<]*)<', page)
    assert prices == [("item-1", "$12.50"), ("item-2", "$20.25")], prices


def test_the_oracle_solves_the_derived_families_of_outside_apps(tmp_path):
    apps = tmp_path / "apps"
    apps.mkdir()
    _app(apps, "depot", DEPOT)
    _app(apps, "tally", BARE)
    listed = _cli(["tasks"], apps)
    assert listed.returncode == 0, listed.stderr
    families = sorted(set(re.findall(r"\b((?:depot|tally)\.[a-z_]+)", listed.stdout)))
    assert families == [
        "depot.average_item",
        "depot.count_item",
        "depot.difference_item",
        "depot.extreme_item",
        "depot.lookup_item",
        "depot.lookup_order",
        "depot.open_item",
        "depot.order",
        "depot.total_item",
        "tally.create_note",
        "tally.create_note_then_todo",
        "tally.open_note",
    ]
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        'name: outside\nagents: [oracle]\ntasks: ["depot.*", "tally.*"]\nbackends: [text]\nseeds: [0, 1]\n'
        "workers: 1\ninterface: gui\nvariations: [default]\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    sweep = _cli(["sweep", str(spec), "--out", str(out), "--quiet", "--no-report"], apps)
    assert sweep.returncode == 0, sweep.stderr
    check = [sys.executable, str(ROOT / ".ci" / "all_solved.py"), str(out / "results.jsonl"), str(spec)]
    env = {**os.environ, "OPENAPPS_APPS": str(apps)}
    done = subprocess.run(check, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "24 / 24 episodes solved" in done.stdout, done.stdout


def test_an_avatar_skips_abbreviations_and_punctuation():
    assert [initials(t) for t in ("Dr. Amara Okafor", "St. Mary's Hospital", "Casa do Rio", "— Ana", "Dr.")] == [
        "AO",
        "MH",
        "CD",
        "A",
        "D",
    ]


@pytest.mark.parametrize(
    ("choices", "value", "key"),
    [("[on, off]", "'on'", "collections.plants.fields.room.choices[0]"), ("['on', 'off']", "on", "records[0].room")],
    ids=["choice", "record"],
)
def test_an_unquoted_on_or_off_is_told_to_be_quoted(tmp_path, choices, value, key):
    text = PLANTS.replace("[kitchen, bedroom]", choices).replace("room: kitchen}", f"room: {value}}}")
    (tmp_path / "app.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as got:
        check_app_folder(tmp_path)
    first = str(got.value).splitlines()[0]
    assert key in first, first
    assert "YAML reads an unquoted on, off, yes, no, true or false as True; quote the word" in first, first


@pytest.mark.parametrize("name", ["class", "from", "id"])
def test_a_field_named_like_a_keyword_is_refused(tmp_path, name):
    # fields are app tools' keyword arguments: carrental.create_car(class='suv') is not Python,
    # and the MCP server could not even list such a tool
    (tmp_path / "app.yaml").write_text(PLANTS.replace("room", name), encoding="utf-8")
    with pytest.raises(ConfigError) as got:
        check_app_folder(tmp_path)
    assert f"collections.plants.fields.{name}: field names are identifiers" in str(got.value)
    assert "not a Python keyword" in str(got.value)


ARCHIVE = """
title: Archive
category: Books & Reference
collections:
  books:
    label: Books
    title: name
    layout: table
    columns: [name, year, pages, weight]
    fields:
      name: {type: text}
      year: {type: number, grouping: false}
      pages: {type: number, unit: pp}
      weight: {type: number, unit: g, grouping: false}
    records:
      - {name: Dune, year: 1965, pages: 1412, weight: 1250.5}
"""


def test_a_number_field_may_be_written_without_thousands_separators(app_path):
    _app(app_path, "archive", ARCHIVE)
    world = World()
    world.reset("default", 0)
    page = TestClient(server.build_app(world)).get("/archive/c/books").text
    assert ">1965<" in page and "1,965" not in page
    assert "1,412 pp" in page
    assert "1250.50 g" in page and "1,250" not in page
    desc = discover_apps()["archive"].desc
    assert said(desc, world.app_state("archive"), "books", "year", 1965, "en") == "1965"
    assert said(desc, world.app_state("archive"), "books", "pages", 1412, "en") == "1,412 pp"


# a flow's record gets its reference from the app: the form never asks the user to make one up
GENERATED_CODES = [
    ("booklib", "borrow", "reference"),
    ("carrental", "rent", "booking"),
    ("coins", "buy", "reference"),
    ("comics", "buy", "receipt"),
    ("delivery", "checkout", "order_number"),
    ("flights", "book", "booking_code"),
    ("grocer", "book_slot", "reference"),
    ("gymclass", "book", "code"),
    ("homes", "view", "reference"),
    ("hotels", "book", "reference"),
    ("jobs", "apply", "reference"),
    ("meetups", "rsvp", "code"),
    ("museum", "book", "code"),
    ("parking", "park", "ticket"),
    ("pharmacy", "checkout", "order_number"),
    ("salon", "book", "reference"),
    ("stockroom", "order", "po_number"),
    ("tickets", "buy", "order_number"),
    ("timesheet", "invoice", "number"),
]


@pytest.fixture(scope="module")
def shipped_http():
    world = World()
    world.reset("default", 0)
    return world, TestClient(server.build_app(world))


@pytest.mark.parametrize("app,flow,field", GENERATED_CODES, ids=[f"{a}.{f}" for a, f, _ in GENERATED_CODES])
def test_a_flows_form_does_not_ask_for_the_reference_it_makes(shipped_http, app, flow, field):
    _, http = shipped_http
    form = http.get(f"/{app}/flow/{flow}").text
    assert f'name="{field}"' not in form
    assert 'name="' in form or f"{app}-confirm" in form or f"{app}-review" in form


def test_a_confirmed_order_gets_the_apps_next_reference(shipped_http):
    world, http = shipped_http
    before = len(world.app_state("delivery")["orders"])
    n = world.app_state("delivery")["next_id"]["orders"]
    place = {"restaurant": world.app_state("delivery")["restaurants"][0]["id"], "address": "1 Main St"}
    assert http.post("/delivery/flow/checkout/confirm", data=place).status_code == 200
    orders = world.app_state("delivery")["orders"]
    assert len(orders) == before + 1
    assert orders[-1]["order_number"] == f"DE-70{n}"
