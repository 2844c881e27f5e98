"""Import cycles in ``openapps_sim/`` (issue 24, point 2), counting function-local imports.

Every import of every engine module is read from the source (module level and inside functions;
``if TYPE_CHECKING:`` blocks are left out, as in ``tests/test_layers.py``). ``from pkg import
name`` counts as an import of ``pkg.name`` when that is a module, else of ``pkg``. A package's
``__init__`` is a module like any other; importing ``a.b.c`` is not counted as importing ``a.b``.

The cycles are the strongly connected components of that graph with more than one module: there
must be none. (The last three went on 2026-11-26: ``config.catalog/packs/sampler/pool``, held
together by function-local imports; ``analysis.report.trajectories <-> viewer``, through each
other's private helpers; ``envs.text.axtree <-> widgets``.)
"""

from __future__ import annotations

import ast

from .test_layers import ENGINE, ROOT, engine_modules, module_name, type_checking_lines


def _resolve(package: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph() -> dict[str, set[str]]:
    """Engine module -> the engine modules it imports (anywhere in its source)."""
    modules = {module_name(p): p for p in engine_modules()}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = type_checking_lines(tree)
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(package, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[set[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def shortest_cycle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """One shortest cycle through the component's first module, for messages."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    return paths[node] + [start]
                if child not in paths:
                    paths[child] = paths[node] + [child]
                    nxt.append(child)
        frontier = nxt
    return [start]


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [{"a", "b", "c"}]
    assert shortest_cycle(graph, {"a", "b", "c"}) == ["a", "b", "c", "a"]


def test_no_import_cycle():
    assert ENGINE.is_dir() and ROOT.is_dir()
    graph = import_graph()
    assert len(graph) > 100 and any(graph.values())  # the engine's modules were read
    found = cycles(graph)
    described = "\n".join(f"  {len(c)} modules: {' -> '.join(shortest_cycle(graph, c))}" for c in found)
    assert not found, f"{len(found)} import cycle(s) in openapps_sim/:\n{described}"
