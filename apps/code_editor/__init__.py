"""Code editor: a project's file tree, with files to open, edit and save, and files and folders
to create, rename, move and delete.

Paths are the identity of files and folders (``src/utils/io.py``); data-testids carry
:func:`paths.path_id` of the path. The open file or folder, the tree filter and flash messages
live in the URL; the state holds only the project name, the folder list and the file contents.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from fasthtml.common import (
    H1,
    H2,
    A,
    Button,
    Div,
    Form,
    Input,
    Label,
    Li,
    NotStr,
    Option,
    P,
    Pre,
    Select,
    Span,
    Table,
    Tbody,
    Td,
    Textarea,
    Th,
    Thead,
    Tr,
    Ul,
)

from openapps_sim.appkit import AppContext, AppRoutes, AppSpec, ItemKey
from openapps_sim.config.schema import Bool, Int, ListOf, Record, Str

from . import paths as P_
from .paths import path_id

STRINGS = Record(
    explorer=Str("Explorer"),
    new_file=Str("New file"),
    new_folder=Str("New folder"),
    new_file_here=Str("New file here"),
    new_folder_here=Str("New folder here"),
    filter_placeholder=Str("Filter by name"),
    filter_button=Str("Filter"),
    clear_filter=Str("Clear"),
    no_matches=Str("Nothing matches “{q}”."),
    empty_project=Str("This project is empty. Create a file or a folder to get started."),
    empty_folder=Str("This folder is empty."),
    col_name=Str("Name"),
    col_size=Str("Size"),
    col_actions=Str("Actions"),
    rename=Str("Rename"),
    delete=Str("Delete"),
    save=Str("Save"),
    cancel=Str("Cancel"),
    create=Str("Create"),
    flash_saved=Str("File saved."),
    flash_created_file=Str("File created."),
    flash_created_folder=Str("Folder created."),
    flash_renamed=Str("Renamed."),
    flash_deleted=Str("Deleted."),
    create_file_title=Str("Create a new file"),
    create_folder_title=Str("Create a new folder"),
    field_name=Str("Name"),
    name_hint_file=Str("Include the extension, for example helpers.py or notes.md."),
    name_hint_folder=Str("For example components or fixtures."),
    field_parent=Str("Location"),
    root_label=Str("(project root)"),
    rename_title=Str("Rename or move “{name}”"),
    rename_button=Str("Rename"),
    delete_folder_title=Str("Delete the folder “{name}”?"),
    delete_folder_body=Str(
        "This deletes the folder and everything in it: {files} file(s) and {folders} folder(s). This cannot be undone."
    ),
    delete_folder_confirm=Str("Delete folder"),
    error_empty=Str("Please enter a name."),
    error_invalid=Str("A name cannot contain slashes or control characters, and cannot be “.” or “..”."),
    error_long=Str("This name is too long."),
    error_exists=Str("Something named “{name}” already exists in that location."),
    error_into_itself=Str("A folder cannot be moved into itself."),
    error_parent=Str("That location does not exist any more."),
    not_found=Str("Nothing is stored at “{path}”. It may have been renamed or deleted."),
    back_to_project=Str("Back to the project"),
    lines=Str("{n} lines"),
    lines_one=Str("1 line"),
    chars=Str("{n} characters"),
    items=Str("{n} items"),
    items_one=Str("1 item"),
    lang_text=Str("Plain text"),
    editor_label=Str("Contents of {name}"),
    unsaved_hint=Str("Changes are kept only when you press Save."),
    breadcrumb_label=Str("Location in the project"),
    tree_label=Str("Project files"),
    kind_file=Str("File"),
    kind_folder=Str("Folder"),
)

FILE = Record(path=Str(doc="path inside the project, e.g. src/app.py"), content=Str("", max_len=200000))

SCHEMA = Record(
    strings=STRINGS,
    project=Str("project", doc="the project's name, shown at the root of the tree"),
    folders=ListOf(Str(), default=[], doc="folders, including empty ones (parents of files are added)"),
    files=ListOf(FILE, default=[], doc="files with their contents", unique="path"),
    show_line_numbers=Bool(True, doc="draw line numbers beside the editor (only when lines do not wrap)", vary=True),
    wrap_lines=Bool(False, doc="wrap long lines in the editor instead of scrolling sideways", vary=True),
    folders_first=Bool(True, doc="list folders before files in the tree and in folder views", vary=True),
    tab_size=Int(4, lo=1, hi=8, doc="width of a tab character in the editor"),
    min_editor_lines=Int(16, lo=4, hi=80, doc="the editor is at least this many lines tall"),
    show_readme=Bool(True, doc="show a folder's README.md below its listing", vary=True),
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

MONO = "ui-monospace,'SFMono-Regular','DejaVu Sans Mono',Menlo,Consolas,monospace"

CSS = f"""
.layout-desktop.app-code_editor main{{max-width:calc(var(--width) + 240px)}}
.ce-layout{{display:grid;grid-template-columns:minmax(190px,260px) minmax(0,1fr);gap:var(--pad);align-items:start}}
.layout-mobile .ce-layout{{grid-template-columns:minmax(0,1fr)}}
.layout-mobile .ce-main{{order:-1}}
.ce-side .toolbar{{display:flex;gap:calc(var(--gap)/2);flex-wrap:wrap;margin-bottom:var(--gap)}}
.ce-side .toolbar .button{{padding:calc(var(--gap)*.5) var(--gap);font-size:.9em}}
.ce-side h2{{font-size:.8em;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 var(--gap) 0}}
.ce-filter{{display:flex;gap:calc(var(--gap)/2);margin-bottom:var(--gap)}}
.ce-filter input{{flex:1 1 auto;min-width:0;padding:calc(var(--gap)*.4) calc(var(--gap)*.6)}}
.ce-filter button{{flex:none;white-space:nowrap;padding:calc(var(--gap)*.4) calc(var(--gap)*.8)}}
.ce-tree ul{{list-style:none;margin:0;padding:0;padding-inline-start:.9em}}
.ce-tree>ul{{padding-inline-start:0}}
.ce-tree a{{display:flex;gap:.35em;align-items:center;padding:1px 4px;border-radius:calc(var(--radius)/2);
 text-decoration:none;color:var(--text);overflow-wrap:break-word;font-size:.92em;unicode-bidi:plaintext}}
.ce-tree a:hover{{background:var(--background)}}
.ce-tree a.current{{background:var(--primary);color:var(--on-primary)}}
.ce-tree .folder-link{{font-weight:600}}
.ce-tree .icon{{flex:none;width:1em;height:1em;color:var(--muted)}}
.ce-tree a.current .icon{{color:var(--on-primary)}}
.ce-tree .folder-link .icon,.ce-list .folder-icon{{color:var(--accent)}}
.ce-crumbs{{display:flex;flex-wrap:wrap;gap:.3em;align-items:center;color:var(--muted);font-size:.9em;margin-bottom:var(--gap)}}
.ce-crumbs a{{text-decoration:none}}
.ce-head{{display:flex;gap:var(--gap);align-items:center;flex-wrap:wrap;margin-bottom:var(--gap)}}
.ce-head h1{{margin:0;font-size:1.3em;overflow-wrap:break-word}}
.ce-head .actions{{display:flex;gap:calc(var(--gap)/2);flex-wrap:wrap;margin-inline-start:auto}}
.ce-head form,.ce-list form{{display:inline}}
.ce-list td{{vertical-align:middle}}
.ce-list td.name a{{display:inline-flex;gap:.35em;align-items:center;text-decoration:none;overflow-wrap:break-word;unicode-bidi:plaintext}}
.ce-list td.actions{{white-space:nowrap;text-align:end}}
.layout-mobile .ce-list .kind,.layout-mobile .ce-list .size{{display:none}}
.layout-mobile .ce-list td.actions{{white-space:normal}}
.layout-mobile .ce-list thead{{display:none}}
.layout-mobile .ce-list tr{{display:flex;flex-wrap:wrap;align-items:center;border-bottom:var(--bw) solid var(--border)}}
.layout-mobile .ce-list td{{border:0}}
.layout-mobile .ce-list td.name{{flex:1 1 8em}}
.ce-list .button,.ce-list button{{padding:calc(var(--gap)*.35) calc(var(--gap)*.8);font-size:.85em}}
.ce-editor{{direction:ltr;display:flex;border:var(--bw) solid var(--border);border-radius:var(--radius);overflow:hidden;
 background:var(--surface);font-family:{MONO};font-size:.9em}}
.ce-gutter{{flex:none;contain:size;overflow:hidden;margin:0;padding:var(--gap) .6em var(--gap) .4em;text-align:end;
 color:var(--muted);background:var(--background);border-inline-end:var(--bw) solid var(--border);user-select:none;
 font:inherit;line-height:1.5}}
.ce-editor textarea{{flex:1 1 auto;min-width:0;width:auto;border:0;border-radius:0;margin:0;padding:var(--gap);
 font:inherit;line-height:1.5;background:var(--surface);color:var(--text);resize:vertical;field-sizing:content;
 overflow:auto}}
.ce-editor textarea.nowrap{{white-space:pre;overflow-wrap:normal}}
.ce-editor textarea:focus{{outline:2px solid var(--primary);outline-offset:-2px}}
.ce-status{{display:flex;gap:var(--pad);flex-wrap:wrap;color:var(--muted);font-size:.85em;margin-top:calc(var(--gap)/2)}}
.ce-savebar{{display:flex;gap:var(--gap);align-items:center;flex-wrap:wrap;margin-top:var(--gap)}}
.ce-readme pre{{direction:ltr;text-align:left;white-space:pre-wrap;overflow-wrap:break-word;font-family:{MONO};font-size:.88em;margin:0}}
.ce-form label{{margin-top:var(--gap)}}
.ce-form .hint{{font-size:.85em;color:var(--muted);margin:2px 0 0 0}}
.ce-form input[type=text],.ce-form select{{width:100%;max-width:32em}}
.ce-form .buttons{{display:flex;gap:var(--gap);margin-top:var(--pad);flex-wrap:wrap}}
.ce-flash{{background:var(--success);color:#fff;padding:calc(var(--gap)*.6) var(--pad);border-radius:var(--radius);
 margin-bottom:var(--gap)}}
.ce-error{{background:var(--danger);color:#fff;padding:calc(var(--gap)*.6) var(--pad);border-radius:var(--radius);
 margin:var(--gap) 0}}
.ce-lang{{font-size:.75em}}
"""

_FOLDER_SVG = (
    '<svg class="icon folder-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 6h7l2 2h9v11H3z" '
    'fill="currentColor" fill-opacity=".25" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>'
)
_FILE_SVG = (
    '<svg class="icon file-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 3h8l4 4v14H6zM14 3v4h4" '
    'fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>'
)
_ROOT_SVG = (
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M9 7l-5 5 5 5M15 7l5 5-5 5" '
    'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>'
)


def initial_state(config: dict, rng) -> dict:
    state: dict = {"project": config["project"], "folders": [], "files": {}}
    for folder in config["folders"]:
        folder = folder.strip("/")
        if folder:
            P_.create_folder(state, folder)
    for f in config["files"]:
        P_.create_file(state, f["path"].strip("/"), P_.clean_content(f["content"]))
    return state


def normalise(state: dict) -> dict:
    """Paths compared exactly; contents without trailing white space and with one final newline."""
    return {
        "project": state.get("project", ""),
        "folders": sorted(state["folders"]),
        "files": {p: P_.normalise_content(c) for p, c in sorted(state["files"].items())},
    }


# -- small helpers ----------------------------------------------------------------------------


def _view_url(ctx: AppContext, **query: str) -> str:
    q = {k: v for k, v in query.items() if v not in (None, "")}
    return ctx.url("/" + ("?" + urlencode(q) if q else ""))


def _folder_url(ctx: AppContext, folder: str, **extra: str) -> str:
    return _view_url(ctx, folder=folder, **extra)


def _file_url(ctx: AppContext, path: str, **extra: str) -> str:
    return _view_url(ctx, file=path, **extra)


def _count(ctx: AppContext, key: str, n: int) -> str:
    """``{n} lines`` / ``1 line``: the singular has its own string so that languages can word it."""
    return ctx.t(f"{key}_one") if n == 1 else ctx.t(key, n=n)


def _lines(text: str) -> int:
    return len(text.split("\n")) - (1 if text.endswith("\n") else 0) if text else 0


def _language(ctx: AppContext, path: str) -> str:
    return LANGUAGES.get(P_.extension(path), ctx.t("lang_text"))


def _icon(kind: str) -> NotStr:
    return NotStr(_FOLDER_SVG if kind == "folder" else _FILE_SVG)


def _sorted_entries(ctx: AppContext, folder: str) -> list[tuple[str, str]]:
    folders, files = P_.children(ctx.state, folder)
    entries = [("folder", p) for p in folders] + [("file", p) for p in files]
    if not ctx.config["folders_first"]:
        entries.sort(key=lambda e: (P_.name_of(e[1]).casefold(), P_.name_of(e[1])))
    return entries


def _flash(ctx: AppContext, params: dict):
    key = params.get("msg")
    if key in ("saved", "created_file", "created_folder", "renamed", "deleted"):
        return Div(ctx.t(f"flash_{key}"), cls="ce-flash", role="status", data_testid="code_editor-flash")
    return None


# -- sidebar ----------------------------------------------------------------------------------


def _tree(ctx: AppContext, current: str, context_folder: str, query: str):
    state = ctx.state
    q = query.casefold()
    keep: set[str] | None = None
    if q:
        hits = [p for p in list(state["folders"]) + list(state["files"]) if q in P_.name_of(p).casefold()]
        keep = set(hits)
        for p in hits:
            keep.update(P_.ancestors(p))

    def branch(folder: str):
        items = []
        for kind, p in _sorted_entries(ctx, folder):
            if keep is not None and p not in keep:
                continue
            pid = path_id(p)
            link_q = {"q": query} if query else {}
            if kind == "folder":
                link = A(
                    _icon("folder"),
                    Span(P_.name_of(p), dir="auto"),
                    href=_folder_url(ctx, p, **link_q),
                    cls="folder-link" + (" current" if p == current else ""),
                    aria_current="page" if p == current else None,
                    data_testid=f"code_editor-folder-{pid}",
                )
                sub = branch(p)
                items.append(Li(link, sub) if sub is not None else Li(link))
            else:
                items.append(
                    Li(
                        A(
                            _icon("file"),
                            Span(P_.name_of(p), dir="auto"),
                            href=_file_url(ctx, p, **link_q),
                            cls="file-link" + (" current" if p == current else ""),
                            aria_current="page" if p == current else None,
                            data_testid=f"code_editor-file-{pid}",
                        )
                    )
                )
        return Ul(*items) if items else None

    root_link = A(
        NotStr(_ROOT_SVG),
        Span(state["project"]),
        href=_folder_url(ctx, "", q=query) if query else ctx.url("/"),
        cls="folder-link" + (" current" if current == "" else ""),
        data_testid="code_editor-root",
    )
    sub = branch("")
    body = [Ul(Li(root_link, sub) if sub is not None else Li(root_link))]
    if keep is not None and not keep:
        body.append(P(ctx.t("no_matches", q=query), cls="muted small", data_testid="code_editor-no-matches"))
    new_q = {"parent": context_folder} if context_folder else {}
    return Div(
        Div(
            A(
                ctx.t("new_file"),
                href=ctx.url("/new?" + urlencode({"kind": "file", **new_q})),
                cls="button",
                data_testid="code_editor-new-file",
            ),
            A(
                ctx.t("new_folder"),
                href=ctx.url("/new?" + urlencode({"kind": "folder", **new_q})),
                cls="button secondary",
                data_testid="code_editor-new-folder",
            ),
            cls="toolbar",
        ),
        H2(ctx.t("explorer")),
        Form(
            Input(
                type="search",
                name="q",
                value=query,
                placeholder=ctx.t("filter_placeholder"),
                aria_label=ctx.t("filter_placeholder"),
                data_testid="code_editor-filter",
                autocomplete="off",
            ),
            Button(ctx.t("filter_button"), type="submit", cls="secondary", data_testid="code_editor-filter-submit"),
            A(ctx.t("clear_filter"), href=ctx.url("/"), data_testid="code_editor-filter-clear") if query else None,
            method="get",
            action=ctx.url("/"),
            cls="ce-filter",
            role="search",
        ),
        Div(*body, cls="ce-tree", role="navigation", aria_label=ctx.t("tree_label"), data_testid="code_editor-tree"),
        cls="card ce-side",
    )


def _layout(ctx: AppContext, params: dict, main, current: str = "", context_folder: str = ""):
    query = str(params.get("q", "")).strip()
    return ctx.page(
        Div(
            _tree(ctx, current, context_folder, query),
            Div(_flash(ctx, params), *main, cls="ce-main"),
            cls="ce-layout",
        ),
        title=ctx.config["title"],
    )


def _crumbs(ctx: AppContext, path: str):
    parts = [
        A(ctx.state["project"], href=ctx.url("/"), data_testid="code_editor-crumb-root"),
    ]
    for folder in P_.ancestors(path) + ([path] if path else []):
        parts.append(Span("/", aria_hidden="true"))
        if folder == path:
            parts.append(Span(P_.name_of(folder), aria_current="page"))
        else:
            parts.append(
                A(P_.name_of(folder), href=_folder_url(ctx, folder), data_testid=f"code_editor-crumb-{path_id(folder)}")
            )
    return Div(*parts, cls="ce-crumbs", role="navigation", aria_label=ctx.t("breadcrumb_label"))


def _delete_file_form(ctx: AppContext, path: str):
    return Form(
        Input(type="hidden", name="path", value=path),
        Button(
            ctx.t("delete"),
            type="submit",
            cls="danger",
            aria_label=f"{ctx.t('delete')}: {P_.name_of(path)}",
            data_testid=f"code_editor-delete-{path_id(path)}",
        ),
        method="post",
        action=ctx.url("/delete-file"),
    )


def _rename_link(ctx: AppContext, path: str):
    return A(
        ctx.t("rename"),
        href=ctx.url("/rename?" + urlencode({"path": path})),
        cls="button secondary",
        aria_label=f"{ctx.t('rename')}: {P_.name_of(path)}",
        data_testid=f"code_editor-rename-{path_id(path)}",
    )


def _delete_folder_link(ctx: AppContext, path: str):
    return A(
        ctx.t("delete"),
        href=ctx.url("/delete?" + urlencode({"path": path})),
        cls="button danger",
        aria_label=f"{ctx.t('delete')}: {P_.name_of(path)}",
        data_testid=f"code_editor-delete-{path_id(path)}",
    )


def _not_found(ctx: AppContext, params: dict, path: str):
    return _layout(
        ctx,
        params,
        [
            Div(
                P(ctx.t("not_found", path=path), data_testid="code_editor-not-found"),
                A(ctx.t("back_to_project"), href=ctx.url("/"), data_testid="code_editor-back"),
                cls="card",
            )
        ],
    )


# -- views ------------------------------------------------------------------------------------


def _folder_view(ctx: AppContext, params: dict, folder: str):
    state = ctx.state
    entries = _sorted_entries(ctx, folder)
    rows = []
    for kind, p in entries:
        pid = path_id(p)
        if kind == "folder":
            sub_folders, sub_files = P_.children(state, p)
            size = _count(ctx, "items", len(sub_folders) + len(sub_files))
            href = _folder_url(ctx, p)
            actions = [_rename_link(ctx, p), _delete_folder_link(ctx, p)]
        else:
            size = _count(ctx, "lines", _lines(state["files"][p]))
            href = _file_url(ctx, p)
            actions = [_rename_link(ctx, p), _delete_file_form(ctx, p)]
        rows.append(
            Tr(
                Td(
                    A(_icon(kind), Span(P_.name_of(p), dir="auto"), href=href, data_testid=f"code_editor-open-{pid}"),
                    cls="name",
                ),
                Td(ctx.t(f"kind_{kind}"), cls="muted small kind"),
                Td(size, cls="muted small size"),
                Td(*actions, cls="actions"),
                data_testid=f"code_editor-row-{pid}",
            )
        )
    title = state["project"] if folder == "" else P_.name_of(folder)
    new_q = {"parent": folder} if folder else {}
    head_actions = [
        A(
            ctx.t("new_file_here"),
            href=ctx.url("/new?" + urlencode({"kind": "file", **new_q})),
            cls="button secondary",
            data_testid="code_editor-new-file-here",
        ),
        A(
            ctx.t("new_folder_here"),
            href=ctx.url("/new?" + urlencode({"kind": "folder", **new_q})),
            cls="button secondary",
            data_testid="code_editor-new-folder-here",
        ),
    ]
    if folder:
        head_actions += [_rename_link(ctx, folder), _delete_folder_link(ctx, folder)]
    listing = (
        Table(
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
        if rows
        else P(
            ctx.t("empty_project") if folder == "" else ctx.t("empty_folder"),
            cls="muted",
            data_testid="code_editor-empty",
        )
    )
    readme = None
    readme_path = P_.join(folder, "README.md")
    if ctx.config["show_readme"] and readme_path in state["files"]:
        readme = Div(
            Div(
                _icon("file"),
                A(
                    "README.md",
                    href=_file_url(ctx, readme_path),
                    data_testid="code_editor-readme-open",
                ),
                cls="row",
                style="gap:.35em;margin-bottom:var(--gap)",
            ),
            Pre(state["files"][readme_path], data_testid="code_editor-readme"),
            cls="card ce-readme",
        )
    return _layout(
        ctx,
        params,
        [
            Div(
                _crumbs(ctx, folder),
                Div(
                    H1(title, data_testid="code_editor-title"),
                    Div(*head_actions, cls="actions"),
                    cls="ce-head",
                ),
                listing,
                cls="card",
            ),
            readme,
        ],
        current=folder,
        context_folder=folder,
    )


def _file_view(ctx: AppContext, params: dict, path: str):
    content = ctx.state["files"][path]
    n = _lines(content)
    pid = path_id(path)
    wrap = ctx.config["wrap_lines"]
    gutter = None
    shown_lines = max(n + 1, ctx.config["min_editor_lines"])
    if ctx.config["show_line_numbers"] and not wrap:
        total = shown_lines + 120
        digits = len(str(total))
        gutter = Pre(
            "\n".join(str(i) for i in range(1, total + 1)),
            cls="ce-gutter",
            aria_hidden="true",
            style=f"width:calc({digits}ch + 1em)",
        )
    editor = Textarea(
        # The HTML parser drops one newline right after <textarea>: lead with one so that a
        # file starting with an empty line keeps it.
        "\n" + content,
        name="content",
        rows=str(shown_lines),
        wrap="soft" if wrap else "off",
        spellcheck="false",
        autocomplete="off",
        aria_label=ctx.t("editor_label", name=P_.name_of(path)),
        cls="" if wrap else "nowrap",
        style=f"tab-size:{ctx.config['tab_size']};min-height:calc({shown_lines} * 1.5em + 2 * var(--gap))",
        data_testid="code_editor-editor",
    )
    return _layout(
        ctx,
        params,
        [
            Div(
                _crumbs(ctx, path),
                Div(
                    H1(P_.name_of(path), data_testid="code_editor-title"),
                    Span(_language(ctx, path), cls="badge ce-lang", data_testid="code_editor-language"),
                    Div(_rename_link(ctx, path), _delete_file_form(ctx, path), cls="actions"),
                    cls="ce-head",
                ),
                Form(
                    Input(type="hidden", name="path", value=path),
                    Div(gutter, editor, cls="ce-editor"),
                    Div(
                        Span(_count(ctx, "lines", n)),
                        Span(ctx.t("chars", n=len(content))),
                        Span(_language(ctx, path)),
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
        context_folder=P_.parent_of(path),
    )


def _parent_select(ctx: AppContext, selected: str, exclude: str | None = None):
    """A select of every folder; values are paths (the root is ``/``), labels start with ``/``."""
    options = [Option(f"/ {ctx.t('root_label')}", value="/", selected=selected == "")]
    for folder in sorted(ctx.state["folders"]):
        if exclude is not None and P_.is_inside(folder, exclude):
            continue
        options.append(Option(f"/{folder}", value=folder, selected=folder == selected))
    return Select(
        *options,
        name="parent",
        id="ce-parent",
        data_testid="code_editor-field-parent",
    )


def _parent_param(params: dict) -> str:
    return str(params.get("parent", "") or "").strip().strip("/")


def _form_page(ctx: AppContext, params: dict, title: str, fields: list, action: str, submit, cancel_href: str):
    return _layout(
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


def _new_form(ctx: AppContext, params: dict, kind: str, parent: str, name: str = "", error: str | None = None):
    hint = ctx.t("name_hint_file") if kind == "file" else ctx.t("name_hint_folder")
    fields = [
        Input(type="hidden", name="kind", value=kind),
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
        P(hint, cls="hint"),
        Label(ctx.t("field_parent"), fr="ce-parent"),
        _parent_select(ctx, parent),
        Div(error, cls="ce-error", role="alert", data_testid="code_editor-error") if error else None,
    ]
    title = ctx.t("create_file_title") if kind == "file" else ctx.t("create_folder_title")
    submit = Button(ctx.t("create"), type="submit", data_testid="code_editor-create")
    return _form_page(ctx, params, title, fields, "/create", submit, _folder_url(ctx, parent))


def _rename_form(ctx: AppContext, params: dict, path: str, name: str, parent: str, error: str | None = None):
    is_dir = path in ctx.state["folders"]
    fields = [
        Input(type="hidden", name="path", value=path),
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
        Label(ctx.t("field_parent"), fr="ce-parent"),
        _parent_select(ctx, parent, exclude=path if is_dir else None),
        Div(error, cls="ce-error", role="alert", data_testid="code_editor-error") if error else None,
    ]
    submit = Button(ctx.t("rename_button"), type="submit", data_testid="code_editor-confirm-rename")
    back = _folder_url(ctx, path) if is_dir else _file_url(ctx, path)
    return _form_page(ctx, params, ctx.t("rename_title", name=P_.name_of(path)), fields, "/rename", submit, back)


# -- routes -----------------------------------------------------------------------------------


def routes(r: AppRoutes) -> None:
    @r.get("/")
    def index(ctx: AppContext, params: dict):
        file = params.get("file")
        if file is not None:
            file = str(file)
            if file in ctx.state["files"]:
                return _file_view(ctx, params, file)
            return _not_found(ctx, params, file)
        folder = str(params.get("folder", "") or "").strip("/")
        if folder and folder not in ctx.state["folders"]:
            return _not_found(ctx, params, folder)
        return _folder_view(ctx, params, folder)

    @r.post("/save")
    def save(ctx: AppContext, params: dict):
        path = str(params.get("path", ""))
        if path not in ctx.state["files"]:
            return _not_found(ctx, params, path)
        content = P_.clean_content(params.get("content", ""))
        if content != ctx.state["files"][path]:
            P_.save_file(ctx.state, path, content)
            ctx.log("save", path=path, lines=_lines(content), chars=len(content))
        return ctx.redirect("/?" + urlencode({"file": path, "msg": "saved"}))

    @r.get("/new")
    def new(ctx: AppContext, params: dict):
        kind = "folder" if params.get("kind") == "folder" else "file"
        parent = _parent_param(params)
        if parent not in ctx.state["folders"]:
            parent = ""
        return _new_form(ctx, params, kind, parent)

    @r.post("/create")
    def create(ctx: AppContext, params: dict):
        kind = "folder" if params.get("kind") == "folder" else "file"
        name = str(params.get("name", "")).strip()
        parent = _parent_param(params)
        problem = P_.name_problem(name)
        error = None
        if problem:
            error = ctx.t(problem)
        elif not P_.is_folder(ctx.state, parent):
            error = ctx.t("error_parent")
        elif P_.exists(ctx.state, P_.join(parent, name)):
            error = ctx.t("error_exists", name=name)
        if error:
            return _new_form(ctx, params, kind, parent if P_.is_folder(ctx.state, parent) else "", name, error)
        path = P_.join(parent, name)
        if kind == "file":
            P_.create_file(ctx.state, path)
            ctx.log("create_file", path=path)
            return ctx.redirect("/?" + urlencode({"file": path, "msg": "created_file"}))
        P_.create_folder(ctx.state, path)
        ctx.log("create_folder", path=path)
        return ctx.redirect("/?" + urlencode({"folder": path, "msg": "created_folder"}))

    @r.get("/rename")
    def rename_page(ctx: AppContext, params: dict):
        path = str(params.get("path", ""))
        if not path or not P_.exists(ctx.state, path):
            return _not_found(ctx, params, path)
        return _rename_form(ctx, params, path, P_.name_of(path), P_.parent_of(path))

    @r.post("/rename")
    def rename(ctx: AppContext, params: dict):
        path = str(params.get("path", ""))
        if not path or not P_.exists(ctx.state, path):
            return _not_found(ctx, params, path)
        name = str(params.get("name", "")).strip()
        parent = _parent_param(params)
        is_dir = path in ctx.state["folders"]
        new_path = P_.join(parent, name)
        problem = P_.name_problem(name)
        error = None
        if problem:
            error = ctx.t(problem)
        elif not P_.is_folder(ctx.state, parent):
            error = ctx.t("error_parent")
        elif is_dir and P_.is_inside(parent, path) and parent != "":
            error = ctx.t("error_into_itself")
        elif new_path != path and P_.exists(ctx.state, new_path):
            error = ctx.t("error_exists", name=name)
        if error:
            keep_parent = parent if P_.is_folder(ctx.state, parent) else P_.parent_of(path)
            return _rename_form(ctx, params, path, name, keep_parent, error)
        key = "folder" if is_dir else "file"
        if new_path == path:
            return ctx.redirect("/?" + urlencode({key: path}))
        P_.move(ctx.state, path, new_path)
        ctx.log("rename", kind=key, old=path, new=new_path)
        return ctx.redirect("/?" + urlencode({key: new_path, "msg": "renamed"}))

    @r.post("/delete-file")
    def delete_file(ctx: AppContext, params: dict):
        path = str(params.get("path", ""))
        if path in ctx.state["files"]:
            P_.delete_file(ctx.state, path)
            ctx.log("delete_file", path=path)
        parent = P_.parent_of(path)
        if parent and parent not in ctx.state["folders"]:
            parent = ""
        return ctx.redirect("/?" + urlencode({"folder": parent, "msg": "deleted"} if parent else {"msg": "deleted"}))

    @r.get("/delete")
    def delete_page(ctx: AppContext, params: dict):
        path = str(params.get("path", "")).strip("/")
        if not path or path not in ctx.state["folders"]:
            return _not_found(ctx, params, path)
        sub_folders, sub_files = P_.subtree(ctx.state, path)
        return _layout(
            ctx,
            params,
            [
                Div(
                    H1(
                        ctx.t("delete_folder_title", name=P_.name_of(path)),
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
                                href=_folder_url(ctx, path),
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
            context_folder=P_.parent_of(path),
        )

    @r.post("/delete-folder")
    def delete_folder(ctx: AppContext, params: dict):
        path = str(params.get("path", "")).strip("/")
        if path and path in ctx.state["folders"]:
            folders, files = P_.delete_folder(ctx.state, path)
            ctx.log("delete_folder", path=path, folders=folders, files=files)
        parent = P_.parent_of(path)
        return ctx.redirect("/?" + urlencode({"folder": parent, "msg": "deleted"} if parent else {"msg": "deleted"}))


APP = AppSpec(
    name="code_editor",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes=routes,
    normalise=normalise,
    order=60,
    css=CSS,
    item_keys={"files": ItemKey((), "file"), "folders": ItemKey((), "folder")},
)
