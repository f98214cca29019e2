"""``ginrummy serve`` dealing every hand from the README's deck (tests/test_web_fairplay.py),
for browser tests that need a known deal: the server's shuffle is replaced in this process
only, the way the ``fixed_deck`` fixture replaces it in-process. Run as
``python -m stacked_serve serve ...`` with tests/ on the path (``LiveServer(module=...)``).

``GINRUMMY_STACKED_TOP`` in its environment deals another deck: those cards on top (the
non-dealer gets the 1st, 3rd, 5th … card, the 21st is the upcard), the rest in order."""

from __future__ import annotations

import os
import random
import sys

from ginrummy.cli.main import main
from ginrummy.engine import DECK, Cards, parse_cards
from ginrummy.web import tables
from ginrummy.web.dealing import Deal, commitment, deck_text
from test_web_fairplay import DECK_ORDER


def shuffle(rng: random.Random | None = None) -> Deal:
    text = os.environ.get("GINRUMMY_STACKED_TOP")
    top = parse_cards(text) if text else None
    cards = Cards([*top, *(c for c in DECK if c not in top)] if top else DECK_ORDER)
    salt = "0" * 32
    return Deal(cards, salt, commitment(deck_text(cards), salt))


if __name__ == "__main__":
    tables.shuffle = shuffle  # type: ignore[assignment]
    sys.exit(main(sys.argv[1:]))
