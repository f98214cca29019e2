"""ginrummy: an exact Gin Rummy engine, computer players and places to play."""

from .engine.cards import DECK, Card, Cards, parse_cards
from .engine.errors import GinRummyError, IllegalActionError, InvalidNotationError, InvalidRulesError
from .engine.melds import (
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
