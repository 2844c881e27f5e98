"""Shop task families: add a product to the cart, remove a line, empty the cart, check out.

Products are drawn from the catalogue of the active variation (config ``shop.products``,
narrowed by ``shop.only_products``) and only among those whose name is unique there, so a goal
that names a product is never ambiguous. Options are chosen by stable value code; the goal
quotes their labels in the variation's language. Expected states are built with the same
functions the app uses (``openapps_sim.apps.shop.model``).
"""

from __future__ import annotations

from openapps_sim.apps.shop import model as cat

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Infeasible, Subgoal, TaskFamily, family, pick
from openapps_sim.taskkit.observation import page_testids

ADDRESSES = [
    {"name": "Maria Schmidt", "street": "Hauptstraße 12", "city": "Berlin", "postcode": "10115", "country": "Germany"},
    {"name": "Jean Dupont", "street": "8 rue de la Paix", "city": "Paris", "postcode": "75002", "country": "France"},
    {"name": "Ana López", "street": "Calle Mayor 21", "city": "Madrid", "postcode": "28013", "country": "Spain"},
    {"name": "Tom Baker", "street": "221 Baker Street", "city": "London", "postcode": "NW1 6XE",
     "country": "United Kingdom"},
    {"name": "Li Wei", "street": "88 Nanjing Road", "city": "Shanghai", "postcode": "200001", "country": "China"},
    {"name": "Emma Johansson", "street": "Drottninggatan 5", "city": "Stockholm", "postcode": "111 51",
     "country": "Sweden"},
    {"name": "Luca Rossi", "street": "Via Roma 14", "city": "Milan", "postcode": "20121", "country": "Italy"},
    {"name": "Noah Williams", "street": "350 Fifth Avenue", "city": "New York", "postcode": "10118",
     "country": "United States"},
    {"name": "Sofia Novak", "street": "Národní 9", "city": "Prague", "postcode": "110 00", "country": "Czech Republic"},
    {"name": "Yuki Tanaka", "street": "2-1 Marunouchi", "city": "Tokyo", "postcode": "100-0005", "country": "Japan"},
]  # fmt: skip


# -- helpers ---------------------------------------------------------------------------------
def _cfg(config: dict) -> dict:
    return config["shop"]


def _unique_products(cfg: dict, with_options: bool = False) -> list[str]:
    """Ids of products on sale whose folded name no other product on sale shares."""
    products = cat.catalogue(cfg)
    counts: dict[str, int] = {}
    for p in products.values():
        key = norm_text(p["name"])
        counts[key] = counts.get(key, 0) + 1
    return [
        pid for pid, p in products.items() if counts[norm_text(p["name"])] == 1 and (p["options"] or not with_options)
    ]


def _choose_options(rng, product: dict) -> dict:
    return {kind: rng.choice(codes) for kind, codes in product["options"].items()}


def _cart_lines(state: dict, config: dict, rng, lo: int, hi: int) -> list[dict]:
    """``lo``..``hi`` cart lines of distinct, unambiguous products (to put in the cart first)."""
    cfg = _cfg(config)
    pool = _unique_products(cfg)
    n = rng.randint(lo, hi)
    if len(pool) < n:
        raise Infeasible(f"fewer than {n} products with unique names")
    products = cat.catalogue(cfg)
    next_line = state["shop"]["next_line"]
    lines = []
    for i, pid in enumerate(rng.sample(pool, n)):
        p = products[pid]
        options = _choose_options(rng, p)
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


def _fill_cart(state: dict, lines: list[dict]) -> None:
    shop = state["shop"]
    for ln in lines:
        line, merged = cat.add_line(shop, ln["product_id"], ln["options"], ln["qty"])
        assert not merged and line["id"] == ln["line"], "prepared cart lines must match the sampled ids"


def _open_shop(ui):
    """Go to the start page and open the shop; returns the observation of the shop's home."""
    yield ui.click("nav-home")
    obs = yield ui.click("launch-shop")
    return obs


def _open_cart(ui):
    yield from _open_shop(ui)
    yield ui.click("shop-cart")


def _line_in_cart(product_id: str, options: dict, qty: int):
    def check(world: dict) -> bool:
        return any(
            ln["product_id"] == product_id and ln["options"] == options and ln["qty"] == qty
            for ln in world["shop"]["cart"]
        )

    return check


# -- families --------------------------------------------------------------------------------
@family
class AddToCart(TaskFamily):
    id = "shop.add_to_cart"
    apps = ("shop",)
    max_steps = 18
    description = (
        "Find a given product in the shop (search or category browsing), choose the given option values "
        "and quantity on its page, and add it to the cart."
    )

    def sample(self, state, config, rng):
        cfg = _cfg(config)
        pid = pick(rng, _unique_products(cfg, with_options=True), "product with options and a unique name")
        p = cat.catalogue(cfg)[pid]
        options = _choose_options(rng, p)
        return {
            "product_id": pid,
            "product": p["name"],
            "category": p["category"],
            "options": options,
            "options_text": cat.options_text(cfg, p, options),
            "qty": rng.randint(1, 4),
            "route": rng.choice(["search", "browse"]),
        }

    def apply(self, state, params):
        cat.add_line(state["shop"], params["product_id"], params["options"], params["qty"])

    def solve_api(self, params, api):
        options = [f"{k}={v}" for k, v in params["options"].items()]
        yield api.call("shop", "add_to_cart", product_id=params["product_id"], options=options, qty=params["qty"])

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("line_in_cart", _line_in_cart(params["product_id"], params["options"], params["qty"]))]

    def solve(self, params, ui):
        obs = yield from _open_shop(ui)
        target = f"shop-product-{params['product_id']}"
        if params["route"] == "search":
            yield ui.fill("shop-search", params["product"])
            obs = yield ui.click("shop-search-submit")
        else:
            obs = yield ui.click(f"shop-category-{params['category']}")
        for _ in range(50):
            ids = page_testids(obs)
            if target in ids or "shop-page-next" not in ids:
                break
            obs = yield ui.click("shop-page-next")
        yield ui.click(target)
        for kind, code in params["options"].items():
            yield ui.select(f"shop-option-{kind}", code)
        yield ui.fill("shop-qty", str(params["qty"]))
        yield ui.click("shop-add-to-cart")


@family
class RemoveFromCart(TaskFamily):
    id = "shop.remove_from_cart"
    apps = ("shop",)
    max_steps = 10
    description = "The cart holds two or three different products; remove the line of the given product."

    def sample(self, state, config, rng):
        lines = _cart_lines(state, config, rng, 2, 3)
        target = rng.choice(lines)
        return {
            "lines": lines,
            "line": target["line"],
            "product_id": target["product_id"],
            "product": target["product"],
        }

    def prepare(self, state, params):
        _fill_cart(state, params["lines"])

    def apply(self, state, params):
        shop = state["shop"]
        cat.remove_line(shop, cat.cart_line(shop, params["line"]))

    def solve_api(self, params, api):
        yield api.call("shop", "remove_line", line=params["line"])

    def subgoals(self, params, initial=None, expected=None):
        pid = params["product_id"]
        return [Subgoal("product_removed", lambda w: all(ln["product_id"] != pid for ln in w["shop"]["cart"]))]

    def solve(self, params, ui):
        yield from _open_cart(ui)
        yield ui.click(f"shop-line-remove-{params['line']}")


@family
class EmptyCart(TaskFamily):
    id = "shop.empty_cart"
    apps = ("shop",)
    max_steps = 10
    description = "The cart holds a few products; remove all of them (without placing an order)."

    def sample(self, state, config, rng):
        lines = _cart_lines(state, config, rng, 2, 4)
        return {"lines": lines, "n": len(lines)}

    def prepare(self, state, params):
        _fill_cart(state, params["lines"])

    def apply(self, state, params):
        cat.empty_cart(state["shop"])

    def solve_api(self, params, api):
        yield api.call("shop", "empty_cart")

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("cart_empty", lambda w: not w["shop"]["cart"])]

    def solve(self, params, ui):
        yield from _open_cart(ui)
        yield ui.click("shop-empty-cart")


@family
class Checkout(TaskFamily):
    id = "shop.checkout"
    apps = ("shop",)
    max_steps = 16
    description = (
        "The cart holds one to three products; check out with the given shipping address, which places one "
        "order with exactly those lines and empties the cart."
    )

    def sample(self, state, config, rng):
        cfg = _cfg(config)
        lines = _cart_lines(state, config, rng, 1, 3)
        order_lines = [
            {"product_id": ln["product_id"], "options": ln["options"], "qty": ln["qty"], "price": ln["price"]}
            for ln in lines
        ]
        address = dict(rng.choice(ADDRESSES))
        return {
            "lines": lines,
            "order_lines": order_lines,
            "total": cat.order_total(cfg, order_lines),
            **address,
        }

    def prepare(self, state, params):
        _fill_cart(state, params["lines"])

    def apply(self, state, params):
        address = {k: params[k] for k in cat.ADDRESS_FIELDS}
        cat.record_order(state["shop"], params["order_lines"], address, params["total"])

    def solve_api(self, params, api):
        yield api.call("shop", "checkout", **{k: params[k] for k in cat.ADDRESS_FIELDS})

    def subgoals(self, params, initial=None, expected=None):
        name = norm_text(params["name"])
        return [
            Subgoal(
                "order_placed", lambda w: any(norm_text(o["address"]["name"]) == name for o in w["shop"]["orders"])
            ),
            Subgoal("cart_empty", lambda w: not w["shop"]["cart"]),
        ]

    def solve(self, params, ui):
        yield from _open_cart(ui)
        yield ui.click("shop-checkout")
        for key in cat.ADDRESS_FIELDS:
            yield ui.fill(f"shop-field-{key}", params[key])
        yield ui.click("shop-place-order")
