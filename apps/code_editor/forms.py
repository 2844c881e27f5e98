"""Code editor's forms: new file or folder, rename or move."""

from __future__ import annotations

from openapps_sim.apps.code_editor import model
from openapps_sim.apps.code_editor.views import file_url, folder_url, layout

from openapps_sim.appkit import AppContext
from openapps_sim.web.tags import (
    H1,
    A,
    Button,
    Div,
    Form,
    Input,
    Label,
    Option,
    P,
    Select,
)


def parent_select(ctx: AppContext, selected: str, exclude: str | None = None):
    """A select of every folder; values are paths (the root is ``/``), labels start with ``/``."""
    options = [Option(f"/ {ctx.t('root_label')}", value="/", selected=selected == "")]
    for folder in sorted(ctx.state["folders"]):
        if exclude is not None and model.is_inside(folder, exclude):
            continue
        options.append(Option(f"/{folder}", value=folder, selected=folder == selected))
    return Select(
        *options,
        name="parent",
        id="ce-parent",
        data_testid="code_editor-field-parent",
    )


def parent_param(params: dict) -> str:
    return str(params.get("parent", "") or "").strip().strip("/")


def form_page(ctx: AppContext, params: dict, title: str, fields: list, action: str, submit, cancel_href: str):
    return layout(
        ctx,
        params,
        [
            Div(
                H1(title, data_testid="code_editor-form-title", style="font-size:1.3em"),
                Form(
                    *fields,
                    Div(
                        submit,
                        A(ctx.t("cancel"), href=cancel_href, cls="button secondary", data_testid="code_editor-cancel"),
                        cls="buttons",
                    ),
                    method="post",
                    action=ctx.url(action),
                    cls="ce-form",
                ),
                cls="card",
            )
        ],
    )


def name_field(ctx: AppContext, name: str) -> tuple:
    """The label and text box of a file or folder name."""
    return (
        Label(ctx.t("field_name"), fr="ce-name"),
        Input(
            type="text",
            name="name",
            id="ce-name",
            value=name,
            required=True,
            autocomplete="off",
            spellcheck="false",
            data_testid="code_editor-field-name",
        ),
    )


def new_form(ctx: AppContext, params: dict, kind: str, parent: str, name: str = "", error: str | None = None):
    hint = ctx.t("name_hint_file") if kind == "file" else ctx.t("name_hint_folder")
    fields = [
        Input(type="hidden", name="kind", value=kind),
        *name_field(ctx, name),
        P(hint, cls="hint"),
        Label(ctx.t("field_parent"), fr="ce-parent"),
        parent_select(ctx, parent),
        Div(error, cls="ce-error", role="alert", data_testid="code_editor-error") if error else None,
    ]
    title = ctx.t("create_file_title") if kind == "file" else ctx.t("create_folder_title")
    submit = Button(ctx.t("create"), type="submit", data_testid="code_editor-create")
    return form_page(ctx, params, title, fields, "/create", submit, folder_url(ctx, parent))


def rename_form(ctx: AppContext, params: dict, path: str, name: str, parent: str, error: str | None = None):
    is_dir = path in ctx.state["folders"]
    fields = [
        Input(type="hidden", name="path", value=path),
        *name_field(ctx, name),
        Label(ctx.t("field_parent"), fr="ce-parent"),
        parent_select(ctx, parent, exclude=path if is_dir else None),
        Div(error, cls="ce-error", role="alert", data_testid="code_editor-error") if error else None,
    ]
    submit = Button(ctx.t("rename_button"), type="submit", data_testid="code_editor-confirm-rename")
    back = folder_url(ctx, path) if is_dir else file_url(ctx, path)
    return form_page(ctx, params, ctx.t("rename_title", name=model.name_of(path)), fields, "/rename", submit, back)


# -- routes -----------------------------------------------------------------------------------
