"""Which of the hot modules run compiled (see ``setup.py``), and whether any is out of date.

The compiled modules are built from the ``.py`` files beside them by mypyc when the package is
installed; Python prefers the compiled one when both are there. A compiled module older than
its source (after an edit, before ``make`` rebuilds it) would run the old code, so
:func:`stale` names them and the tests fail on any.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Final

#: The modules ``setup.py`` compiles.
MODULES: Final = (
    "ginrummy.engine.masks",
    "ginrummy.engine.melds",
    "ginrummy.engine.phases",
    "ginrummy.agents.heuristic",
    "ginrummy.agents.inference",
    "ginrummy.agents.search",
)
#: The name of the library mypyc builds them into (each module's own file is a thin shim).
GROUP: Final = "ginrummy_speedups"
#: Their source files, relative to the project root.
SOURCES: Final = tuple("src/" + name.replace(".", "/") + ".py" for name in MODULES)


def compiled() -> dict[str, bool]:
    """Per module in :data:`MODULES`: whether it was loaded from a compiled extension."""
    out: dict[str, bool] = {}
    for name in MODULES:
        path = getattr(importlib.import_module(name), "__file__", None) or ""
        out[name] = not path.endswith(".py")
    return out


def source(name: str) -> str:
    """The ``.py`` file beside the loaded module ``name`` (compiled or not)."""
    path = importlib.import_module(name).__file__ or ""
    return os.path.join(os.path.dirname(path), name.rsplit(".", 1)[1] + ".py")


def stale() -> list[str]:
    """The compiled modules whose ``.py`` source is newer than the compiled code."""
    spec = importlib.util.find_spec(GROUP + "__mypyc")
    library = spec.origin if spec is not None and spec.origin else None
    out: list[str] = []
    for name, is_compiled in compiled().items():
        if not is_compiled:
            continue
        built = os.path.getmtime(importlib.import_module(name).__file__ or "")
        if library is not None:
            built = max(built, os.path.getmtime(library))
        path = source(name)
        if os.path.exists(path) and os.path.getmtime(path) > built:
            out.append(name)
    return out


def describe() -> str:
    """One line for reports: how many hot modules are compiled."""
    flags = compiled()
    done = sum(flags.values())
    if done == len(flags):
        return "compiled (mypyc)"
    if done == 0:
        return "pure Python"
    return f"{done} of {len(flags)} modules compiled"
