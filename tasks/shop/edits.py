"""Shop task families: add a product to the cart, remove a line, empty the cart, check out.

Products are drawn from the catalogue of the active variation (config ``shop.products``,
narrowed by ``shop.only_products``) and only among those whose name is unique there, so a goal
that names a product is never ambiguous. Options are chosen by stable value code; the goal
quotes their labels in the variation's language. Expected states are built with the same
functions the app uses (``openapps_sim.apps.shop.model``).
"""

from __future__ import annotations

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.picks import (
    add_product,
    add_to_cart_op,
    cart_lines,
    checkout_op,
    choose_options,
    fill_cart,
    open_cart,
    unique_products,
)

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Subgoal, TaskFamily, family, pick
from openapps_sim.taskkit.progress import Op

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
def _line_in_cart(product_id: str, options: dict, qty: int):
    def check(world: dict) -> bool:
        return any(
            ln["product_id"] == product_id and ln["options"] == options and ln["qty"] == qty
            for ln in world["shop"]["cart"]
        )

    return check


# -- families --------------------------------------------------------------------------------
@family("shop.add_to_cart", apps="shop", max_steps=18)
class AddToCart(TaskFamily):
    """Find a given product in the shop (search or category browsing), choose the given option
    values and quantity on its page, and add it to the cart."""

    def sample(self, state, config, rng):
        cfg = config["shop"]
        pid = pick(rng, unique_products(cfg, with_options=True), "product with options and a unique name")
        p = cat.catalogue(cfg)[pid]
        options = choose_options(rng, p)
        return {
            "product_id": pid,
            "product": p["name"],
            "category": p["category"],
            "options": options,
            "options_text": cat.options_text(cfg, p, options),
            "qty": rng.randint(1, 4),
            "route": rng.choice(["search", "browse"]),
        }

    def plan(self, params, initial):
        return [add_to_cart_op(params["product_id"], params["options"], params["qty"])]

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("line_in_cart", _line_in_cart(params["product_id"], params["options"], params["qty"]))]

    def solve(self, params, ui):
        by_search = params["route"] == "search"
        yield from add_product(ui, params["product_id"], params["options"], params["qty"],
                               search=params["product"] if by_search else "", category=params["category"])  # fmt: skip


@family("shop.remove_from_cart", apps="shop", max_steps=10)
class RemoveFromCart(TaskFamily):
    """The cart holds two or three different products; remove the line of the given product."""

    def sample(self, state, config, rng):
        lines = cart_lines(state, config, rng, 2, 3)
        target = rng.choice(lines)
        return {
            "lines": lines,
            "line": target["line"],
            "product_id": target["product_id"],
            "product": target["product"],
        }

    def prepare(self, state, params):
        fill_cart(state, params["lines"])

    def plan(self, params, initial):
        return [Op.of("shop", "remove_line", line=params["line"])]

    def subgoals(self, params, initial=None, expected=None):
        pid = params["product_id"]
        return [Subgoal("product_removed", lambda w: all(ln["product_id"] != pid for ln in w["shop"]["cart"]))]

    def solve(self, params, ui):
        yield from open_cart(ui)
        yield ui.click(f"shop-line-remove-{params['line']}")


@family("shop.empty_cart", apps="shop", max_steps=10)
class EmptyCart(TaskFamily):
    """The cart holds a few products; remove all of them (without placing an order)."""

    def sample(self, state, config, rng):
        lines = cart_lines(state, config, rng, 2, 4)
        return {"lines": lines, "n": len(lines)}

    def prepare(self, state, params):
        fill_cart(state, params["lines"])

    def plan(self, params, initial):
        return [Op.of("shop", "empty_cart")]

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal("cart_empty", lambda w: not w["shop"]["cart"])]

    def solve(self, params, ui):
        yield from open_cart(ui)
        yield ui.click("shop-empty-cart")


@family("shop.checkout", apps="shop", max_steps=16)
class Checkout(TaskFamily):
    """The cart holds one to three products; check out with the given shipping address, which places
    one order with exactly those lines and empties the cart."""

    def sample(self, state, config, rng):
        cfg = config["shop"]
        lines = cart_lines(state, config, rng, 1, 3)
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
        fill_cart(state, params["lines"])

    def plan(self, params, initial):
        return [checkout_op(params)]

    def subgoals(self, params, initial=None, expected=None):
        name = norm_text(params["name"])
        return [
            Subgoal(
                "order_placed", lambda w: any(norm_text(o["address"]["name"]) == name for o in w["shop"]["orders"])
            ),
            Subgoal("cart_empty", lambda w: not w["shop"]["cart"]),
        ]

    def solve(self, params, ui):
        yield from open_cart(ui)
        yield ui.click("shop-checkout")
        for key in cat.ADDRESS_FIELDS:
            yield ui.fill(f"shop-field-{key}", params[key])
        yield ui.click("shop-place-order")
