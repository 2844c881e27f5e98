"""Code editor's page frame: the file tree with its filter, breadcrumbs, flash messages and shared links."""

from __future__ import annotations

from urllib.parse import urlencode

from openapps_sim.apps.code_editor import model
from openapps_sim.apps.code_editor.model import path_id

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import app_search, flash, link_button, not_found_card, post_button
from openapps_sim.web.tags import (
    H2,
    A,
    Div,
    Li,
    NotStr,
    P,
    Span,
    Ul,
)

LANGUAGES = {
    "py": "Python",
    "js": "JavaScript",
    "ts": "TypeScript",
    "md": "Markdown",
    "json": "JSON",
    "yaml": "YAML",
    "yml": "YAML",
    "toml": "TOML",
    "css": "CSS",
    "html": "HTML",
    "sh": "Shell",
    "sql": "SQL",
    "cfg": "INI",
    "ini": "INI",
}


FOLDER_SVG = (
    '<svg class="icon folder-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 6h7l2 2h9v11H3z" '
    'fill="currentColor" fill-opacity=".25" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>'
)
FILE_SVG = (
    '<svg class="icon file-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 3h8l4 4v14H6zM14 3v4h4" '
    'fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>'
)
ROOT_SVG = (
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M9 7l-5 5 5 5M15 7l5 5-5 5" '
    'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>'
)


def view_url(ctx: AppContext, **query: str) -> str:
    q = {k: v for k, v in query.items() if v not in (None, "")}
    return ctx.url("/" + ("?" + urlencode(q) if q else ""))


def folder_url(ctx: AppContext, folder: str, **extra: str) -> str:
    return view_url(ctx, folder=folder, **extra)


def file_url(ctx: AppContext, path: str, **extra: str) -> str:
    return view_url(ctx, file=path, **extra)


def count(ctx: AppContext, key: str, n: int) -> str:
    """``{n} lines`` / ``1 line``: the singular has its own string so that languages can word it."""
    return ctx.t(f"{key}_one") if n == 1 else ctx.t(key, n=n)


def lines(text: str) -> int:
    return model.line_count(text)


def language(ctx: AppContext, path: str) -> str:
    return LANGUAGES.get(model.extension(path), ctx.t("lang_text"))


def icon(kind: str) -> NotStr:
    return NotStr(FOLDER_SVG if kind == "folder" else FILE_SVG)


def sorted_entries(ctx: AppContext, folder: str) -> list[tuple[str, str]]:
    folders, files = model.children(ctx.state, folder)
    entries = [("folder", p) for p in folders] + [("file", p) for p in files]
    if not ctx.config["folders_first"]:
        entries.sort(key=lambda e: (model.name_of(e[1]).casefold(), model.name_of(e[1])))
    return entries


def flash_message(ctx: AppContext, params: dict):
    key = params.get("msg")
    if key in ("saved", "created_file", "created_folder", "renamed", "deleted"):
        return flash(ctx.t(f"flash_{key}"), "code_editor-flash", cls="ce-flash")
    return None


# -- sidebar ----------------------------------------------------------------------------------


def _branch(ctx: AppContext, folder: str, keep: set[str] | None, current: str, query: str):
    """The tree below ``folder`` (only the paths in ``keep`` when filtered), or None if empty."""
    items = []
    for kind, p in sorted_entries(ctx, folder):
        if keep is not None and p not in keep:
            continue
        link_q = {"q": query} if query else {}
        url = folder_url(ctx, p, **link_q) if kind == "folder" else file_url(ctx, p, **link_q)
        link = A(
            icon(kind),
            Span(model.name_of(p), dir="auto"),
            href=url,
            cls=f"{kind}-link" + (" current" if p == current else ""),
            aria_current="page" if p == current else None,
            data_testid=f"code_editor-{kind}-{path_id(p)}",
        )
        sub = _branch(ctx, p, keep, current, query) if kind == "folder" else None
        items.append(Li(link, sub) if sub is not None else Li(link))
    return Ul(*items) if items else None


def _toolbar(ctx: AppContext, context_folder: str):
    """New file and new folder, in the folder being looked at."""
    new_q = {"parent": context_folder} if context_folder else {}
    return Div(
        link_button(ctx.t("new_file"), ctx.url("/new?" + urlencode({"kind": "file", **new_q})), "code_editor-new-file"),
        link_button(
            ctx.t("new_folder"),
            ctx.url("/new?" + urlencode({"kind": "folder", **new_q})),
            "code_editor-new-folder",
            cls="button secondary",
        ),
        cls="toolbar",
    )


def tree(ctx: AppContext, current: str, context_folder: str, query: str):
    state = ctx.state
    q = query.casefold()
    keep: set[str] | None = None
    if q:
        hits = [p for p in list(state["folders"]) + list(state["files"]) if q in model.name_of(p).casefold()]
        keep = set(hits)
        for p in hits:
            keep.update(model.ancestors(p))

    root_link = A(
        NotStr(ROOT_SVG),
        Span(state["project"]),
        href=folder_url(ctx, "", q=query) if query else ctx.url("/"),
        cls="folder-link" + (" current" if current == "" else ""),
        data_testid="code_editor-root",
    )
    sub = _branch(ctx, "", keep, current, query)
    body = [Ul(Li(root_link, sub) if sub is not None else Li(root_link))]
    if keep is not None and not keep:
        body.append(P(ctx.t("no_matches", q=query), cls="muted small", data_testid="code_editor-no-matches"))
    return Div(
        _toolbar(ctx, context_folder),
        H2(ctx.t("explorer")),
        app_search(
            ctx,
            query,
            "filter",
            cls="ce-filter",
            button_cls="secondary",
            after=(
                A(ctx.t("clear_filter"), href=ctx.url("/"), data_testid="code_editor-filter-clear") if query else None,
            ),
        ),
        Div(*body, cls="ce-tree", role="navigation", aria_label=ctx.t("tree_label"), data_testid="code_editor-tree"),
        cls="card ce-side",
    )


def layout(ctx: AppContext, params: dict, main, current: str = "", context_folder: str = ""):
    query = str(params.get("q", "")).strip()
    return ctx.page(
        Div(
            tree(ctx, current, context_folder, query),
            Div(flash_message(ctx, params), *main, cls="ce-main"),
            cls="ce-layout",
        ),
        title=ctx.config["title"],
    )


def crumbs(ctx: AppContext, path: str):
    """The path as links; every name is isolated with ``dir="auto"`` so that '.gitignore' reads
    '.gitignore' in a right-to-left page too."""
    parts = [
        A(ctx.state["project"], href=ctx.url("/"), data_testid="code_editor-crumb-root", dir="auto"),
    ]
    for folder in model.ancestors(path) + ([path] if path else []):
        parts.append(Span("/", aria_hidden="true"))
        if folder == path:
            parts.append(Span(model.name_of(folder), aria_current="page", dir="auto"))
        else:
            parts.append(
                A(
                    model.name_of(folder),
                    href=folder_url(ctx, folder),
                    data_testid=f"code_editor-crumb-{path_id(folder)}",
                    dir="auto",
                )
            )
    return Div(*parts, cls="ce-crumbs", role="navigation", aria_label=ctx.t("breadcrumb_label"))


def delete_file_form(ctx: AppContext, path: str):
    testid, name = f"code_editor-delete-{path_id(path)}", model.name_of(path)
    return post_button(
        ctx.t("delete"), ctx.url("/delete-file"), testid, hidden={"path": path}, cls="danger", about=name
    )


def _path_link(ctx: AppContext, action: str, path: str, cls: str):
    """The link to the ``action`` page (``/rename``, ``/delete``) of the file or folder at ``path``."""
    href = ctx.url(f"/{action}?" + urlencode({"path": path}))
    return link_button(ctx.t(action), href, f"code_editor-{action}-{path_id(path)}", cls, model.name_of(path))


def rename_link(ctx: AppContext, path: str):
    return _path_link(ctx, "rename", path, "button secondary")


def delete_folder_link(ctx: AppContext, path: str):
    return _path_link(ctx, "delete", path, "button danger")


def not_found(ctx: AppContext, params: dict, path: str):
    return layout(
        ctx,
        params,
        [
            not_found_card(
                ctx.t("not_found", path=path),
                "code_editor-not-found",
                ctx.t("back_to_project"),
                ctx.url("/"),
                "code_editor-back",
                back_cls=None,
            )
        ],
    )


# -- views ------------------------------------------------------------------------------------
