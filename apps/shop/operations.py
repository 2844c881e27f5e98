"""The shop's operations: each state change with its log entry, called by the route handlers and,
as app tools, by agents (``shop.add_to_cart(product_id='p001', options=['colour=blue'])``).
``find_products`` only reads."""

from __future__ import annotations

from openapps_sim.apps.shop import model

from openapps_sim.appkit import AppContext, OperationError, operation


def _line(ctx: AppContext, line: int) -> dict:
    found = model.cart_line(ctx.state, line)
    if found is None:
        ids = ", ".join(str(ln["id"]) for ln in ctx.state["cart"]) or "(the cart is empty)"
        raise OperationError("shop", "line", f"no cart line {line}", ids)
    return found


def _options(product: dict, given: list[str]) -> dict:
    """``['colour=blue']`` as ``{'colour': 'blue'}``, every option of the product chosen."""
    allowed = "; ".join(f"{k}={'|'.join(v)}" for k, v in product["options"].items()) or "(none)"
    chosen = {}
    for pair in given:
        kind, _, code = pair.partition("=")
        if code not in product["options"].get(kind, ()):
            raise OperationError("shop.add_to_cart", "options", f"not an option of this product: {pair!r}", allowed)
        chosen[kind] = code
    missing = [k for k in product["options"] if k not in chosen]
    if missing:
        raise OperationError("shop.add_to_cart", "options", f"choose {', '.join(missing)}", allowed)
    return chosen


@operation
def find_products(ctx: AppContext, query: str = "", category: str | None = None) -> list:
    """The products matching `query`, best first, at most 20 (id, name, category id, price,
    rating, options); with `category` (a category id), every product of that category that
    matches (all of them without a query), in catalogue order without one."""
    products = model.catalogue(ctx.config)
    if category is not None and category not in ctx.config["categories"]:
        raise OperationError(
            "shop.find_products", "category", f"no category {category!r}", "a category id of a product"
        )
    if category is None:
        found = model.search(ctx.config, products, query)[:20]
    else:
        inside = [pid for pid, p in products.items() if p["category"] == category]
        found = [pid for pid in model.search(ctx.config, products, query) if pid in inside] if query else inside
    keys = ("name", "category", "price", "rating", "options")
    return [{"id": pid} | {k: products[pid][k] for k in keys} for pid in found]


@operation
def add_to_cart(ctx: AppContext, product_id: str, options: list[str] | None = None, qty: int = 1) -> dict:
    """Put `qty` of a product in the cart with its options as 'kind=code' (e.g. 'colour=blue');
    an identical line grows. Returns the cart line."""
    product = model.catalogue(ctx.config).get(product_id)
    if product is None:
        raise OperationError(
            "shop.add_to_cart", "product_id", f"no product {product_id!r}", "an id from find_products()"
        )
    chosen = _options(product, list(options or []))
    if not 1 <= qty <= model.MAX_QTY:
        raise OperationError("shop.add_to_cart", "qty", f"out of range: {qty}", f"1..{model.MAX_QTY}")
    line, merged = model.add_line(ctx.state, product_id, chosen, qty)
    ctx.log(line=line["id"], product_id=product_id, options=chosen, qty=qty, merged=merged)
    return line


@operation
def set_quantity(ctx: AppContext, line: int, qty: int) -> dict:
    """Set the quantity of a cart line (0 removes it); returns the line."""
    found = _line(ctx, line)
    qty = min(qty, model.MAX_QTY)
    if qty <= 0:
        return remove_line(ctx, line)
    if qty != found["qty"]:
        old = model.set_line_qty(found, qty)
        ctx.log(line=found["id"], product_id=found["product_id"], old=old, qty=qty)
    return found


@operation
def remove_line(ctx: AppContext, line: int) -> dict:
    """Remove a line from the cart; returns it."""
    found = _line(ctx, line)
    model.remove_line(ctx.state, found)
    ctx.log(line=found["id"], product_id=found["product_id"], options=found["options"])
    return found


@operation
def empty_cart(ctx: AppContext) -> int:
    """Remove every line from the cart; returns how many there were."""
    n = model.empty_cart(ctx.state)
    if n:
        ctx.log(lines=n)
    return n


@operation
def checkout(ctx: AppContext, name: str, street: str, city: str, postcode: str, country: str) -> dict:
    """Order what is in the cart, delivered to this address; returns the order."""
    address = {"name": name, "street": street, "city": city, "postcode": postcode, "country": country}
    address = {k: str(v).strip() for k, v in address.items()}
    if not ctx.state["cart"]:
        raise OperationError("shop.checkout", "cart", "is empty", "add_to_cart first")
    empty = [k for k, v in address.items() if not v]
    if empty:
        raise OperationError("shop.checkout", ", ".join(empty), "is empty", "every address field filled in")
    order = model.place_order(ctx.state, ctx.config, address)
    ctx.log(order=order["id"], lines=len(order["lines"]), total=order["total"], address=address)
    return order


@operation
def cart_total(ctx: AppContext) -> dict:
    """What checkout would charge now (only reads): the cart's lines with unit prices, the
    subtotal, shipping and total, as the cart page shows them."""
    lines = model.priced_lines(ctx.config, ctx.state["cart"])
    sub = model.subtotal(lines)
    return {
        "lines": lines,
        "units": sum(line["qty"] for line in lines),
        "subtotal": sub,
        "shipping": model.shipping_for(ctx.config, sub),
        "total": model.order_total(ctx.config, lines),
    }
