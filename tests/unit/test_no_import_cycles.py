"""No import circle anywhere in the site's code (issue 47).

The layers contract (pyproject.toml) keeps the apps pointing one way, but modules
inside one layer may still import each other in a circle (games.models and
games.hooks once did, through every service module). This test builds the import
graph of every app's modules with grimp (the graph lint-imports reads; imports
inside functions and under TYPE_CHECKING count) and lists each circle found: its
modules, and one way round it.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]


def _packages() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        roots = tomllib.load(f)["tool"]["importlinter"]["root_packages"]
    return [*roots, "tools"]


def _imports(packages: list[str]) -> dict[str, set[str]]:
    graph = grimp.build_graph(*packages, cache_dir=None)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The import graph's circles: its strongly connected components of more than one
    module (or a module importing itself), each sorted (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(imports):
        if start in index:
            continue
        work = [(start, iter(sorted(imports[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in imports:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(imports[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in imports[node]:
                        found.append(sorted(component))
    return sorted(found)


def way_round(imports: dict[str, set[str]], circle: list[str]) -> list[str]:
    """One path from the circle's first module back to itself, inside the circle."""
    members = set(circle)
    first = circle[0]
    came_from: dict[str, str] = {}
    todo = [first]
    while todo:
        node = todo.pop(0)
        for child in sorted(imports[node] & members):
            if child == first:
                path = [node]
                while path[-1] != first:
                    path.append(came_from[path[-1]])
                return [first, *reversed(path[:-1]), first] if node != first else [first, first]
            if child not in came_from:
                came_from[child] = node
                todo.append(child)
    return circle


def test_the_site_has_no_import_circle():
    sys.path.insert(0, str(ROOT))
    imports = _imports(_packages())
    assert len(imports) > 200, "the graph holds the apps' modules"
    found = circles(imports)
    report = [
        f"{len(c)} modules: {', '.join(c)}\n  e.g. {' -> '.join(way_round(imports, c))}"
        for c in found
    ]
    assert not found, "import circles:\n" + "\n".join(report)


def test_the_check_finds_a_circle_and_says_which_way_round():
    imports = {
        "a.models": {"a.hooks", "b.x"},
        "a.hooks": {"a.services"},
        "a.services": {"a.models"},
        "b.x": set(),
        "b.y": {"b.y"},
    }
    found = circles(imports)
    assert found == [["a.hooks", "a.models", "a.services"], ["b.y"]]
    assert way_round(imports, found[0]) == ["a.hooks", "a.services", "a.models", "a.hooks"]
