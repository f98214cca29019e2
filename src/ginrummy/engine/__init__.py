"""The rules engine: standard library only."""

from .actions import Action, ActionKind, Event
from .cards import DECK, Card, Cards, parse_cards
from .errors import (
    GinRummyError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidRulesError,
    RulesWordError,
)
from .game import Game, GameRecord, HandEntry
from .hand import Hand, HandState, Phase
from .match import Match, MatchRecord
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
from .scoring import GameFinal
from .sheet import ScoreSheet
from .views import PlayerView, PublicView

__all__ = [
    "DECK",
    "Action",
    "ActionKind",
    "Arrangement",
    "Card",
    "Cards",
    "Event",
    "Game",
    "GameFinal",
    "GameRecord",
    "GinRummyError",
    "Hand",
    "HandEntry",
    "HandRecord",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidNotationError",
    "InvalidRulesError",
    "LayoffResult",
    "Match",
    "MatchRecord",
    "Meld",
    "Phase",
    "PlayerView",
    "PublicView",
    "ResultKind",
    "Rules",
    "RulesWordError",
    "ScoreSheet",
    "best_arrangement",
    "best_arrangements",
    "best_discards",
    "deadwood",
    "layoff",
    "parse_cards",
    "parse_melds",
]
