"""A flow's computed value (docs/apps/spec.md, "Computed values"): an order's total is the app's
sum over its basket, never a number the user types. The checkout forms ask for no total, the
review page shows it, the order holds it (the pages and the app tools alike), a message sends it,
and ``openapps apps check`` names a broken rule. Text only."""

from __future__ import annotations

import pytest

from openapps_sim.config.discovery import discover_apps
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit import all_families, instantiate
from openapps_sim.web.world import World

from .shared_fixtures import check_names, check_problems, record_id, seed_0_instance, world_client

CHECKOUTS = [("delivery", "checkout"), ("pharmacy", "checkout"), ("stockroom", "order")]


shop = world_client()


@pytest.mark.parametrize("app,flow", CHECKOUTS, ids=[f"{a}.{f}" for a, f in CHECKOUTS])
def test_a_checkout_form_asks_for_no_total(shop, app, flow):
    _, http = shop
    form = http.get(f"/{app}/flow/{flow}").text
    assert f'data-testid="{app}-review"' in form
    assert 'name="total"' not in form and f"{app}-input-total" not in form


def test_the_app_tools_ask_for_no_total():
    for app, flow in CHECKOUTS:
        op = discover_apps()[app].load_operations()[flow]
        assert "total" not in [p.name for p in op.params], (app, flow)


# (app, flow, form values by title, the total the review page shows, the total the order holds)
SEED_0 = [
    # Forno Rosso's basket: 10.50 + 2 x 4.95 + 5.50 = 25.90, its delivery fee 1.49, the tip 2
    ("delivery", "checkout", {"restaurant": "Forno Rosso", "tip": "2"}, "£29.39", 29.39),
    # (a restaurant without basket lines is refused: tests/test_described_amounts.py)
    # 4.49 + 9.95 + 2 x 5.29
    ("pharmacy", "checkout", {"pickup": "locker"}, "€25.02", 25.02),
    # Bean & Leaf's lines on the reorder list: 6 x 18.50 + 2 x 6.40
    ("stockroom", "order", {"supplier": "Bean & Leaf Roasters"}, "€123.80", 123.8),
    ("stockroom", "order", {"supplier": "Nordic Dairy Alt"}, "€38.40", 38.4),
]
REFS = {"restaurant": ("restaurants", "name"), "supplier": ("suppliers", "name")}


@pytest.mark.parametrize("app,flow,given,shown,total", SEED_0, ids=[f"{a}-{s}" for a, _, _, s, _ in SEED_0])
def test_a_confirmed_order_totals_the_basket(shop, app, flow, given, shown, total):
    world, http = shop
    data = {f: record_id(world, app, *REFS[f], v) if f in REFS else v for f, v in given.items()}
    review = http.post(f"/{app}/flow/{flow}/review", data=data).text
    assert f'data-testid="{app}-review-total"' in review
    assert f">{shown}<" in review, review
    assert http.post(f"/{app}/flow/{flow}/confirm", data={**data, "total": "1.00"}).status_code == 200
    assert world.app_state(app)["orders"][-1]["total"] == total


def test_the_total_follows_the_basket_and_a_tool_cannot_set_it(shop):
    world, _ = shop
    line = record_id(world, "delivery", "basket", "dish", "Garlic dough balls")
    world.call_tool("delivery", "change_line_quantity", {"id": line, "by": 1})  # 3 x 4.95 now
    forno = record_id(world, "delivery", "restaurants", "name", "Forno Rosso")
    with pytest.raises(ConfigError, match="total: unknown argument"):
        world.call_tool("delivery", "checkout", {"restaurant": forno, "total": 5.0})
    made = world.call_tool("delivery", "checkout", {"restaurant": forno})
    assert made["total"] == 32.34  # 10.50 + 14.85 + 5.50 + 1.49 + no tip
    pharmacy = world.call_tool("pharmacy", "checkout", {})
    assert pharmacy["total"] == 25.02 and pharmacy["pickup"] == "collect_in_store"


@pytest.mark.parametrize(
    "fid,text",
    [
        ("delivery.checkout_then_message", "£27.39"),  # Forno Rosso's basket and fee, no tip
        ("pharmacy.checkout_then_message", "€25.02"),
        ("stockroom.order_then_message", "€123.80"),  # seed 0 draws Bean & Leaf Roasters
    ],
)
def test_the_message_is_the_computed_total(fid, text):
    inst = seed_0_instance(fid)
    flow, message = inst.params["parts"]
    assert "total" not in flow["values"], flow["values"]
    assert message["text"] == text
    assert text not in inst.goal


def test_no_checkout_goal_asks_for_a_total():
    world = World()
    for pack in ("default", "german"):
        for seed in (0, 1):
            world.reset(pack, seed)
            for app, flow in CHECKOUTS:
                for fid in (f"{app}.{flow}", f"{app}.{flow}_then_message"):
                    inst = instantiate(all_families()[fid], world.state, world.config, seed, pack, "auto")
                    values = inst.params["parts"][0]["values"] if "parts" in inst.params else inst.params["values"]
                    assert values and "total" not in values, (fid, pack, seed, values)
                    assert "{" not in inst.goal and " with ," not in inst.goal, inst.goal


SHOP = """
title: Corner Shop
category: Shopping
collections:
  basket:
    label: Basket
    item: line
    title: name
    fields:
      name: {type: text}
      qty: {type: number, default: 1}
      price: {type: money, default: 2}
      shop: {type: ref, to: shops}
    records:
      - {name: Bread, qty: 2, price: 2.5}
  shops:
    label: Shops
    title: name
    fields:
      name: {type: text}
      fee: {type: money, default: 1}
    records:
      - {name: Main}
  orders:
    label: Orders
    title: code
    fields:
      code: {type: text}
      total: {type: money}
      note: {type: text, default: ""}
      shop: {type: ref, to: shops}
    records:
      - {code: O-1, total: 3}
flows:
  order:
    label: Order
    creates: orders
    fields: [shop]
    set:
      code: "O-{n}"
      total: RULE
"""
BAD_RULES = [
    (
        "{sum: baskets, each: [qty, price]}",
        "flows.order.set.total.sum: unknown collection 'baskets' (did you mean basket?); allowed: basket, orders,"
        " shops",
    ),
    (
        "{sum: basket, each: [qty, cost]}",
        "flows.order.set.total.each[1]: basket has no field 'cost'; allowed: a number or money field: qty, price",
    ),
    (
        "{sum: basket, each: [qty, name]}",
        "flows.order.set.total.each[1]: basket.name is a text field; allowed: a number or money field: qty, price",
    ),
    (
        "{sum: basket, each: [qty, price], where: {shop: note}}",
        "flows.order.set.total.where.shop: basket.shop and orders.note hold different kinds of value; allowed: a"
        " field of orders like shop: shop",
    ),
    (
        "{sum: basket, each: [qty, price], plus: [shop.name]}",
        "flows.order.set.total.plus[0]: shops.name is a text field; allowed: a number or money field: fee",
    ),
    (
        "{sum: basket, each: [qty, price], plus: [kind.fee]}",
        "flows.order.set.total.plus[0]: 'kind' is no ref field of orders; allowed: ref.field, the ref one of: shop",
    ),
    ("{sum: basket, of: [qty]}", "flows.order.set.total.of: unknown key; allowed: sum, each, where, times, plus"),
]


@pytest.mark.parametrize("rule,message", BAD_RULES, ids=[r for r, _ in BAD_RULES])
def test_apps_check_names_a_broken_rule(tmp_path, rule, message):
    check_names(tmp_path / "corner", SHOP.replace("RULE", rule), message)


def test_a_computed_text_field_and_a_total_also_asked_are_refused(tmp_path):
    text = SHOP.replace("total: RULE", "note: {sum: basket, each: [qty]}").replace(
        "fields: [shop]", "fields: [shop, note]"
    )
    lines = {line.split("; allowed: ")[0] for line in check_problems(tmp_path / "corner", text)}
    assert lines >= {
        "flows.order.set.note: the form asks for it too",
        "flows.order.set.note: a text field is no sum",
    }, lines
