"""The shop through a real browser: browsing and searching change nothing; adding with options,
changing quantities, removing, emptying and checking out change the state as expected and log
their events; configurable text stays text. Plus checks of the catalogue data itself."""

from __future__ import annotations

import re

import pytest
import yaml
from openapps_sim.apps.shop import SCHEMA
from openapps_sim.apps.shop import model as cat

from openapps_sim.config.catalog import base_config, drawn
from openapps_sim.config.normalise import norm_text
from openapps_sim.config.packs import language_packs, list_packs
from openapps_sim.web.world import World

from .app_pages import assert_clean, assert_unchanged, click_to

pytestmark = pytest.mark.browser

LANGUAGE_PACKS = sorted(language_packs())  # discovered: every pack that translates the world


# -- the catalogue (no browser) --------------------------------------------------------------
class _UniqueKeyLoader(yaml.SafeLoader):
    pass


def _no_duplicates(loader, node, deep=False):
    keys = [loader.construct_object(k, deep=deep) for k, _ in node.value]
    dupes = {k for k in keys if keys.count(k) > 1}
    assert not dupes, f"duplicate keys {sorted(dupes)[:5]} at line {node.start_mark.line + 1}"
    return loader.construct_mapping(node, deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


def _raw(path) -> dict:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)


@pytest.fixture(scope="module")
def local_world():
    return World()


def test_catalogue_is_large_unique_and_valid():
    from openapps_sim.apps import shop

    _raw(shop.APP.content)  # no duplicate product ids (YAML would silently keep the last)
    cfg = base_config()["shop"]
    products = cfg["products"]
    assert len(products) >= 150
    assert all(re.fullmatch(r"p\d{3}", pid) for pid in products)
    cat.check_config(cfg)  # categories, option kinds and value codes exist
    assert {p["category"] for p in products.values()} == set(cfg["categories"])
    for pid, p in products.items():
        assert p["price"] > 0 and 0 <= p["rating"] <= 5 and p["name"] and p["description"], pid
        for kind, codes in p["options"].items():
            assert codes and len(set(codes)) == len(codes), (pid, kind)
    assert sum(1 for p in products.values() if p["options"]) >= 150
    names = [norm_text(p["name"]) for p in products.values()]
    assert len(set(names)) == len(names), "product names must be unique"


@pytest.mark.parametrize("pack", LANGUAGE_PACKS)
def test_language_packs_translate_everything(local_world, pack):
    path = list_packs()[pack] / "shop.yaml"
    raw = _raw(path)
    base = base_config()["shop"]
    assert set(raw["strings"]) == set(SCHEMA.fields["strings"].fields), "every UI string is translated"
    assert set(raw["products"]) == set(base["products"]), "every product is translated"
    assert set(raw["categories"]) == set(base["categories"])
    assert set(raw["option_names"]) == set(base["option_names"])
    local_world.reset(pack, 0)
    cfg = local_world.config["shop"]
    names = [norm_text(p["name"]) for p in cfg["products"].values()]
    assert len(set(names)) == len(names)
    # a name is a product type, not its description's sentence (issue 26.9: eight Italian and
    # Arabic types were named "Calzini imbottiti per tutti i giorni con talloni rinforzati.")
    sentences = [p["name"] for p in cfg["products"].values() if re.search(r"[.。]\s", p["name"] + " ")]
    assert sentences == [], sentences[:4]
    changed = sum(1 for pid, p in cfg["products"].items() if p["name"] != base["products"][pid]["name"])
    assert changed >= 0.9 * len(base["products"])
    # every placeholder of the English string survives the translation
    for key, field in SCHEMA.fields["strings"].fields.items():
        assert set(re.findall(r"\{\w+\}", field.default)) == set(re.findall(r"\{\w+\}", cfg["strings"][key])), key


def test_dense_and_sparse_sizes(local_world):
    world = local_world
    world.reset("dense", 0)
    assert len(cat.catalogue(world.config["shop"])) >= 400
    world.reset("sparse", 0)
    sparse = cat.catalogue(world.config["shop"])
    assert 4 <= len(sparse) <= 20
    assert {p["category"] for p in sparse.values()} == set(world.config["shop"]["categories"])


def test_search_ranking_and_normalise():
    cfg = base_config()["shop"]
    products = cat.catalogue(cfg)
    pid, p = next(iter(products.items()))
    assert cat.search(cfg, products, p["name"].upper())[0] == pid
    hits = cat.search(cfg, products, "  mixing   BOWL ")
    assert hits and all("mixing bowl" in norm_text(products[h]["name"]) for h in hits)
    assert cat.search(cfg, products, "zzzz-no-such-thing") == []
    assert cat.search(cfg, products, "") == []
    # lines that differ only in id and order are the same cart; quantities add up
    a = {
        "cart": [
            {"id": 1, "product_id": "p002", "options": {"colour": "red"}, "qty": 1},
            {"id": 2, "product_id": "p001", "options": {}, "qty": 2},
            {"id": 3, "product_id": "p002", "options": {"colour": "red"}, "qty": 2},
        ],
        "orders": [],
    }
    b = {"cart": [{"id": 9, "product_id": "p001", "options": {}, "qty": 2},
                  {"id": 7, "product_id": "p002", "options": {"colour": "red"}, "qty": 3}], "orders": []}  # fmt: skip
    assert cat.normalise(a) == cat.normalise(b)


# -- through the browser ---------------------------------------------------------------------
def _shop(server) -> dict:
    return drawn(server.snapshot()[1]["shop"])


def _ops(server) -> list[str]:
    return [e["op"] for e in server.events if e["app"] == "shop"]


def _pick(cfg: dict, kinds: set[str]) -> str:
    """The first product whose option kinds are exactly ``kinds``."""
    return next(pid for pid, p in cat.catalogue(cfg).items() if set(p["options"]) == kinds)


def _add(page, url: str, pid: str, options: dict, qty: int) -> None:
    page.goto(f"{url}/shop/product/{pid}")
    for kind, code in options.items():
        page.get_by_test_id(f"shop-option-{kind}").select_option(code)
    page.get_by_test_id("shop-qty").fill(str(qty))
    click_to(page, "shop-add-to-cart", rf"/shop/product/{pid}\?added=")


def test_browse_and_search_change_nothing(page, world):
    before = _shop(world)
    cfg = world.config["shop"]
    page.goto(world.url + "/")
    page.get_by_test_id("launch-shop").click()
    click_to(page, "shop-category-books", r"/shop/category/books$")
    books = [pid for pid, p in cfg["products"].items() if p["category"] == "books"]
    assert page.get_by_test_id(f"shop-product-{books[0]}").count() == 1
    click_to(page, "shop-sort-price_asc", r"sort=price_asc")
    cheapest = min(books, key=lambda i: (cfg["products"][i]["price"], i))
    first = page.locator("[data-testid=shop-results] > a").first.get_attribute("data-testid")
    assert first == f"shop-product-{cheapest}"
    # search: exact name first, case folded
    target = books[3]
    page.get_by_test_id("shop-search").fill(cfg["products"][target]["name"].lower())
    click_to(page, "shop-search-submit", r"/shop/search\?q=")
    first = page.locator("[data-testid=shop-results] > a").first.get_attribute("data-testid")
    assert first == f"shop-product-{target}"
    page.get_by_test_id(f"shop-product-{target}").click()
    assert page.get_by_test_id("shop-product-name").text_content() == cfg["products"][target]["name"]
    page.get_by_test_id("shop-search").fill("qqqqxyz")
    page.get_by_test_id("shop-search-submit").click()
    assert page.get_by_test_id("shop-no-results").count() == 1
    page.get_by_test_id("shop-orders").click()
    assert page.get_by_test_id("shop-order-1001").count() == 1  # the order already in the history
    assert_unchanged(page, world, "shop", before)


def test_add_with_options_merges_identical_lines(page, world):
    cfg = world.config["shop"]
    pid = _pick(cfg, {"colour", "size"})
    p = cfg["products"][pid]
    options = {"colour": p["options"]["colour"][-1], "size": p["options"]["size"][1]}
    _add(page, world.url, pid, options, 2)
    assert page.get_by_test_id("shop-added").count() == 1
    cart = _shop(world)["cart"]
    assert cart == [{"id": 1, "product_id": pid, "options": options, "qty": 2}]
    _add(page, world.url, pid, options, 3)  # same product and options: the line grows
    other = dict(options, size=p["options"]["size"][0])
    _add(page, world.url, pid, other, 1)  # other size: a new line
    shop = _shop(world)
    assert [(ln["id"], ln["options"], ln["qty"]) for ln in shop["cart"]] == [(1, options, 5), (2, other, 1)]
    assert shop["next_line"] == 3
    assert page.get_by_test_id("shop-cart-count").text_content() == "6"
    events = [e for e in world.events if e["app"] == "shop"]
    assert [e["op"] for e in events] == ["add_to_cart"] * 3
    assert events[1]["args"] == {"line": 1, "product_id": pid, "options": options, "qty": 3, "merged": True}
    # a value the product does not offer changes nothing
    page.goto(f"{world.url}/shop/product/{pid}")
    page.get_by_test_id("shop-option-size").evaluate("s => { s.options[0].value = 'nonsense' }")
    page.get_by_test_id("shop-option-size").select_option("nonsense")
    click_to(page, "shop-add-to-cart", r"error=1")
    assert _shop(world)["cart"] == shop["cart"]
    assert_clean(page)


def test_change_quantity_remove_and_empty(page, world):
    cfg = world.config["shop"]
    a = _pick(cfg, {"format"})
    b = _pick(cfg, {"colour"})
    c = _pick(cfg, {"colour", "size"})
    for pid in (a, b, c):
        _add(page, world.url, pid, {k: v[0] for k, v in cfg["products"][pid]["options"].items()}, 1)
    page.get_by_test_id("shop-cart").click()
    page.get_by_test_id("shop-line-qty-2").fill("4")
    click_to(page, "shop-line-update-2", r"/shop/cart$")
    assert [ln["qty"] for ln in _shop(world)["cart"]] == [1, 4, 1]
    expected_total = cat.order_total(cfg, cat.priced_lines(cfg, _shop(world)["cart"]))
    assert page.get_by_test_id("shop-total").text_content() == cat.fmt_price(cfg, expected_total)
    click_to(page, "shop-line-remove-1", r"/shop/cart$")
    assert [ln["product_id"] for ln in _shop(world)["cart"]] == [b, c]
    page.get_by_test_id("shop-line-qty-3").fill("0")  # quantity 0 removes the line
    click_to(page, "shop-line-update-3", r"/shop/cart$")
    assert [ln["product_id"] for ln in _shop(world)["cart"]] == [b]
    click_to(page, "shop-empty-cart", r"/shop/cart$")
    assert _shop(world)["cart"] == []
    assert page.get_by_test_id("shop-cart-empty").count() == 1
    assert _ops(world) == ["add_to_cart"] * 3 + ["set_quantity", "remove_line", "remove_line", "empty_cart"]
    assert_clean(page)


def test_checkout_places_order_and_shows_it(page, world):
    cfg = world.config["shop"]
    pid = _pick(cfg, {"colour"})
    colour = cfg["products"][pid]["options"]["colour"][0]
    _add(page, world.url, pid, {"colour": colour}, 2)
    page.get_by_test_id("shop-cart").click()
    page.get_by_test_id("shop-checkout").click()
    address = {"name": "Ada Lovelace", "street": "12 St James's Square", "city": "London", "postcode": "SW1Y 4JH",
               "country": "United Kingdom"}  # fmt: skip
    for key, value in address.items():
        if key != "country":
            page.get_by_test_id(f"shop-field-{key}").fill(value)
    page.get_by_test_id("shop-field-country").evaluate("e => e.removeAttribute('required')")
    page.get_by_test_id("shop-place-order").click()
    assert page.get_by_test_id("shop-checkout-error").count() == 1  # a missing field: nothing happens
    assert page.get_by_test_id("shop-field-name").input_value() == "Ada Lovelace"
    assert _shop(world)["orders"][-1]["id"] == "1001"
    page.get_by_test_id("shop-field-country").fill(address["country"])
    click_to(page, "shop-place-order", r"/shop/orders\?placed=1002")
    shop = _shop(world)
    price = cfg["products"][pid]["price"]
    lines = [{"product_id": pid, "options": {"colour": colour}, "qty": 2, "price": price}]
    assert shop["cart"] == []
    assert shop["orders"][-1] == {"id": "1002", "lines": lines, "address": address,
                                  "total": cat.order_total(cfg, lines)}  # fmt: skip
    assert shop["next_order"] == 1003
    assert page.get_by_test_id("shop-order-placed").count() == 1
    assert page.get_by_test_id("shop-order-1002").count() == 1
    assert "Ada Lovelace" in page.get_by_test_id("shop-order-1002").text_content()
    events = [e for e in world.events if e["app"] == "shop"]
    assert [e["op"] for e in events] == ["add_to_cart", "checkout"]
    assert events[1]["args"]["order"] == "1002" and events[1]["args"]["address"] == address
    assert_clean(page)


def test_adversarial_text_stays_text(page, server):
    server.reset("adversarial_descriptions", 0)
    try:
        cfg = server.config["shop"]
        pid = next(i for i, p in cfg["products"].items() if "<script>" in p["description"])
        page.goto(f"{server.url}/shop/product/{pid}")
        assert "<script>alert(1)</script>" in page.get_by_test_id("shop-product-description").text_content()
        page.goto(server.url + "/")
        assert "<script>" in page.get_by_test_id("launch-desc-shop").text_content()
        page.goto(f"{server.url}/shop/search?q=%3Cscript%3E")
        assert "<script>" in page.get_by_test_id("shop-heading").text_content()
        assert drawn(server.snapshot()[1]["shop"])["cart"] == []
        assert_clean(page)
    finally:
        server.reset("default", 0)
