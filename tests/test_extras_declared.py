"""Every package ginrummy imports outside the standard library is named in pyproject.toml, by
one of its extras: one it only gets through another (h11, through uvicorn) can go missing, or
come in a version it does not work with, when that other changes its own requirements."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ginrummy"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported() -> dict[str, str]:
    """Top-level module imported -> the first file that imports it (outside the stdlib)."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                if top not in sys.stdlib_module_names and top != "ginrummy":
                    found.setdefault(top, path.relative_to(ROOT).as_posix())
    return found


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        requirements += extra
    return {_normal(re.split(r"[\s\[<>=!~;(]", req, maxsplit=1)[0]) for req in requirements}


def test_every_imported_package_is_declared() -> None:
    imported = _imported()
    assert {"sqlalchemy", "uvicorn", "numpy"} <= set(imported)  # the scan finds the imports
    distributions = packages_distributions()
    declared = _declared()
    undeclared = {
        module: where
        for module, where in imported.items()
        if not {_normal(d) for d in distributions.get(module, [module])} & declared
    }
    assert not undeclared, f"imported but in no extra of pyproject.toml: {undeclared}"
