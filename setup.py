"""Build hook: compile the hot pure-Python modules to C extensions with mypyc, when it can.

The meld solver and the computer players' rollouts are plain, fully typed Python; compiled,
the same code runs about two and a half times faster (``benchmarks/strength.md``). The ``.py``
sources stay the reference and the fallback: with ``GINRUMMY_PURE=1``, or without a C
compiler, the package installs and plays exactly the same moves, only slower.
``ginrummy.speedups.describe()`` says which ran compiled.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import setup


def speedups() -> dict[str, Any]:
    """``ginrummy/speedups.py``'s names: what to compile (read, not imported: importing the
    package here could load an old compiled copy)."""
    names: dict[str, Any] = {}
    with open(os.path.join("src", "ginrummy", "speedups.py"), encoding="utf-8") as f:
        exec(f.read(), names)
    return names


def extensions() -> list[object]:
    if os.environ.get("GINRUMMY_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    names = speedups()
    exts = mypycify(list(names["SOURCES"]), opt_level="3", group_name=names["GROUP"])
    for ext in exts:
        # A machine without a C compiler gets the pure-Python package instead of an error.
        ext.optional = True
    return list(exts)


setup(ext_modules=extensions())
