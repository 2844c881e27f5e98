"""Shop's configuration section."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.apps.shop.images import ICONS, PICTURES

from openapps_sim.config.schema import Enum, Float, Int, ListOf, MapOf, Record, Str
from openapps_sim.config.texts import texts

STRINGS = texts(Path(__file__).with_name("strings.yaml"))

ADDRESS = Record(name=Str(), street=Str(), city=Str(), postcode=Str(), country=Str())

PRODUCT = Record(
    name=Str(),
    category=Str(doc="a key of shop.categories"),
    price=Float(lo=0, hi=1_000_000),
    options=MapOf(ListOf(Str()), default={}, doc="option kind (a key of option_names) → value codes"),
    rating=Float(0.0, lo=0, hi=5),
    reviews=Int(0, lo=0),
    description=Str(""),
    picture=Enum(
        ["category", *PICTURES], "category", doc="its picture: 'category' draws its category's (a pot for kitchen)"
    ),
)

SCHEMA = Record(
    strings=STRINGS,
    price_format=Str("${amount}", doc="how a price is written; {amount} is the number"),
    decimal_separator=Str(".", doc="'.' or ','"),
    shipping_fee=Float(4.95, lo=0, hi=1000),
    free_shipping_over=Float(50.0, lo=0, hi=100000, doc="subtotal from which shipping is free (0: never)"),
    page_size=Int(24, lo=4, hi=500, doc="products per page in categories and search results", vary=(8, 12, 24, 48)),
    featured=ListOf(Str(), default=[], doc="product ids on the home page (default: the top rated)"),
    featured_count=Int(8, lo=0, hi=48),
    only_products=ListOf(Str(), default=[], doc="if not empty: only these product ids are on sale"),
    categories=MapOf(Record(name=Str(), icon=Enum(ICONS, "box"), blurb=Str("")), doc="category id → name"),
    option_names=MapOf(Str(), doc="option kind (colour, size, format) → its label"),
    option_values=MapOf(Record(name=Str(), hex=Str("")), doc="stable value code → label (and colour)"),
    products=MapOf(PRODUCT, doc="product id (p001 ...) → product"),
    past_orders=ListOf(Record(id=Str(), lines=ListOf(Record(product_id=Str(), options=MapOf(Str(), default={}),
                                                          qty=Int(1, lo=1, hi=99), price=Float(lo=0))),
                              address=ADDRESS), default=[], doc="orders already in the history"),
)  # fmt: skip
