"""A described app's state and its pure changes: records made from given values (each value
checked against its field), normalisation and item keys (docs/apps/spec.md, "State")."""

from __future__ import annotations

from openapps_sim.apps.described.checks import item_name
from openapps_sim.apps.described.generate import field_default, setting_default

from openapps_sim.appkit import ItemKey, OperationError, by_id
from openapps_sim.config.normalise import norm_text

FREE_TEXT = ("text", "longtext")


class FieldError(OperationError):
    """An :class:`OperationError` about one field that a form shows in the world's language
    (:func:`openapps_sim.apps.described.words.form_error`): ``key`` names the engine's text
    ``error_<key>`` (strings.yaml), ``fmt`` its values (``value``, ``max``, ``collection``: a
    collection shown by its label). An app tool's caller reads the English problem as before."""

    def __init__(self, tool: str, field: str, problem: str, allowed: str, key: str, **fmt: object) -> None:
        super().__init__(tool, field, problem, allowed)
        self.key, self.fmt = key, fmt


def item_keys(desc: dict) -> dict[str, ItemKey]:
    return {name: ItemKey(coll["title"], item_name(name, coll)) for name, coll in desc["collections"].items()}


def normalise(desc: dict, state: dict) -> dict:
    """Records as a multiset per collection: ids dropped, refs as the title they name, free
    text folded, numbers to the cent; settings as they are."""
    out: dict = {}
    titles: dict[str, dict] = {}  # collection -> {id: normalised title}, made when a ref needs it
    for name, coll in desc["collections"].items():
        rules = []
        for f, spec in coll["fields"].items():
            kind = spec["type"]
            if kind == "ref":
                to = spec["to"]
                if to not in titles:
                    key = desc["collections"][to]["title"]
                    titles[to] = {}
                    for r in reversed(state[to]):  # the first record of an id wins, as by_id finds it
                        titles[to][r["id"]] = norm_text(r[key])
                rules.append((f, _REF, titles[to]))
            else:
                rules.append(
                    (f, _TEXT if kind in FREE_TEXT else _NUMBER if kind in ("money", "number") else None, None)
                )
        rows = [_normal_record(rules, r) for r in state[name]]
        # a total order of the rows (each value's repr tells its type: 1, 1.0, '1' and True differ)
        out[name] = sorted(rows, key=lambda r: repr(tuple(r.values())))
    defaults = {k: setting_default(s) for k, s in desc["settings"].items()}
    out["settings"] = {**defaults, **state.get("settings", {})}
    return out


_REF, _TEXT, _NUMBER = "ref", "text", "number"


def _normal_record(rules: list, record: dict) -> dict:
    out = {}
    for f, rule, titles in rules:
        value = record.get(f)
        if rule is _REF:
            value = titles.get(value, "") if isinstance(value, str) else ""
        elif rule is _TEXT:
            value = norm_text(value or "")
        elif rule is _NUMBER and value is not None:
            value = round(float(value), 2)
        out[f] = value
    return out


def record_title(desc: dict, state: dict, collection: str, record_id: str) -> str:
    """The title of a record (``""`` when there is none with that id)."""
    record = by_id(state[collection], record_id)
    return str(record[desc["collections"][collection]["title"]]) if record else ""


def coerce(desc: dict, state: dict, tool: str, coll: dict, field: str, value: object) -> object:
    """``value`` (from a form or a tool call) as a value of ``field``, or an OperationError
    naming the tool, the argument and what is allowed."""
    spec = coll["fields"][field]
    kind = spec["type"]
    try:
        if kind in ("money", "number"):
            return round(float(str(value).replace(",", ".").strip()), 2)
        if kind == "rating":
            stars = int(float(str(value)))
            if not 0 <= stars <= spec["max"]:
                raise ValueError
            return stars
    except (TypeError, ValueError):
        fmt = {"max": spec["max"]} if kind == "rating" else {"value": value}
        key = "rating" if kind == "rating" else "number"
        raise FieldError(tool, field, f"{value!r} is no {kind}", _allowed(spec), key, **fmt) from None
    if kind == "boolean":
        return value if isinstance(value, bool) else str(value).lower() in ("true", "on", "1", "yes")
    if kind == "choice":
        if value not in spec["choices"]:
            raise FieldError(tool, field, f"{value!r} is no choice", _allowed(spec), "choice")
        return value
    if kind == "ref":
        return resolve_ref(desc, state, tool, spec["to"], field, str(value))
    return str(value).strip()


def missing(tool: str, coll: dict, field: str) -> FieldError:
    """The error of a value ``field`` needs and was not given (or given empty)."""
    return FieldError(tool, field, "missing", f"a {coll['fields'][field]['type']} value", "missing")


def _allowed(spec: dict) -> str:
    if spec["type"] == "choice":
        return ", ".join(spec["choices"])
    if spec["type"] == "rating":
        return f"a whole number from 0 to {spec['max']}"
    return "a number"


def resolve_ref(desc: dict, state: dict, tool: str, to: str, field: str, value: str) -> str:
    """The id of the record of ``to`` that ``value`` names by its id or its title."""
    records = state[to]
    if by_id(records, value):
        return value
    title = desc["collections"][to]["title"]
    found = [r for r in records if norm_text(str(r[title])) == norm_text(value)]
    if not found:
        shown = ", ".join(f"{r['id']} ({r[title]})" for r in records[:12])
        raise FieldError(tool, field, f"no record of {to} {value!r}", shown or "(none)", "ref", value=value)
    return found[0]["id"]


def new_record(desc: dict, state: dict, name: str, values: dict) -> dict:
    """A record of collection ``name`` with ``values`` (already coerced) and every other field's
    default, given the next id."""
    coll = desc["collections"][name]
    record = {"id": f"{item_name(name, coll)}-{state['next_id'][name]}"}
    for f, spec in coll["fields"].items():
        record[f] = values.get(f, field_default(spec))
    state["next_id"][name] += 1
    state[name].append(record)
    return record
