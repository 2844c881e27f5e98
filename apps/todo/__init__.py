"""Todo: a list of tasks to add, edit, mark done or undone, delete, and clear when completed."""

from __future__ import annotations

from pathlib import Path

from fasthtml.common import H1, A, Button, Div, Form, Input, Li, P, Span, Ul

from openapps_sim.appkit import AppContext, AppRoutes, AppSpec, ItemKey
from openapps_sim.config.normalise import norm_text
from openapps_sim.config.schema import Bool, ListOf, Record, Str

STRINGS = Record(
    heading=Str("My tasks"),
    add_placeholder=Str("What needs to be done?"),
    add_button=Str("Add"),
    edit=Str("Edit"),
    save=Str("Save"),
    cancel=Str("Cancel"),
    delete=Str("Delete"),
    mark_done=Str("Mark done"),
    mark_undone=Str("Mark not done"),
    clear_completed=Str("Clear completed"),
    empty=Str("Nothing to do. Enjoy your day!"),
    filter_all=Str("All"),
    filter_active=Str("Active"),
    filter_done=Str("Done"),
    remaining=Str("{n} left"),
    done_label=Str("done"),
)

SCHEMA = Record(
    strings=STRINGS,
    items=ListOf(Record(title=Str(), done=Bool(False), notes=Str("")), default=[], unique="title"),
    show_filters=Bool(True, doc="show the All / Active / Done filter links"),
    strike_done=Bool(True, doc="strike through the titles of done items", vary=True),
)

CSS = """
.todo-list li{display:flex;flex-wrap:wrap;align-items:center;gap:var(--gap);padding:var(--gap) 0;border-bottom:var(--bw) solid var(--border)}
.todo-list li:last-child{border-bottom:0}
.todo-list .title{flex:1 1 10em;overflow-wrap:break-word}
.todo-list .done .title.strike{text-decoration:line-through;color:var(--muted)}
.todo-list .check{width:1.6em;height:1.6em;border-radius:50%;border:2px solid var(--primary);background:transparent;
 padding:0;color:var(--primary);font-weight:700}
.todo-list .done .check{background:var(--success);border-color:var(--success);color:#fff}
.todo-add input[type=text]{flex:1 1 auto}
.filters a{margin-inline-end:var(--gap)}
.filters a.active{font-weight:700;text-decoration:none}
.notes{display:block;font-size:.85em}
"""


def initial_state(config: dict, rng) -> dict:
    items = [
        {"id": f"t{i + 1}", "title": it["title"], "done": it["done"], "notes": it["notes"]}
        for i, it in enumerate(config["items"])
    ]
    return {"items": items, "next_id": len(items) + 1}


def normalise(state: dict) -> dict:
    """Items compared as a multiset of (title, done, notes): ids and order do not matter."""
    items = sorted((norm_text(i["title"]), bool(i["done"]), norm_text(i.get("notes", ""))) for i in state["items"])
    return {"items": [{"title": t, "done": d, "notes": n} for t, d, n in items]}


def _find(ctx: AppContext, item_id: str) -> dict | None:
    return next((i for i in ctx.state["items"] if i["id"] == item_id), None)


def routes(r: AppRoutes) -> None:
    @r.get("/")
    def index(ctx: AppContext, params: dict):
        flt = params.get("filter", "all")
        editing = params.get("edit")
        items = ctx.state["items"]
        shown = [i for i in items if flt == "all" or (flt == "done") == i["done"]]
        left = sum(1 for i in items if not i["done"])
        rows = [_row(ctx, it, editing == it["id"]) for it in shown]
        filters = None
        if ctx.config["show_filters"]:
            filters = Div(
                *[
                    A(
                        ctx.t(f"filter_{f}"),
                        href=ctx.url(f"/?filter={f}"),
                        cls="active" if f == flt else None,
                        data_testid=f"todo-filter-{f}",
                    )
                    for f in ("all", "active", "done")
                ],
                cls="filters",
            )
        return ctx.page(
            H1(ctx.t("heading"), data_testid="todo-heading"),
            Div(
                Form(
                    Input(
                        type="text",
                        name="title",
                        placeholder=ctx.t("add_placeholder"),
                        required=True,
                        aria_label=ctx.t("add_placeholder"),
                        data_testid="todo-new-title",
                        autocomplete="off",
                    ),
                    Button(ctx.t("add_button"), type="submit", data_testid="todo-add"),
                    method="post",
                    action=ctx.url("/add"),
                    cls="row todo-add",
                ),
                cls="card",
            ),
            Div(
                Div(
                    Span(ctx.t("remaining", n=left), cls="muted", data_testid="todo-remaining"),
                    filters,
                    cls="row",
                    style="justify-content:space-between",
                ),
                Ul(*rows, cls="plain todo-list", data_testid="todo-list")
                if rows
                else P(ctx.t("empty"), cls="muted", data_testid="todo-empty"),
                Form(
                    Button(
                        ctx.t("clear_completed"), type="submit", cls="secondary", data_testid="todo-clear-completed"
                    ),
                    method="post",
                    action=ctx.url("/clear"),
                )
                if any(i["done"] for i in items)
                else None,
                cls="card stack",
            ),
            title=ctx.config["title"],
        )

    @r.post("/add")
    def add(ctx: AppContext, params: dict):
        title = str(params.get("title", "")).strip()
        if title:
            item = {"id": f"t{ctx.state['next_id']}", "title": title, "done": False, "notes": ""}
            ctx.state["next_id"] += 1
            ctx.state["items"].append(item)
            ctx.log("add", id=item["id"], title=title)
        return ctx.redirect("/")

    @r.post("/toggle/{item_id}")
    def toggle(ctx: AppContext, params: dict):
        item = _find(ctx, params["item_id"])
        if item:
            item["done"] = not item["done"]
            ctx.log("toggle", id=item["id"], title=item["title"], done=item["done"])
        return ctx.redirect(_back(params))

    @r.post("/edit/{item_id}")
    def edit(ctx: AppContext, params: dict):
        item = _find(ctx, params["item_id"])
        title = str(params.get("title", "")).strip()
        if item and title and title != item["title"]:
            old = item["title"]
            item["title"] = title
            ctx.log("edit", id=item["id"], old=old, title=title)
        return ctx.redirect(_back(params))

    @r.post("/delete/{item_id}")
    def delete(ctx: AppContext, params: dict):
        item = _find(ctx, params["item_id"])
        if item:
            ctx.state["items"].remove(item)
            ctx.log("delete", id=item["id"], title=item["title"])
        return ctx.redirect(_back(params))

    @r.post("/clear")
    def clear(ctx: AppContext, params: dict):
        done = [i for i in ctx.state["items"] if i["done"]]
        if done:
            ctx.state["items"] = [i for i in ctx.state["items"] if not i["done"]]
            ctx.log("clear_completed", ids=[i["id"] for i in done], titles=[i["title"] for i in done])
        return ctx.redirect("/")


def _back(params: dict) -> str:
    flt = params.get("filter")
    return f"/?filter={flt}" if flt in ("active", "done") else "/"


def _row(ctx: AppContext, it: dict, editing: bool):
    iid = it["id"]
    if editing:
        return Li(
            Form(
                Input(
                    type="text",
                    name="title",
                    value=it["title"],
                    required=True,
                    aria_label=ctx.t("edit"),
                    data_testid=f"todo-edit-input-{iid}",
                    cls="grow",
                ),
                Button(ctx.t("save"), type="submit", data_testid=f"todo-save-{iid}"),
                A(ctx.t("cancel"), href=ctx.url("/"), cls="button secondary", data_testid=f"todo-cancel-{iid}"),
                method="post",
                action=ctx.url(f"/edit/{iid}"),
                cls="row grow",
            ),
            data_testid=f"todo-item-{iid}",
        )
    label = ctx.t("mark_undone") if it["done"] else ctx.t("mark_done")
    return Li(
        Form(
            Button(
                "✓" if it["done"] else "",
                type="submit",
                cls="check",
                title=label,
                aria_label=f"{label}: {it['title']}",
                data_testid=f"todo-toggle-{iid}",
            ),
            method="post",
            action=ctx.url(f"/toggle/{iid}"),
        ),
        Span(
            it["title"],
            Span(it["notes"], cls="notes muted") if it.get("notes") else None,
            cls="title" + (" strike" if ctx.config["strike_done"] else ""),
            dir="auto",
            data_testid=f"todo-title-{iid}",
        ),
        Span(ctx.t("done_label"), cls="badge") if it["done"] else None,
        A(
            ctx.t("edit"),
            href=ctx.url(f"/?edit={iid}"),
            cls="button secondary",
            aria_label=f"{ctx.t('edit')}: {it['title']}",
            data_testid=f"todo-edit-{iid}",
        ),
        Form(
            Button(
                ctx.t("delete"),
                type="submit",
                cls="danger",
                aria_label=f"{ctx.t('delete')}: {it['title']}",
                data_testid=f"todo-delete-{iid}",
            ),
            method="post",
            action=ctx.url(f"/delete/{iid}"),
        ),
        cls="done" if it["done"] else None,
        data_testid=f"todo-item-{iid}",
    )


APP = AppSpec(
    name="todo",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes=routes,
    normalise=normalise,
    order=10,
    css=CSS,
    item_keys={"items": ItemKey("title", "todo")},
)
