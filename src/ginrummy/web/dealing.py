"""Dealing that players can check.

At each deal the server shuffles with the ``secrets`` module's generator and publishes a
commitment: the SHA-256 hex digest of ``"<deck>:<salt>"``, where ``<deck>`` is the 52 cards top
first written without spaces (``"7c6dAc..."``, 104 characters) and ``<salt>`` is 32 random hex
digits kept secret. When the hand ends the server reveals the deck and the salt; anyone can
recompute the digest, compare it with the commitment published before the first move, and check
that the cards they were dealt, and those they drew from the stock, are the deck's cards in
dealing order. The salt stops a player
from testing guessed deck orders against the commitment during the hand.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass

from ..engine import DECK, Cards


@dataclass(frozen=True)
class Deal:
    deck: Cards
    salt: str
    commitment: str

    @property
    def deck_text(self) -> str:
        return deck_text(self.deck)


def deck_text(deck: Cards) -> str:
    return "".join(str(c) for c in deck)


def commitment(deck: str, salt: str) -> str:
    return hashlib.sha256(f"{deck}:{salt}".encode()).hexdigest()


def shuffle(rng: random.Random | None = None) -> Deal:
    """A fresh deal; real play uses the system's cryptographic generator."""
    generator = rng if rng is not None else random.SystemRandom()
    cards = list(DECK)
    generator.shuffle(cards)
    deck = Cards(cards)
    salt = secrets.token_hex(16) if rng is None else f"{rng.getrandbits(128):032x}"
    return Deal(deck, salt, commitment(deck_text(deck), salt))


def verify(deck: str, salt: str, published: str) -> bool:
    return secrets.compare_digest(commitment(deck, salt), published)
