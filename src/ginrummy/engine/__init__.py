"""The rules engine: standard library only."""

from .cards import DECK, Card, Cards, parse_cards
from .errors import GinRummyError, IllegalActionError, InvalidNotationError, InvalidRulesError
from .melds import (
    Arrangement,
    LayoffResult,
    Meld,
    best_arrangement,
    best_arrangements,
    best_discards,
    deadwood,
    layoff,
    parse_melds,
)

__all__ = [
    "DECK", "Arrangement", "Card", "Cards", "GinRummyError", "IllegalActionError",
    "InvalidNotationError", "InvalidRulesError", "LayoffResult", "Meld", "best_arrangement",
    "best_arrangements", "best_discards", "deadwood", "layoff", "parse_cards", "parse_melds",
]
