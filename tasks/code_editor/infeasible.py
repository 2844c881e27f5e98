"""The infeasible family of the code editor: the goal names something it does not hold (the base and
what such a family is: ``tasks/infeasible.py``)."""

from __future__ import annotations

from openapps_sim.tasks.code_editor.edits import P as ce_model
from openapps_sim.tasks.code_editor.edits import ce_state, file_paths, open_code_editor
from openapps_sim.tasks.infeasible import InfeasibleFamily

from openapps_sim.taskkit import family, pick


@family("code_editor.rename_onto_existing", apps="code_editor", max_steps=8)
class RenameOntoExisting(InfeasibleFamily):
    """Rename a file to the name of another file in the same folder, which the editor cannot do
    (infeasible: report it, change nothing)."""

    target_key = "path"

    def sample(self, state, config, rng):
        ce, files = ce_state(state), file_paths(state)
        pairs = [(a, b) for a in files for b in files if a != b and ce_model.parent_of(a) == ce_model.parent_of(b)]
        # a name of the same kind reads naturally ("test_storage.py" onto "test_search.py"), so half of
        # the seeds draw one; where no
        # folder holds two files (the sparse project), a sibling folder's name is taken as well
        alike = [(a, b) for a, b in pairs if ce_model.extension(a) == ce_model.extension(b)]
        folders = [
            (a, b) for a in files for b in sorted(ce["folders"]) if b and ce_model.parent_of(a) == ce_model.parent_of(b)
        ]
        pool = alike if alike and rng.random() < 0.5 else (pairs or folders)
        path, other = pick(rng, pool, "a file and another name in its folder")
        return {"path": path, "name": ce_model.name_of(path), "new_name": ce_model.name_of(other), "existing": other}

    def infeasible_target(self, params):
        return f"{self.id}:{params['path']}->{params['existing']}"

    def reason(self, params):
        return f"{params['existing']!r} exists already, so {params['path']!r} cannot be renamed to it."

    def solve(self, params, ui):
        from openapps_sim.apps.code_editor.model import path_id

        pid = path_id(params["path"])
        yield from open_code_editor(ui)
        yield ui.click(f"code_editor-file-{pid}")
        yield ui.click(f"code_editor-rename-{pid}")  # the form: the folder already holds that name
        yield ui.report_infeasible(self.reason(params))
