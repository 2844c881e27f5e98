"""Code editor's handlers: parse the request, change the state through :mod:`.model`, log, redirect or render."""

from __future__ import annotations

from urllib.parse import urlencode

from openapps_sim.apps.code_editor import model, operations
from openapps_sim.apps.code_editor.forms import new_form, parent_param, rename_form
from openapps_sim.apps.code_editor.pages import file_view, folder_view
from openapps_sim.apps.code_editor.style import MONO
from openapps_sim.apps.code_editor.views import folder_url, layout, not_found

from openapps_sim.appkit import AppContext, AppRoutes
from openapps_sim.web.tags import H1, A, Button, Div, Form, Input, P, Span

routes = AppRoutes()  # the handlers below, registered in the order they are matched


@routes.get("/")
def index(ctx: AppContext, params: dict):
    file = params.get("file")
    if file is not None:
        file = str(file)
        if file in ctx.state["files"]:
            return file_view(ctx, params, file)
        return not_found(ctx, params, file)
    folder = str(params.get("folder", "") or "").strip("/")
    if folder and folder not in ctx.state["folders"]:
        return not_found(ctx, params, folder)
    return folder_view(ctx, params, folder)


@routes.post("/save")
def save(ctx: AppContext, params: dict):
    path = str(params.get("path", ""))
    if path not in ctx.state["files"]:
        return not_found(ctx, params, path)
    content = model.clean_content(params.get("content", ""))
    operations.save_file(ctx, path, content)
    return ctx.redirect("/?" + urlencode({"file": path, "msg": "saved"}))


@routes.get("/new")
def new(ctx: AppContext, params: dict):
    kind = "folder" if params.get("kind") == "folder" else "file"
    parent = parent_param(params)
    if parent not in ctx.state["folders"]:
        parent = ""
    return new_form(ctx, params, kind, parent)


def _place_error(ctx: AppContext, name: str, parent: str) -> str | None:
    """What is wrong with putting an entry called ``name`` into ``parent``, if anything."""
    problem = model.name_problem(name)
    if problem:
        return ctx.t(problem)
    if not model.is_folder(ctx.state, parent):
        return ctx.t("error_parent")
    return None


@routes.post("/create")
def create(ctx: AppContext, params: dict):
    kind = "folder" if params.get("kind") == "folder" else "file"
    name = str(params.get("name", "")).strip()
    parent = parent_param(params)
    error = _place_error(ctx, name, parent)
    if error is None and model.exists(ctx.state, model.join(parent, name)):
        error = ctx.t("error_exists", name=name)
    if error:
        return new_form(ctx, params, kind, parent if model.is_folder(ctx.state, parent) else "", name, error)
    path = model.join(parent, name)
    if kind == "file":
        operations.create_file(ctx, path)
        return ctx.redirect("/?" + urlencode({"file": path, "msg": "created_file"}))
    operations.create_folder(ctx, path)
    return ctx.redirect("/?" + urlencode({"folder": path, "msg": "created_folder"}))


@routes.get("/rename")
def rename_page(ctx: AppContext, params: dict):
    path = str(params.get("path", ""))
    if not path or not model.exists(ctx.state, path):
        return not_found(ctx, params, path)
    return rename_form(ctx, params, path, model.name_of(path), model.parent_of(path))


@routes.post("/rename")
def rename(ctx: AppContext, params: dict):
    path = str(params.get("path", ""))
    if not path or not model.exists(ctx.state, path):
        return not_found(ctx, params, path)
    name = str(params.get("name", "")).strip()
    parent = parent_param(params)
    is_dir = path in ctx.state["folders"]
    new_path = model.join(parent, name)
    error = _place_error(ctx, name, parent)
    if error is None and is_dir and model.is_inside(parent, path) and parent != "":
        error = ctx.t("error_into_itself")
    elif error is None and new_path != path and model.exists(ctx.state, new_path):
        error = ctx.t("error_exists", name=name)
    if error:
        keep_parent = parent if model.is_folder(ctx.state, parent) else model.parent_of(path)
        return rename_form(ctx, params, path, name, keep_parent, error)
    key = "folder" if is_dir else "file"
    if new_path == path:
        return ctx.redirect("/?" + urlencode({key: path}))
    operations.rename(ctx, path, new_path)
    return ctx.redirect("/?" + urlencode({key: new_path, "msg": "renamed"}))


@routes.post("/delete-file")
def delete_file(ctx: AppContext, params: dict):
    path = str(params.get("path", ""))
    if path in ctx.state["files"]:
        operations.delete_file(ctx, path)
    parent = model.parent_of(path)
    if parent and parent not in ctx.state["folders"]:
        parent = ""
    return ctx.redirect("/?" + urlencode({"folder": parent, "msg": "deleted"} if parent else {"msg": "deleted"}))


@routes.get("/delete")
def delete_page(ctx: AppContext, params: dict):
    path = str(params.get("path", "")).strip("/")
    if not path or path not in ctx.state["folders"]:
        return not_found(ctx, params, path)
    sub_folders, sub_files = model.subtree(ctx.state, path)
    return layout(
        ctx,
        params,
        [
            Div(
                H1(
                    ctx.t("delete_folder_title", name=model.name_of(path)),
                    data_testid="code_editor-form-title",
                    style="font-size:1.3em",
                ),
                P(Span(f"/{path}", style=f"font-family:{MONO}"), cls="muted"),
                P(
                    ctx.t("delete_folder_body", files=len(sub_files), folders=len(sub_folders)),
                    data_testid="code_editor-delete-summary",
                ),
                Form(
                    Input(type="hidden", name="path", value=path),
                    Div(
                        Button(
                            ctx.t("delete_folder_confirm"),
                            type="submit",
                            cls="danger",
                            data_testid="code_editor-confirm-delete",
                        ),
                        A(
                            ctx.t("cancel"),
                            href=folder_url(ctx, path),
                            cls="button secondary",
                            data_testid="code_editor-cancel",
                        ),
                        cls="row",
                    ),
                    method="post",
                    action=ctx.url("/delete-folder"),
                ),
                cls="card",
            )
        ],
        current=path,
        context_folder=model.parent_of(path),
    )


@routes.post("/delete-folder")
def delete_folder(ctx: AppContext, params: dict):
    path = str(params.get("path", "")).strip("/")
    if path and path in ctx.state["folders"]:
        operations.delete_folder(ctx, path)
    parent = model.parent_of(path)
    return ctx.redirect("/?" + urlencode({"folder": parent, "msg": "deleted"} if parent else {"msg": "deleted"}))
