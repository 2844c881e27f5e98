"""Return-value families in the code editor: the line count of a file, and a structured (JSON)
summary of a folder."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

from openapps_sim.apps.code_editor import model as P
from openapps_sim.apps.code_editor.model import path_id
from openapps_sim.tasks.code_editor.edits import NEW_FILE_NAMES, NEW_FOLDER_NAMES, append_lines, appendable_lines

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import AnswerFamily, pack_lang
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_attributes, testid_text_parts
from openapps_sim.taskkit.progress import Milestone


def _file_open(path: str) -> Milestone:
    query = urlencode({"file": path})
    return Milestone(f"file {path} open", lambda state, p, q=query: p.startswith("/code_editor") and q in p)


def line_count(text: str) -> int:
    return len(text.splitlines())


@family("code_editor.count_lines", apps="code_editor", max_steps=6, category="count", answer_kind="number")
class CountLines(AnswerFamily):
    """Answer how many lines a named file of the project has."""

    def sample(self, state, config, rng):
        """A seeded start state: up to two of the lines ``code_editor.edit_file`` appends (in the
        world's language) were appended to the file before."""
        files = state["code_editor"]["files"]
        path = pick(rng, sorted(p for p, c in files.items() if line_count(c) > 0), "non-empty file")
        options = appendable_lines(path, files[path], words(config, "code_editor.append_lines"))
        appended = rng.sample(options, rng.randint(0, min(2, len(options))))
        content = append_lines(files[path], appended)
        return {"path": path, "appended": appended, "answer": str(line_count(content)), "lang": pack_lang(config)}

    def prepare(self, state, params):
        files = state["code_editor"]["files"]
        files[params["path"]] = append_lines(files[params["path"]], params.get("appended", []))

    def milestones(self, params, initial=None, expected=None):
        return [_file_open(params["path"])]

    def answer(self, state, params):
        return str(line_count(state["code_editor"]["files"].get(params["path"], "")))

    def solve(self, params, ui):
        """Open the file and count the lines of the editor's content."""
        yield from ui.open_app("code_editor")
        obs = yield ui.click(f"code_editor-file-{path_id(params['path'])}")
        content = "".join(testid_text_parts(obs).get("code_editor-editor", []))
        yield ui.answer(str(line_count(content)))


@family(
    "code_editor.folder_summary",
    apps="code_editor",
    max_steps=6,
    category="count",
    answer_kind="json",
    answer_schema={"files": "number", "folders": "number"},
)
class FolderSummary(AnswerFamily):
    """Answer, as JSON with the fields files and folders, how many files and how many sub-folders
    sit directly in a named folder."""

    def sample(self, state, config, rng):
        """A seeded start state: up to two new (empty) files and one new sub-folder were added to
        the folder before."""
        ce = state["code_editor"]
        folder = pick(rng, sorted(ce["folders"]), "folder")
        names = [n for n in NEW_FILE_NAMES if not P.exists(ce, P.join(folder, n))]
        new_files = [P.join(folder, n) for n in rng.sample(names, min(len(names), rng.randint(0, 2)))]
        names = [n for n in NEW_FOLDER_NAMES if not P.exists(ce, P.join(folder, n))]
        new_folders = [P.join(folder, n) for n in rng.sample(names, min(len(names), rng.randint(0, 1)))]
        params = {"folder": folder, "new_files": new_files, "new_folders": new_folders, "lang": pack_lang(config)}
        self.prepare(state, params)
        return dict(params, answer=self.answer(state, params))

    def prepare(self, state, params):
        ce = state["code_editor"]
        for path in params.get("new_files", []):
            P.create_file(ce, path, "")
        for path in params.get("new_folders", []):
            P.create_folder(ce, path)

    def milestones(self, params, initial=None, expected=None):
        return [Milestone("open code_editor", lambda state, p: p.startswith("/code_editor"))]

    def answer(self, state, params):
        ce, folder = state["code_editor"], params["folder"]
        files = sum(1 for p in ce["files"] if p.rsplit("/", 1)[0] == folder and "/" in p)
        folders = sum(1 for p in ce["folders"] if "/" in p and p.rsplit("/", 1)[0] == folder)
        return f'{{"files": {files}, "folders": {folders}}}'

    def solve(self, params, ui):
        """Open the folder from the tree and count the entries its listing links to: files
        (``?file=``) and folders (``?folder=``)."""
        yield from ui.open_app("code_editor")
        obs = yield ui.click(f"code_editor-folder-{path_id(params['folder'])}")
        links = [a.get("href", "") for t, a in testid_attributes(obs).items() if t.startswith("code_editor-open-")]
        files = sum(1 for h in links if parse_qs(urlsplit(h).query).get("file"))
        folders = sum(1 for h in links if parse_qs(urlsplit(h).query).get("folder"))
        yield ui.answer(f'{{"files": {files}, "folders": {folders}}}')
