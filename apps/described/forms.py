"""A described app's forms: a record's New and Edit forms, a flow's form and its review page,
and the settings page."""

from __future__ import annotations

from openapps_sim.apps.described import words
from openapps_sim.apps.described.generate import field_default
from openapps_sim.apps.described.values import show
from openapps_sim.apps.described.views import frame

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import field as labelled
from openapps_sim.web.tags import H2, A, Button, Dd, Div, Dl, Dt, Form, Input, Option, P, Select, Textarea

INPUT_TYPES = {"number": "number", "money": "number", "date": "date", "time": "time"}


def control(ctx: AppContext, name: str, field: str, value: object):
    """The input of one field, filled with ``value``."""
    coll = ctx.app.desc["collections"][name]
    spec, app = coll["fields"][field], ctx.app.name
    attrs = {"name": field, "id": f"f-{field}", "data_testid": f"{app}-input-{field}"}
    kind = spec["type"]
    if kind == "longtext":
        return Textarea(str(value or ""), rows=3, **attrs)
    if kind == "boolean":
        return Input(type="checkbox", value="on", checked=bool(value), **attrs)
    if kind in ("choice", "rating", "ref"):
        return Select(*_options(ctx, name, field, value), **attrs)
    extra = {"step": "0.01" if kind == "money" else "any"} if kind in ("number", "money") else {}
    required = field == coll["title"] or spec["required"]
    shown = "" if value is None else str(value)
    return Input(
        type=INPUT_TYPES.get(kind, "text"), value=shown, required=required, autocomplete="off", **extra, **attrs
    )


def _options(ctx: AppContext, name: str, field: str, value: object) -> list:
    spec = ctx.app.desc["collections"][name]["fields"][field]
    if spec["type"] == "choice":
        pairs = [(c, words.choice_label(ctx, name, field, c)) for c in spec["choices"]]
    elif spec["type"] == "rating":
        pairs = [(str(n), "★" * n + "☆" * (spec["max"] - n)) for n in range(spec["max"] + 1)]
    else:
        title = ctx.app.desc["collections"][spec["to"]]["title"]
        pairs = [(r["id"], str(r[title])) for r in ctx.state[spec["to"]]]
    chosen = "" if value is None else str(value)
    out = [Option("—", value="", selected=not chosen)] if spec["type"] == "ref" else []
    return out + [Option(label, value=v, selected=v == chosen) for v, label in pairs]


def _field_row(ctx: AppContext, name: str, field: str, value: object):
    label = words.field_label(ctx, name, field)
    if ctx.app.desc["collections"][name]["fields"][field]["type"] == "boolean":
        return labelled(label, f"f-{field}", control(ctx, name, field, value), cls="check")
    return labelled(label, f"f-{field}", control(ctx, name, field, value))


def form_values(coll: dict, fields: list[str], params: dict) -> dict:
    """The raw values of ``fields`` posted by a form (a checkbox left off is false)."""
    out = {}
    for f in fields:
        if coll["fields"][f]["type"] == "boolean":
            out[f] = f in params
        elif str(params.get(f, "")).strip() != "":
            out[f] = str(params[f])
    return out


def record_form(ctx: AppContext, name: str, record: dict | None, error: str = "", values: dict | None = None):
    """The New form (``record`` None: every field) or the Edit form (the edit fields)."""
    coll, app = ctx.app.desc["collections"][name], ctx.app.name
    fields = list(coll["fields"]) if record is None else coll["actions"]["edit"]
    values = values or {}
    current = {f: values.get(f, (record or {}).get(f, field_default(coll["fields"][f]))) for f in fields}
    action = ctx.url(f"/c/{name}/new" if record is None else f"/c/{name}/{record['id']}/edit")
    back = ctx.url(f"/c/{name}" if record is None else f"/c/{name}/{record['id']}")
    heading = words.ui(ctx, "new") if record is None else f"{words.ui(ctx, 'edit')}: {record[coll['title']]}"
    return frame(
        ctx,
        name,
        Form(
            H2(f"{heading} · {words.coll_label(ctx, name)}" if record is None else heading),
            P(error, cls="error", role="alert", data_testid=f"{app}-error") if error else None,
            Div(*[_field_row(ctx, name, f, current[f]) for f in fields], cls="fields"),
            Div(
                Button(words.ui(ctx, "save"), type="submit", data_testid=f"{app}-save"),
                A(words.ui(ctx, "cancel"), href=back, cls="button secondary", data_testid=f"{app}-cancel"),
                cls="dapp-actions",
            ),
            method="post",
            action=action,
            cls="card stack dapp-form",
        ),
    )


def flow_form(ctx: AppContext, flow_name: str, values: dict, error: str = ""):
    """A flow's first step: its fields, then Review."""
    desc, app = ctx.app.desc, ctx.app.name
    flow = desc["flows"][flow_name]
    name = flow["creates"]
    fields = desc["collections"][name]["fields"]
    # a field the form leaves as it is gets its default, as the operation gives it (a choice's
    # default, not its first choice; a number, a date or a time filled in)
    current = {f: field_default(fields[f]) if values.get(f) in (None, "") else values[f] for f in flow["fields"]}
    return frame(
        ctx,
        name,
        Form(
            H2(words.own(ctx, f"flow.{flow_name}", flow["label"])),
            P(error, cls="error", role="alert", data_testid=f"{app}-error") if error else None,
            Div(*[_field_row(ctx, name, f, current[f]) for f in flow["fields"]], cls="fields"),
            Div(
                Button(words.ui(ctx, "review"), type="submit", data_testid=f"{app}-review"),
                A(words.ui(ctx, "cancel"), href=ctx.url("/"), cls="button secondary", data_testid=f"{app}-cancel"),
                cls="dapp-actions",
            ),
            method="post",
            action=ctx.url(f"/flow/{flow_name}/review"),
            cls="card stack dapp-form",
        ),
    )


def review_page(ctx: AppContext, flow_name: str, values: dict, raw: dict, worked_out: tuple[str, ...] = ()):
    """A flow's second step: what will happen (the fields asked for, then the values the app
    computes: an order's total), the Confirm button (the only one that changes the state) and a
    way back to the form."""
    desc, app = ctx.app.desc, ctx.app.name
    flow = desc["flows"][flow_name]
    name = flow["creates"]
    coll = desc["collections"][name]
    rows = []
    for f in [*flow["fields"], *worked_out]:
        rows += [
            Dt(words.field_label(ctx, name, f)),
            Dd(show(ctx, coll, f, values.get(f)), data_testid=f"{app}-review-{f}"),
        ]
    hidden = [
        Input(type="hidden", name=f, value="on" if v is True else str(v)) for f, v in raw.items() if v is not False
    ]
    return frame(
        ctx,
        name,
        Div(
            H2(words.ui(ctx, "review_heading")),
            Dl(*rows),
            P(words.ui(ctx, "confirm_note"), cls="muted small"),
            Form(
                *hidden,
                Button(
                    words.own(ctx, f"flow.{flow_name}.confirm", flow["confirm"]),
                    type="submit",
                    data_testid=f"{app}-confirm",
                ),
                method="post",
                action=ctx.url(f"/flow/{flow_name}/confirm"),
            ),
            Form(
                *hidden,
                Button(words.ui(ctx, "edit"), type="submit", cls="secondary", data_testid=f"{app}-review-edit"),
                method="get",
                action=ctx.url(f"/flow/{flow_name}"),
            ),
            cls="card stack dapp-review",
            data_testid=f"{app}-review-page",
        ),
    )


def settings_page(ctx: AppContext, params: dict):
    desc, app = ctx.app.desc, ctx.app.name
    rows = []
    for key, setting in desc["settings"].items():
        value = ctx.state["settings"].get(key)
        label = words.own(ctx, f"setting.{key}", setting["label"])
        attrs = {"name": key, "id": f"s-{key}", "data_testid": f"{app}-setting-{key}"}
        if setting["type"] == "boolean":
            rows.append(
                labelled(
                    label, f"s-{key}", Input(type="checkbox", value="on", checked=bool(value), **attrs), cls="check"
                )
            )
        else:
            options = [
                Option(
                    words.own(ctx, f"setting.{key}.{c}", c.replace("_", " ").capitalize()), value=c, selected=c == value
                )
                for c in setting["choices"]
            ]
            rows.append(labelled(label, f"s-{key}", Select(*options, **attrs)))
    return frame(
        ctx,
        "settings",
        Form(
            H2(words.ui(ctx, "settings")),
            Div(*rows, cls="fields"),
            Button(words.ui(ctx, "save"), type="submit", data_testid=f"{app}-settings-save"),
            method="post",
            action=ctx.url("/settings"),
            cls="card stack dapp-form",
        ),
        params=params,
    )
