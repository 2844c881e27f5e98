"""The engine's layers and their one direction of dependency (docs/architecture.md).

Every import in every engine module is read from the source (module level and inside functions,
not ``if TYPE_CHECKING:`` blocks), so a wrong-way import fails here whether or not a test
happens to execute it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "openapps_sim"

# Lower rank = lower layer. A module may import only from layers of lower or equal rank.
RANKS = {
    "errors": 0,
    "protocol": 0,
    "lifecycle": 0,
    "gcsettings": 0,
    "config": 1,
    "appkit": 2,
    "agent": 2,
    "taskkit": 2,
    "web": 3,
    "envs": 4,
    "sweeps": 5,
    "service": 5,
    "analysis": 6,
    "cli": 7,
    "__init__": 7,
}
# Edges forbidden although the ranks would allow them (none now: an env holds its world, a
# ``web.world.World``, and its text backend calls the world's pages in memory).
FORBIDDEN: set[tuple[str, str]] = set()
# Third-party packages a layer must never import.
FORBIDDEN_THIRD_PARTY = {
    "config": {"playwright", "browsergym", "fasthtml", "starlette", "uvicorn", "pandas"},
    "taskkit": {"playwright", "browsergym", "fasthtml", "uvicorn", "pandas"},
    "agent": {"playwright", "fasthtml", "uvicorn", "pandas"},
    "web": {"playwright", "browsergym", "pandas"},
    "envs": {"fasthtml", "uvicorn", "pandas"},
    "analysis": {"playwright", "browsergym", "uvicorn"},
    "service": {"fasthtml", "pandas"},
}
PLUGINS = {"apps", "tasks", "agents", "variations", "experiments"}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "openapps_sim":
        return None
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = type_checking_lines(tree)
    rel = path.relative_to(ROOT).with_suffix("")
    package = ".".join(rel.parts[:-1] if rel.name != "__init__" else rel.parts[:-1])
    found = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def engine_modules() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts) if parts else "openapps_sim"


def test_every_engine_module_belongs_to_a_layer():
    for path in engine_modules():
        layer = layer_of(module_name(path))
        assert layer in RANKS, f"{path.relative_to(ROOT)} is in no layer; add it to one of {sorted(RANKS)}"


def test_layers_depend_one_way():
    wrong = []
    for path in engine_modules():
        src_layer = layer_of(module_name(path))
        for line, target in imports_of(path):
            dst_layer = layer_of(target)
            if dst_layer is None or dst_layer == src_layer:
                continue
            if dst_layer in PLUGINS:
                continue  # plug-ins are discovered, never named (see test below)
            if RANKS[dst_layer] > RANKS[src_layer] or (src_layer, dst_layer) in FORBIDDEN:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({src_layer}) imports {target} ({dst_layer})")
    assert not wrong, "imports against the direction of the layers:\n" + "\n".join(wrong)


def test_layers_keep_out_of_foreign_runtimes():
    wrong = []
    for path in engine_modules():
        layer = layer_of(module_name(path))
        banned = FORBIDDEN_THIRD_PARTY.get(layer, set())
        for line, target in imports_of(path):
            if target.split(".")[0] in banned:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({layer}) imports {target}")
    assert not wrong, "\n".join(wrong)


def test_the_app_contract_names_no_web_type():
    """``appkit`` is below the web layer even for type checkers: no import of ``openapps_sim.web``
    anywhere in it, ``if TYPE_CHECKING:`` blocks included (the world is the ``WorldView`` protocol)."""
    tree = ast.parse((ENGINE / "appkit.py").read_text(encoding="utf-8"))
    named = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    web = [line for line in named if "openapps_sim.web" in line]
    assert named and not web, f"openapps_sim/appkit.py names the web layer: {web}"


def test_the_engine_names_no_plugin():
    """Apps, task families and agents are found by discovery, never imported by name."""
    wrong = []
    for path in engine_modules():
        for line, target in imports_of(path):
            parts = target.split(".")
            if len(parts) > 2 and parts[0] == "openapps_sim" and parts[1] in PLUGINS:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "code, absent",
    [
        # The analysis of a results folder never loads a browser driver.
        ("import openapps_sim.analysis.report.write, openapps_sim.analysis.report.build", ("playwright", "browsergym")),
        # Scoring a state (the agent's process) never loads the web server.
        (
            "from openapps_sim.taskkit import get_family, instantiate, evaluate\n"
            "from openapps_sim.config.catalog import compose\n"
            "from openapps_sim.web.world import World\n"
            "w = World(); fam = get_family('todo.add_item')\n"
            "inst = instantiate(fam, w.state, w.config, 1, 'default', 'en', None)\n"
            "evaluate(fam, inst, inst.initial)",
            ("uvicorn", "openapps_sim.web.server", "playwright"),
        ),
        # A text env serves nothing: its world's pages are called in memory, no server started.
        (
            "from openapps_sim.envs.registration import make_env\n"
            "env = make_env('todo.add_item', backend='text'); env.reset(seed=0); env.step('noop()')",
            ("uvicorn",),
        ),
    ],
)
def test_runtime_imports_stay_in_their_layer(code, absent):
    probe = code + "\nimport sys\nprint(','.join(m for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    loaded = set(out.stdout.strip().split(","))
    assert not [m for m in absent if m in loaded], (
        f"{absent} must not be imported; loaded: {sorted(set(absent) & loaded)}"
    )


# What each kind of plug-in may use of the engine: its contract and the layers below it.
PLUGIN_ALLOWED = {
    "apps": {"errors", "config", "appkit", "web"},
    "tasks": {"errors", "config", "taskkit", "apps"},
    "agents": {"errors", "config", "agent", "taskkit", "envs", "agents"},
}


@pytest.mark.parametrize("kind", sorted(PLUGIN_ALLOWED))
def test_plugins_use_only_their_contract_and_lower_layers(kind):
    allowed = PLUGIN_ALLOWED[kind] | {kind}
    wrong = []
    for path in sorted((ROOT / kind).rglob("*.py")):
        for line, target in imports_of(path):
            layer = layer_of(target.replace(f"openapps_sim.{kind}", f"openapps_sim.{kind}"))
            if layer is None:
                continue
            if layer not in allowed:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target} ({layer})")
    assert not wrong, f"{kind}/ may use only {sorted(allowed)}:\n" + "\n".join(wrong)
