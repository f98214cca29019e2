"""The rules engine: standard library only."""

from .actions import Action, ActionKind, Event
from .cards import DECK, Card, Cards, parse_cards
from .errors import GinRummyError, IllegalActionError, InvalidNotationError, InvalidRulesError
from .hand import Hand, Phase
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
from .records import HandRecord
from .results import HandResult, ResultKind
from .rules import Rules
from .views import PlayerView

__all__ = [
    "DECK",
    "Action",
    "ActionKind",
    "Arrangement",
    "Card",
    "Cards",
    "Event",
    "GinRummyError",
    "Hand",
    "HandRecord",
    "HandResult",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidRulesError",
    "LayoffResult",
    "Meld",
    "Phase",
    "PlayerView",
    "ResultKind",
    "Rules",
    "best_arrangement",
    "best_arrangements",
    "best_discards",
    "deadwood",
    "layoff",
    "parse_cards",
    "parse_melds",
]
