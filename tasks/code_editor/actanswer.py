"""Act, then answer, in the code editor: append a line to a file or create a file, then answer
with what the project holds afterwards (see taskkit/answers.py, ``ActAnswerFamily``)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from openapps_sim.apps.code_editor.model import path_id
from openapps_sim.tasks.code_editor.answers import line_count
from openapps_sim.tasks.code_editor.edits import APP, CreateFile, append_lines, appendable_lines, open_code_editor

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.answers import ActAnswerFamily, pack_lang
from openapps_sim.taskkit.language import words
from openapps_sim.taskkit.observation import testid_attributes, testid_text_parts
from openapps_sim.taskkit.progress import Op


@family("code_editor.append_then_count", apps=APP, max_steps=10, category="count", answer_kind="number")
class AppendThenCount(ActAnswerFamily):
    """Add a given line at the end of a named file and save it, then answer how many lines the file
    has now."""

    def sample(self, state, config, rng):
        files = state[APP]["files"]
        by_ext = words(config, "code_editor.append_lines")
        options = [(p, line) for p in sorted(files) for line in appendable_lines(p, files[p], by_ext)]
        path, line = pick(rng, options, "file and line to append")
        return {"path": path, "line": line, "new_content": append_lines(files[path], [line]),
                "lang": pack_lang(config)}  # fmt: skip

    def plan(self, params, initial):
        return [Op.of(APP, "save_file", path=params["path"], content=params["new_content"])]

    def answer(self, state, params):
        return str(line_count(state[APP]["files"].get(params["path"], "")))

    def solve_api(self, params, api):
        """Read the file, save it with the line added, read it again and count its lines."""
        files = api.result((yield api.read(APP)))["files"]
        content = append_lines(files[params["path"]], [params["line"]])
        yield api.call(APP, "save_file", path=params["path"], content=content)
        yield api.answer(self.answer({APP: api.result((yield api.read(APP)))}, params))

    def solve(self, params, ui):
        """Open the file, add the line after its content, save, and count the saved file's lines."""
        yield from open_code_editor(ui)
        obs = yield ui.click(f"code_editor-file-{path_id(params['path'])}")
        content = "".join(testid_text_parts(obs).get("code_editor-editor", []))
        yield ui.fill("code_editor-editor", append_lines(content, [params["line"]]))
        obs = yield ui.click("code_editor-save")
        yield ui.answer(str(line_count("".join(testid_text_parts(obs).get("code_editor-editor", [])))))


@family(
    "code_editor.create_then_summary",
    apps=APP,
    max_steps=12,
    category="count",
    answer_kind="json",
    answer_schema={"files": "number", "folders": "number"},
)
class CreateThenSummary(CreateFile, ActAnswerFamily):
    """Create a new, empty file with a given name in a given folder, then answer as JSON with the
    fields files and folders how many files and sub-folders sit directly in that folder now."""

    def sample(self, state, config, rng):
        return dict(CreateFile.sample(self, state, config, rng), lang=pack_lang(config))

    def answer(self, state, params):
        ce, folder = state[APP], params["folder"]
        files = sum(1 for p in ce["files"] if "/" in p and p.rsplit("/", 1)[0] == folder)
        folders = sum(1 for p in ce["folders"] if "/" in p and p.rsplit("/", 1)[0] == folder)
        return f'{{"files": {files}, "folders": {folders}}}'

    def solve(self, params, ui):
        """Create the file, then open the folder and count the entries its listing links to."""
        yield from CreateFile.solve(self, params, ui)
        obs = yield ui.click(f"code_editor-folder-{path_id(params['folder'])}")
        links = [a.get("href", "") for t, a in testid_attributes(obs).items() if t.startswith("code_editor-open-")]
        files = sum(1 for h in links if parse_qs(urlsplit(h).query).get("file"))
        folders = sum(1 for h in links if parse_qs(urlsplit(h).query).get("folder"))
        yield ui.answer(f'{{"files": {files}, "folders": {folders}}}')
