"""Return-value families in the shop: the cart's cost with shipping (``math``) and a
structured (JSON) summary of the cart."""

from __future__ import annotations

import json

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.picks import cart_lines, fill_cart, open_cart

from openapps_sim.taskkit import family
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang
from openapps_sim.taskkit.observation import testid_attributes, testid_texts


def _sample_cart(state, config, rng) -> dict:
    lines = cart_lines(state, config, rng, 2, 3)
    cfg = config["shop"]
    total = cat.order_total(cfg, lines)
    units = sum(ln["qty"] for ln in lines)
    return {
        "lines": lines,
        "total": total,
        "units": units,
        "lang": pack_lang(config),
        "price_text": cat.fmt_price(cfg, total),
    }


class CartAnswer(AnswerFamily):
    """A question about a cart of two or three lines put there first, answered on the cart page."""

    apps = ("shop",)
    max_steps = 8
    category = "math"
    tolerance = 0.005

    def prepare(self, state, params):
        fill_cart(state, params["lines"])

    def answer_pages(self, params):
        return ["/shop/cart"]

    def solve(self, params, ui):
        """Read the cart page (its lines, quantities and total), then answer."""
        obs = yield from open_cart(ui)
        yield ui.answer(self.from_page(testid_texts(obs), testid_attributes(obs)))

    def solve_api(self, params, api):
        """Ask the shop what checkout would charge (``shop.cart_total``), then answer."""
        yield api.answer(self.from_cart(api.result((yield api.call("shop", "cart_total")))))

    def from_page(self, texts: dict[str, str], attributes: dict[str, dict[str, str]]) -> str:
        raise NotImplementedError

    def from_cart(self, cart: dict) -> str:
        raise NotImplementedError


@family("shop.cart_total_shipping", answer_kind="number")
class CartTotalShipping(CartAnswer):
    """Answer what the cart would cost at checkout, shipping included."""

    def sample(self, state, config, rng):
        params = _sample_cart(state, config, rng)
        params["answer"] = params["price_text"]
        return params

    def from_page(self, texts, attributes):
        return texts.get("shop-total", "")

    def from_cart(self, cart):
        return f"{cart['total']:.2f}"


@family(
    "shop.cart_summary_json",
    answer_kind="json",
    answer_schema={"lines": "number", "units": "number", "total": "number"},
)
class CartSummaryJson(CartAnswer):
    """Answer as JSON how many lines and units the cart holds and its total with shipping ({"lines":
    N, "units": M, "total": T})."""

    def sample(self, state, config, rng):
        params = _sample_cart(state, config, rng)
        params["answer"] = (
            f'{{"lines": {len(params["lines"])}, "units": {params["units"]}, "total": {params["total"]:.2f}}}'
        )
        return params

    def from_page(self, texts, attributes):
        lines = [a for a in attributes.values() if "shop-line" in a.get("class", "").split()]
        units = sum(int(a.get("value") or 0) for t, a in attributes.items() if t.startswith("shop-line-qty-"))
        return json.dumps(
            {"lines": len(lines), "units": units, "total": texts.get("shop-total", "")}, ensure_ascii=False
        )

    def from_cart(self, cart):
        return json.dumps({"lines": len(cart["lines"]), "units": cart["units"], "total": cart["total"]})
