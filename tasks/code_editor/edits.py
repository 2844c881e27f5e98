"""Code editor task families: create, edit, rename and delete files and folders.

Expected states are computed with the same path operations the app's handlers use
(``openapps_sim.apps.code_editor.model``), so the two cannot drift apart.
"""

from __future__ import annotations

import re

from openapps_sim.apps.code_editor import model as P
from openapps_sim.apps.code_editor.model import path_id

from openapps_sim.taskkit import Infeasible, TaskFamily, family, pick
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.progress import Op

APP = "code_editor"

NEW_FILE_NAMES = [
    "helpers.py",
    "constants.py",
    "cache.py",
    "validators.py",
    "errors.py",
    "notes.md",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "settings.json",
    "logging.yaml",
    "router.js",
    "store.js",
    "theme.css",
    "test_cache.py",
]

NEW_FOLDER_NAMES = [
    "fixtures",
    "helpers",
    "legacy",
    "examples",
    "assets",
    "components",
    "migrations",
    "snippets",
    "templates",
    "drafts",
    "archive",
    "vendor",
]

RENAME_TARGETS = {
    "py": ["core.py", "common.py", "shared.py", "legacy.py", "misc.py"],
    "js": ["client.js", "index.js", "bootstrap.js", "widgets.js"],
    "md": ["OVERVIEW.md", "guide.md", "HISTORY.md", "notes.md"],
    "json": ["manifest.json", "settings.json", "sample.json"],
    "yaml": ["settings.yaml", "defaults.yaml"],
    "yml": ["pipeline.yml", "checks.yml"],
    "toml": ["project.toml", "setup.toml"],
    "css": ["theme.css", "layout.css"],
    "html": ["home.html", "search.html"],
    "sql": ["setup.sql", "schema_v2.sql"],
    "sh": ["nightly.sh", "run.sh"],
    "svg": ["icon.svg", "brand.svg"],
    "conf": ["site.conf", "proxy.conf"],
}

APPEND_BY_NAME = {".gitignore": ["*.log", "coverage/"]}

# Identifier renames for "replace every occurrence" goals (old -> new).
REPLACEMENTS = [
    ("timeout", "deadline"),
    ("servings", "portions"),
    ("limit", "max_results"),
    ("query", "search_text"),
    ("slugify", "make_slug"),
    ("rating", "score"),
    ("minutes", "duration"),
    ("fuzzy", "approximate"),
    ("backup_every", "backup_interval"),
    ("shorten", "truncate"),
]

_WORD = "A-Za-z0-9_"


def ce_state(state: dict) -> dict:
    return state[APP]


def _whole_word_count(text: str, word: str) -> int:
    return len(re.findall(rf"(?<![{_WORD}]){re.escape(word)}(?![{_WORD}])", text))


def _append_line(content: str, line: str) -> str:
    return content.rstrip("\n") + "\n" + line + "\n" if content.strip() else line + "\n"


def appendable_lines(path: str, text: str, by_extension: dict) -> list[str]:
    """The lines (``code_editor.append_lines`` of the file's extension, or its name's own) that
    may be appended to a file with content ``text``: none that it holds already, none to an
    empty or untidy file (ending in a blank line, CRLF)."""
    if not text.strip() or text.endswith("\n\n") or text != P.clean_content(text):
        return []
    lines = APPEND_BY_NAME.get(P.name_of(path)) or by_extension.get(P.extension(path), [])
    return [line for line in lines if line not in text]


def append_lines(content: str, lines: list[str]) -> str:
    """``content`` with ``lines`` appended, one after the other."""
    for line in lines:
        content = _append_line(content, line)
    return content


def _folders(state: dict) -> list[str]:
    return sorted(ce_state(state)["folders"])


def file_paths(state: dict) -> list[str]:
    return sorted(ce_state(state)["files"])


def open_code_editor(ui):
    yield from ui.open_app(APP)


@family("code_editor.create_file", apps=APP, max_steps=10)
class CreateFile(TaskFamily):
    """Create a new, empty file with a given name (including its extension) in a given folder."""

    kind = "file"  # what is created; the folder it goes in is the parameter named ``parent_key``
    names = NEW_FILE_NAMES
    parent_key = "folder"

    def sample(self, state, config, rng):
        ce = ce_state(state)
        options = [(f, n) for f in _folders(state) for n in self.names if not P.exists(ce, P.join(f, n))]
        what = "folder and new file name" if self.kind == "file" else "parent folder and new folder name"
        parent, name = pick(rng, options, what)
        return {self.parent_key: parent, "name": name, "path": P.join(parent, name)}

    def plan(self, params, initial):
        return [Op.of(APP, f"create_{self.kind}", path=params["path"])]

    def solve(self, params, ui):
        yield from open_code_editor(ui)
        yield ui.click(f"code_editor-new-{self.kind}")
        yield ui.fill("code_editor-field-name", params["name"])
        yield ui.select("code_editor-field-parent", params[self.parent_key])
        yield ui.click("code_editor-create")


@family("code_editor.create_folder")
class CreateFolder(CreateFile):
    """Create a new, empty folder with a given name inside a given folder."""

    kind = "folder"
    names = NEW_FOLDER_NAMES
    parent_key = "parent"


@family("code_editor.edit_file", apps=APP, max_steps=10)
class EditFile(TaskFamily):
    """Edit a file in the browser and save it: either add a given line at its end, or replace every
    occurrence of a given word with another.

    The seed chooses the kind of edit."""

    def _replace_options(self, files: dict) -> list[tuple[str, str, str]]:
        out = []
        for path in sorted(files):
            text = files[path]
            for old, new in REPLACEMENTS:
                n = text.count(old)
                if n and n == _whole_word_count(text, old) and new not in text:
                    out.append((path, old, new))
        return out

    def _append_options(self, files: dict, by_extension: dict) -> list[tuple[str, str]]:
        return [(path, line) for path in sorted(files) for line in appendable_lines(path, files[path], by_extension)]

    def sample(self, state, config, rng):
        files = ce_state(state)["files"]
        replace = self._replace_options(files)
        append = self._append_options(files, words(config, "code_editor.append_lines"))
        mode = "replace" if rng.random() < 0.5 else "append"
        if mode == "replace" and not replace:
            mode = "append"
        if mode == "append" and not append:
            mode = "replace"
        if mode == "replace":
            path, old, new = pick(rng, replace, "word to replace")
            content = files[path].replace(old, new)
            return {"mode": mode, "path": path, "old": old, "new": new, "new_content": content}
        path, line = pick(rng, append, "file and line to append")
        return {"mode": mode, "path": path, "line": line, "new_content": _append_line(files[path], line)}

    def phrasing_id(self, params: dict) -> str:
        return f"{self.id}.replace" if params.get("mode") == "replace" else self.id

    def plan(self, params, initial):
        return [Op.of(APP, "save_file", path=params["path"], content=params["new_content"])]

    def solve(self, params, ui):
        yield from open_code_editor(ui)
        yield ui.click(f"code_editor-file-{path_id(params['path'])}")
        yield ui.fill("code_editor-editor", params["new_content"])
        yield ui.click("code_editor-save")


@family("code_editor.remove_folder", apps=APP, max_steps=10)
class RemoveFolder(TaskFamily):
    """Delete a given folder together with everything inside it."""

    def sample(self, state, config, rng):
        ce = ce_state(state)
        folders = _folders(state)
        with_files = [f for f in folders if P.subtree(ce, f)[1]]
        path = pick(rng, with_files or folders, "folder to delete")
        # A seeded start state: sometimes a new file was just added to the folder.
        names = [n for n in NEW_FILE_NAMES if not P.exists(ce, P.join(path, n))]
        extra = P.join(path, rng.choice(names)) if names and rng.random() < 0.8 else ""
        if extra:
            P.create_file(ce, extra, "")
        sub_folders, sub_files = P.subtree(ce, path)
        return {"path": path, "extra_file": extra, "files": len(sub_files), "folders": len(sub_folders)}

    def prepare(self, state, params):
        if params.get("extra_file"):
            P.create_file(ce_state(state), params["extra_file"], "")

    def plan(self, params, initial):
        return [Op.of(APP, "delete_folder", path=params["path"])]

    def solve(self, params, ui):
        pid = path_id(params["path"])
        yield from open_code_editor(ui)
        yield ui.click(f"code_editor-folder-{pid}")
        yield ui.click(f"code_editor-delete-{pid}")
        yield ui.click("code_editor-confirm-delete")


@family("code_editor.remove_all", apps=APP, max_steps=45)
class RemoveAll(TaskFamily):
    """Delete every file and folder of the project, leaving it completely empty."""

    def sample(self, state, config, rng):
        ce = ce_state(state)
        # A seeded start state: some files were already deleted (never all of them).
        all_files = sorted(ce["files"])
        removed = [f for f in all_files if rng.random() < 0.4][: max(len(all_files) - 1, 0)]
        for path in removed:
            P.delete_file(ce, path)
        folders, files = P.children(ce, "")
        if not folders and not files:
            raise Infeasible("the project is already empty")
        entries = [{"kind": "folder", "path": p} for p in folders] + [{"kind": "file", "path": p} for p in files]
        count = len(ce["files"]) + len(ce["folders"])
        return {"project": ce["project"], "removed": removed, "entries": entries, "count": count}

    def prepare(self, state, params):
        for path in params.get("removed", []):
            P.delete_file(ce_state(state), path)

    def plan(self, params, initial):
        return [Op.of(APP, f"delete_{e['kind']}", path=e["path"]) for e in params["entries"]]

    def solve(self, params, ui):
        yield from open_code_editor(ui)
        for entry in params["entries"]:
            yield ui.click(f"code_editor-delete-{path_id(entry['path'])}")
            if entry["kind"] == "folder":
                yield ui.click("code_editor-confirm-delete")


@family("code_editor.rename_file", apps=APP, max_steps=10)
class RenameFile(TaskFamily):
    """Rename a given file to a given new name, keeping it in the same folder."""

    def sample(self, state, config, rng):
        ce = ce_state(state)
        options = []
        for path in file_paths(state):
            folder, name = P.parent_of(path), P.name_of(path)
            targets = RENAME_TARGETS.get(P.extension(path), [])
            options += [(path, t) for t in targets if t != name and not P.exists(ce, P.join(folder, t))]
        path, new_name = pick(rng, options, "file and new name")
        return {
            "path": path,
            "name": P.name_of(path),
            "folder": P.parent_of(path),
            "new_name": new_name,
            "new_path": P.join(P.parent_of(path), new_name),
        }

    def plan(self, params, initial):
        return [Op.of(APP, "rename", path=params["path"], new_path=params["new_path"])]

    def solve(self, params, ui):
        pid = path_id(params["path"])
        yield from open_code_editor(ui)
        yield ui.click(f"code_editor-file-{pid}")
        yield ui.click(f"code_editor-rename-{pid}")
        yield ui.fill("code_editor-field-name", params["new_name"])
        yield ui.click("code_editor-confirm-rename")
