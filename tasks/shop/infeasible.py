"""The infeasible family of the shop: the goal names something it does not hold (the base and
what such a family is: ``tasks/infeasible.py``)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from openapps_sim.apps.shop import model as cat
from openapps_sim.tasks.infeasible import InfeasibleFamily, taken_names
from openapps_sim.tasks.picks import (
    cart_lines,
    fill_cart,
)

from openapps_sim.config.normalise import norm_text
from openapps_sim.config.yamlfile import load_yaml
from openapps_sim.taskkit import family, pick


@cache
def shop_series() -> tuple[str, ...]:
    """The product lines (proper names, the same in every language) of the shop's vocabulary."""
    text = (resources.files("openapps_sim.apps.shop") / "vocab.yaml").read_text(encoding="utf-8")
    return tuple(str(s["name"]) for s in load_yaml(text, "apps/shop/vocab.yaml")["series"])


def missing_products(cfg: dict) -> list[str]:
    """Names of products the shop does not sell: a product of one series under another's name."""
    taken = taken_names(p["name"] for p in cfg["products"].values())
    out = []
    for p in cat.catalogue(cfg).values():
        words_ = p["name"].split(" ")
        own = [s for s in shop_series() if s in words_]
        for series in own[:1]:
            for other in shop_series():
                name = " ".join(other if w == series else w for w in words_)
                if other != series and norm_text(name) not in taken and name not in out:
                    out.append(name)
    return out


@family("shop.add_missing_product", apps="shop", max_steps=10)
class AddMissingProduct(InfeasibleFamily):
    """Add a product the shop does not sell to the cart (infeasible: report it, change nothing)."""

    def sample(self, state, config, rng):
        cfg = config["shop"]
        name = pick(rng, missing_products(cfg), "product name not in the catalogue")
        # a seeded start state: the cart holds zero to two products already
        return {"name": name, "qty": rng.randint(1, 3), "lines": cart_lines(state, config, rng, 0, 2)}

    def prepare(self, state, params):
        fill_cart(state, params.get("lines") or [])

    searched_in = "shop"

    def reason(self, params):
        return f"The shop does not sell {params['name']!r}."
