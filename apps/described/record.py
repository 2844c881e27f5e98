"""A described app's record page: its fields and its actions (flows, edit, toggles, star,
status, quantity, delete)."""

from __future__ import annotations

from urllib.parse import urlencode

from openapps_sim.apps.described import words
from openapps_sim.apps.described.checks import item_name
from openapps_sim.apps.described.values import show
from openapps_sim.apps.described.views import frame, image

from openapps_sim.appkit import AppContext, by_id
from openapps_sim.web.components import link_button, not_found_page, post_button
from openapps_sim.web.tags import H2, A, Dd, Div, Dl, Dt, Span


def record_page(ctx: AppContext, name: str, record_id: str, params: dict):
    desc, app = ctx.app.desc, ctx.app.name
    coll = desc["collections"][name]
    record = by_id(ctx.state[name], record_id)
    if record is None:
        return not_found_page(ctx, words.ui(ctx, "not_found"))
    rows = []
    for f, spec in coll["fields"].items():
        if f == coll["title"] or spec["type"] == "icon":
            continue  # the heading says the one, the avatar stands for the other
        rows += [
            Dt(words.field_label(ctx, name, f)),
            Dd(show(ctx, coll, f, record.get(f)), data_testid=f"{app}-detail-{f}"),
        ]
    return frame(
        ctx,
        name,
        Div(
            A(f"← {words.coll_label(ctx, name)}", href=ctx.url(f"/c/{name}"), data_testid=f"{app}-back"),
            H2(image(ctx, coll, record), str(record[coll["title"]]), data_testid=f"{app}-record-title"),
            Dl(*rows),
            cls="card stack dapp-detail",
            data_testid=f"{app}-{item_name(name, coll)}-{record['id']}",
        ),
        record_actions(ctx, name, coll, record),
        params=params,
    )


def record_actions(ctx: AppContext, name: str, coll: dict, record: dict):
    """The buttons of a record's page: its flows, edit, toggles, star, status, quantity, delete."""
    app, acts, rid = ctx.app.name, coll["actions"], record["id"]
    about, base = str(record[coll["title"]]), ctx.url(f"/c/{name}/{rid}")
    out = []
    for f, flow in ctx.app.desc["flows"].items():
        if flow["start"] == name:
            ref = next(
                (k for k in flow["fields"] if ctx.app.desc["collections"][flow["creates"]]["fields"][k]["to"] == name),
                "",
            )
            out.append(
                link_button(
                    words.own(ctx, f"flow.{f}", flow["label"]),
                    ctx.url(f"/flow/{f}?{urlencode({ref: rid})}"),
                    f"{app}-flow-{f}",
                )
            )
    if acts["edit"]:
        out.append(link_button(words.ui(ctx, "edit"), f"{base}/edit", f"{app}-edit", "button secondary", about))
    for f in [*acts["toggle"], *([acts["star"]] if acts["star"] else [])]:
        state = words.ui(ctx, "state_on" if record.get(f) else "state_off")
        out.append(
            post_button(
                f"{words.field_label(ctx, name, f)}: {state}",
                f"{base}/toggle/{f}",
                f"{app}-toggle-{f}",
                cls="secondary",
            )
        )
    if acts["quantity"]:
        f = acts["quantity"]
        label = words.field_label(ctx, name, f)
        step = [  # (sign, by, test id's verb): one button a way
            post_button(
                sign,
                f"{base}/qty/{f}",
                f"{app}-{verb}-{f}",
                hidden={"by": by},
                cls="secondary",
                aria_label=f"{sign} {label}",
            )
            for sign, by, verb in (("−", "-1", "dec"), ("+", "1", "inc"))
        ]
        out += [step[0], Span(f"{label}: {show(ctx, coll, f, record.get(f))}", data_testid=f"{app}-qty-{f}"), step[1]]
    if acts["delete"]:
        out.append(post_button(words.ui(ctx, "delete"), f"{base}/delete", f"{app}-delete", cls="danger", about=about))
    status = _status(ctx, name, coll, record) if acts["status"] else None
    return Div(Div(*out, cls="dapp-actions") if out else None, status, cls="card stack") if out or status else None


def _status(ctx: AppContext, name: str, coll: dict, record: dict):
    f, app = coll["actions"]["status"], ctx.app.name
    base = ctx.url(f"/c/{name}/{record['id']}/status/{f}")
    buttons = [
        post_button(
            words.choice_label(ctx, name, f, c),
            base,
            f"{app}-status-{f}-{c}",
            hidden={"value": c},
            cls="active" if record.get(f) == c else "secondary",
        )
        for c in coll["fields"][f]["choices"]
    ]
    return Div(
        Span(f"{words.field_label(ctx, name, f)} — {words.ui(ctx, 'set_to')}", cls="muted"),
        *buttons,
        cls="dapp-actions dapp-status",
    )
