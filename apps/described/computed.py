"""A value a flow computes instead of asking for it (docs/apps/spec.md, "Computed values"): an
order's total is the app's sum over its basket, never a number the user types::

    set:
      total:
        sum: basket                       # the collection whose records are added up
        each: [quantity, unit_price]      # what one record adds: the product of these fields
        where: {restaurant: restaurant}   # only the records whose restaurant is the order's
        plus: [tip, restaurant.delivery_fee]   # added once: a field, a ref's field or a number

The operation, the review page and the tasks (a message with the total) all call
:func:`compute`, so the total a page shows, the state holds and a task expects is one value.
"""

from __future__ import annotations

from openapps_sim.config.schema import Any_, ListOf, MapOf, Record, Str
from openapps_sim.errors import ConfigError, Problems, unknown_name

NUMBERS = ("number", "money")

RULE = Record(
    {
        "sum": Str(doc="the collection whose records are added up (basket)"),
        "each": ListOf(Str(), doc="what one record adds: the product of these number or money fields"),
        "where": MapOf(
            Str(),
            default={},
            doc="only the records whose field (the key) equals the created record's field (the value)",
        ),
        "plus": ListOf(
            Any_(),
            default=[],
            doc="added once: a number, a number or money field of the created record, or ref.field "
            "(a field of the record a ref of it names: restaurant.delivery_fee)",
        ),
    }
)


def is_rule(value: object) -> bool:
    """Whether a flow's ``set`` value is a computed value (a mapping) rather than a fixed one."""
    return isinstance(value, dict)


def compute(desc: dict, state: dict, creates: str, rule: dict, record: dict) -> float:
    """The value ``rule`` gives ``record``, a record of collection ``creates`` (its fields so far,
    refs as ids), in the app state ``state``, to the cent."""
    total = 0.0
    for other in state[rule["sum"]]:
        if all(other.get(key) == record.get(mine) for key, mine in (rule.get("where") or {}).items()):
            product = 1.0
            for f in rule["each"]:
                product *= float(other.get(f) or 0)
            total += product
    for term in rule.get("plus") or []:
        total += _term(state, desc["collections"][creates]["fields"], term, record)
    return round(total + 0.0, 2)


def _term(state: dict, fields: dict, term: object, record: dict) -> float:
    if not isinstance(term, str):
        return float(term)
    ref, _, field = term.partition(".")
    if not field:
        return float(record.get(ref) or 0)
    to = fields[ref]["to"]
    named = next((r for r in state[to] if r["id"] == record.get(ref)), {})
    return float(named.get(field) or 0)


def check_rule(problems: Problems, source: str, at: str, raw: dict, colls: dict, creates: str) -> dict | None:
    """``raw`` checked as a rule for a field of collection ``creates``, every problem kept; the
    rule with its defaults, or None."""
    rule = problems.check(RULE.check, raw, source, at)
    if rule is None:
        return None
    if rule["sum"] not in colls:
        problems.add(unknown_name(source, f"{at}.sum", rule["sum"], colls, what="collection"))
        return None
    summed, mine = colls[rule["sum"]]["fields"], colls[creates]["fields"]
    if not rule["each"]:
        problems.add(ConfigError(source, f"{at}.each", "names no field", _numbers(summed)))
    for i, f in enumerate(rule["each"]):
        _number_field(problems, source, f"{at}.each[{i}]", f, summed, rule["sum"])
    for key, value in rule["where"].items():
        where = f"{at}.where.{key}"
        if key not in summed:
            problems.add(unknown_name(source, where, key, summed, what=f"field of {rule['sum']}"))
        elif value not in mine:
            problems.add(unknown_name(source, where, value, mine, what=f"field of {creates}"))
        elif (summed[key]["type"], summed[key]["to"]) != (mine[value]["type"], mine[value]["to"]):
            same = [f for f, s in mine.items() if (s["type"], s["to"]) == (summed[key]["type"], summed[key]["to"])]
            problem = f"{rule['sum']}.{key} and {creates}.{value} hold different kinds of value"
            allowed = f"a field of {creates} like {key}: " + (", ".join(same) or "(none)")
            problems.add(ConfigError(source, where, problem, allowed))
    for i, term in enumerate(rule["plus"]):
        _check_term(problems, source, f"{at}.plus[{i}]", term, colls, creates)
    return rule


def _numbers(fields: dict) -> str:
    return "a number or money field: " + (", ".join(f for f, s in fields.items() if s["type"] in NUMBERS) or "(none)")


def _number_field(problems: Problems, source: str, at: str, name: str, fields: dict, coll: str) -> None:
    if name not in fields:
        problems.add(ConfigError(source, at, f"{coll} has no field {name!r}", _numbers(fields)))
    elif fields[name]["type"] not in NUMBERS:
        problems.add(ConfigError(source, at, f"{coll}.{name} is a {fields[name]['type']} field", _numbers(fields)))


def _check_term(problems: Problems, source: str, at: str, term: object, colls: dict, creates: str) -> None:
    mine = colls[creates]["fields"]
    if isinstance(term, (int, float)) and not isinstance(term, bool):
        return
    if not isinstance(term, str):
        problems.add(ConfigError(source, at, f"{term!r} is no number or field", _numbers(mine)))
        return
    ref, _, field = term.partition(".")
    if not field:
        _number_field(problems, source, at, ref, mine, creates)
    elif ref not in mine or mine[ref]["type"] != "ref" or mine[ref]["to"] not in colls:
        refs = [f for f, s in mine.items() if s["type"] == "ref"]
        allowed = "ref.field, the ref one of: " + (", ".join(refs) or "(none)")
        problems.add(ConfigError(source, at, f"{ref!r} is no ref field of {creates}", allowed))
    else:
        to = mine[ref]["to"]
        _number_field(problems, source, at, field, colls[to]["fields"], to)
