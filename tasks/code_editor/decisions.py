"""A branching family in the code editor: delete a file if it exists, create it otherwise."""

from __future__ import annotations

from openapps_sim.apps.code_editor import model as P
from openapps_sim.apps.code_editor.model import path_id

from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.branching import BranchingFamily, Condition, Decision
from openapps_sim.taskkit.observation import page_testids
from openapps_sim.taskkit.progress import Op

NAMES = ["notes.txt", "TODO.md", "scratch.py", "changelog.md", "draft.txt"]


def file_exists(folder: str, path: str) -> Condition:
    """Is the file there? (the project's data; on the page, the folder's file tree: open the
    folder and its ancestors, is the file listed?)"""

    def look(ui):
        obs = yield from ui.open_app("code_editor")
        parts = folder.split("/")
        for i in range(len(parts)):
            obs = yield ui.click(f"code_editor-folder-{path_id('/'.join(parts[: i + 1]))}")
        return f"code_editor-delete-{path_id(path)}" in page_testids(obs or {})

    return Condition("code_editor", lambda ce: path in ce.get("files", {}), look)


@family("code_editor.delete_or_create", apps="code_editor", max_steps=10)
class DeleteOrCreate(BranchingFamily):
    """If a folder holds a file of a given name, delete it; otherwise create that (empty) file
    there."""

    def sample(self, state, config, rng):
        ce = state["code_editor"]
        folder = pick(rng, sorted(ce["folders"]), "folder")
        name = pick(rng, [n for n in NAMES if f"{folder}/{n}" not in ce["files"]], "free file name")
        exists = rng.random() < 0.5
        branch = self.decision({"folder": folder, "path": f"{folder}/{name}"}).leaf([exists])
        return {"folder": folder, "name": name, "path": f"{folder}/{name}", "branch": branch}

    def decision(self, params):
        return Decision.when(file_exists(params["folder"], params["path"]), "exists", "missing")

    def prepare(self, state, params):
        if params["branch"] == "exists":
            P.create_file(state["code_editor"], params["path"])

    def branch_plans(self, params, initial):
        return {
            "exists": [Op.of("code_editor", "delete_file", path=params["path"])],
            "missing": [Op.of("code_editor", "create_file", path=params["path"])],
        }

    def act(self, leaf, params, ui):  # the folder is open in the file tree
        if leaf == "exists":
            yield ui.click(f"code_editor-delete-{path_id(params['path'])}")
            return
        yield ui.click("code_editor-new-file")
        yield ui.fill("code_editor-field-name", params["name"])
        yield ui.select("code_editor-field-parent", params["folder"])
        yield ui.click("code_editor-create")
