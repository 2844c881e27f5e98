"""Return-value families in the shop: the cart's cost with shipping (``math``) and a
structured (JSON) summary of the cart."""

from __future__ import annotations

from openapps_sim.apps.shop import catalog as cat
from openapps_sim.tasks.shop import _cart_lines, _fill_cart, _open_cart

from openapps_sim.taskkit import family
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang


def _sample_cart(state, config, rng) -> dict:
    lines = _cart_lines(state, config, rng, 2, 3)
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


@family
class CartTotalShipping(AnswerFamily):
    id = "shop.cart_total_shipping"
    apps = ("shop",)
    max_steps = 8
    category = "math"
    answer_kind = "number"
    tolerance = 0.005
    description = "Answer what the cart would cost at checkout, shipping included."
    phrasings = {
        "plain": [
            "What would my cart cost including shipping?",
            "Tell me the total of my cart with shipping.",
            "How much would I pay for my cart, shipping included?",
        ],
        "casual": [
            "how much is my cart gonna cost with shipping?",
            "what's the damage for my cart incl. shipping?",
            "total for the cart with delivery, roughly? exact pls",
        ],
        "context": [
            "Payday is not until Friday. What would my cart cost including shipping?",
            "I'm comparing with another store. What's my cart total with shipping?",
            "My partner asks what we'd spend: what does the cart cost, shipping included?",
        ],
        "de": ["Was würde mein Warenkorb inklusive Versand kosten?", "Wie hoch ist die Summe mit Versand?"],
        "fr": ["Combien coûterait mon panier, livraison comprise ?", "Quel est le total du panier avec la livraison ?"],
    }

    def sample(self, state, config, rng):
        params = _sample_cart(state, config, rng)
        params["answer"] = params["price_text"]
        return params

    def prepare(self, state, params):
        _fill_cart(state, params["lines"])

    def answer_pages(self, params):
        return ["/shop/cart"]

    def solve(self, params, ui):
        yield from _open_cart(ui)
        yield ui.answer(params["answer"])


@family
class CartSummaryJson(AnswerFamily):
    id = "shop.cart_summary_json"
    apps = ("shop",)
    max_steps = 8
    category = "math"
    answer_kind = "json"
    answer_schema = {"lines": "number", "units": "number", "total": "number"}
    tolerance = 0.005
    description = (
        "Answer as JSON how many lines and units the cart holds and its total with shipping "
        '({"lines": N, "units": M, "total": T}).'
    )
    phrasings = {
        "plain": [
            'Summarise my cart as JSON: {{"lines": N, "units": M, "total": T}} (total with shipping).',
            'Reply with JSON {{"lines": N, "units": M, "total": T}} describing my cart, shipping included in the total.',
            "Give me my cart as JSON with lines, units and total (with shipping).",
        ],
        "casual": [
            'cart summary as JSON pls: {{"lines": .., "units": .., "total": ..}}',
            "json of my cart? lines, units, total incl shipping",
            'what\'s in my cart, as {{"lines": N, "units": M, "total": T}}?',
        ],
        "context": [
            'My budgeting script reads JSON. Send {{"lines": N, "units": M, "total": T}} for my cart, total with shipping.',
            "I'm logging my spending: cart as JSON with lines, units and the total including shipping.",
            'Before I decide to buy: give me {{"lines": N, "units": M, "total": T}} for the cart.',
        ],
        "de": ['Fasse meinen Warenkorb als JSON zusammen: {{"lines": N, "units": M, "total": T}} (Summe mit Versand).'],
        "fr": ['Résume mon panier en JSON : {{"lines": N, "units": M, "total": T}} (total livraison comprise).'],
    }

    def sample(self, state, config, rng):
        params = _sample_cart(state, config, rng)
        params["answer"] = (
            f'{{"lines": {len(params["lines"])}, "units": {params["units"]}, "total": {params["total"]:.2f}}}'
        )
        return params

    def prepare(self, state, params):
        _fill_cart(state, params["lines"])

    def answer_pages(self, params):
        return ["/shop/cart"]

    def solve(self, params, ui):
        yield from _open_cart(ui)
        yield ui.answer(params["answer"])
