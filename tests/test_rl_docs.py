"""Every Python example in docs/rl.md runs as written (two once did not: a name never defined,
an import left out)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_guide_has_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_each_example_in_the_guide_runs_as_written(number: int) -> None:
    exec(compile(BLOCKS[number], f"docs/rl.md example {number + 1}", "exec"), {})
