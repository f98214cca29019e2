"""Tables: a game between two seats (a person and the computer, or two people), its hands,
their checkable deals, and what each seat may see. Knows nothing of the network.

Every accepted action is written to the store before the caller acknowledges it; a table is
rebuilt after a restart by replaying its stored deals and actions.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..agents import get_agent
from ..engine import (
    Action,
    ActionKind,
    Cards,
    Hand,
    IllegalActionError,
    Rules,
    best_arrangements,
    parse_cards,
)
from ..engine.game import Game
from ..engine.match import Match
from ..engine.serial import event_to_dict, result_to_dict
from .dealing import Deal, commitment, deck_text, shuffle

LEVELS = ("beginner", "intermediate", "expert")
COMPUTER_SEAT = 1


class TableStore(Protocol):
    def create_game(self, **kwargs: Any) -> str: ...
    def set_seat(
        self, game_id: str, seat: int, token_hash: str, player_id: int | None = None
    ) -> None: ...
    def start_hand(
        self, game_id: str, number: int, dealer: int, deck: str, salt: str, commitment: str
    ) -> None: ...
    def add_action(
        self, game_id: str, hand_number: int, seq: int, seat: int, text: str
    ) -> None: ...
    def finish_hand(self, game_id: str, number: int, result: dict[str, Any]) -> None: ...
    def finish_game(
        self, game_id: str, final: dict[str, Any], *, winner: int | None = None
    ) -> None: ...


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Options:
    """How a table was set up."""

    mode: str = "computer"  # computer | friend
    level: str = "intermediate"
    match: bool = False
    clock: int = 0  # seconds per move in friend games, 0 = none

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "level": self.level, "match": self.match, "clock": self.clock}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        return cls(
            str(data.get("mode", "computer")),
            str(data.get("level", "intermediate")),
            bool(data.get("match", False)),
            int(data.get("clock", 0)),
        )


@dataclass
class Table:
    id: str
    rules: Rules
    names: tuple[str, str]
    options: Options
    scoring: Game | Match
    hand: Hand | None = None
    deal: Deal | None = None
    hand_number: int = 0
    finished: bool = False
    version: int = 0
    updated: float = field(default_factory=time.monotonic)
    deadline: float | None = None  # move clock
    # What every state message repeats, worked out once: the rules and options never change
    # at a table, the score sheet only when a hand ends or starts. Shared by the messages, so
    # nobody may change these dicts.
    _fixed: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _sheet: tuple[tuple[int, bool], dict[str, Any]] | None = field(
        default=None, repr=False, compare=False
    )

    # -- derived --------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.scoring.game if isinstance(self.scoring, Match) else self.scoring

    @property
    def vs_computer(self) -> bool:
        return self.options.mode == "computer"

    def computer_to_move(self) -> bool:
        return (
            self.vs_computer and self.hand is not None and self.hand.current_player == COMPUTER_SEAT
        )

    # -- playing ----------------------------------------------------------------------------

    def new_hand(self, store: TableStore, rng: random.Random | None = None) -> None:
        if self.scoring.is_over:
            raise IllegalActionError("the game is over")
        if self.hand is not None and not self.hand.is_over:
            raise IllegalActionError("the hand is still being played")
        deal = shuffle(rng)
        dealer = self.game.dealer
        number = self.hand_number + 1
        store.start_hand(self.id, number, dealer, deal.deck_text, deal.salt, deal.commitment)
        self.deal = deal
        self.hand = Hand.from_deck(self.rules, dealer, deal.deck)
        self.hand_number = number
        self.touch()

    def act(self, store: TableStore, seat: int, text: str) -> None:
        """Apply ``seat``'s action, store it, and score the hand when it ends."""
        hand = self.hand
        if hand is None:
            raise IllegalActionError("no hand is being played")
        event = hand.apply(text, seat=seat)
        try:
            store.add_action(self.id, self.hand_number, event.number, seat, str(event.action))
        except BaseException:
            hand.undo()
            raise
        if hand.is_over:
            self._hand_over(store)
        self.touch()

    def _hand_over(self, store: TableStore) -> None:
        hand = self.hand
        assert hand is not None and hand.result is not None
        store.finish_hand(self.id, self.hand_number, result_to_dict(hand.result))
        self.scoring.finish_hand(hand)
        if self.scoring.is_over:
            store.finish_game(self.id, self.final(), winner=self.scoring.final().winner)
            self.finished = True

    def final(self) -> dict[str, Any]:
        sheet = self.scoring.sheet(self.names)
        return {
            "sheet": sheet.to_dict(),
            "final": self.scoring.final().to_dict(),
            "names": list(self.names),
        }

    def touch(self) -> None:
        self.version += 1
        self.updated = time.monotonic()
        if self.options.clock and self.hand is not None and not self.hand.is_over:
            self.deadline = time.time() + self.options.clock
        else:
            self.deadline = None

    # -- what a seat sees -----------------------------------------------------------------

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for a seat (or a spectator when ``seat`` is None)."""
        hand = self.hand
        scores = self.game.totals
        msg: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "table": self.table_info(seat),
        }
        if hand is None:
            msg["view"] = None
            return msg
        if seat is None:
            msg["view"] = public_view(hand)
        else:
            view = hand.view(seat, scores).to_dict()
            view["knock_options"] = knock_options(hand) if hand.current_player == seat else {}
            view["arrangement"] = _arrangement_info(hand.cards(seat))
            msg["view"] = view
        if hand.is_over and self.deal is not None:
            msg["reveal"] = {"deck": self.deal.deck_text, "salt": self.deal.salt}
        return msg

    def _fixed_info(self) -> dict[str, Any]:
        if self._fixed is None:
            self._fixed = {
                "options": self.options.to_dict(),
                "rules": self.rules.to_dict(),
                "rules_text": self.rules.describe(match=self.options.match),
                "preset": self.rules.preset_name(),  # compares with every preset: not cheap
            }
        return self._fixed

    def _sheet_info(self) -> dict[str, Any]:
        key = (self.hand_number, self.hand is not None and self.hand.is_over)
        if self._sheet is None or self._sheet[0] != key:
            self._sheet = (key, self.scoring.sheet(self.names).to_dict())
        return self._sheet[1]

    def table_info(self, seat: int | None) -> dict[str, Any]:
        sheet = self._sheet_info()
        fixed = self._fixed_info()
        info: dict[str, Any] = {
            "id": self.id,
            "seat": seat,
            "names": list(self.names),
            "options": fixed["options"],
            "rules": fixed["rules"],
            "rules_text": fixed["rules_text"],
            "preset": fixed["preset"],
            "hand_number": self.hand_number,
            "commitment": None if self.deal is None else self.deal.commitment,
            "scores": list(self.game.totals),
            "dealer_next": self.game.dealer,
            "game_over": self.game.is_over,
            "over": self.scoring.is_over,
            "sheet": sheet,
            "deadline": self.deadline,
            "can_undo": self.can_undo(seat),
        }
        if isinstance(self.scoring, Match):
            info["match_totals"] = list(self.scoring.totals)
            info["game_number"] = len(self.scoring.games)
        if self.scoring.is_over:
            info["final"] = self.scoring.final().to_dict()
        elif self.game.is_over:
            info["final"] = self.game.final().to_dict()
        return info

    def can_undo(self, seat: int | None) -> bool:
        hand = self.hand
        return (
            seat == 0
            and self.vs_computer
            and hand is not None
            and not hand.is_over
            and any(e.seat == 0 for e in hand.events)
        )


def public_view(hand: Hand) -> dict[str, Any]:
    """What a spectator sees: public cards and counts only."""
    knock = hand.knock_arrangement
    return {
        "seat": None,
        "phase": hand.phase.value,
        "current_player": hand.current_player,
        "dealer": hand.dealer,
        "discard_pile": " ".join(map(str, hand.discard_pile)),
        "known": [str(Cards.from_mask(m)) for m in hand.known_cards],
        "counts": [hand.hand_mask(0).bit_count(), hand.hand_mask(1).bit_count()],
        "stock_count": hand.stock_count,
        "knock_limit": hand.knock_limit,
        "multiplier": hand.multiplier,
        "upcard": None if hand.upcard is None else str(hand.upcard),
        "history": [event_to_dict(e.public(None)) for e in hand.events],
        "knocker": hand.knocker,
        "table_melds": [str(m) for m in hand.table_melds],
        "knocker_deadwood": "" if knock is None else str(knock.deadwood_cards),
        "layoffs": [[str(c), str(m)] for c, m in hand.layoffs],
        "hands": [str(hand.cards(0)), str(hand.cards(1))] if hand.is_over else None,
        "result": None if hand.result is None else result_to_dict(hand.result),
    }


def knock_options(hand: Hand) -> dict[str, list[str]]:
    """For each legal knock or gin: the minimum-deadwood arrangements to choose from."""
    out: dict[str, list[str]] = {}
    seat = hand.current_player
    if seat is None:
        return out
    for action in hand.legal_actions():
        if action.kind in (ActionKind.KNOCK, ActionKind.GIN) and action.card is not None:
            rest = hand.hand_mask(seat) & ~action.card.bit
            out[str(action)] = [str(a) for a in best_arrangements(rest)[:6]]
    return out


def _arrangement_info(cards: Cards) -> dict[str, Any]:
    if not cards:
        return {"melds": [], "deadwood": "", "count": 0}
    best = best_arrangements(cards)[0]
    return {
        "melds": [str(m) for m in best.melds],
        "deadwood": str(best.deadwood_cards),
        "count": best.deadwood,
    }


# -- the computer -----------------------------------------------------------------------------


def computer_action(table: Table, rng: random.Random) -> Action:
    hand = table.hand
    assert hand is not None and hand.current_player == COMPUTER_SEAT
    agent = _agent_for(table)
    view = hand.view(COMPUTER_SEAT, table.game.totals)
    action: Action = agent.act(view, rng)
    return action


_AGENTS: dict[tuple[str, int], Any] = {}


def _agent_for(table: Table) -> Any:
    key = (table.id, table.hand_number)
    agent = _AGENTS.get(key)
    if agent is None:
        level = table.options.level if table.options.level in LEVELS else "intermediate"
        try:
            agent = get_agent(level)
        except ValueError:
            agent = get_agent("simple")
        if hasattr(agent, "new_hand"):
            agent.new_hand()
        for old in [k for k in _AGENTS if k[0] == table.id]:
            del _AGENTS[old]
        _AGENTS[key] = agent
    return agent


def new_token() -> str:
    return secrets.token_urlsafe(24)


def rebuild_hand(rules: Rules, dealer: int, deck: str, actions: list[str]) -> Hand:
    hand = Hand.from_deck(rules, dealer, parse_cards(deck))
    for text in actions:
        hand.apply(text)
    return hand


__all__ = ["Deal", "Options", "Table", "commitment", "deck_text", "public_view", "token_hash"]
