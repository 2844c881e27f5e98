"""Code editor task families: create, edit, rename and delete files and folders.

Expected states are computed with the same path operations the app's handlers use
(``openapps_sim.apps.code_editor.model``), so the two cannot drift apart.
"""

from __future__ import annotations

import re

from openapps_sim.apps.code_editor import model as P
from openapps_sim.apps.code_editor.model import path_id

from openapps_sim.taskkit import ENGLISH_STYLES, Infeasible, TaskFamily, family, pick

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

APPEND_LINES = {
    "py": ["# TODO: add type hints to the remaining helpers", "# Reviewed for the 0.5 release"],
    "js": ["// TODO: show a spinner while loading", "// Reviewed for the 0.5 release"],
    "md": ["Last reviewed for the 0.5 release.", "Questions? Ask in the #recipe-box channel."],
    "yaml": ["# Reviewed for the 0.5 release"],
    "yml": ["# Reviewed for the 0.5 release"],
    "toml": ["# Reviewed for the 0.5 release"],
    "css": ["/* Reviewed for the 0.5 release */"],
    "html": ["<!-- Reviewed for the 0.5 release -->"],
    "sql": ["-- Reviewed for the 0.5 release"],
    "sh": ["# Reviewed for the 0.5 release"],
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


def _ce(state: dict) -> dict:
    return state[APP]


def _whole_word_count(text: str, word: str) -> int:
    return len(re.findall(rf"(?<![{_WORD}]){re.escape(word)}(?![{_WORD}])", text))


def _append_line(content: str, line: str) -> str:
    return content.rstrip("\n") + "\n" + line + "\n" if content.strip() else line + "\n"


def _folders(state: dict) -> list[str]:
    return sorted(_ce(state)["folders"])


def _files(state: dict) -> list[str]:
    return sorted(_ce(state)["files"])


def _open_app(ui):
    yield from ui.open_app(APP)


@family
class CreateFile(TaskFamily):
    id = "code_editor.create_file"
    apps = (APP,)
    max_steps = 10
    description = "Create a new, empty file with a given name (including its extension) in a given folder."
    phrasings = {
        "plain": [
            "Create a new file named '{name}' in the folder '{folder}'.",
            "In the code editor, add an empty file '{name}' inside '{folder}'.",
            "Make a file called '{name}' in the '{folder}' folder of the project.",
        ],
        "casual": [
            "can you make a new file '{name}' in {folder}? just empty is fine",
            "pls add '{name}' under '{folder}' in my project",
            "Quick one: I need an empty '{name}' in the '{folder}' folder.",
        ],
        "context": [
            "I'm about to start refactoring and want a place for it. Create the file '{name}' in '{folder}'.",
            "My laptop fan is screaming again, ugh. Anyway, please create a file '{name}' in the folder '{folder}'.",
            "We discussed this in stand-up this morning: there should be a file '{name}' in '{folder}'. Please create it.",
        ],
        "de": [
            "Erstelle im Ordner '{folder}' eine neue Datei namens '{name}'.",
            "Lege im Code-Editor eine leere Datei '{name}' in '{folder}' an.",
            "Kannst du im Ordner '{folder}' die Datei '{name}' anlegen?",
        ],
        "fr": [
            "Crée un nouveau fichier nommé '{name}' dans le dossier '{folder}'.",
            "Dans l'éditeur de code, ajoute un fichier vide '{name}' dans '{folder}'.",
            "Peux-tu créer le fichier '{name}' dans le dossier '{folder}' ?",
        ],
    }

    def sample(self, state, config, rng):
        ce = _ce(state)
        options = [(f, n) for f in _folders(state) for n in NEW_FILE_NAMES if not P.exists(ce, P.join(f, n))]
        folder, name = pick(rng, options, "folder and new file name")
        return {"folder": folder, "name": name, "path": P.join(folder, name)}

    def apply(self, state, params):
        P.create_file(_ce(state), params["path"])

    def solve(self, params, ui):
        yield from _open_app(ui)
        yield ui.click("code_editor-new-file")
        yield ui.fill("code_editor-field-name", params["name"])
        yield ui.select("code_editor-field-parent", params["folder"])
        yield ui.click("code_editor-create")


@family
class CreateFolder(TaskFamily):
    id = "code_editor.create_folder"
    apps = (APP,)
    max_steps = 10
    description = "Create a new, empty folder with a given name inside a given folder."
    phrasings = {
        "plain": [
            "Create a new folder named '{name}' inside '{parent}'.",
            "In the code editor, add a folder '{name}' in the folder '{parent}'.",
            "Make an empty folder called '{name}' under '{parent}'.",
        ],
        "casual": [
            "can you add a '{name}' folder in {parent}?",
            "need a new folder '{name}' inside '{parent}' pls",
            "Hey, make me a folder called '{name}' under '{parent}', thanks!",
        ],
        "context": [
            "We're reorganising the project next sprint. To prepare, create a folder '{name}' inside '{parent}'.",
            "The coffee machine is broken again, what a Monday. Please create the folder '{name}' in '{parent}'.",
            "My colleague asked where to put her new files. Create a folder '{name}' inside '{parent}' for her.",
        ],
        "de": [
            "Erstelle in '{parent}' einen neuen Ordner namens '{name}'.",
            "Lege im Code-Editor den Ordner '{name}' im Ordner '{parent}' an.",
            "Kannst du unter '{parent}' einen leeren Ordner '{name}' anlegen?",
        ],
        "fr": [
            "Crée un nouveau dossier nommé '{name}' dans '{parent}'.",
            "Dans l'éditeur de code, ajoute un dossier '{name}' dans le dossier '{parent}'.",
            "Peux-tu créer un dossier vide '{name}' sous '{parent}' ?",
        ],
    }

    def sample(self, state, config, rng):
        ce = _ce(state)
        options = [(f, n) for f in _folders(state) for n in NEW_FOLDER_NAMES if not P.exists(ce, P.join(f, n))]
        parent, name = pick(rng, options, "parent folder and new folder name")
        return {"parent": parent, "name": name, "path": P.join(parent, name)}

    def apply(self, state, params):
        P.create_folder(_ce(state), params["path"])

    def solve(self, params, ui):
        yield from _open_app(ui)
        yield ui.click("code_editor-new-folder")
        yield ui.fill("code_editor-field-name", params["name"])
        yield ui.select("code_editor-field-parent", params["parent"])
        yield ui.click("code_editor-create")


@family
class EditFile(TaskFamily):
    """Two kinds of edit, chosen by the seed: append a line, or replace every occurrence of a word."""

    id = "code_editor.edit_file"
    apps = (APP,)
    max_steps = 10
    description = (
        "Edit a file in the browser and save it: either add a given line at its end, or replace every "
        "occurrence of a given word with another."
    )
    phrasings = {
        "plain": [
            "Add the line '{line}' at the end of the file '{path}' and save it.",
            "Open '{path}', append the line '{line}' as its last line, and save the file.",
            "In the code editor, put '{line}' on a new line at the very end of '{path}' and save.",
        ],
        "casual": [
            "can you tack '{line}' onto the end of {path}? save it too",
            "add '{line}' as the last line of '{path}' pls (and hit save)",
            "Mind appending '{line}' to the bottom of '{path}'? Don't forget to save.",
        ],
        "context": [
            "We're doing a review pass before the release. Add the line '{line}' at the end of '{path}' and save it.",
            "It's my last day before holiday, so let's wrap up: append '{line}' to the end of '{path}' and save.",
            "The linter complained about something unrelated, ignore that. Just add '{line}' as the last line of '{path}' and save.",
        ],
        "de": [
            "Füge am Ende der Datei '{path}' die Zeile '{line}' hinzu und speichere sie.",
            "Öffne '{path}', hänge die Zeile '{line}' als letzte Zeile an und speichere die Datei.",
            "Schreib '{line}' in eine neue letzte Zeile von '{path}' und speichere.",
        ],
        "fr": [
            "Ajoute la ligne '{line}' à la fin du fichier '{path}' et enregistre-le.",
            "Ouvre '{path}', ajoute '{line}' comme dernière ligne et enregistre le fichier.",
            "Mets '{line}' sur une nouvelle ligne tout à la fin de '{path}' puis enregistre.",
        ],
    }
    replace_phrasings = {
        "plain": [
            "In the file '{path}', replace every occurrence of '{old}' with '{new}' and save it.",
            "Open '{path}' and change each '{old}' to '{new}', then save the file.",
            "Rename '{old}' to '{new}' everywhere in '{path}' and save.",
        ],
        "casual": [
            "swap every '{old}' for '{new}' in {path} and save pls",
            "can you change all the '{old}'s in '{path}' to '{new}'? save it after",
            "In '{path}', '{old}' should be '{new}' everywhere. Fix and save?",
        ],
        "context": [
            "The team agreed on new naming yesterday. In '{path}', replace every '{old}' with '{new}' and save it.",
            "My cat just walked over the keyboard, sorry. Anyway: in '{path}', change every '{old}' to '{new}' and save.",
            "Code review feedback came in: '{old}' is a confusing name. Replace it with '{new}' everywhere in '{path}' and save.",
        ],
        "de": [
            "Ersetze in der Datei '{path}' jedes Vorkommen von '{old}' durch '{new}' und speichere sie.",
            "Öffne '{path}', ändere jedes '{old}' in '{new}' und speichere die Datei.",
            "Benenne in '{path}' überall '{old}' in '{new}' um und speichere.",
        ],
        "fr": [
            "Dans le fichier '{path}', remplace chaque occurrence de '{old}' par '{new}' et enregistre-le.",
            "Ouvre '{path}', change chaque '{old}' en '{new}' puis enregistre le fichier.",
            "Renomme '{old}' en '{new}' partout dans '{path}' et enregistre.",
        ],
    }

    def _replace_options(self, files: dict) -> list[tuple[str, str, str]]:
        out = []
        for path in sorted(files):
            text = files[path]
            for old, new in REPLACEMENTS:
                n = text.count(old)
                if n and n == _whole_word_count(text, old) and new not in text:
                    out.append((path, old, new))
        return out

    def _append_options(self, files: dict) -> list[tuple[str, str]]:
        out = []
        for path in sorted(files):
            text = files[path]
            if not text.strip() or text.endswith("\n\n") or text != P.clean_content(text):
                continue
            lines = APPEND_BY_NAME.get(P.name_of(path)) or APPEND_LINES.get(P.extension(path), [])
            out += [(path, line) for line in lines if line not in text]
        return out

    def sample(self, state, config, rng):
        files = _ce(state)["files"]
        replace = self._replace_options(files)
        append = self._append_options(files)
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

    def goal_text(self, params, rng, language="en", style=None):
        table = self.replace_phrasings if params.get("mode") == "replace" else self.phrasings
        if language == "en":
            styles = [s for s in ENGLISH_STYLES if table.get(s)]
            style = style if style in styles else rng.choice(styles)
            templates = table[style]
        else:
            if not table.get(language):
                return super().goal_text(params, rng, language, style)
            style = language
            templates = table[language]
        values = {k: v for k, v in params.items() if isinstance(v, (str, int, float))}
        return rng.choice(templates).format(**values), style

    def apply(self, state, params):
        P.save_file(_ce(state), params["path"], params["new_content"])

    def solve(self, params, ui):
        yield from _open_app(ui)
        yield ui.click(f"code_editor-file-{path_id(params['path'])}")
        yield ui.fill("code_editor-editor", params["new_content"])
        yield ui.click("code_editor-save")


@family
class RemoveFolder(TaskFamily):
    id = "code_editor.remove_folder"
    apps = (APP,)
    max_steps = 10
    description = "Delete a given folder together with everything inside it."
    phrasings = {
        "plain": [
            "Delete the folder '{path}' and everything in it.",
            "Remove the '{path}' folder from the project, including its contents.",
            "In the code editor, delete the folder '{path}' with all its files.",
        ],
        "casual": [
            "nuke the {path} folder pls, contents and all",
            "we don't need '{path}' anymore, can you delete that folder?",
            "Get rid of the folder '{path}' (everything inside can go too).",
        ],
        "context": [
            "That experiment didn't work out, sadly. Delete the folder '{path}' and everything in it.",
            "I'm cleaning up before the demo tomorrow. Please remove the folder '{path}' including its contents.",
            "The rain finally stopped here. Anyway, delete the '{path}' folder and all of its files, please.",
        ],
        "de": [
            "Lösche den Ordner '{path}' samt Inhalt.",
            "Entferne den Ordner '{path}' mit allen Dateien aus dem Projekt.",
            "Kannst du den Ordner '{path}' und alles darin löschen?",
        ],
        "fr": [
            "Supprime le dossier '{path}' et tout son contenu.",
            "Retire le dossier '{path}' du projet, avec tous ses fichiers.",
            "Peux-tu supprimer le dossier '{path}' et tout ce qu'il contient ?",
        ],
    }

    def sample(self, state, config, rng):
        ce = _ce(state)
        folders = _folders(state)
        with_files = [f for f in folders if P.subtree(ce, f)[1]]
        path = pick(rng, with_files or folders, "folder to delete")
        sub_folders, sub_files = P.subtree(ce, path)
        return {"path": path, "files": len(sub_files), "folders": len(sub_folders)}

    def apply(self, state, params):
        P.delete_folder(_ce(state), params["path"])

    def solve(self, params, ui):
        pid = path_id(params["path"])
        yield from _open_app(ui)
        yield ui.click(f"code_editor-folder-{pid}")
        yield ui.click(f"code_editor-delete-{pid}")
        yield ui.click("code_editor-confirm-delete")


@family
class RemoveAll(TaskFamily):
    id = "code_editor.remove_all"
    apps = (APP,)
    max_steps = 45
    description = "Delete every file and folder of the project, leaving it completely empty."
    phrasings = {
        "plain": [
            "Delete every file and folder in the project '{project}'.",
            "Empty the project '{project}' completely: remove all of its files and folders.",
            "In the code editor, delete everything in '{project}' so that no file or folder is left.",
        ],
        "casual": [
            "wipe the whole {project} project pls, every file and folder",
            "can you clear out '{project}' entirely? nothing should be left",
            "Let's start from scratch: delete all files and folders in '{project}'.",
        ],
        "context": [
            "We're rewriting this from scratch in another repository. Delete every file and folder in '{project}'.",
            "I just got back from lunch and made a decision: '{project}' goes. Remove all its files and folders.",
            "Legal says this code can't be kept. Please delete everything in the project '{project}', every file and folder.",
        ],
        "de": [
            "Lösche alle Dateien und Ordner im Projekt '{project}'.",
            "Leere das Projekt '{project}' vollständig: entferne alle Dateien und Ordner.",
            "Kannst du im Projekt '{project}' alles löschen, sodass keine Datei und kein Ordner übrig bleibt?",
        ],
        "fr": [
            "Supprime tous les fichiers et dossiers du projet '{project}'.",
            "Vide complètement le projet '{project}' : retire tous ses fichiers et dossiers.",
            "Peux-tu tout supprimer dans '{project}' pour qu'il ne reste aucun fichier ni dossier ?",
        ],
    }

    def sample(self, state, config, rng):
        ce = _ce(state)
        folders, files = P.children(ce, "")
        if not folders and not files:
            raise Infeasible("the project is already empty")
        entries = [{"kind": "folder", "path": p} for p in folders] + [{"kind": "file", "path": p} for p in files]
        return {"project": ce["project"], "entries": entries, "count": len(ce["files"]) + len(ce["folders"])}

    def apply(self, state, params):
        P.clear_project(_ce(state))

    def solve(self, params, ui):
        yield from _open_app(ui)
        for entry in params["entries"]:
            yield ui.click(f"code_editor-delete-{path_id(entry['path'])}")
            if entry["kind"] == "folder":
                yield ui.click("code_editor-confirm-delete")


@family
class RenameFile(TaskFamily):
    id = "code_editor.rename_file"
    apps = (APP,)
    max_steps = 10
    description = "Rename a given file to a given new name, keeping it in the same folder."
    phrasings = {
        "plain": [
            "Rename the file '{path}' to '{new_name}'.",
            "Change the name of '{path}' to '{new_name}', keeping it in the same folder.",
            "In the code editor, rename '{path}' so that it is called '{new_name}'.",
        ],
        "casual": [
            "can you rename {path} to {new_name}?",
            "'{path}' should be called '{new_name}' - pls rename it",
            "Rename '{path}' -> '{new_name}', same folder. Thanks!",
        ],
        "context": [
            "The old name confused everyone in code review. Rename '{path}' to '{new_name}'.",
            "I'm stuck in a train with bad Wi-Fi, so please do this for me: rename the file '{path}' to '{new_name}'.",
            "We agreed on clearer file names at the retro. Rename '{path}' to '{new_name}' (same folder).",
        ],
        "de": [
            "Benenne die Datei '{path}' in '{new_name}' um.",
            "Ändere den Namen von '{path}' in '{new_name}'; der Ordner bleibt derselbe.",
            "Kannst du '{path}' in '{new_name}' umbenennen?",
        ],
        "fr": [
            "Renomme le fichier '{path}' en '{new_name}'.",
            "Change le nom de '{path}' en '{new_name}', sans le changer de dossier.",
            "Peux-tu renommer '{path}' en '{new_name}' ?",
        ],
    }

    def sample(self, state, config, rng):
        ce = _ce(state)
        options = []
        for path in _files(state):
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

    def apply(self, state, params):
        P.move(_ce(state), params["path"], params["new_path"])

    def solve(self, params, ui):
        pid = path_id(params["path"])
        yield from _open_app(ui)
        yield ui.click(f"code_editor-file-{pid}")
        yield ui.click(f"code_editor-rename-{pid}")
        yield ui.fill("code_editor-field-name", params["new_name"])
        yield ui.click("code_editor-confirm-rename")
