"""The package's layers, each importing only itself and those to its left:

    engine  <  agents, storage  <  scorekeeper  <  interfaces (cli, tui, web, rl)

Agents and storage do not import each other, and the scorekeeper imports the engine and storage
but not the agents. Each module's imports are read with ``ast`` (function-level and
``TYPE_CHECKING`` imports too) and checked against the table below. ``ginrummy.engine`` may
import nothing but the standard library and itself. Layers that do not exist yet are simply
absent.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ginrummy"

INTERFACES = frozenset({"cli", "tui", "web", "rl"})
#: What each layer may import from ginrummy. "root" is the ``ginrummy`` package itself and its
#: top-level modules: a facade over the layers, so only the interfaces may use it.
ALLOWED: dict[str, frozenset[str]] = {
    "engine": frozenset({"engine"}),
    "agents": frozenset({"engine", "agents"}),
    "storage": frozenset({"engine", "storage"}),
    "scorekeeper": frozenset({"engine", "storage", "scorekeeper"}),
    **{
        name: frozenset({"engine", "agents", "storage", "scorekeeper", "root"} | INTERFACES)
        for name in INTERFACES
    },
    "root": frozenset({"engine", "agents", "storage", "scorekeeper", "root"} | INTERFACES),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str | None:
    """The layer of a ginrummy module or name; None inside a subpackage that has no layer."""
    parts = module.split(".")
    if len(parts) == 1 or (PACKAGE / f"{parts[1]}.py").exists():
        return "root"
    if parts[1] in ALLOWED:
        return parts[1]
    if len(parts) > 2 or (PACKAGE / parts[1]).is_dir():
        return None
    return "root"  # a name the package itself exports: ``from ginrummy import Card``


def imports(module: str, source: str, is_package: bool) -> list[tuple[int, str]]:
    """Every module name an import statement names, made absolute, with its line."""
    found: list[tuple[int, str]] = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            if base.split(".")[0] == "ginrummy":
                found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, base))
    return found


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    layer = layer_of(module)
    if layer is None:
        return [f"{module} is in no layer: add its package to ALLOWED in tests/test_layers.py"]
    problems = []
    for line, target in imports(module, source, is_package):
        top = target.split(".")[0]
        where = f"{module}:{line} imports {target}"
        if top == "ginrummy":
            target_layer = layer_of(target)
            if target_layer is None:
                problems.append(f"{where}, which is in no layer")
            elif target_layer not in ALLOWED[layer]:
                problems.append(f"{where}: the {layer} layer may not import {target_layer}")
        elif layer == "engine" and top not in sys.stdlib_module_names:
            problems.append(f"{where}: the engine may import only the standard library")
    return problems


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_the_package_is_found() -> None:
    assert PACKAGE / "engine" / "__init__.py" in SOURCES


@pytest.mark.parametrize("path", SOURCES, ids=module_name)
def test_module_respects_the_layers(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert violations(module_name(path), source, path.name == "__init__.py") == []


# -- the checker itself --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "source", "is_package", "problem"),
    [
        ("ginrummy.engine.x", "import numpy", False, "only the standard library"),
        ("ginrummy.engine.x", "from numpy.random import rand", False, "only the standard library"),
        ("ginrummy.engine.x", "def f():\n    import rich\n", False, "only the standard library"),
        ("ginrummy.engine.x", "from ..agents import random", False, "may not import agents"),
        ("ginrummy.engine.x", "from .. import storage", False, "may not import storage"),
        ("ginrummy.engine.x", "from .. import Card", False, "may not import root"),
        ("ginrummy.engine", "from .. import cli", True, "may not import cli"),
        ("ginrummy.engine.x", "import ginrummy.web.app", False, "may not import web"),
        ("ginrummy.engine.x", "import ginrummy", False, "may not import root"),
        ("ginrummy.agents.x", "from ginrummy.storage import db", False, "may not import storage"),
        ("ginrummy.agents.x", "from ..rl import env", False, "may not import rl"),
        ("ginrummy.agents", "from ..cli import main", True, "may not import cli"),
        ("ginrummy.storage.x", "from ..agents import greedy", False, "may not import agents"),
        ("ginrummy.storage.x", "from ginrummy.tui import app", False, "may not import tui"),
        ("ginrummy.storage.x", "from ginrummy import Rules", False, "may not import root"),
        ("ginrummy.storage.x", "from ..scorekeeper import Keeper", False, "import scorekeeper"),
        ("ginrummy.scorekeeper.x", "from ..agents import expert", False, "may not import agents"),
        ("ginrummy.scorekeeper.x", "from ..cli import CommandError", False, "may not import cli"),
        ("ginrummy.scorekeeper", "from .. import Rules", True, "may not import root"),
        ("ginrummy.scores.x", "import json", False, "is in no layer"),
        ("ginrummy.cli.x", "from ginrummy.scores.x import y", False, "which is in no layer"),
    ],
)
def test_checker_catches(module: str, source: str, is_package: bool, problem: str) -> None:
    found = violations(module, source, is_package)
    assert len(found) == 1 and problem in found[0], found


@pytest.mark.parametrize(
    ("module", "source", "is_package"),
    [
        ("ginrummy.engine.x", "from __future__ import annotations\nimport json, typing", False),
        ("ginrummy.engine.x", "from .cards import Card\nfrom . import melds", False),
        ("ginrummy.engine", "from .cards import Card\nfrom .rules import Rules", True),
        ("ginrummy.engine.x", "from ginrummy.engine.cards import Card", False),
        (
            "ginrummy.agents.x",
            "import numpy\nfrom ..engine import Rules\nfrom . import base",
            False,
        ),
        ("ginrummy.storage.x", "import sqlalchemy\nfrom ginrummy.engine.rules import Rules", False),
        (
            "ginrummy.cli.x",
            "from ..agents import a\nfrom ..storage import s\nfrom .. import Card",
            False,
        ),
        (
            "ginrummy.web.x",
            "from ginrummy.tui import app\nfrom ginrummy.engine import Rules",
            False,
        ),
        (
            "ginrummy.scorekeeper.x",
            "from ..engine.rules import Rules\nfrom ..storage import Store\nfrom . import keeper",
            False,
        ),
        ("ginrummy.cli.x", "from ..scorekeeper import Session", False),
        ("ginrummy.rl", "from ..engine import hand\nfrom ..agents import base", True),
        ("ginrummy", "from .engine import Card\nfrom .cli import main", True),
    ],
)
def test_checker_allows(module: str, source: str, is_package: bool) -> None:
    assert violations(module, source, is_package) == []


def test_relative_imports_are_made_absolute() -> None:
    found = imports("ginrummy.engine.hand", "from .cards import Card\nfrom .. import x", False)
    assert found == [(1, "ginrummy.engine.cards.Card"), (2, "ginrummy.x")]
    found = imports("ginrummy.engine", "from .cards import Card", True)
    assert found == [(1, "ginrummy.engine.cards.Card")]


def test_the_architecture_page_names_every_package() -> None:
    """docs/ARCHITECTURE.md's table of packages stays true: one row per subpackage."""
    page = (PACKAGE.parents[1] / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(\w+)` \|", page, flags=re.MULTILINE))
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert rows == packages
    assert packages <= set(ALLOWED)
