"""No import cycles between the package's modules.

Every import a module makes at run time counts, at the top or inside a function; only imports
under ``if TYPE_CHECKING:`` are left out (they never run). A package's ``__init__`` counts as a
module of its own: ``from ..engine import Hand`` is an edge to ``ginrummy.engine``. The cycles are
found as strongly connected components of that graph (Tarjan's algorithm).
"""

from __future__ import annotations

import ast

import pytest

from test_layers import PACKAGE, SOURCES, module_name

MODULES = {module_name(path): path for path in SOURCES}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(module: str, source: str, is_package: bool) -> set[str]:
    """The ginrummy modules ``module`` imports when it runs (not under TYPE_CHECKING)."""
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            names.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    found = set()
    for name in names:
        # The longest prefix that is one of the package's modules: ``ginrummy.engine.Hand`` is
        # ``ginrummy.engine``, ``ginrummy.engine.melds`` the module itself.
        parts = name.split(".")
        while parts and ".".join(parts) not in MODULES:
            parts.pop()
        if parts and ".".join(parts) != module:
            found.add(".".join(parts))
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return out


def package_graph() -> dict[str, set[str]]:
    return {
        name: runtime_imports(name, path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for name, path in MODULES.items()
    }


def test_the_package_has_no_import_cycle() -> None:
    graph = package_graph()
    assert len(graph) > 50 and PACKAGE.name == "ginrummy"
    found = cycles(graph)
    assert found == [], "\n".join(
        " <-> ".join(c) + "\n    " + "; ".join(f"{a} -> {sorted(graph[a] & set(c))}" for a in c)
        for c in found
    )


# -- the checker itself --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from .cards import Card", {"ginrummy.engine.cards"}),
        ("from . import melds, cards", {"ginrummy.engine.melds", "ginrummy.engine.cards"}),
        ("def f():\n    from .melds import arrange\n", {"ginrummy.engine.melds"}),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .views import V\n", set()),
        (
            "if TYPE_CHECKING:\n    pass\nelse:\n    from .views import V\n",
            {"ginrummy.engine.views"},
        ),
        ("import typing\nif typing.TYPE_CHECKING:\n    from .cards import C\n", set()),
        ("from .. import Card", {"ginrummy"}),
        ("import json\nfrom ginrummy.engine import Hand", {"ginrummy.engine"}),
    ],
)
def test_runtime_imports(source: str, expected: set[str]) -> None:
    assert runtime_imports("ginrummy.engine.hand", source, False) == expected


def test_cycles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
