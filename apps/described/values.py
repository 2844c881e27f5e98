"""A field's value as a page shows it: money with its sign and cents, a choice by its label in the
world's language, a rating as stars, a reference by the title of the record it names."""

from __future__ import annotations

from openapps_sim.apps.described import words

from openapps_sim.appkit import AppContext, by_id

EMPTY = "—"


def number(value: float, grouping: bool = True) -> str:
    """A number as pages, goals and answers write it: whole numbers without decimals, thousands
    separated unless the field says not (a year)."""
    sep = "," if grouping else ""
    return f"{value:{sep}.0f}" if float(value) == int(value) else f"{value:{sep}.2f}"


def number_field(spec: dict, value: object) -> str:
    """The value of a number field with its unit."""
    return f"{number(float(value), spec.get('grouping', True))} {spec['unit']}".strip()


def show(ctx: AppContext, coll: dict, field: str, value: object) -> str:
    spec = coll["fields"][field]
    kind = spec["type"]
    if value is None or value == "":
        return EMPTY
    if kind == "money":
        amount = float(value)
        return f"{'−' if amount < 0 else ''}{spec['currency']}{abs(amount):,.2f}"
    if kind == "number":
        return number_field(spec, value)
    if kind == "boolean":
        return words.ui(ctx, "value_yes" if value else "value_no")
    if kind == "choice":
        name = next(n for n, c in ctx.app.desc["collections"].items() if c is coll)
        return words.choice_label(ctx, name, field, str(value))
    if kind == "rating":
        stars = int(value)
        return "★" * stars + "☆" * max(spec["max"] - stars, 0)
    if kind == "ref":
        target = ctx.app.desc["collections"][spec["to"]]
        record = by_id(ctx.state[spec["to"]], value)
        return str(record[target["title"]]) if record else EMPTY
    return str(value)


def initials(title: str) -> str:
    """Up to two letters standing for a title (``Casa do Rio`` -> ``CD``), for its avatar: the
    first letter of each word, words of punctuation only left out, and so are abbreviations before
    more words (``Dr. Amara Okafor`` -> ``AO``, ``St. Mary's Hospital`` -> ``MH``)."""
    words = [w for w in str(title).split() if any(c.isalnum() for c in w)]
    named = [w for i, w in enumerate(words) if not (w.endswith(".") and i < len(words) - 1)] or words
    letters = [next(c for c in w if c.isalnum()) for w in named]
    return "".join(letters[:2]).upper() or "·"
