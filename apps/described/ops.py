"""A described app's operations, made from its description: each is one state change and its
log entry, called by the pages and, as app tools, by agents (docs/apps/spec.md, "Operations")."""

from __future__ import annotations

from collections.abc import Callable

from openapps_sim.apps.described import computed, model
from openapps_sim.apps.described.checks import item_name
from openapps_sim.apps.described.format import FIELD_TYPES
from openapps_sim.apps.described.generate import field_default

from openapps_sim.appkit import AppContext, Operation, OperationError, Param, known_item


def build(desc: dict) -> dict[str, Operation]:
    """Every operation of the app ``desc`` by name, collections first, then flows and settings."""
    app, ops = desc["name"], []
    for name, coll in desc["collections"].items():
        ops += _collection_ops(desc, name, coll)
    for name, flow in desc["flows"].items():
        fields = desc["collections"][flow["creates"]]["fields"]
        params = tuple(Param(f, FIELD_TYPES[fields[f]["type"]], flow_needs(fields, f)) for f in flow["fields"])
        ops.append((name, _flow(desc, name, flow), f"{flow['label']}: adds one of {flow['creates']}.", params))
    for name, setting in desc["settings"].items():
        kind = "bool" if setting["type"] == "boolean" else "str"
        ops.append(
            (
                f"set_setting_{name}",
                _setting(name, setting),
                f"Set the setting {setting['label']!r}.",
                (Param("value", kind, True),),
            )
        )
    return {n: Operation(app, n, fn, doc, params) for n, fn, doc, params in ops}


def _collection_ops(desc: dict, name: str, coll: dict) -> list[tuple]:
    item, acts, fields = item_name(name, coll), coll["actions"], coll["fields"]
    ident = Param("id", "str", True)
    out = []
    if acts["create"]:
        params = tuple(Param(f, FIELD_TYPES[s["type"]], f == coll["title"] or s["required"]) for f, s in fields.items())
        out.append((f"create_{item}", _create(desc, name), f"Add a record to {coll['label']}; returns it.", params))
    if acts["edit"]:
        params = (ident,) + tuple(Param(f, FIELD_TYPES[fields[f]["type"]], False) for f in acts["edit"])
        out.append((f"edit_{item}", _edit(desc, name), f"Change fields of one of {coll['label']}.", params))
    if acts["delete"]:
        out.append((f"delete_{item}", _delete(desc, name), f"Delete one of {coll['label']}.", (ident,)))
    for f in [*acts["toggle"], *([acts["star"]] if acts["star"] else [])]:
        out.append((f"toggle_{item}_{f}", _toggle(desc, name, f), f"Switch {f} of one of {coll['label']}.", (ident,)))
    if acts["status"]:
        f = acts["status"]
        params = (ident, Param("value", "str", True))
        out.append((f"set_{item}_{f}", _status(desc, name, f), f"Set {f} of one of {coll['label']}.", params))
    if acts["quantity"]:
        f = acts["quantity"]
        params = (ident, Param("by", "float", True))
        out.append(
            (
                f"change_{item}_{f}",
                _quantity(desc, name, f),
                f"Change {f} of one of {coll['label']} by a number.",
                params,
            )
        )
    return out


def flow_needs(fields: dict, name: str) -> bool:
    """Whether a flow's form must give field ``name``: it is required or has no default."""
    return fields[name]["required"] or fields[name]["default"] is None


def tool(ctx: AppContext) -> str:
    return f"{ctx.app.name}.{ctx.operation}"


def _values(desc: dict, ctx: AppContext, coll: dict, args: dict) -> dict:
    values = {}
    for f, value in args.items():
        if f not in coll["fields"]:
            raise OperationError(tool(ctx), f, "unknown argument", ", ".join(coll["fields"]))
        if value is not None:
            values[f] = model.coerce(desc, ctx.state, tool(ctx), coll, f, value)
    title = coll["title"]
    if title in values and not values[title]:
        raise model.FieldError(tool(ctx), title, "is empty", f"a non-empty {title}", "missing")
    return values


def _log(ctx: AppContext, fields: dict, **engine: object) -> None:
    """Log the running operation: ``engine``'s keys (id, title, changed), then the record's
    ``fields``, which win over a key of the same name (a field may be called ``title``): a
    task's plan names the fields, so the log keeps their values."""
    ctx.log(**{**engine, **fields})


def _known(ctx: AppContext, name: str, coll: dict, id: str) -> dict:
    """The record ``id`` of the collection ``name`` (else an OperationError naming its item)."""
    return known_item(ctx, name, id, item_name(name, coll))


def _set_field(ctx: AppContext, record: dict, coll: dict, field: str, value: object, **shown: object) -> dict:
    """``record`` with ``field`` set to ``value``, logged (with ``shown``) when that changes it."""
    if record.get(field) != value:
        record[field] = value
        ctx.log(id=record["id"], title=record[coll["title"]], **shown, value=value)
    return record


def _create(desc: dict, name: str) -> Callable:
    coll = desc["collections"][name]

    def create(ctx: AppContext, /, **args) -> dict:
        values = _values(desc, ctx, coll, args)
        missing = [f for f, s in coll["fields"].items() if (f == coll["title"] or s["required"]) and f not in values]
        if missing:
            raise model.missing(tool(ctx), coll, missing[0])
        record = model.new_record(desc, ctx.state, name, values)
        _log(ctx, values, id=record["id"])
        return record

    return create


def _edit(desc: dict, name: str) -> Callable:
    coll = desc["collections"][name]

    def edit(ctx: AppContext, /, id: str, **args) -> dict:
        record = _known(ctx, name, coll, id)
        values = _values(desc, ctx, coll, args)
        changed = [f for f, v in values.items() if record.get(f) != v]
        if changed:
            record.update({f: values[f] for f in changed})
            _log(ctx, {f: values[f] for f in changed}, id=id, title=record[coll["title"]], changed=changed)
        return record

    return edit


def _delete(desc: dict, name: str) -> Callable:
    coll = desc["collections"][name]

    def delete(ctx: AppContext, /, id: str) -> dict:
        record = _known(ctx, name, coll, id)
        ctx.state[name].remove(record)
        ctx.log(id=id, title=record[coll["title"]])
        return record

    return delete


def _toggle(desc: dict, name: str, field: str) -> Callable:
    coll = desc["collections"][name]

    def toggle(ctx: AppContext, /, id: str) -> dict:
        record = _known(ctx, name, coll, id)
        record[field] = not record.get(field)
        _log(ctx, {field: record[field]}, id=id, title=record[coll["title"]])
        return record

    return toggle


def _status(desc: dict, name: str, field: str) -> Callable:
    coll = desc["collections"][name]

    def set_status(ctx: AppContext, /, id: str, value: str) -> dict:
        record = _known(ctx, name, coll, id)
        return _set_field(ctx, record, coll, field, model.coerce(desc, ctx.state, tool(ctx), coll, field, value))

    return set_status


def _quantity(desc: dict, name: str, field: str) -> Callable:
    coll = desc["collections"][name]

    def change(ctx: AppContext, /, id: str, by: float) -> dict:
        record = _known(ctx, name, coll, id)
        by = model.coerce(desc, ctx.state, tool(ctx), coll, field, by)
        value = max(0.0, round(float(record.get(field) or 0) + by, 2))
        value = int(value) if value == int(value) else value
        return _set_field(ctx, record, coll, field, value, by=by)

    return change


def _flow(desc: dict, name: str, flow: dict) -> Callable:
    target = desc["collections"][flow["creates"]]

    def run(ctx: AppContext, /, **args) -> dict:
        values = _values(desc, ctx, target, args)
        missing = [f for f in flow["fields"] if f not in values and flow_needs(target["fields"], f)]
        if missing:
            raise model.missing(tool(ctx), target, missing[0])
        values.update(set_values(desc, ctx.state, flow, values, tool(ctx)))
        record = model.new_record(desc, ctx.state, flow["creates"], values)
        for adj in flow["adjust"]:
            to = target["fields"][adj["ref"]]["to"]
            other = known_item(ctx, to, record[adj["ref"]], item_name(to, desc["collections"][to]))
            by = adj["by"] if isinstance(adj["by"], (int, float)) else record.get(adj["by"])  # a number or a field
            amount = float(by or 0) * adj["sign"]
            other[adj["field"]] = round(float(other.get(adj["field"]) or 0) + amount, 2)
        _log(ctx, {f: values[f] for f in flow["fields"] if f in values}, id=record["id"])
        return record

    return run


def set_values(desc: dict, state: dict, flow: dict, values: dict, tool_name: str) -> dict:
    """The fields ``flow`` sets without asking, for a record given ``values`` (coerced): a text's
    ``{n}`` the record's number, a computed value (a total) computed from the state; an
    OperationError for a sum over no record (an empty basket)."""
    target, n = desc["collections"][flow["creates"]], state["next_id"][flow["creates"]]
    fixed = {f: v.replace("{n}", str(n)) if isinstance(v, str) else v for f, v in flow["set"].items()}
    out = {f: model.coerce(desc, state, tool_name, target, f, v) for f, v in fixed.items() if not computed.is_rule(v)}
    record = {**{f: field_default(s) for f, s in target["fields"].items()}, **values, **out}
    for f, rule in fixed.items():
        if computed.is_rule(rule):
            refused = computed.empty(desc, f, rule, state, record)
            if refused:  # a sum over nothing: an empty basket is no order
                path, problem, allowed, key = refused
                raise model.FieldError(tool_name, path, problem, allowed, key, collection=rule["sum"])
            out[f] = computed.compute(desc, state, flow["creates"], rule, record)
    return out


def _setting(name: str, setting: dict) -> Callable:
    def set_setting(ctx: AppContext, /, value: object) -> dict:
        if setting["type"] == "boolean":
            value = value if isinstance(value, bool) else str(value).lower() in ("true", "on", "1", "yes")
        elif value not in setting["choices"]:
            raise OperationError(tool(ctx), "value", f"{value!r} is no choice", ", ".join(setting["choices"]))
        if ctx.state["settings"].get(name) != value:
            ctx.state["settings"][name] = value
            ctx.log(value=value)
        return dict(ctx.state["settings"])

    return set_setting
