"""Constraint and branching families in the shop: add the cheapest product of a category; remove
the most expensive cart line or check out depending on a budget; add a product if its price is
under a budget, or if it is rated at least a minimum, else an alternative."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.picks import (
    add_this_product,
    add_to_cart_op,
    cart_lines,
    checkout_op,
    choose_options,
    fill_cart,
    find_product,
    open_cart,
    open_shop,
    unique_products,
)
from openapps_sim.tasks.shop.edits import ADDRESSES

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import format_number, parse_numbers
from openapps_sim.taskkit.branching import BranchingFamily, Choice, Condition, Decision
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_bids, testid_text_parts, testid_texts
from openapps_sim.taskkit.progress import Op


def options_clause(params: dict, language: str) -> str:
    """ " Choose <options>." in the goal's language, or nothing for a product without options."""
    if not params["options"]:
        return ""
    return str(words(language, "shop.choose")).format(options=params["options_text"])


def first_number(obs: dict, testid: str) -> float | None:
    """The first number the element shows (in the page's own format), None when it shows none."""
    numbers = parse_numbers(testid_texts(obs or {}).get(testid, ""))
    return numbers[0] if numbers else None


def price_shown(obs: dict) -> float | None:
    """The price a product's page shows, as a number."""
    return first_number(obs, "shop-product-price")


def found(api, query: str) -> Iterator:
    """``shop.find_products(query)``: the matching products (id, name, category, price, rating, options)."""
    return api.result((yield api.call("shop", "find_products", query=query))) or []


@family("shop.cheapest_in_category", apps="shop", max_steps=20, structure="single", category="constraint")
class CheapestInCategory(BranchingFamily):
    """Add the cheapest product of a category to the cart (one unit; options as given)."""

    def sample(self, state, config, rng):
        cfg = config["shop"]
        products = cat.catalogue(cfg)
        unique = set(unique_products(cfg))
        cheapest_of: dict[str, str] = {}
        for cid in sorted({p["category"] for p in products.values()}):
            pid = self.decision({"category": cid}).decide(state, config)
            prices = Counter(p["price"] for p in products.values() if p["category"] == cid)
            if prices[products[pid]["price"]] == 1 and pid in unique:
                cheapest_of[cid] = pid
        cid = pick(rng, sorted(cheapest_of), "category with one cheapest product")
        pid = cheapest_of[cid]
        p = products[pid]
        options = choose_options(rng, p)
        # a seeded start state: the cart holds zero to two other products already
        lines = cart_lines(state, config, rng, 0, 2, exclude=(pid,))
        return {"category": cid, "category_name": cfg["categories"][cid]["name"], "product_id": pid,
                "options": options, "options_text": cat.options_text(cfg, p, options), "branch": pid,
                "others": sorted(x for x, q in products.items() if q["category"] == cid and x != pid),
                "lines": lines}  # fmt: skip

    def prepare(self, state, params):
        fill_cart(state, params.get("lines") or [])

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), opts=options_clause(params, language))

    def branch_plans(self, params, initial):
        plans = {pid: [Op.of("shop", "add_to_cart", product_id=pid)] for pid in params["others"]}
        plans[params["product_id"]] = [add_to_cart_op(params["product_id"], params["options"]).keyed("product_id")]
        return plans

    def leaf_plan(self, leaf, facts, params):
        return [add_to_cart_op(leaf, params["options"])]

    def decision(self, params):
        """The category's cheapest product: in the catalogue, on the category's page sorted by
        price, lowest first (each tile's price), or of the products ``shop.find_products`` lists
        for the category."""
        cid = params["category"]

        def on_page(ui):
            yield from open_shop(ui)
            yield ui.click(f"shop-category-{cid}")
            obs = yield ui.click("shop-sort-price_asc")
            parts = testid_text_parts(obs or {})
            tiles = [t for t in testid_bids(obs or {}) if t.startswith("shop-product-")]
            return {t.removeprefix("shop-product-"): tile_price(parts.get(t, [])) for t in tiles}

        def by_tools(api):
            listed = api.result((yield api.call("shop", "find_products", category=cid))) or []
            return {p["id"]: p["price"] for p in listed}

        def in_catalogue(state, config):
            return {pid: p["price"] for pid, p in cat.catalogue(config["shop"]).items() if p["category"] == cid}

        return Choice(cheapest, in_catalogue, (on_page,), (by_tools,))

    def take(self, leaf, facts, params, ui):  # the category's page is open
        yield ui.click(f"shop-product-{leaf}")
        yield from add_this_product(ui, params["options"], 1)


def cheapest(prices: dict) -> str | None:
    """The product of the lowest price (of equal ones, the first id); None: no product."""
    known = {pid: price for pid, price in prices.items() if price is not None}
    return min(known, key=lambda pid: (known[pid], pid)) if known else None


def tile_price(parts: list[str]) -> float | None:
    """The price a product's tile shows (its last text)."""
    numbers = parse_numbers(parts[-1]) if parts else []
    return numbers[0] if numbers else None


@family("shop.cart_over_budget", apps="shop", max_steps=16)
class CartOverBudget(BranchingFamily):
    """If the cart total (with shipping) is over a budget, remove the most expensive line; otherwise
    check out to a given address."""

    def sample(self, state, config, rng):
        cfg = config["shop"]
        for _ in range(20):
            lines = cart_lines(state, config, rng, 2, 3)
            prices = sorted(ln["price"] for ln in lines)
            if prices[-1] != prices[-2]:
                break
        else:
            pick(rng, [], "cart whose most expensive item is unique")
        order_lines = [{k: ln[k] for k in ("product_id", "options", "qty", "price")} for ln in lines]
        total = cat.order_total(cfg, order_lines)
        over = rng.random() < 0.5
        budget = float(int(total * (0.7 if over else 1.3)))
        top = dearest({ln["line"]: ln["price"] for ln in lines})
        return {"lines": lines, "order_lines": order_lines, "total": total, "budget": budget,
                "budget_text": cat.fmt_price(cfg, budget), "top_line": top,
                "branch": self.decision({"budget": budget}).rule({"total": total}),
                **dict(rng.choice(ADDRESSES))}  # fmt: skip

    def prepare(self, state, params):
        fill_cart(state, params["lines"])

    def branch_plans(self, params, initial):
        return {"over": [Op.of("shop", "remove_line", line=params["top_line"])], "within": [checkout_op(params)]}

    def leaf_plan(self, leaf, facts, params):
        if leaf == "over":
            return [Op.of("shop", "remove_line", line=dearest(facts["lines"]))]
        return [checkout_op(params)]

    def decision(self, params):
        """Is the cart's total (with shipping) over the budget? With the unit price of each line
        (to remove the dearest): in the world, on the cart page, or from ``shop.cart_total()``
        (its lines in the cart's order, as ``shop.read()`` lists them with their ids)."""

        def on_page(ui):
            obs = yield from open_cart(ui)
            prices = {t.removeprefix("shop-line-price-"): first_number(obs, t) for t in testid_bids(obs)}
            lines = {n: p for n, p in prices.items() if p is not None and n.isdigit()}
            return {"total": first_number(obs, "shop-total"), "lines": lines}

        def by_tools(api):
            cart = (api.result((yield api.read("shop"))) or {}).get("cart", [])
            return cart_facts(api.result((yield api.call("shop", "cart_total"))) or {}, cart)

        def in_world(state, config):
            lines = cat.priced_lines(config["shop"], state["shop"]["cart"])
            return cart_facts({"lines": lines, "total": cat.order_total(config["shop"], lines)}, state["shop"]["cart"])

        def rule(facts):
            total = facts["total"]
            return "over" if total is not None and total > params["budget"] else "within"

        return Choice(rule, in_world, (on_page,), (by_tools,))

    def take(self, leaf, facts, params, ui):  # the cart page is open
        if leaf == "over":
            yield ui.click(f"shop-line-remove-{dearest(facts['lines'])}")
            return
        yield ui.click("shop-checkout")
        for key in cat.ADDRESS_FIELDS:
            yield ui.fill(f"shop-field-{key}", params[key])
        yield ui.click("shop-place-order")


def cart_facts(priced: dict, cart: list[dict]) -> dict:
    """The total and each line's unit price, by line id, from what ``shop.cart_total()`` returns
    (its lines in the order of ``cart``, the shop's cart lines)."""
    lines = {ln["id"]: p["price"] for p, ln in zip(priced.get("lines", []), cart, strict=False)}
    return {"total": priced.get("total", 0), "lines": lines}


def dearest(lines: dict) -> str | int:
    """The line of the highest unit price (``{line: price}``; of equal ones, the first)."""
    return max(lines, key=lambda line: lines[line])


class ThresholdChoice(BranchingFamily):
    """If a named product meets a threshold (``measure`` against ``thresholds``), add one unit of it
    to the cart; otherwise one unit of a named alternative. Both have a unique name, and the goal
    gives the options of both; the threshold is drawn so that either case holds about half the
    time."""

    apps = ("shop",)
    max_steps = 20
    category = "constraint"
    thresholds: tuple[float, ...] = ()

    def measure(self, product: dict) -> float:
        raise NotImplementedError

    def meets(self, value: float, threshold: float) -> bool:
        raise NotImplementedError

    def sample(self, state, config, rng):
        cfg = config["shop"]
        products = cat.catalogue(cfg)
        pid, alt = (
            rng.sample(unique_products(cfg), 2) if len(unique_products(cfg)) >= 2 else pick(rng, [], "two products")
        )
        value = self.measure(products[pid])
        want = rng.random() < 0.5
        if not any(self.meets(value, t) == want for t in self.thresholds):
            want = not want
        threshold = rng.choice([t for t in self.thresholds if self.meets(value, t) == want])
        params = {"threshold": threshold, "value": value, "branch": ""}
        for key, p_id in (("product", pid), ("alt", alt)):
            p = products[p_id]
            options = choose_options(rng, p)
            label = p["name"] + (f" ({cat.options_text(cfg, p, options)})" if options else "")
            params.update({f"{key}_id": p_id, f"{key}_name": p["name"], f"{key}_options": options, key: label})
        params["branch"] = self.decision(params).decide(state, config)  # the catalogue's answer
        return params

    def decision(self, params):
        """Does the named product meet the threshold? On its page (found by its name), the measure
        shown; through app tools, ``shop.find_products``; in the catalogue for the sampler and the
        instance's check. (The measure is the catalogue's, not the shop's data, so the world's
        state does not answer it.)"""
        pid, name, threshold = params["product_id"], params["product_name"], params["threshold"]

        def look(ui):
            value = self.shown((yield from find_product(ui, pid, search=name)))
            return value is not None and self.meets(value, threshold)

        def ask(api):
            p = next((p for p in (yield from found(api, name)) if p["id"] == pid), None)
            return p is not None and self.meets(self.measure(p), threshold)

        def known(config):
            product = cat.catalogue(config["shop"]).get(pid)
            return product is not None and self.meets(self.measure(product), threshold)

        return Decision.when(Condition("shop", None, look, ask, known), "meets", "fails")

    def shown(self, obs: dict) -> float | None:
        """The measure as the product's page shows it."""
        raise NotImplementedError

    def branch_plans(self, params, initial):
        return {
            branch: [add_to_cart_op(params[f"{key}_id"], params[f"{key}_options"]).keyed("product_id")]
            for branch, key in (("meets", "product"), ("fails", "alt"))
        }

    def act(self, leaf, params, ui):  # the named product's page is open
        key = "product" if leaf == "meets" else "alt"
        if key == "alt":
            yield from find_product(ui, params["alt_id"], search=params["alt_name"])
        yield from add_this_product(ui, params[f"{key}_options"], 1)


@family("shop.under_budget")
class UnderBudget(ThresholdChoice):
    """If a named product costs less than a budget ("under $20"), add one to the cart; otherwise add
    one of a named alternative."""

    thresholds = (5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 75.0, 100.0, 150.0, 200.0, 300.0)

    def measure(self, product):
        return float(product["price"])

    def meets(self, value, threshold):
        return value < threshold

    def shown(self, obs):
        return price_shown(obs)

    def sample(self, state, config, rng):
        params = super().sample(state, config, rng)
        params["budget_text"] = cat.fmt_price(config["shop"], params["threshold"])
        return params


@family("shop.rated_at_least")
class RatedAtLeast(ThresholdChoice):
    """If a named product is rated at least a minimum ("rated at least 4.5"), add one to the cart;
    otherwise add one of a named alternative."""

    thresholds = (3.5, 4.0, 4.2, 4.5, 4.7, 4.8)

    def measure(self, product):
        return float(product.get("rating", 0.0))

    def meets(self, value, threshold):
        return value >= threshold

    def shown(self, obs):
        return first_number(obs, "shop-product-rating")

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), min_rating=format_number(params["threshold"], language, 1))
