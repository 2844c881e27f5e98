"""Act, then answer, in the shop: change the cart or place an order, then answer with what the
shop shows afterwards (the cart's total, a JSON summary of the cart, the new order's number; see
taskkit/answers.py, ``ActAnswerFamily``)."""

from __future__ import annotations

import json
import re

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.picks import cart_lines, fill_cart
from openapps_sim.tasks.shop.edits import AddToCart, Checkout, RemoveFromCart

from openapps_sim.taskkit import family
from openapps_sim.taskkit.answers import ActAnswerFamily, pack_lang
from openapps_sim.taskkit.observation import page_testids, testid_attributes, testid_texts


def cart_after(config: dict, lines: list[dict]) -> dict:
    """What the cart page shows of a cart of ``lines`` (``product_id``, ``options``, ``qty``):
    its number of lines, units and total with shipping."""
    cfg = config["shop"]
    priced = cat.priced_lines(cfg, lines)
    return {"lines": len(priced), "units": sum(ln["qty"] for ln in priced), "total": cat.order_total(cfg, priced)}


def summary_json(lines: int, units: int, total: object) -> str:
    return json.dumps({"lines": lines, "units": units, "total": total}, ensure_ascii=False)


def summary_from_page(obs: dict) -> str:
    """The cart page's lines, units (the quantity fields) and total, as JSON."""
    attributes = testid_attributes(obs)
    lines = [a for a in attributes.values() if "shop-line" in a.get("class", "").split()]
    units = sum(int(a.get("value") or 0) for t, a in attributes.items() if t.startswith("shop-line-qty-"))
    return summary_json(len(lines), units, testid_texts(obs).get("shop-total", ""))


class CartAfter(ActAnswerFamily):
    """A change of the cart, then a question about the cart as it is afterwards (read on the cart
    page, or through ``shop.cart_total``). A family lists its edit family first, then this one:
    ``class AddThen(AddToCart, CartAfter)``, so that the edit's plan and script come first."""

    tolerance = 0.005
    low, high = 0, 2  # how many other lines the cart holds first (when the edit puts none there)

    def with_after(self, params: dict, state: dict, config: dict, rng) -> dict:
        """The edit's ``params`` with the cart put there first and the answer about the cart after."""
        if "lines" not in params:
            params["lines"] = cart_lines(state, config, rng, self.low, self.high, exclude=(params["product_id"],))
        after = cart_after(config, self.lines_after(params))
        return dict(params, after=after, answer=self.from_cart(after), lang=pack_lang(config))

    def prepare(self, state, params):
        fill_cart(state, params["lines"])

    def lines_after(self, params: dict) -> list[dict]:
        raise NotImplementedError

    def answer_pages(self, params):
        return ["/shop/cart"]

    def solve_api(self, params, api):
        """The change as app tools, then what checkout would charge now (``shop.cart_total``)."""
        yield from api.plan(self.plan(params, {}))
        yield api.answer(self.from_cart(api.result((yield api.call("shop", "cart_total")))))

    def from_cart(self, cart: dict) -> str:
        return f"{cart['total']:.2f}"


class AddThen(AddToCart, CartAfter):
    """Add a product to a cart of up to two other lines, then answer about the cart."""

    def sample(self, state, config, rng):
        return self.with_after(AddToCart.sample(self, state, config, rng), state, config, rng)

    def lines_after(self, params):
        new = {"product_id": params["product_id"], "options": params["options"], "qty": params["qty"]}
        return [*params["lines"], new]

    def solve(self, params, ui):
        yield from AddToCart.solve(self, params, ui)
        obs = yield ui.click("shop-cart")
        yield ui.answer(self.from_page(obs))

    def from_page(self, obs: dict) -> str:
        return testid_texts(obs).get("shop-total", "")


@family("shop.add_then_total", apps="shop", max_steps=20, category="math", answer_kind="number")
class AddThenTotal(AddThen):
    """Add a given product (options and quantity) to the cart, then answer what the cart costs now,
    shipping included."""


@family(
    "shop.add_then_summary_json",
    apps="shop",
    max_steps=20,
    category="math",
    answer_kind="json",
    answer_schema={"lines": "number", "units": "number", "total": "number"},
)
class AddThenSummaryJson(AddThen):
    """Add a given product (options and quantity) to the cart, then answer as JSON how many lines and
    units the cart holds now and its total with shipping ({"lines": N, "units": M, "total": T})."""

    def from_cart(self, cart):
        return summary_json(len(cart["lines"]) if isinstance(cart["lines"], list) else cart["lines"],
                            cart["units"], round(cart["total"], 2))  # fmt: skip

    def from_page(self, obs):
        return summary_from_page(obs)


@family("shop.remove_then_total", apps="shop", max_steps=12, category="math", answer_kind="number")
class RemoveThenTotal(RemoveFromCart, CartAfter):
    """The cart holds two or three products: remove the line of a given product, then answer what
    the cart costs now, shipping included."""

    def sample(self, state, config, rng):
        return self.with_after(RemoveFromCart.sample(self, state, config, rng), state, config, rng)

    def lines_after(self, params):
        return [ln for ln in params["lines"] if ln["line"] != params["line"]]

    def solve(self, params, ui):
        obs = yield from ui.through(RemoveFromCart.solve(self, params, ui))
        yield ui.answer(testid_texts(obs).get("shop-total", ""))


@family("shop.checkout_number", apps="shop", max_steps=18, category="lookup", answer_kind="number")
class CheckoutNumber(Checkout, ActAnswerFamily):
    """The cart holds one to three products: check out with a given shipping address, then answer
    with the number of the order just placed (the shop gives it only once the order is placed)."""

    def sample(self, state, config, rng):
        # a seeded start: the shop's next order number, so the number cannot be known beforehand
        first = int(state["shop"]["next_order"])
        return dict(super().sample(state, config, rng), next_order=rng.randint(first, first + 8999),
                    lang=pack_lang(config))  # fmt: skip

    def prepare(self, state, params):
        super().prepare(state, params)
        state["shop"]["next_order"] = params["next_order"]

    def answer(self, state, params):
        return str(state["shop"]["orders"][-1]["id"]) if state["shop"]["orders"] else ""

    def solve(self, params, ui):
        """Check out, then read the new order's number off the page it lands on: the notice that
        the order was placed names it (the number of one of the order cards, ``shop-order-<n>``)."""
        obs = yield from ui.through(Checkout.solve(self, params, ui))
        cards = {t.removeprefix("shop-order-") for t in page_testids(obs) if re.fullmatch(r"shop-order-\d+", t)}
        named = [n for n in re.findall(r"\d+", testid_texts(obs).get("shop-order-placed", "")) if n in cards]
        yield ui.answer(named[0] if named else "")
