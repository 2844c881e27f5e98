"""Todo's page: the add form, the filters and the list of items."""

from __future__ import annotations

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import link_button, post_button
from openapps_sim.web.tags import H1, A, Button, Div, Form, Input, Li, P, Span, Ul


def index_page(ctx: AppContext, flt: str, editing: str | None):
    items = ctx.state["items"]
    shown = [i for i in items if flt == "all" or (flt == "done") == i["done"]]
    left = sum(1 for i in items if not i["done"])
    rows = [item_row(ctx, it, editing == it["id"]) for it in shown]
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
            post_button(ctx.t("clear_completed"), ctx.url("/clear"), "todo-clear-completed", cls="secondary")
            if any(i["done"] for i in items)
            else None,
            cls="card stack",
        ),
        title=ctx.config["title"],
    )


def item_row(ctx: AppContext, it: dict, editing: bool):
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
        post_button(
            "✓" if it["done"] else "",
            ctx.url(f"/toggle/{iid}"),
            f"todo-toggle-{iid}",
            cls="check",
            title=label,
            aria_label=f"{label}: {it['title']}",
        ),
        Span(
            it["title"],
            Span(it["notes"], cls="notes muted") if it.get("notes") else None,
            cls="title" + (" strike" if ctx.config["strike_done"] else ""),
            dir="auto",
            data_testid=f"todo-title-{iid}",
        ),
        Div(
            Span(ctx.t("done_label"), cls="badge") if it["done"] else None,
            link_button(ctx.t("edit"), ctx.url(f"/?edit={iid}"), f"todo-edit-{iid}", "button secondary", it["title"]),
            post_button(
                ctx.t("delete"), ctx.url(f"/delete/{iid}"), f"todo-delete-{iid}", cls="danger", about=it["title"]
            ),
            cls="actions",
        ),
        cls="done" if it["done"] else None,
        data_testid=f"todo-item-{iid}",
    )
