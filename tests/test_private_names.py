"""No module uses another module's private names (issue 24, point 2).

A name that starts with one underscore is its module's own business. Every module of the engine
and of the plug-in folders is read from the source (module level and inside functions), and two
uses of another module's private name fail here:

* ``from x import _y`` (also relative, and also ``import x._y``);
* ``x._y`` where ``x`` is bound to one of our modules by an import (``import a.b as x``,
  ``from a import b as x``).

Only our own modules count (``openapps_sim.*``, the plug-in folders mapped into it): a private
name of a third-party package is that package's business. A name shared between modules is made
public, or moved to the module that uses it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .test_layers import ROOT

FOLDERS = {"openapps_sim": "openapps_sim", "apps": "openapps_sim.apps", "tasks": "openapps_sim.tasks"}
FOLDERS.update({"agents": "openapps_sim.agents", "variations": "openapps_sim.variations"})
FOLDERS["experiments"] = "openapps_sim.experiments"

# Uses allowed on purpose (none: a helper two modules share is public).
ALLOWED: set[tuple[str, str]] = set()


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def source_files() -> list[tuple[Path, str]]:
    """Every module of the engine and the plug-in folders, with its import name."""
    found = []
    for folder, prefix in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT / folder).with_suffix("").parts
            parts = rel[:-1] if rel[-1] == "__init__" else rel
            found.append((path, ".".join((prefix, *parts))))
    return found


def _ours(module: str) -> bool:
    return module == "openapps_sim" or module.startswith("openapps_sim.")


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    return ".".join(parts[:keep] + ([node.module] if node.module else []))


def private_uses(path: Path, module: str, modules: set[str]) -> list[tuple[int, str]]:
    """(line, 'module.name') for each use of another module's private name in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    aliases: dict[str, str] = {}  # local name -> one of our modules
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if _ours(alias.name) and any(is_private(p) for p in parts):
                    found.append((node.lineno, alias.name))
                if _ours(alias.name):
                    aliases[alias.asname or parts[0]] = alias.name if alias.asname else parts[0]
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, is_package, node)
            if not _ours(base):
                continue
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in modules:
                    aliases[alias.asname or alias.name] = target
                if is_private(alias.name) and base != module:
                    found.append((node.lineno, target))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and is_private(node.attr):
            target = aliases.get(node.value.id)
            if target is not None and target != module:
                found.append((node.lineno, f"{target}.{node.attr}"))
    return found


def test_the_finder_sees_both_shapes(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import openapps_sim.config.packs as packs\n"
        "from openapps_sim.config import sampler\n"
        "from openapps_sim.config.fields import _MISSING, Str\n"
        "from . import _local\n"
        "from browsergym.core import _get_global_playwright\n"
        "def f(self):\n"
        "    return packs._load_pack_file, sampler._hex, self._x, packs.list_packs\n"
    )
    modules = {"openapps_sim.config.packs", "openapps_sim.config.sampler"}
    uses = sorted(name for _, name in private_uses(sample, "openapps_sim.demo.sample", modules))
    assert uses == [
        "openapps_sim.config.fields._MISSING",
        "openapps_sim.config.packs._load_pack_file",
        "openapps_sim.config.sampler._hex",
        "openapps_sim.demo._local",
    ]


def test_no_module_uses_another_modules_private_names():
    files = source_files()
    modules = {name for _, name in files}
    assert len(files) > 200
    wrong, allowed_seen = [], set()
    for path, module in files:
        rel = path.relative_to(ROOT).as_posix()
        for line, name in private_uses(path, module, modules):
            if (rel, name) in ALLOWED:
                allowed_seen.add((rel, name))
                continue
            wrong.append(f"{rel}:{line} uses {name}")
    assert not wrong, "private names used from another module (make them public or move them):\n" + "\n".join(
        sorted(set(wrong))
    )
    gone = sorted(ALLOWED - allowed_seen)
    assert not gone, f"no longer used, take them off ALLOWED: {gone}"
