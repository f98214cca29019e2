"""pytest set-up: a compiled module's ``.py`` source cannot be collected for its doctests (the
import finds the compiled module first), so tests/test_speedups.py runs those doctests on the
source itself."""

from ginrummy.speedups import SOURCES, compiled

collect_ignore = [src for src, done in zip(SOURCES, compiled().values(), strict=True) if done]
