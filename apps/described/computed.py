"""A value a flow computes instead of asking for it (docs/apps/spec.md, "Computed values"): an
order's total is the app's sum over its basket, an invoice its hours times the client's rate,
never a number the user types::

    set:
      total:
        sum: basket                       # the collection whose records are added up
        each: [quantity, unit_price]      # what one record adds: the product of these fields
        where: {restaurant: restaurant}   # only the records whose restaurant is the order's
        plus: [tip, restaurant.delivery_fee]   # added once: a field, a ref's field or a number
      fare:
        times: [distance, {ride_type: {economy: 1.2, xl: 2.1}}]   # terms multiplied together
        plus: [2.5]

A term is a number, a number field of the created record, ``ref.field`` (a field of the record
a ref names) or ``{choice_field: {choice: number}}`` (the number of the record's choice). A
``sum`` over no record (an empty basket) is refused: :func:`empty` says why.

The operation, the review page and the tasks (a message with the total) all call
:func:`compute`, so the total a page shows, the state holds and a task expects is one value.
"""

from __future__ import annotations

from openapps_sim.config.schema import Any_, ListOf, MapOf, Record, Str
from openapps_sim.errors import ConfigError, Problems, unknown_name

NUMBERS = ("number", "money")

RULE = Record(
    {
        "sum": Str("", doc="the collection whose records are added up (basket); or times"),
        "each": ListOf(Str(), default=[], doc="what one record adds: the product of these number or money fields"),
        "where": MapOf(
            Str(),
            default={},
            doc="only the records whose field (the key) equals the created record's field (the value)",
        ),
        "times": ListOf(
            Any_(),
            default=[],
            doc="instead of sum: terms multiplied together, each a number, a number or money field of the "
            "created record, ref.field, or {choice field: {choice: number}}",
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
    fields, total = desc["collections"][creates]["fields"], 0.0
    for other in summed(state, rule, record):
        product = 1.0
        for f in rule["each"]:
            product *= float(other.get(f) or 0)
        total += product
    if rule.get("times"):
        product = 1.0
        for term in rule["times"]:
            product *= _term(state, fields, term, record)
        total += product
    for term in rule.get("plus") or []:
        total += _term(state, fields, term, record)
    return round(total + 0.0, 2)


def summed(state: dict, rule: dict, record: dict) -> list[dict]:
    """The records of the rule's ``sum`` collection its ``where`` keeps for ``record``."""
    if not rule.get("sum"):
        return []
    where = (rule.get("where") or {}).items()
    return [r for r in state[rule["sum"]] if all(r.get(key) == record.get(mine) for key, mine in where)]


def empty(desc: dict, field: str, rule: dict, state: dict, record: dict) -> tuple[str, str, str, str] | None:
    """Why a flow setting ``field`` by ``rule`` refuses ``record``, as (path, problem, allowed,
    the key of the engine's text a form shows: ``nothing_for`` or ``empty``): a sum over no
    record (none for this restaurant, nothing in the basket); None when it adds something up or
    is no sum."""
    if not rule.get("sum") or summed(state, rule, record):
        return None
    coll = desc["collections"][rule["sum"]]
    item = coll["item"] or (rule["sum"][:-1] if rule["sum"].endswith("s") else rule["sum"])
    mine = next(iter((rule.get("where") or {}).values()), "")
    if mine:
        allowed = f"add a {item} for it to {coll['label']} first"
        return mine, f"{coll['label']} has no {item} for this {mine}", allowed, "nothing_for"
    return field, f"{coll['label']} is empty", f"add a {item} to {coll['label']} first", "empty"


def _term(state: dict, fields: dict, term: object, record: dict) -> float:
    if isinstance(term, dict):  # {choice field: {choice: number}}
        ((choice, table),) = term.items()
        return float(table.get(record.get(choice)) or 0)
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
    if not rule["sum"] and not rule["times"]:
        allowed = "sum: a collection added up, or times: numbers multiplied"
        problems.add(ConfigError(source, at, "names neither sum nor times", allowed))
    elif rule["sum"] and rule["times"]:
        problems.add(ConfigError(source, at, "names both sum and times", "one of them"))
    elif rule["sum"] and not _check_sum(problems, source, at, rule, colls, creates):
        return None
    for key in ("each", "where") if not rule["sum"] else ():
        if rule[key]:
            problems.add(ConfigError(source, f"{at}.{key}", "adds nothing up without sum", "sum: a collection"))
    for i, term in enumerate(rule["times"]):
        _check_term(problems, source, f"{at}.times[{i}]", term, colls, creates)
    for i, term in enumerate(rule["plus"]):
        _check_term(problems, source, f"{at}.plus[{i}]", term, colls, creates)
    return rule


def _check_sum(problems: Problems, source: str, at: str, rule: dict, colls: dict, creates: str) -> bool:
    """The ``sum``, ``each`` and ``where`` of a rule checked; False when the collection is unknown."""
    if rule["sum"] not in colls:
        problems.add(unknown_name(source, f"{at}.sum", rule["sum"], colls, what="collection"))
        return False
    summed_fields, mine = colls[rule["sum"]]["fields"], colls[creates]["fields"]
    if not rule["each"]:
        problems.add(ConfigError(source, f"{at}.each", "names no field", _numbers(summed_fields)))
    for i, f in enumerate(rule["each"]):
        _number_field(problems, source, f"{at}.each[{i}]", f, summed_fields, rule["sum"])
    for key, value in rule["where"].items():
        where = f"{at}.where.{key}"
        kind = (summed_fields[key]["type"], summed_fields[key]["to"]) if key in summed_fields else None
        if kind is None:
            problems.add(unknown_name(source, where, key, summed_fields, what=f"field of {rule['sum']}"))
        elif value not in mine:
            problems.add(unknown_name(source, where, value, mine, what=f"field of {creates}"))
        elif kind != (mine[value]["type"], mine[value]["to"]):
            same = [f for f, s in mine.items() if (s["type"], s["to"]) == kind]
            problem = f"{rule['sum']}.{key} and {creates}.{value} hold different kinds of value"
            allowed = f"a field of {creates} like {key}: " + (", ".join(same) or "(none)")
            problems.add(ConfigError(source, where, problem, allowed))
    return True


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
    if isinstance(term, dict):
        _check_table(problems, source, at, term, mine, creates)
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


def _check_table(problems: Problems, source: str, at: str, term: dict, mine: dict, creates: str) -> None:
    """A ``{choice field: {choice: number}}`` term: one choice field, a number for each choice."""
    choices = [f for f, s in mine.items() if s["type"] == "choice"]
    field, table = next(iter(term.items())) if len(term) == 1 else ("", None)
    if field not in choices or not isinstance(table, dict):
        allowed = "a choice field: " + (", ".join(choices) or "(none)")
        problems.add(ConfigError(source, at, f"{field or term!r} is no choice field of {creates}", allowed))
        return
    known = mine[field]["choices"]
    for choice, number in table.items():
        if choice not in known:
            problems.add(unknown_name(source, f"{at}.{field}.{choice}", choice, known, what="choice", keep_order=True))
        elif isinstance(number, bool) or not isinstance(number, (int, float)):
            problems.add(ConfigError(source, f"{at}.{field}.{choice}", f"{number!r} is no number", "a number"))
    missing = [c for c in known if c not in table]
    if missing:
        allowed = "a number for each of " + ", ".join(known)
        problems.add(ConfigError(source, f"{at}.{field}", "gives no number for " + ", ".join(missing), allowed))
