"""Pure operations on the code editor's state: paths, ids, and the changes handlers make.

The state is ``{"project": str, "folders": [path, ...], "files": {path: content}}``. A path is
relative to the project root, with ``/`` between parts (``src/utils/io.py``); the root itself is
the empty path ``""`` and is never listed. Every folder that holds something is listed, so the
folder list is closed under parents. Task families use these same functions for their expected
states, so handlers and expectations cannot drift apart.
"""

from __future__ import annotations

import hashlib
import re

from openapps_sim.appkit import ItemKey

MAX_NAME = 100
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

# the natural key of the items of each list in the normalised state (for reward explanations)
ITEM_KEYS = {"files": ItemKey((), "file"), "folders": ItemKey((), "folder")}


def path_id(path: str) -> str:
    """The stable id used in data-testids: a readable slug plus 8 hex digits of the path's SHA-1.

    ``src/utils/io.py`` -> ``src__utils__io.py-<hash>``: ``/`` becomes ``__``, every run of
    other characters than ``A-Z a-z 0-9 . _ -`` becomes ``_``, the slug is cut to 60
    characters, and the hash (of the exact, case-sensitive path in UTF-8) keeps ids distinct.
    """
    slug = _UNSAFE.sub("_", path.replace("/", "__"))[:60].strip("_") or "x"
    digest = hashlib.sha1(path.encode("utf-8")).hexdigest()[:8]
    return f"{slug}-{digest}"


def join(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name


def parent_of(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def name_of(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def ancestors(path: str) -> list[str]:
    """Every folder above ``path`` (not the root), outermost first."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def is_inside(path: str, folder: str) -> bool:
    """True when ``path`` is ``folder`` itself or lies somewhere below it."""
    return folder == "" or path == folder or path.startswith(folder + "/")


def extension(path: str) -> str:
    name = name_of(path)
    return name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""


def name_problem(name: str) -> str | None:
    """The strings key of what is wrong with a file or folder name, or None when it is fine."""
    if not name:
        return "error_empty"
    if "/" in name or "\\" in name or name in (".", "..") or any(ord(c) < 32 for c in name):
        return "error_invalid"
    if len(name) > MAX_NAME:
        return "error_long"
    return None


def exists(state: dict, path: str) -> bool:
    return path in state["files"] or path in state["folders"]


def is_folder(state: dict, path: str) -> bool:
    return path == "" or path in state["folders"]


def clean_content(text: str) -> str:
    """Content as saved: browser line endings (CRLF) folded to ``\\n``."""
    return str(text).replace("\r\n", "\n").replace("\r", "\n")


def line_count(text: str) -> int:
    """How many lines a file's content has (a final newline ends the last line, it starts none)."""
    return len(text.split("\n")) - (1 if text.endswith("\n") else 0) if text else 0


def normalise_content(text: str) -> str:
    """For comparison: trailing white space of every line dropped, one final newline (none when empty)."""
    lines = [line.rstrip() for line in clean_content(text).split("\n")]
    body = "\n".join(lines).rstrip("\n")
    return body + "\n" if body else ""


def children(state: dict, folder: str) -> tuple[list[str], list[str]]:
    """The folders and files directly inside ``folder``, each sorted by name."""
    prefix = folder + "/" if folder else ""

    def direct(path: str) -> bool:
        return path.startswith(prefix) and "/" not in path[len(prefix) :]

    key = _sort_key
    folders = sorted((p for p in state["folders"] if direct(p)), key=key)
    files = sorted((p for p in state["files"] if direct(p)), key=key)
    return folders, files


def _sort_key(path: str) -> tuple[str, str]:
    name = name_of(path)
    return (name.casefold(), name)


def subtree(state: dict, folder: str) -> tuple[list[str], list[str]]:
    """Every folder and file strictly below ``folder``."""
    folders = [p for p in state["folders"] if p != folder and is_inside(p, folder)]
    files = [p for p in state["files"] if is_inside(p, folder)]
    return folders, files


# -- changes --------------------------------------------------------------------------------


def create_file(state: dict, path: str, content: str = "") -> None:
    for folder in ancestors(path):
        if folder not in state["folders"]:
            state["folders"].append(folder)
    state["folders"].sort()
    state["files"][path] = content


def create_folder(state: dict, path: str) -> None:
    for folder in ancestors(path) + [path]:
        if folder not in state["folders"]:
            state["folders"].append(folder)
    state["folders"].sort()


def save_file(state: dict, path: str, content: str) -> None:
    state["files"][path] = clean_content(content)


def delete_file(state: dict, path: str) -> None:
    state["files"].pop(path, None)


def delete_folder(state: dict, path: str) -> tuple[list[str], list[str]]:
    """Remove ``path`` and everything below it; returns the removed folders and files."""
    sub_folders, sub_files = subtree(state, path)
    removed_folders = [path] + sub_folders if path else sub_folders
    state["folders"] = [p for p in state["folders"] if p not in set(removed_folders)]
    for f in sub_files:
        del state["files"][f]
    return removed_folders, sub_files


def move(state: dict, old: str, new: str) -> None:
    """Rename or move a file or folder (with everything below it) from ``old`` to ``new``."""

    def moved(p: str) -> str:
        return new + p[len(old) :] if is_inside(p, old) else p

    if old in state["files"]:
        state["files"] = {(new if p == old else p): c for p, c in state["files"].items()}
    else:
        state["folders"] = [moved(p) for p in state["folders"]]
        state["files"] = {moved(p): c for p, c in state["files"].items()}
    for folder in ancestors(new):
        if folder not in state["folders"]:
            state["folders"].append(folder)
    state["folders"].sort()


def initial_state(config: dict, rng) -> dict:
    state: dict = {"project": config["project"], "folders": [], "files": {}}
    for folder in config["folders"]:
        folder = folder.strip("/")
        if folder:
            create_folder(state, folder)
    for f in config["files"]:
        create_file(state, f["path"].strip("/"), clean_content(f["content"]))
    return state


def normalise(state: dict) -> dict:
    """Paths compared exactly; contents without trailing white space and with one final newline."""
    return {
        "project": state.get("project", ""),
        "folders": sorted(state["folders"]),
        "files": {p: normalise_content(c) for p, c in sorted(state["files"].items())},
    }


def clear_project(state: dict) -> None:
    """Delete every file and folder."""
    state["files"] = {}
    state["folders"] = []


def showcase(state: dict, config: dict) -> list:
    """Pages worth a look beyond the project: the first file open in the editor, the new-file form."""
    from urllib.parse import urlencode

    from openapps_sim.appkit import Showcase

    pages = [Showcase("new file form", "/new")]
    if state["files"]:
        pages.insert(0, Showcase("file", "/?" + urlencode({"file": sorted(state["files"])[0]})))
    return pages
