"""The handlers of every described app: they parse the request, call the app's operations
(:mod:`.ops`, found through ``ctx.app.load_operations()``) and redirect, or render a page."""

from __future__ import annotations

from openapps_sim.apps.described import computed, forms, model, ops, record, views, words
from openapps_sim.apps.described.checks import item_name

from openapps_sim.appkit import AppContext, AppRoutes, OperationError, by_id
from openapps_sim.web.components import not_found_page

routes = AppRoutes()  # matched in this order: /c/{dapp_coll}/new before /c/{dapp_coll}/{dapp_id}
# path parameters are named dapp_*, a prefix no field may have: a form field never hides one


def _coll(ctx: AppContext, params: dict) -> tuple[str, dict] | tuple[None, None]:
    name = params.get("dapp_coll", "")
    coll = ctx.app.desc["collections"].get(name)
    return (name, coll) if coll else (None, None)


def _record(ctx: AppContext, params: dict, allowed) -> tuple[str, dict, dict | None]:
    """The route's collection (name, description) and record; the record is None where the
    collection or the record is missing or ``allowed(actions, field)`` refuses the route."""
    name, coll = _coll(ctx, params)
    found = by_id(ctx.state[name], params["dapp_id"]) if coll else None
    return name, coll, found if found and allowed(coll["actions"], params.get("dapp_field", "")) else None


def _op(ctx: AppContext, name: str):
    return ctx.app.load_operations()[name]


def _missing(ctx: AppContext):
    from openapps_sim.apps.described import words

    return not_found_page(ctx, words.ui(ctx, "not_found"))


@routes.get("/")
def home(ctx: AppContext, params: dict):
    desc = ctx.app.desc
    return views.collection_page(ctx, desc["home"] or next(iter(desc["collections"])), params)


@routes.get("/settings")
def settings(ctx: AppContext, params: dict):
    return forms.settings_page(ctx, params) if ctx.app.desc["settings"] else _missing(ctx)


@routes.post("/settings")
def save_settings(ctx: AppContext, params: dict):
    for key, setting in ctx.app.desc["settings"].items():
        value = key in params if setting["type"] == "boolean" else params.get(key)
        if value is not None and value != ctx.state["settings"].get(key):
            _op(ctx, f"set_setting_{key}")(ctx, value)
    return ctx.redirect("/settings?msg=settings_saved")


@routes.get("/c/{dapp_coll}")
def collection(ctx: AppContext, params: dict):
    name, coll = _coll(ctx, params)
    return views.collection_page(ctx, name, params) if coll else _missing(ctx)


@routes.get("/c/{dapp_coll}/new")
def new_form(ctx: AppContext, params: dict):
    name, coll = _coll(ctx, params)
    return forms.record_form(ctx, name, None) if coll and coll["actions"]["create"] else _missing(ctx)


@routes.post("/c/{dapp_coll}/new")
def create(ctx: AppContext, params: dict):
    name, coll = _coll(ctx, params)
    if not coll or not coll["actions"]["create"]:
        return _missing(ctx)
    values = forms.form_values(coll, list(coll["fields"]), params)
    try:
        record = _op(ctx, f"create_{item_name(name, coll)}")(ctx, **values)
    except OperationError as e:
        return forms.record_form(ctx, name, None, words.form_error(ctx, name, e), values)
    return ctx.redirect(f"/c/{name}/{record['id']}?msg=saved")


@routes.get("/c/{dapp_coll}/{dapp_id}")
def show_record(ctx: AppContext, params: dict):
    name, coll = _coll(ctx, params)
    return record.record_page(ctx, name, params["dapp_id"], params) if coll else _missing(ctx)


@routes.get("/c/{dapp_coll}/{dapp_id}/edit")
def edit_form(ctx: AppContext, params: dict):
    name, _, found = _record(ctx, params, lambda a, _: a["edit"])
    return forms.record_form(ctx, name, found) if found else _missing(ctx)


@routes.post("/c/{dapp_coll}/{dapp_id}/edit")
def edit(ctx: AppContext, params: dict):
    name, coll, found = _record(ctx, params, lambda a, _: a["edit"])
    if not found:
        return _missing(ctx)
    values = forms.form_values(coll, coll["actions"]["edit"], params)
    try:
        _op(ctx, f"edit_{item_name(name, coll)}")(ctx, found["id"], **values)
    except OperationError as e:
        return forms.record_form(ctx, name, found, words.form_error(ctx, name, e), values)
    return ctx.redirect(f"/c/{name}/{found['id']}?msg=saved")


def _on_record(ctx: AppContext, params: dict, allowed, operation: str, **args):
    name, coll, found = _record(ctx, params, allowed)
    if not found:
        return _missing(ctx)
    field = params.get("dapp_field", "")
    try:
        _op(ctx, operation.format(item=item_name(name, coll), field=field))(ctx, found["id"], **args)
    except OperationError:
        pass  # a value no button offers: nothing changes
    if params.get("back") == "list":
        return ctx.redirect(f"/c/{name}")
    return ctx.redirect(f"/c/{name}/{found['id']}")


@routes.post("/c/{dapp_coll}/{dapp_id}/delete")
def delete(ctx: AppContext, params: dict):
    name, coll, found = _record(ctx, params, lambda a, _: a["delete"])
    if not found:
        return _missing(ctx)
    _op(ctx, f"delete_{item_name(name, coll)}")(ctx, found["id"])
    return ctx.redirect(f"/c/{name}?msg=deleted")


@routes.post("/c/{dapp_coll}/{dapp_id}/toggle/{dapp_field}")
def toggle(ctx: AppContext, params: dict):
    return _on_record(ctx, params, lambda a, f: f in a["toggle"] or f == a["star"], "toggle_{item}_{field}")


@routes.post("/c/{dapp_coll}/{dapp_id}/status/{dapp_field}")
def status(ctx: AppContext, params: dict):
    value = str(params.get("value", ""))
    return _on_record(ctx, params, lambda a, f: f == a["status"], "set_{item}_{field}", value=value)


@routes.post("/c/{dapp_coll}/{dapp_id}/qty/{dapp_field}")
def quantity(ctx: AppContext, params: dict):
    by = str(params.get("by", "0"))
    return _on_record(ctx, params, lambda a, f: f == a["quantity"], "change_{item}_{field}", by=by)


def _flow_values(ctx: AppContext, flow_name: str, params: dict) -> tuple[dict, dict]:
    """The posted values of a flow's fields (raw) and checked, or an OperationError."""
    flow = ctx.app.desc["flows"][flow_name]
    coll = ctx.app.desc["collections"][flow["creates"]]
    raw = forms.form_values(coll, flow["fields"], params)
    tool = f"{ctx.app.name}.{flow_name}"
    for f in flow["fields"]:
        if f not in raw and ops.flow_needs(coll["fields"], f):
            raise model.missing(tool, coll, f)
    return raw, {f: model.coerce(ctx.app.desc, ctx.state, tool, coll, f, v) for f, v in raw.items()}


def _flow_route(handler):
    """A flow's route: ``handler(ctx, params, flow)`` for a flow the app has, the missing page otherwise."""

    def route(ctx: AppContext, params: dict):
        flow = params.get("dapp_flow", "")
        return handler(ctx, params, flow) if flow in ctx.app.desc["flows"] else _missing(ctx)

    return route


@routes.get("/flow/{dapp_flow}")
@_flow_route
def flow_form(ctx: AppContext, params: dict, flow: str):
    return forms.flow_form(ctx, flow, {f: params.get(f) for f in ctx.app.desc["flows"][flow]["fields"]})


@routes.post("/flow/{dapp_flow}/review")
@_flow_route
def flow_review(ctx: AppContext, params: dict, flow: str):
    desc = ctx.app.desc
    try:
        raw, values = _flow_values(ctx, flow, params)
        made = ops.set_values(desc, ctx.state, desc["flows"][flow], values, f"{ctx.app.name}.{flow}")
    except OperationError as e:  # a missing value, an empty basket
        return forms.flow_form(ctx, flow, dict(params), words.form_error(ctx, desc["flows"][flow]["creates"], e))
    sums = {f: made[f] for f, v in desc["flows"][flow]["set"].items() if computed.is_rule(v)}
    return forms.review_page(ctx, flow, {**values, **sums}, raw, tuple(sums))


@routes.post("/flow/{dapp_flow}/confirm")
@_flow_route
def flow_confirm(ctx: AppContext, params: dict, flow: str):
    creates = ctx.app.desc["flows"][flow]["creates"]
    try:
        raw, _ = _flow_values(ctx, flow, params)
        made = _op(ctx, flow)(ctx, **raw)
    except OperationError as e:
        return forms.flow_form(ctx, flow, dict(params), words.form_error(ctx, creates, e))
    return ctx.redirect(f"/c/{creates}/{made['id']}?msg=done")
