"""``python -m ginrummy``: the ``ginrummy`` command line, for when the console script is not
on the PATH."""

from __future__ import annotations

import sys

from .cli.main import main

if __name__ == "__main__":
    sys.exit(main())
