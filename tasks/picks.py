"""What several task families pick and do alike: unambiguous products and places, cart lines to
put in the cart first, an item's note to ask about, and the oracle's ways into the shop and the
map. No family lives here; the families of ``shop``, ``decide_shop``, ``answer_shop``,
``maps``, ``decide_maps``, ``answer_maps``, ``answer_todo`` and ``decide_multi`` share it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from openapps_sim.apps.maps import model as maps_model
from openapps_sim.apps.shop import model as cat

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Infeasible, pick
from openapps_sim.taskkit.observation import page_testids
from openapps_sim.taskkit.progress import Op


def unique_names(items: list[dict]) -> set[str]:
    """Folded names that occur exactly once."""
    counts = Counter(norm_text(item["name"]) for item in items)
    return {k for k, n in counts.items() if n == 1}


# -- the map ---------------------------------------------------------------------------------
def unsaved_places(state: dict, config: dict) -> list[dict]:
    """Gazetteer places with a unique name that are not saved (by id or by name) yet."""
    maps = state["maps"]
    places = config["maps"]["places"]
    unique = unique_names(places)
    taken_ids = {s.get("place") for s in maps["saved"]}
    taken_names = {norm_text(s["name"]) for s in maps["saved"]}
    return [
        p
        for p in places
        if p["id"] not in taken_ids and norm_text(p["name"]) in unique and norm_text(p["name"]) not in taken_names
    ]


def earlier_saves(state: dict, config: dict, rng, most: int = 2) -> list[dict]:
    """A seeded start state: up to ``most`` places of :func:`unsaved_places` that were saved
    before the task (:func:`save_earlier` saves them)."""
    free = unsaved_places(state, config)
    chosen = rng.sample(free, min(len(free), rng.randint(0, most)))
    return [{"place_id": p["id"], "name": p["name"], "lat": p["lat"], "lon": p["lon"]} for p in chosen]


def save_earlier(state: dict, extra: list[dict] | None) -> list[dict]:
    """Save the places :func:`earlier_saves` drew in ``state``; returns the new saved entries."""
    return [maps_model.add_saved(state["maps"], p["name"], p["lat"], p["lon"], p["place_id"]) for p in extra or []]


def open_place(ui, name: str, place_id: str):
    """Search a place by name and open it from the results (the map centres on it); returns
    the observation of its page."""
    yield from ui.open_app("maps")
    yield ui.fill("maps-search", name)
    yield ui.click("maps-search-submit")
    return (yield ui.click(f"maps-result-{place_id}"))


# -- notes ----------------------------------------------------------------------------------
def pick_noted(rng, items: list[dict], key: str, fallback: list[str], what: str) -> tuple[dict, str]:
    """An item that has a ``key`` text (or any item, given one of ``fallback``) and that text."""
    noted = [i for i in items if i.get(key)]
    item = rng.choice(noted) if noted else pick(rng, items, what)
    return item, item.get(key) or rng.choice(fallback)


def set_field(items: list[dict], item_id: str, key: str, value) -> None:
    """Give the item with id ``item_id`` the value ``value`` under ``key``."""
    for item in items:
        if item["id"] == item_id:
            item[key] = value


# -- the shop -------------------------------------------------------------------------------
def unique_products(cfg: dict, with_options: bool = False) -> list[str]:
    """Ids of products on sale whose folded name no other product on sale shares."""
    products = cat.catalogue(cfg)
    counts = Counter(norm_text(p["name"]) for p in products.values())
    return [
        pid for pid, p in products.items() if counts[norm_text(p["name"])] == 1 and (p["options"] or not with_options)
    ]


def choose_options(rng, product: dict) -> dict:
    return {kind: rng.choice(codes) for kind, codes in product["options"].items()}


def cart_lines(state: dict, config: dict, rng, lo: int, hi: int, exclude: tuple[str, ...] = ()) -> list[dict]:
    """``lo``..``hi`` cart lines of distinct, unambiguous products (to put in the cart first),
    none of the products ``exclude`` names."""
    cfg = config["shop"]
    pool = [pid for pid in unique_products(cfg) if pid not in exclude]
    n = rng.randint(lo, hi)
    if len(pool) < n:
        raise Infeasible(f"fewer than {n} products with unique names")
    products = cat.catalogue(cfg)
    next_line = state["shop"]["next_line"]
    lines = []
    for i, pid in enumerate(rng.sample(pool, n)):
        p = products[pid]
        options = choose_options(rng, p)
        lines.append(
            {
                "line": next_line + i,
                "product_id": pid,
                "product": p["name"],
                "options": options,
                "options_text": cat.options_text(cfg, p, options),
                "qty": rng.randint(1, 3),
                "price": cat.cents(p["price"]),
            }
        )
    return lines


def add_to_cart_op(product_id: str, options: dict, qty: int = 1) -> Op:
    """The shop's ``add_to_cart`` with ``options`` as a page sets them (``{"colour": "blue"}``);
    the log records the product and the quantity as given, which say which change it is."""
    chosen = [f"{k}={v}" for k, v in options.items()]
    return Op.of("shop", "add_to_cart", product_id=product_id, options=chosen, qty=qty).keyed("product_id", "qty")


def checkout_op(params: dict) -> Op:
    """The shop's ``checkout`` to the address in ``params``."""
    return Op.of("shop", "checkout", **{k: params[k] for k in cat.ADDRESS_FIELDS})


def fill_cart(state: dict, lines: list[dict]) -> None:
    shop = state["shop"]
    for ln in lines:
        line, merged = cat.add_line(shop, ln["product_id"], ln["options"], ln["qty"])
        assert not merged and line["id"] == ln["line"], "prepared cart lines must match the sampled ids"


def open_shop(ui):
    """Go to the start page and open the shop; returns the observation of the shop's home."""
    yield ui.click("nav-home")
    obs = yield ui.click("launch-shop")
    return obs


def open_cart(ui):
    """Open the shop and its cart; returns the cart page's observation."""
    yield from open_shop(ui)
    return (yield ui.click("shop-cart"))


def find_product(ui, product_id: str, *, search: str = "", category: str = ""):
    """Open the shop and the product's page: search ``search`` (else open ``category``) and turn
    pages until its tile shows; returns the product page's observation."""
    obs = yield from open_shop(ui)
    target = f"shop-product-{product_id}"
    if search:
        yield ui.fill("shop-search", search)
        obs = yield ui.click("shop-search-submit")
    else:
        obs = yield ui.click(f"shop-category-{category}")
    for _ in range(50):
        ids = page_testids(obs)
        if target in ids or "shop-page-next" not in ids:
            break
        obs = yield ui.click("shop-page-next")
    return (yield ui.click(target))


def add_product(ui, product_id: str, options: dict, qty: int, *, search: str = "", category: str = ""):
    """Find the product (see :func:`find_product`), choose ``options`` and add ``qty`` units."""
    yield from find_product(ui, product_id, search=search, category=category)
    yield from add_this_product(ui, options, qty)


def add_this_product(ui, options: dict, qty: int):
    """On a product's page: choose ``options`` and add ``qty`` units to the cart."""
    for kind, code in options.items():
        yield ui.select(f"shop-option-{kind}", code)
    yield ui.fill("shop-qty", str(qty))
    yield ui.click("shop-add-to-cart")


def three(rng, pool: list, what: str) -> list:
    """Three distinct entries of ``pool``, drawn (:class:`Infeasible` when it has fewer)."""
    if len(pool) < 3:
        raise Infeasible(f"fewer than three {what}")
    return rng.sample(pool, 3)


def read_app(api, app: str) -> Iterator:
    """``<app>.read()``: the app's data."""
    return api.result((yield api.read(app))) or {}
