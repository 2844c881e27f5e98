"""Code editor's main views: a folder's listing, a file in the editor, and the confirm-delete page of a folder."""

from __future__ import annotations

from urllib.parse import urlencode

from openapps_sim.apps.code_editor import model
from openapps_sim.apps.code_editor.model import path_id
from openapps_sim.apps.code_editor.views import (
    count,
    crumbs,
    delete_file_form,
    delete_folder_link,
    file_url,
    folder_url,
    icon,
    language,
    layout,
    lines,
    rename_link,
    sorted_entries,
)

from openapps_sim.appkit import AppContext
from openapps_sim.web.tags import (
    H1,
    A,
    Button,
    Div,
    Form,
    Input,
    P,
    Pre,
    Span,
    Table,
    Tbody,
    Td,
    Textarea,
    Th,
    Thead,
    Tr,
)


def folder_view(ctx: AppContext, params: dict, folder: str):
    state = ctx.state
    rows = [_entry_row(ctx, kind, p) for kind, p in sorted_entries(ctx, folder)]
    title = state["project"] if folder == "" else model.name_of(folder)
    return layout(
        ctx,
        params,
        [
            Div(
                crumbs(ctx, folder),
                Div(
                    H1(Span(title, dir="auto"), data_testid="code_editor-title"),
                    Div(*_head_actions(ctx, folder), cls="actions"),
                    cls="ce-head",
                ),
                _listing(ctx, folder, rows),
                cls="card",
            ),
            _readme(ctx, folder),
        ],
        current=folder,
        context_folder=folder,
    )


def _entry_row(ctx: AppContext, kind: str, p: str):
    """One row of a folder's listing: the entry's link, kind, size and actions."""
    state = ctx.state
    pid = path_id(p)
    if kind == "folder":
        sub_folders, sub_files = model.children(state, p)
        size = count(ctx, "items", len(sub_folders) + len(sub_files))
        href = folder_url(ctx, p)
        actions = [rename_link(ctx, p), delete_folder_link(ctx, p)]
    else:
        size = count(ctx, "lines", lines(state["files"][p]))
        href = file_url(ctx, p)
        actions = [rename_link(ctx, p), delete_file_form(ctx, p)]
    return Tr(
        Td(
            A(icon(kind), Span(model.name_of(p), dir="auto"), href=href, data_testid=f"code_editor-open-{pid}"),
            cls="name",
        ),
        Td(ctx.t(f"kind_{kind}"), cls="muted small kind"),
        Td(size, cls="muted small size"),
        Td(*actions, cls="actions"),
        data_testid=f"code_editor-row-{pid}",
    )


def _head_actions(ctx: AppContext, folder: str) -> list:
    new_q = {"parent": folder} if folder else {}
    head_actions = [
        A(
            ctx.t(f"new_{kind}_here"),
            href=ctx.url("/new?" + urlencode({"kind": kind, **new_q})),
            cls="button secondary",
            data_testid=f"code_editor-new-{kind}-here",
        )
        for kind in ("file", "folder")
    ]
    if folder:
        head_actions += [rename_link(ctx, folder), delete_folder_link(ctx, folder)]
    return head_actions


def _listing(ctx: AppContext, folder: str, rows: list):
    if not rows:
        return P(
            ctx.t("empty_project") if folder == "" else ctx.t("empty_folder"),
            cls="muted",
            data_testid="code_editor-empty",
        )
    return Table(
        Thead(
            Tr(
                Th(ctx.t("col_name")),
                Th("", cls="kind"),
                Th(ctx.t("col_size"), cls="size"),
                Th(ctx.t("col_actions"), cls="actions"),
            )
        ),
        Tbody(*rows),
        cls="ce-list",
        data_testid="code_editor-listing",
    )


def _readme(ctx: AppContext, folder: str):
    """The folder's README.md under its listing (when the app shows it), else None."""
    state = ctx.state
    readme_path = model.join(folder, "README.md")
    if not (ctx.config["show_readme"] and readme_path in state["files"]):
        return None
    return Div(
        Div(
            icon("file"),
            A(
                "README.md",
                href=file_url(ctx, readme_path),
                data_testid="code_editor-readme-open",
            ),
            cls="row",
            style="gap:.35em;margin-bottom:var(--gap)",
        ),
        Pre(state["files"][readme_path], data_testid="code_editor-readme"),
        cls="card ce-readme",
    )


def _gutter(shown_lines: int):
    """Line numbers beside the editor, a few screens more than the file's lines."""
    total = shown_lines + 120
    digits = len(str(total))
    return Pre(
        "\n".join(str(i) for i in range(1, total + 1)),
        cls="ce-gutter",
        aria_hidden="true",
        style=f"width:calc({digits}ch + 1em)",
    )


def file_view(ctx: AppContext, params: dict, path: str):
    content = ctx.state["files"][path]
    n = lines(content)
    pid = path_id(path)
    wrap = ctx.config["wrap_lines"]
    shown_lines = max(n + 1, ctx.config["min_editor_lines"])
    gutter = _gutter(shown_lines) if ctx.config["show_line_numbers"] and not wrap else None
    editor = Textarea(
        # The HTML parser drops one newline right after <textarea>: lead with one so that a
        # file starting with an empty line keeps it.
        "\n" + content,
        name="content",
        rows=str(shown_lines),
        wrap="soft" if wrap else "off",
        spellcheck="false",
        autocomplete="off",
        aria_label=ctx.t("editor_label", name=model.name_of(path)),
        cls="" if wrap else "nowrap",
        style=f"tab-size:{ctx.config['tab_size']};min-height:calc({shown_lines} * 1.5em + 2 * var(--gap))",
        data_testid="code_editor-editor",
    )
    return layout(
        ctx,
        params,
        [
            Div(
                crumbs(ctx, path),
                Div(
                    H1(Span(model.name_of(path), dir="auto"), data_testid="code_editor-title"),
                    Span(language(ctx, path), cls="badge ce-lang", data_testid="code_editor-language"),
                    Div(rename_link(ctx, path), delete_file_form(ctx, path), cls="actions"),
                    cls="ce-head",
                ),
                Form(
                    Input(type="hidden", name="path", value=path),
                    Div(gutter, editor, cls="ce-editor"),
                    Div(
                        Span(count(ctx, "lines", n)),
                        Span(ctx.t("chars", n=len(content))),
                        Span(language(ctx, path)),
                        cls="ce-status",
                        data_testid="code_editor-status",
                    ),
                    Div(
                        Button(ctx.t("save"), type="submit", data_testid="code_editor-save"),
                        Span(ctx.t("unsaved_hint"), cls="muted small"),
                        cls="ce-savebar",
                    ),
                    method="post",
                    action=ctx.url("/save"),
                    data_testid=f"code_editor-editor-form-{pid}",
                ),
                cls="card",
            )
        ],
        current=path,
        context_folder=model.parent_of(path),
    )
