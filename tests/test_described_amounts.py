"""Amounts a described app computes that are no basket sum (docs/apps/spec.md, "Computed
values"): an invoice is its hours times the client's rate, a ride's fare its distance times the
class's rate per km plus a base fare; no form and no app tool asks for them. And a flow that adds
a collection up refuses an empty one (a checkout with nothing in it), on the pages and through the
app tools, the state left as it was. Text only."""

from __future__ import annotations

import random

import pytest

from openapps_sim.config.discovery import check_app_folder, discover_apps
from openapps_sim.errors import ConfigError
from openapps_sim.web.world import World

from .shared_fixtures import check_names, record_id, seed_0_instance, world_client

app = world_client()


AMOUNTS = [("timesheet", "invoice", "amount"), ("rides", "request", "fare")]


@pytest.mark.parametrize("app_name,flow,field", AMOUNTS)
def test_no_form_and_no_tool_asks_for_the_amount(app, app_name, flow, field):
    _, http = app
    form = http.get(f"/{app_name}/flow/{flow}").text
    assert f'data-testid="{app_name}-review"' in form
    assert f'name="{field}"' not in form and f"{app_name}-input-{field}" not in form
    op = discover_apps()[app_name].load_operations()[flow]
    assert field not in [p.name for p in op.params]


# (app, flow, form values, the amount the review page shows, the amount the record holds)
SEED_0 = [
    ("timesheet", "invoice", {"client": "Moss & Finch", "hours": "12.5"}, "€1,062.50", 1062.5),  # 12.5 x 85
    ("timesheet", "invoice", {"client": "Trellis Health", "hours": "8"}, "€760.00", 760.0),  # 8 x 95
    # 12 km x 1.20 (economy) + 2.50
    (
        "rides",
        "request",
        {"pickup": "Home", "trip": "Home → Zoo", "ride_type": "economy", "distance": "12"},
        "€16.90",
        16.9,
    ),
    # 7.5 km x 1.60 (comfort) + 2.50
    (
        "rides",
        "request",
        {"pickup": "Gym", "trip": "Gym → Pier", "ride_type": "comfort", "distance": "7.5"},
        "€14.50",
        14.5,
    ),
    # 20 km x 2.80 (premium) + 2.50
    (
        "rides",
        "request",
        {"pickup": "Office", "trip": "Office → Pier", "ride_type": "premium", "distance": "20"},
        "€58.50",
        58.5,
    ),
]
CREATES = {"timesheet": ("invoices", "amount"), "rides": ("rides", "fare")}


@pytest.mark.parametrize("app_name,flow,given,shown,amount", SEED_0, ids=[f"{a}-{s}" for a, _, _, s, _ in SEED_0])
def test_the_amount_is_computed_on_the_pages(app, app_name, flow, given, shown, amount):
    world, http = app
    data = dict(given)
    for ref, coll in (("client", "clients"), ("pickup", "places")):
        if ref in data:
            data[ref] = record_id(world, app_name, coll, "name", data[ref])
    review = http.post(f"/{app_name}/flow/{flow}/review", data=data).text
    assert f'data-testid="{app_name}-review-{CREATES[app_name][1]}"' in review, review
    assert f">{shown}<" in review, review
    coll, field = CREATES[app_name]
    assert http.post(f"/{app_name}/flow/{flow}/confirm", data={**data, field: "1.00"}).status_code == 200
    assert world.app_state(app_name)[coll][-1][field] == amount


def test_a_tool_computes_the_amount_and_cannot_set_it(app):
    world, _ = app
    moss = record_id(world, "timesheet", "clients", "name", "Moss & Finch")
    with pytest.raises(ConfigError, match="amount: unknown argument"):
        world.call_tool("timesheet", "invoice", {"client": moss, "hours": 2, "amount": 5.0})
    assert world.call_tool("timesheet", "invoice", {"client": moss, "hours": 2})["amount"] == 170.0
    with pytest.raises(ConfigError, match="fare: unknown argument"):
        world.call_tool("rides", "request", {"pickup": "place-1", "trip": "A → B", "distance": 3, "fare": 1.0})
    ride = world.call_tool("rides", "request", {"pickup": "place-1", "trip": "A → B", "distance": 3, "ride_type": "xl"})
    assert ride["fare"] == 8.8  # 3 x 2.10 + 2.50


@pytest.mark.parametrize(
    "fid,asked,text",
    [
        ("timesheet.invoice_then_message", "hours", "€170.00"),  # Moss & Finch: 2 h x 85
        ("rides.request_then_message", "distance", "€15.10"),  # 10.5 km x 1.20 (economy) + 2.50
    ],
)
def test_a_family_expects_the_computed_amount(fid, asked, text):
    inst = seed_0_instance(fid)
    flow, message = inst.params["parts"]
    assert asked in flow["values"] and not {"amount", "fare"} & set(flow["values"]), flow["values"]
    assert message["text"] == text, (flow["values"], message["text"])
    assert text not in inst.goal


# ---- an empty basket -------------------------------------------------------------------------


def test_an_empty_basket_is_refused_on_the_pages(app):
    world, http = app
    smash = record_id(world, "delivery", "restaurants", "name", "Smash Brothers")  # no basket lines
    before = [dict(o) for o in world.app_state("delivery")["orders"]]
    for step in ("review", "confirm"):
        page = http.post(f"/delivery/flow/checkout/{step}", data={"restaurant": smash}).text
        assert "Restaurant: Basket has nothing for it yet." in page, page
        assert 'data-testid="delivery-confirm"' not in page
    assert world.app_state("delivery")["orders"] == before


def test_an_empty_basket_is_refused_through_the_tools(app):
    world, _ = app
    smash = record_id(world, "delivery", "restaurants", "name", "Smash Brothers")
    with pytest.raises(ConfigError, match="restaurant: Basket has no line for this restaurant; allowed: add a line"):
        world.call_tool("delivery", "checkout", {"restaurant": smash})
    for line in list(world.app_state("pharmacy")["basket"]):
        world.call_tool("pharmacy", "delete_line", {"id": line["id"]})
    orders = [dict(o) for o in world.app_state("pharmacy")["orders"]]
    with pytest.raises(ConfigError, match="total: Basket is empty; allowed: add a line to Basket first"):
        world.call_tool("pharmacy", "checkout", {})
    assert world.app_state("pharmacy")["orders"] == orders
    world.call_tool("stockroom", "delete_line", {"id": "line-4"})  # PackRight's one line
    packright = record_id(world, "stockroom", "suppliers", "name", "PackRight Supplies")
    with pytest.raises(ConfigError, match="supplier: Reorder list has no line for this supplier"):
        world.call_tool("stockroom", "order", {"supplier": packright})
    assert world.call_tool(
        "stockroom", "order", {"supplier": record_id(world, "stockroom", "suppliers", "name", "Nordic Dairy Alt")}
    )


SHOP = """
title: Corner Cab
category: Travel & Local
collections:
  rides:
    label: Rides
    title: trip
    fields:
      trip: {type: text}
      km: {type: number, default: 1}
      kind: {type: choice, choices: [small, big]}
      note: {type: text, default: ""}
      base: {type: ref, to: bases}
    records:
      - {trip: A}
  bases:
    label: Bases
    title: name
    fields:
      name: {type: text}
      fee: {type: money, default: 1}
    records:
      - {name: Main}
  orders:
    label: Orders
    title: trip
    fields:
      trip: {type: text}
      fare: {type: money}
      km: {type: number, default: 1}
      kind: {type: choice, choices: [small, big]}
      note: {type: text, default: ""}
      base: {type: ref, to: bases}
    records:
      - {trip: O-1, fare: 3}
flows:
  ride:
    label: Ride
    creates: orders
    fields: [trip, km, kind, base]
    set:
      fare: RULE
"""
BAD_RULES = [
    (
        "{times: [km, base.name]}",
        "flows.ride.set.fare.times[1]: bases.name is a text field; allowed: a number or money field: fee",
    ),
    (
        "{times: [km, note]}",
        "flows.ride.set.fare.times[1]: orders.note is a text field; allowed: a number or money field: fare, km",
    ),
    (
        "{times: [km, {kind: {small: 1.5}}]}",
        "flows.ride.set.fare.times[1].kind: gives no number for big; allowed: a number for each of small, big",
    ),
    (
        "{times: [km, {kind: {small: 1, big: 2, huge: 3}}]}",
        "flows.ride.set.fare.times[1].kind.huge: unknown choice 'huge'; allowed: small, big",
    ),
    (
        "{times: [km, {note: {a: 1}}]}",
        "flows.ride.set.fare.times[1]: 'note' is no choice field of orders; allowed: a choice field: kind",
    ),
    (
        "{plus: [2]}",
        "flows.ride.set.fare: names neither sum nor times; allowed: sum: a collection added up, or times: numbers multiplied",
    ),
    (
        "{sum: rides, each: [km], times: [km]}",
        "flows.ride.set.fare: names both sum and times; allowed: one of them",
    ),
    ("{times: [km], each: [km]}", "flows.ride.set.fare.each: adds nothing up without sum; allowed: sum: a collection"),
    ("{times: [km], of: [km]}", "flows.ride.set.fare.of: unknown key; allowed: sum, each, where, times, plus"),
]


@pytest.mark.parametrize("rule,message", BAD_RULES, ids=[r for r, _ in BAD_RULES])
def test_apps_check_names_a_broken_product(tmp_path, rule, message):
    check_names(tmp_path / "cab", SHOP.replace("RULE", rule), message)


def test_a_good_product_passes_the_check(tmp_path):
    (tmp_path / "cab").mkdir()
    good = "{times: [km, {kind: {small: 1.5, big: 2}}], plus: [base.fee, 2.5]}"
    (tmp_path / "cab" / "app.yaml").write_text(SHOP.replace("RULE", good), encoding="utf-8")
    check_app_folder(tmp_path / "cab")


def _generating(gen_field: str, rule: str) -> str:
    """SHOP whose orders draw 6 more records, their trip and km drawn and ``gen_field`` by ``rule``."""
    good = "{times: [km, {kind: {small: 1.5, big: 2}}], plus: [base.fee, 2.5]}"
    more = (
        "      - {trip: O-1, fare: 3}\n    count: 6\n    generate:\n"
        "      trip: {pool: [North, South, East, West, Up, Down, Left, Right], unique: true}\n"
        f"      km: {{range: [1, 12], step: 0.5}}\n      {gen_field}: {rule}\n"
    )
    return SHOP.replace("RULE", good).replace("      - {trip: O-1, fare: 3}\n", more)


def test_a_generated_record_computes_its_amount_as_the_flow_does(tmp_path):
    # a past ride's fare follows the app's pricing: km x the kind's rate + the base's fee + 2.5
    rule = "{times: [km, {kind: {small: 1.5, big: 2}}], plus: [base.fee, 2.5]}"
    (tmp_path / "cab").mkdir()
    (tmp_path / "cab" / "app.yaml").write_text(_generating("fare", rule), encoding="utf-8")
    app = check_app_folder(tmp_path / "cab")
    for seed in range(3):
        state = app.initial_state({}, random.Random(f"{seed}:cab"))
        fee = {b["id"]: b["fee"] for b in state["bases"]}
        drawn = state["orders"][1:]
        assert len(drawn) == 6 and state["orders"][0]["fare"] == 3  # a given record keeps its fare
        for r in drawn:
            assert r["fare"] == round(r["km"] * {"small": 1.5, "big": 2}[r["kind"]] + fee[r["base"]] + 2.5, 2), r
    assert len({r["fare"] for r in drawn}) > 1


BAD_GENERATORS = [
    (
        "fare",
        "{times: [km], pool: [1, 2]}",
        "collections.orders.generate.fare: computes (times) and draws (pool); allowed: one of them",
    ),
    (
        "fare",
        "{plus: [2]}",
        "collections.orders.generate.fare.plus: adds to nothing without times; allowed: times: terms multiplied",
    ),
    (
        "fare",
        "{times: [km, note]}",
        "collections.orders.generate.fare.times[1]: orders.note is a text field; allowed: a number or money field: "
        "fare, km",
    ),
    (
        "note",
        "{times: [km]}",
        "collections.orders.generate.note: a text field is not computed; allowed: a number or money field",
    ),
]


@pytest.mark.parametrize("field,rule,message", BAD_GENERATORS, ids=[r for _, r, _ in BAD_GENERATORS])
def test_apps_check_names_a_broken_computed_generator(tmp_path, field, rule, message):
    check_names(tmp_path / "cab", _generating(field, rule), message)


def test_the_rides_app_prices_its_past_rides():
    rate = {"economy": 1.2, "comfort": 1.6, "xl": 2.1, "green": 1.3, "premium": 2.8}
    for seed in range(3):
        world = World()
        world.reset("default", seed)
        rides = world.app_state("rides")["rides"]
        assert len(rides) >= 20
        for r in rides:
            assert r["fare"] == round(r["distance"] * rate[r["ride_type"]] + 2.5, 2), r
