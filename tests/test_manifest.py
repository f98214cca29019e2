"""The source distribution holds what a packager needs to run the tests and read the docs: the
tests with their helpers and data, conftest.py, the docs, the examples and the scripts the tests
load (MANIFEST.in). Its file list is setuptools' own (``egg_info``'s SOURCES.txt, the list
``sdist`` archives), made without building anything; the tests run from an unpacked sdist too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Files at the top that the tests, the build or a packager need.
TOP = ("README.md", "LICENSE", "Makefile", "conftest.py", "setup.py", "pyproject.toml")
#: Folders held whole: the tests and their data, the docs, the examples (tests/test_examples.py
#: runs them), the EAAI bridge (tests/test_eaai_java.py) and CI's set-up (tests/test_ci_*.py).
WHOLE = ("tests", "docs", "examples", "contrib", ".ci", "src/ginrummy")
#: The benchmark scripts (tests/benchutil.py loads them) and their reports.
BENCHMARKS = ("*.py", "*.md")
#: Build and test outputs, never shipped.
JUNK_DIRS = {"__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
JUNK_SUFFIXES = {".pyc", ".pyo", ".so", ".pyd"}


def _junk(path: Path) -> bool:
    return bool(JUNK_DIRS & set(path.parts)) or path.suffix in JUNK_SUFFIXES


def _needed() -> set[str]:
    files = set(TOP)
    for folder in WHOLE:
        files |= {
            path.relative_to(ROOT).as_posix()
            for path in (ROOT / folder).rglob("*")
            if path.is_file() and not _junk(path.relative_to(ROOT))
        }
    for pattern in BENCHMARKS:
        files |= {path.relative_to(ROOT).as_posix() for path in ROOT.glob(f"benchmarks/{pattern}")}
    return files


@pytest.fixture(scope="module")
def sdist_files(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The files ``python -m build --sdist`` would archive, by setuptools' reckoning."""
    base = tmp_path_factory.mktemp("egg")
    env = dict(os.environ, GINRUMMY_PURE="1")  # setup.py: nothing to compile
    subprocess.run(
        [sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(base)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    (sources,) = base.glob("*.egg-info/SOURCES.txt")
    return set(sources.read_text(encoding="utf-8").split())


def test_the_sdist_holds_the_tests_docs_and_examples(sdist_files: set[str]) -> None:
    needed = _needed()
    # Helpers and data, not only the tests: the check is worth nothing without them.
    assert {"tests/webutil.py", "tests/conftest.py", "docs/rl.md"} <= needed
    missing = sorted(needed - sdist_files)
    assert not missing, f"MANIFEST.in leaves {len(missing)} files out of the sdist: {missing}"


def test_the_sdist_leaves_out_the_arena_logs_and_build_outputs(sdist_files: set[str]) -> None:
    """benchmarks/runs holds megabytes of arena logs behind benchmarks/strength.md."""
    assert not [name for name in sdist_files if name.startswith("benchmarks/runs/")]
    assert not [name for name in sdist_files if _junk(Path(name))]
