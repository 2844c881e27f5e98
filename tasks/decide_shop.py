"""Constraint and branching families in the shop: add the cheapest product of a category, and
remove the most expensive cart line or check out depending on a budget."""

from __future__ import annotations

from collections import Counter

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.shop import ADDRESSES, _cart_lines, _fill_cart, _open_cart, _open_shop, _unique_products

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily
from openapps_sim.taskkit.observation import page_testids
from openapps_sim.taskkit.progress import Op


@family
class CheapestInCategory(BranchingFamily):
    id = "shop.cheapest_in_category"
    apps = ("shop",)
    max_steps = 20
    structure = "single"
    category = "constraint"
    description = "Add the cheapest product of a category to the cart (one unit; options as given)."

    def sample(self, state, config, rng):
        cfg = config["shop"]
        products = cat.catalogue(cfg)
        unique = set(_unique_products(cfg))
        cheapest: dict[str, str] = {}
        for cid in sorted({p["category"] for p in products.values()}):
            in_cat = [(p["price"], pid) for pid, p in products.items() if p["category"] == cid]
            prices = Counter(price for price, _ in in_cat)
            price, pid = min(in_cat)
            if prices[price] == 1 and pid in unique:
                cheapest[cid] = pid
        cid = pick(rng, sorted(cheapest), "category with one cheapest product")
        pid = cheapest[cid]
        p = products[pid]
        options = {kind: rng.choice(codes) for kind, codes in p["options"].items()}
        text = cat.options_text(cfg, p, options)
        opts = {"en": f" Choose {text}.", "de": f" Wähle {text}.", "fr": f" Choisis {text}."}
        return {"category": cid, "category_name": cfg["categories"][cid]["name"], "product_id": pid,
                "options": options, "branch": pid, **{f"opts_{k}": v if options else "" for k, v in opts.items()},
                "others": sorted(x for x, q in products.items() if q["category"] == cid and x != pid)}  # fmt: skip

    def apply(self, state, params):
        cat.add_line(state["shop"], params["product_id"], params["options"], 1)

    def branch_ops(self, params):
        ops = {pid: [Op.of("shop", "add_to_cart", product_id=pid)] for pid in params["others"]}
        ops[params["product_id"]] = [Op.of("shop", "add_to_cart", product_id=params["product_id"])]
        return ops

    def solve(self, params, ui):
        yield from _open_shop(ui)
        obs = yield ui.click(f"shop-category-{params['category']}")
        target = f"shop-product-{params['product_id']}"
        for _ in range(50):
            ids = page_testids(obs)
            if target in ids or "shop-page-next" not in ids:
                break
            obs = yield ui.click("shop-page-next")
        yield ui.click(target)
        for kind, code in params["options"].items():
            yield ui.select(f"shop-option-{kind}", code)
        yield ui.fill("shop-qty", "1")
        yield ui.click("shop-add-to-cart")


@family
class CartOverBudget(BranchingFamily):
    id = "shop.cart_over_budget"
    apps = ("shop",)
    max_steps = 16
    description = (
        "If the cart total (with shipping) is over a budget, remove the most expensive line; otherwise check out "
        "to a given address."
    )

    def sample(self, state, config, rng):
        cfg = config["shop"]
        for _ in range(20):
            lines = _cart_lines(state, config, rng, 2, 3)
            prices = sorted(ln["price"] for ln in lines)
            if prices[-1] != prices[-2]:
                break
        else:
            pick(rng, [], "cart whose most expensive item is unique")
        order_lines = [{k: ln[k] for k in ("product_id", "options", "qty", "price")} for ln in lines]
        total = cat.order_total(cfg, order_lines)
        over = rng.random() < 0.5
        budget = float(int(total * (0.7 if over else 1.3)))
        top = max(lines, key=lambda ln: ln["price"])
        return {"lines": lines, "order_lines": order_lines, "total": total, "budget": budget,
                "budget_text": cat.fmt_price(cfg, budget), "top_line": top["line"],
                "branch": "over" if total > budget else "within", **dict(rng.choice(ADDRESSES))}  # fmt: skip

    def prepare(self, state, params):
        _fill_cart(state, params["lines"])

    def apply(self, state, params):
        shop = state["shop"]
        if params["branch"] == "over":
            shop["cart"] = [ln for ln in shop["cart"] if ln["id"] != params["top_line"]]
        else:
            address = {k: params[k] for k in cat.ADDRESS_FIELDS}
            cat.record_order(shop, params["order_lines"], address, params["total"])

    def branch_ops(self, params):
        return {
            "over": [Op.of("shop", "remove_line", line=params["top_line"])],
            "within": [Op.of("shop", "checkout", total=params["total"])],
        }

    def solve(self, params, ui):
        yield from _open_cart(ui)
        if params["branch"] == "over":
            yield ui.click(f"shop-line-remove-{params['top_line']}")
            return
        yield ui.click("shop-checkout")
        for key in cat.ADDRESS_FIELDS:
            yield ui.fill(f"shop-field-{key}", params[key])
        yield ui.click("shop-place-order")
