"""Shop families around a budget: the price fallback chain (three levels of decision) and the
conjunctive "cheap and in a colour" choice."""

from __future__ import annotations

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.picks import (
    add_this_product,
    add_to_cart_op,
    choose_options,
    find_product,
    unique_products,
)
from openapps_sim.tasks.shop.decisions import price_shown

from openapps_sim.taskkit import Infeasible, family, pick
from openapps_sim.taskkit.branching import (
    ROLES,
    Choice,
    Condition,
    FallbackChain,
    OneOfThree,
)
from openapps_sim.taskkit.observation import testid_text_parts
from openapps_sim.taskkit.progress import Op

BUDGETS = (10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 75.0, 100.0, 150.0)


def product_params(cfg: dict, rng, key: str, pid: str) -> dict:
    """A product the goal names: its id, name, drawn options and its label with them."""
    p = cat.catalogue(cfg)[pid]
    options = choose_options(rng, p)
    label = p["name"] + (f" ({cat.options_text(cfg, p, options)})" if options else "")
    return {f"{key}_id": pid, f"{key}_name": p["name"], f"{key}_options": options, key: label}


def under(price: float | None, budget: float) -> bool:
    """The constraint, stated once: a price (None: not found) is less than the budget."""
    return price is not None and price < budget


def costs_under(pid: str, name: str, budget: float) -> Condition:
    """Does the product cost less than the budget? In the catalogue (the sampler's and the
    instance's check); on the page, the price its page shows (found by searching its name);
    through app tools, ``shop.find_products(name)``. (Prices are the catalogue's, not the shop's
    data, so the world's state does not answer it.)"""

    def look(ui):
        return under(price_shown((yield from find_product(ui, pid, search=name))), budget)

    def ask(api):
        found = api.result((yield api.call("shop", "find_products", query=name))) or []
        return under(next((float(p["price"]) for p in found if p["id"] == pid), None), budget)

    def known(config):
        product = cat.catalogue(config["shop"]).get(pid)
        return under(None if product is None else float(product["price"]), budget)

    return Condition("shop", None, look, ask, known)


def add_op(params: dict, key: str) -> Op:
    """One unit of the goal's product ``key`` with its options."""
    return add_to_cart_op(params[f"{key}_id"], params[f"{key}_options"])


@family("shop.price_fallback", apps="shop", max_steps=30)
class PriceFallback(FallbackChain):
    """Three products in order: add one of the first that costs less than a budget; if none does,
    one of a fourth product (three levels of decision)."""

    def draw(self, state, config, rng, holds):
        cfg = config["shop"]
        products = cat.catalogue(cfg)
        pool = unique_products(cfg)
        for budget in rng.sample(BUDGETS, len(BUDGETS)):
            cheap = [p for p in pool if under(products[p]["price"], budget)]
            dear = [p for p in pool if not under(products[p]["price"], budget)]
            if sum(holds) < len(cheap) and len(holds) - sum(holds) < len(dear):
                break
        else:
            raise Infeasible("no budget splits the products as the chain needs")
        chosen: list[str] = []
        for h in holds:
            chosen.append(pick(rng, [p for p in (cheap if h else dear) if p not in chosen], "product"))
        chosen.append(pick(rng, [p for p in pool if p not in chosen], "fallback product"))
        params = {"budget": budget, "budget_text": cat.fmt_price(cfg, budget)}
        for key, pid in zip("abcd", chosen, strict=True):
            params.update(product_params(cfg, rng, key, pid))
        return params

    def leaf_plans(self, params):
        return [[add_op(params, k)] for k in "abcd"]

    def conditions(self, params):
        return [costs_under(params[f"{k}_id"], params[f"{k}_name"], params["budget"]) for k in "abc"]

    def act(self, leaf, params, ui):
        key = "abcd"[leaf]
        if leaf == 3:  # the fallback's page is not open yet; the others' page is
            yield from find_product(ui, params[f"{key}_id"], search=params[f"{key}_name"])
        yield from add_this_product(ui, params[f"{key}_options"], 1)


@family("shop.cheap_in_colour", apps="shop", max_steps=24)
class CheapInColour(OneOfThree):
    """Of three named products, add to the cart the one that costs less than a budget and comes in a
    named colour (yes/no attributes)."""

    def sample(self, state, config, rng):
        cfg = config["shop"]
        products, pool = cat.catalogue(cfg), unique_products(cfg)
        colours = lambda p: products[p]["options"].get("colour", [])  # noqa: E731
        for budget in rng.sample(BUDGETS, len(BUDGETS)):
            for code in rng.sample(sorted(cfg["option_values"]), len(cfg["option_values"])):
                cheap = [p for p in pool if under(products[p]["price"], budget)]
                pools = {
                    "target": [p for p in cheap if code in colours(p) and set(products[p]["options"]) == {"colour"}],
                    "miss_first": [p for p in cheap if code not in colours(p)],
                    "miss_second": [p for p in pool if not under(products[p]["price"], budget) and code in colours(p)],
                }
                if all(pools.values()):
                    break
            else:
                continue
            break
        else:
            raise Infeasible("no budget and colour split the products as the family needs")
        params = self.roles(rng)
        chosen = {role: rng.choice(pools[role]) for role in ROLES}
        for key, role in zip("abc", params["order"], strict=True):
            params.update({f"{key}_id": chosen[role], key: products[chosen[role]]["name"]})
        params.update(budget=budget, budget_text=cat.fmt_price(cfg, budget), colour=code,
                      colour_name=cfg["option_values"][code]["name"])  # fmt: skip
        return dict(params, branch=self.decision(params).decide(state, config))  # the catalogue's answer

    def branch_plans(self, params, initial):
        return {params[f"{k}_id"]: [add_to_cart_op(params[f"{k}_id"], {"colour": params["colour"]})] for k in "abc"}

    def decision(self, params):
        """The named product that costs less than the budget and comes in the colour: in the
        catalogue, on each product's page (its price, and the colours its colour menu offers) or
        through ``shop.find_products`` (read one product at a time, up to the one that is)."""

        def on_page(key):
            def read(ui):
                obs = yield from find_product(ui, params[f"{key}_id"], search=params[key])
                offered = [t.strip() for t in testid_text_parts(obs or {}).get("shop-option-colour", [])]
                return {params[f"{key}_id"]: {"price": price_shown(obs), "in_colour": params["colour_name"] in offered}}

            return read

        def by_tools(key):
            def read(api):
                found = api.result((yield api.call("shop", "find_products", query=params[key]))) or []
                p = next((p for p in found if p["id"] == params[f"{key}_id"]), None)
                return {params[f"{key}_id"]: product_facts(p, params["colour"])}

            return read

        def in_catalogue(state, config):
            products = cat.catalogue(config["shop"])
            return {params[f"{k}_id"]: product_facts(products.get(params[f"{k}_id"]), params["colour"]) for k in "abc"}

        def wanted(facts):
            return under(facts["price"], params["budget"]) and facts["in_colour"]

        pages, tools = tuple(map(on_page, "abc")), tuple(map(by_tools, "abc"))
        return Choice(Choice.first(wanted), in_catalogue, pages, tools)

    def take(self, leaf, facts, params, ui):  # the chosen product's page is open
        if leaf is not None:
            yield from add_this_product(ui, {"colour": params["colour"]}, 1)


def product_facts(product: dict | None, colour: str) -> dict:
    """A product's price and whether it comes in the colour (a product as the catalogue or
    ``shop.find_products`` gives it; None: not found)."""
    if product is None:
        return {"price": None, "in_colour": False}
    return {"price": float(product["price"]), "in_colour": colour in product["options"].get("colour", [])}
