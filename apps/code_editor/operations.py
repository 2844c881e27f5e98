"""The code editor's operations: each state change with its log entry, called by the route
handlers and, as app tools, by agents (``code_editor.create_file(path='src/app.py')``). Paths are
relative to the project root, with ``/`` between folders."""

from __future__ import annotations

from collections.abc import Callable

from openapps_sim.apps.code_editor import model

from openapps_sim.appkit import AppContext, OperationError, operation

PROBLEMS = {
    "error_empty": "the name is empty",
    "error_invalid": "the name has '/', '\\\\' or a control character, or is '.' or '..'",
    "error_long": f"the name is longer than {model.MAX_NAME} characters",
}


def _new_path(ctx: AppContext, tool: str, path: str) -> str:
    """``path`` checked as the place of something new: a good name in an existing folder."""
    path = path.strip().strip("/")
    problem = model.name_problem(model.name_of(path))
    if problem:
        raise OperationError(tool, "path", PROBLEMS[problem], "folder/name with a valid name")
    if not model.is_folder(ctx.state, model.parent_of(path)):
        raise OperationError(
            tool, "path", f"no folder {model.parent_of(path)!r}", "an existing folder (create_folder first)"
        )
    if model.exists(ctx.state, path):
        raise OperationError(tool, "path", f"{path!r} exists already", "a new path")
    return path


def _file(ctx: AppContext, tool: str, path: str) -> str:
    if path not in ctx.state["files"]:
        raise OperationError(tool, "path", f"no file {path!r}", "a file path from read()")
    return path


def _at(ctx: AppContext, path: str, change: Callable[[dict, str], object]) -> str:
    """Make the ``change`` of the model at ``path`` (checked by the caller) and log it."""
    change(ctx.state, path)
    ctx.log(path=path)
    return path


@operation
def create_file(ctx: AppContext, path: str) -> str:
    """Create an empty file at `path` (its folder must exist); returns the path."""
    return _at(ctx, _new_path(ctx, "code_editor.create_file", path), model.create_file)


@operation
def create_folder(ctx: AppContext, path: str) -> str:
    """Create a folder at `path` (its parent must exist); returns the path."""
    return _at(ctx, _new_path(ctx, "code_editor.create_folder", path), model.create_folder)


@operation
def save_file(ctx: AppContext, path: str, content: str) -> dict:
    """Replace the content of the file at `path`; returns its line and character counts."""
    path = _file(ctx, "code_editor.save_file", path)
    content = model.clean_content(content)
    if content != ctx.state["files"][path]:
        model.save_file(ctx.state, path, content)
        ctx.log(path=path, lines=model.line_count(content), chars=len(content))
    return {"path": path, "lines": model.line_count(content), "chars": len(content)}


@operation
def rename(ctx: AppContext, path: str, new_path: str) -> str:
    """Rename or move the file or folder at `path` to `new_path`; returns the new path."""
    if not path or not model.exists(ctx.state, path):
        raise OperationError("code_editor.rename", "path", f"nothing at {path!r}", "a path from read()")
    new_path = new_path.strip().strip("/")
    if new_path == path:
        return path
    is_dir = path in ctx.state["folders"]
    if is_dir and model.is_inside(model.parent_of(new_path), path):
        raise OperationError("code_editor.rename", "new_path", "a folder cannot move into itself", "another folder")
    new_path = _new_path(ctx, "code_editor.rename", new_path)
    model.move(ctx.state, path, new_path)
    ctx.log(path=path, new_path=new_path, kind="folder" if is_dir else "file")
    return new_path


@operation
def delete_file(ctx: AppContext, path: str) -> str:
    """Delete the file at `path`; returns the path."""
    return _at(ctx, _file(ctx, "code_editor.delete_file", path), model.delete_file)


@operation
def delete_folder(ctx: AppContext, path: str) -> dict:
    """Delete the folder at `path` with everything in it; returns what was deleted."""
    path = path.strip("/")
    if not path or path not in ctx.state["folders"]:
        raise OperationError("code_editor.delete_folder", "path", f"no folder {path!r}", "a folder path from read()")
    folders, files = model.delete_folder(ctx.state, path)
    ctx.log(path=path, folders=folders, files=files)
    return {"folders": folders, "files": files}
