"""setup.py lists every folder a wheel must ship: packages and the folders of data files inside
them (a language pack's YAML, a task family's phrasings), which have no ``__init__.py``.
setuptools warned that 13 of them "would be ignored" by a future version."""

from __future__ import annotations

import runpy
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent


def _setup_arguments() -> dict:
    """What setup.py passes to ``setuptools.setup`` (run from the project's root, as pip does)."""
    with mock.patch("setuptools.setup") as setup:
        runpy.run_path(str(ROOT / "setup.py"))
    return setup.call_args.kwargs


def _folder(package: str, package_dir: dict[str, str]) -> str:
    """Where ``package`` lives: its own mapping, or its nearest mapped parent's plus the rest."""
    parts = package.split(".")
    for i in range(len(parts), 0, -1):
        mapped = package_dir.get(".".join(parts[:i]))
        if mapped is not None:
            return "/".join([mapped, *parts[i:]])
    return "/".join(parts)


def test_every_folder_of_data_files_is_a_listed_package(monkeypatch):
    monkeypatch.chdir(ROOT)
    args = _setup_arguments()
    shipped = {_folder(p, args["package_dir"]) for p in args["packages"]}
    folders = {
        str(f.parent.relative_to(ROOT))
        for top in ("openapps_sim", "apps", "tasks", "agents", "variations", "experiments")
        for f in (ROOT / top).rglob("*")
        if f.is_file() and "__pycache__" not in f.parts and f.suffix in {".py", ".yaml", ".json", ".css", ".js", ".md"}
    }
    missing = sorted(folders - shipped)
    assert not missing, f"folders a wheel would not ship as packages: {missing}"
    assert {"tasks/content", "variations/german"} <= shipped
