"""``ginrummy serve`` dealing every hand from the README's deck (tests/test_web_fairplay.py),
for browser tests that need a known deal: the server's shuffle is replaced in this process
only, the way the ``fixed_deck`` fixture replaces it in-process. Run as
``python -m stacked_serve serve ...`` with tests/ on the path (``LiveServer(module=...)``)."""

from __future__ import annotations

import random
import sys

from ginrummy.cli.main import main
from ginrummy.engine import Cards
from ginrummy.web import tables
from ginrummy.web.dealing import Deal, commitment, deck_text
from test_web_fairplay import DECK_ORDER


def shuffle(rng: random.Random | None = None) -> Deal:
    cards = Cards(DECK_ORDER)
    salt = "0" * 32
    return Deal(cards, salt, commitment(deck_text(cards), salt))


if __name__ == "__main__":
    tables.shuffle = shuffle  # type: ignore[assignment]
    sys.exit(main(sys.argv[1:]))
