"""Import cycles in ``openapps_sim/`` (issue 24, point 2), counting function-local imports.

Every import of every engine module is read from the source (module level and inside functions;
``if TYPE_CHECKING:`` blocks are left out, as in ``tests/test_layers.py``). ``from pkg import
name`` counts as an import of ``pkg.name`` when that is a module, else of ``pkg``. A package's
``__init__`` is a module like any other; importing ``a.b.c`` is not counted as importing ``a.b``.

The cycles are the strongly connected components of that graph with more than one module. The
issue asks for none; until the refactor, the ones known on 2026-11-25 are listed here and a
new one fails the test (a cycle that goes away is reported, so the list can shrink).
"""

from __future__ import annotations

import ast

from .test_layers import ENGINE, ROOT, _type_checking_lines, engine_modules, module_name

# the components found on 2026-11-25 (branch lang, after 6a25ec0); each set is one cycle group
KNOWN: list[set[str]] = [
    # held together by function-local imports (sampler and pool import catalog inside functions)
    {
        "openapps_sim.config.catalog",
        "openapps_sim.config.packs",
        "openapps_sim.config.pool",
        "openapps_sim.config.sampler",
    },
    # each imports the other's private helpers (_Budget, _embed_image, _url_path ...)
    {"openapps_sim.analysis.report.trajectories", "openapps_sim.analysis.report.viewer"},
    {"openapps_sim.envs.text.axtree", "openapps_sim.envs.text.widgets"},
]


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
        skip = _type_checking_lines(tree)
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


def test_no_new_import_cycle():
    assert ENGINE.is_dir() and ROOT.is_dir()
    graph = import_graph()
    found = cycles(graph)
    new = [c for c in found if not any(c <= known for known in KNOWN)]
    described = "\n".join(f"  {len(c)} modules: {' -> '.join(shortest_cycle(graph, c))}" for c in new)
    assert not new, f"{len(new)} import cycle(s) in openapps_sim/ not in KNOWN:\n{described}"
