"""The terminal's own check of a deal once the hand is over, as the web page makes it
(``verify.js``): the revealed deck and salt hash to the commitment published before the first
move, the deck is 52 different cards, the upcard is the deck's, the cards this seat was dealt
came from it, and so did those it drew from the stock, in the deck's order. Against a served
table this is the player's check on the server.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..web.dealing import verify
from .words import State, split_cards


def dealt_hand(view: Mapping[str, Any]) -> set[str]:
    """The cards this seat was dealt: its hand with its moves taken back, newest first (what it
    discarded back in, what it drew or took out), from any state before a knock."""
    cards = set(split_cards(view.get("hand")))
    for event in reversed(view.get("history") or []):
        if event["seat"] != view.get("seat"):
            continue
        kind, _, rest = str(event["action"]).partition(" ")
        if kind in ("draw", "take") and event.get("card"):
            cards.discard(str(event["card"]))
        if kind in ("discard", "knock", "gin") and rest:
            cards.add(rest.split()[0])
    return cards


#: A deck as the reveal writes it: 52 cards, no spaces.
DECK_TEXT = re.compile(r"(?:[A2-9TJQK][shdc]){52}")


def draws_follow(deck: list[str], view: Mapping[str, Any]) -> bool:
    """Whether each card this seat drew from the stock is the deck's card at that draw: the
    stock is the deck past the first 21 cards, drawn from the top by both seats (the other's
    draws name no card, but count). A server that committed to one deck and fed the stock
    from another would pass the other checks."""
    at = 21
    for event in view.get("history") or []:
        if event.get("action") != "draw":
            continue
        card = event.get("card")
        if event.get("seat") == view.get("seat") and card and deck[at] != card:
            return False
        at += 1
    return True


class DealCheck:
    """What this screen saw of each deal (its commitment, the cards dealt to this seat), and
    the verdict once the deck is revealed."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, int], tuple[str, set[str]]] = {}

    def saw(self, state: State) -> None:
        table, view = state["table"], state.get("view") or {}
        key = (str(table["id"]), int(table["hand_number"]))
        if not view or view.get("knocker") is not None or key in self._seen:
            return
        if table.get("commitment") and view.get("seat") is not None:
            self._seen[key] = (str(table["commitment"]), dealt_hand(view))

    def verdict(self, state: State) -> str | None:
        """A line saying whether the deal checks out (None until the deck is revealed)."""
        reveal, table, view = state.get("reveal"), state["table"], state.get("view") or {}
        if not reveal or not view:
            return None
        seen = self._seen.get((str(table["id"]), int(table["hand_number"])))
        published = seen[0] if seen else str(table.get("commitment") or "")
        deck_text = str(reveal["deck"])
        if not verify(deck_text, str(reveal["salt"]), published):
            return "✗ The revealed deck does NOT match the commitment published at the deal!"
        # 52 different cards and nothing else: a server that committed to the deal's 21 cards
        # alone (or could split the committed text elsewhere) would have left the stock free.
        deck = split_cards(deck_text) if DECK_TEXT.fullmatch(deck_text) else []
        if len(set(deck)) != 52:
            return "✗ The revealed deck is not a deck of 52 different cards!"
        if view.get("upcard") and deck[20] != view["upcard"]:
            return "✗ The revealed deck does not match the upcard!"
        if not draws_follow(deck, view):
            return (
                "✗ The cards you drew from the stock do not come from the revealed deck in its "
                "order!"
            )
        if seen is not None:
            non_dealer = view.get("seat") != view.get("dealer")
            mine = {c for i, c in enumerate(deck[:20]) if (i % 2 == 0) == non_dealer}
            if non_dealer and (table.get("rules") or {}).get("deal") == "eleven":
                mine.add(deck[20])  # the eleven-card deal: the 21st card is the non-dealer's
            if mine != seen[1]:
                return "✗ Your dealt cards do not come from the revealed deck!"
            return (
                "✓ Deal verified: the revealed deck matches the commitment published before "
                "the first move, and your cards came from it."
            )
        return (
            "✓ Deal verified: the revealed deck matches the commitment published before the "
            "first move."
        )
