"""The shop's pure logic: the catalogue, prices, search ranking, cart lines and normalisation.

Nothing here renders HTML, so task families import it freely
(``from openapps_sim.apps.shop.model import ...``).
"""

from __future__ import annotations

import re

from openapps_sim.appkit import ItemKey
from openapps_sim.config.normalise import norm_text
from openapps_sim.errors import ConfigError

ADDRESS_FIELDS = ("name", "street", "city", "postcode", "country")
MAX_QTY = 99
_HEX = re.compile(r"^#[0-9a-fA-F]{3,8}$")
_PALETTE = ["#5b8def", "#e0774f", "#47a67a", "#b463c9", "#d6a52c", "#3aa3b5", "#c85468", "#7c8a99"]


# -- catalogue -------------------------------------------------------------------------------
def catalogue(cfg: dict) -> dict[str, dict]:
    """The products on sale, by id, in config order (``only_products`` narrows the list)."""
    products = cfg["products"]
    only = cfg.get("only_products") or []
    if only:
        return {pid: products[pid] for pid in only if pid in products}
    return dict(products)


# the natural key of the items of each list in the normalised state (for reward explanations)
ITEM_KEYS = {
    "cart": ItemKey(("product_id", "options"), "cart line"),
    "orders": ItemKey((), "order"),
    "orders[].lines": ItemKey(("product_id", "options"), "order line"),
}


def product_any(cfg: dict, pid: str) -> dict | None:
    """A product by id, also when ``only_products`` hides it (for order history)."""
    return cfg["products"].get(pid)


def check_config(cfg: dict, source: str = "shop") -> None:
    """Cross-references a schema cannot express: categories, option kinds and values exist."""
    cats, kinds, values = cfg["categories"], cfg["option_names"], cfg["option_values"]
    for pid, p in cfg["products"].items():
        where = f"shop.products.{pid}"
        if p["category"] not in cats:
            raise ConfigError(source, f"{where}.category", f"unknown category {p['category']!r}", ", ".join(cats))
        for kind, codes in p["options"].items():
            if kind not in kinds:
                raise ConfigError(source, f"{where}.options.{kind}", "unknown option kind", ", ".join(kinds))
            if not codes:
                raise ConfigError(source, f"{where}.options.{kind}", "needs at least one value")
            for code in codes:
                if code not in values:
                    raise ConfigError(source, f"{where}.options.{kind}", f"unknown option value {code!r}")
    for pid in cfg.get("only_products") or []:
        if pid not in cfg["products"]:
            raise ConfigError(source, "shop.only_products", f"unknown product {pid!r}")


def option_label(cfg: dict, code: str) -> str:
    value = cfg["option_values"].get(code)
    return value["name"] if value else code


def options_text(cfg: dict, product: dict | None, options: dict, sep: str = " / ") -> str:
    """The labels of a line's chosen options in the product's option order (``Red / M``)."""
    order = list(product["options"]) if product else []
    kinds = order + sorted(k for k in options if k not in order)
    return sep.join(option_label(cfg, options[k]) for k in kinds if k in options)


def product_colour(cfg: dict, pid: str, product: dict, chosen: str | None = None) -> str:
    """The colour a product is drawn in: the chosen or first colour option, else one from its id."""
    codes = [chosen] if chosen else []
    codes += product["options"].get("colour", [])
    for code in codes:
        hexv = (cfg["option_values"].get(code) or {}).get("hex", "")
        if _HEX.match(hexv or ""):
            return hexv
    return _PALETTE[sum(map(ord, pid)) % len(_PALETTE)]


# -- prices ----------------------------------------------------------------------------------
def cents(x: float) -> float:
    return round(float(x) + 0.0, 2)


def fmt_price(cfg: dict, amount: float) -> str:
    text = f"{cents(amount):.2f}"
    sep = cfg.get("decimal_separator", ".")
    if sep != ".":
        text = text.replace(".", sep)
    return cfg.get("price_format", "${amount}").replace("{amount}", text)


def fmt_number(cfg: dict, x: float, digits: int = 1) -> str:
    text = f"{x:.{digits}f}"
    sep = cfg.get("decimal_separator", ".")
    return text.replace(".", sep) if sep != "." else text


def subtotal(lines: list[dict]) -> float:
    return cents(sum(cents(line["price"] * line["qty"]) for line in lines))


def shipping_for(cfg: dict, sub: float) -> float:
    free_over = cfg.get("free_shipping_over", 0.0)
    if sub <= 0 or (free_over > 0 and sub >= free_over):
        return 0.0
    return cents(cfg.get("shipping_fee", 0.0))


def order_total(cfg: dict, lines: list[dict]) -> float:
    """Subtotal plus shipping, rounded to cents. ``lines`` carry ``price`` and ``qty``."""
    sub = subtotal(lines)
    return cents(sub + shipping_for(cfg, sub))


def priced_lines(cfg: dict, cart: list[dict]) -> list[dict]:
    """Cart lines as order lines: product, options, quantity and the current unit price."""
    out = []
    for line in cart:
        p = product_any(cfg, line["product_id"])
        if p is None:
            continue
        out.append(
            {
                "product_id": line["product_id"],
                "options": dict(line["options"]),
                "qty": int(line["qty"]),
                "price": cents(p["price"]),
            }
        )
    return out


# -- cart ------------------------------------------------------------------------------------
def find_line(cart: list[dict], product_id: str, options: dict) -> dict | None:
    return next((ln for ln in cart if ln["product_id"] == product_id and ln["options"] == options), None)


def add_line(state: dict, product_id: str, options: dict, qty: int) -> tuple[dict, bool]:
    """Add to the cart as the app does: an identical line grows, otherwise a new line.

    Returns the line and whether it was merged into an existing one.
    """
    line = find_line(state["cart"], product_id, options)
    if line is not None:
        line["qty"] = min(MAX_QTY, line["qty"] + qty)
        return line, True
    line = {"id": state["next_line"], "product_id": product_id, "options": dict(options), "qty": qty}
    state["next_line"] += 1
    state["cart"].append(line)
    return line, False


def place_order(state: dict, cfg: dict, address: dict) -> dict:
    """Turn the cart into an order as the app does (``cfg`` is the shop's config section)."""
    lines = priced_lines(cfg, state["cart"])
    return record_order(state, lines, address, order_total(cfg, lines))


def record_order(state: dict, lines: list[dict], address: dict, total: float) -> dict:
    """Append an order with the next id and empty the cart (used by the app and by tasks)."""
    order = {
        "id": str(state["next_order"]),
        "lines": [dict(ln, options=dict(ln["options"])) for ln in lines],
        "address": {k: str(address.get(k, "")).strip() for k in ADDRESS_FIELDS},
        "total": cents(total),
    }
    state["next_order"] += 1
    state["orders"].append(order)
    state["cart"] = []
    return order


# -- search ----------------------------------------------------------------------------------
def search(cfg: dict, products: dict[str, dict], query: str) -> list[str]:
    """Product ids matching ``query``, best first.

    The query is folded (case, width, white space) and split into words; each word scores
    where it occurs as a substring: name 3 (+2 at a word start), category name 2, option
    labels 1, description 1. Products that contain every word are shown if there are any,
    otherwise those that contain some. The whole query equal to a name adds 100, contained
    in a name adds 20. Ties go to the higher rating, then to the lower id.
    """
    q = norm_text(query)
    if not q:
        return []
    words = [w for w in q.split(" ") if w]
    scored: list[tuple[float, bool, float, str]] = []
    for pid, p in products.items():
        name = norm_text(p["name"])
        cat = norm_text((cfg["categories"].get(p["category"]) or {}).get("name", ""))
        labels = norm_text(" ".join(option_label(cfg, c) for codes in p["options"].values() for c in codes))
        desc = norm_text(p.get("description", ""))
        score, all_words = 0.0, True
        for w in words:
            s = 0.0
            if w in name:
                s += 3 + (2 if re.search(r"(^|[^\w])" + re.escape(w), name) else 0)
            if w in cat:
                s += 2
            if w in labels:
                s += 1
            if w in desc:
                s += 1
            if s == 0:
                all_words = False
            score += s
        if score == 0:
            continue
        if q == name:
            score += 100
        elif q in name:
            score += 20
        scored.append((score, all_words, p.get("rating", 0.0), pid))
    if any(s[1] for s in scored):
        scored = [s for s in scored if s[1]]
    scored.sort(key=lambda s: (-s[0], -s[2], s[3]))
    return [s[3] for s in scored]


SORTS = ("relevance", "price_asc", "price_desc", "rating", "name")


def sort_ids(products: dict[str, dict], ids: list[str], sort: str) -> list[str]:
    if sort == "price_asc":
        return sorted(ids, key=lambda i: (products[i]["price"], i))
    if sort == "price_desc":
        return sorted(ids, key=lambda i: (-products[i]["price"], i))
    if sort == "rating":
        return sorted(ids, key=lambda i: (-products[i].get("rating", 0), -products[i].get("reviews", 0), i))
    if sort == "name":
        return sorted(ids, key=lambda i: (norm_text(products[i]["name"]), i))
    return list(ids)


# -- normalisation ---------------------------------------------------------------------------
def _merged(lines: list[dict], with_price: bool) -> list[dict]:
    acc: dict[tuple, int] = {}
    for ln in lines:
        key: tuple = (str(ln["product_id"]), tuple(sorted((str(k), str(v)) for k, v in ln.get("options", {}).items())))
        if with_price:
            key += (cents(ln.get("price", 0.0)),)
        acc[key] = acc.get(key, 0) + int(ln["qty"])
    out = []
    for key in sorted(acc):
        if acc[key] <= 0:
            continue
        item = {"product_id": key[0], "options": dict(key[1]), "qty": acc[key]}
        if with_price:
            item["price"] = key[2]
        out.append(item)
    return out


def normalise(state: dict) -> dict:
    """Cart as a sorted multiset of (product, options) with summed quantities; orders in
    placement order without ids, their lines merged the same way, address text folded,
    prices rounded to cents. Line ids and the next-id counters are dropped."""
    return {
        "cart": _merged(state.get("cart", []), with_price=False),
        "orders": [
            {
                "lines": _merged(o.get("lines", []), with_price=True),
                "address": {k: norm_text(o.get("address", {}).get(k, "")) for k in ADDRESS_FIELDS},
                "total": cents(o.get("total", 0.0)),
            }
            for o in state.get("orders", [])
        ],
    }


def initial_state(config: dict, rng) -> dict:
    check_config(config)
    orders = []
    for o in config["past_orders"]:
        lines = [
            {"product_id": ln["product_id"], "options": dict(ln["options"]), "qty": ln["qty"], "price": ln["price"]}
            for ln in o["lines"]
        ]
        orders.append(
            {"id": o["id"], "lines": lines, "address": dict(o["address"]), "total": order_total(config, lines)}
        )
    numeric = [int(o["id"]) for o in orders if o["id"].isdigit()]
    return {"cart": [], "orders": orders, "next_line": 1, "next_order": max(numeric, default=1000) + 1}


def cart_line(state: dict, line_id: int | None) -> dict | None:
    """The cart line with this id (None when there is none)."""
    return next((ln for ln in state["cart"] if ln["id"] == line_id), None)


def set_line_qty(line: dict, qty: int) -> int:
    """Set a line's quantity; returns the old one."""
    old, line["qty"] = line["qty"], qty
    return old


def remove_line(state: dict, line: dict) -> None:
    state["cart"].remove(line)


def empty_cart(state: dict) -> int:
    """Remove every line; returns how many there were."""
    n = len(state["cart"])
    state["cart"] = []
    return n


def showcase(state: dict, config: dict) -> list:
    """Pages worth a look beyond the front page: a product, the cart holding it, the checkout form."""
    from openapps_sim.appkit import Showcase

    products = catalogue(config)
    if not products:
        return []
    pid, product = next(iter(products.items()))
    add = (("add_to_cart", {"product_id": pid, "options": [f"{k}={v[0]}" for k, v in product["options"].items()]}),)
    return [
        Showcase("product", f"/product/{pid}"),
        Showcase("cart", "/cart", add),
        Showcase("checkout", "/checkout", add),
    ]
