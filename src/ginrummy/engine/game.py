"""A game: a series of hands under one set of rules, its dealers, its score and its record.

A game is either played in the engine (:meth:`Game.deal_hand`, then :meth:`Game.finish_hand`)
or scored from results entered by hand for play with real cards (:meth:`Game.record`); the two
can be mixed. Scoring itself is in :mod:`.scoring`; the score sheet in :mod:`.sheet`.

Dealing decisions:

* The first dealer is cut for (``rules.first_dealer == "cut"``): each player cuts a card from
  the game's seeded generator, the low card deals (ace low, suits do not count) and equal ranks
  cut again; every cut is kept. ``"fixed"`` uses ``rules.first_dealer_seat``; a caller playing
  with real cards may name the first dealer instead.
* After a hand that scored, ``rules.next_dealer`` decides; after a dead hand, and after a tied
  knock that scores nothing (``undercut_on_tie`` off), ``rules.dead_hand_dealer`` does: a hand
  nobody won is treated as a drawn hand.
* Hand ``n`` is dealt from :func:`hand_seed` ``(seed, n)``, so a game replays exactly.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import DECK, Card, Cards, parse_cards
from .errors import GinRummyError, IllegalActionError, InvalidNotationError, check_int, check_seat
from .results import HandResult
from .rules import Rules
from .scoring import Column, GameFinal, Tally
from .serial import json_object, result_from_dict, result_to_dict

if TYPE_CHECKING:
    from .hand import Hand
    from .sheet import ScoreSheet

RECORD_FORMAT = "ginrummy-game"
RECORD_VERSION = 1
Cut = tuple[Card, Card]


def hand_seed(seed: int, number: int) -> int:
    """The seed of hand ``number`` (1-based) of the game with ``seed``: 64 bits of SHA-256."""
    digest = hashlib.sha256(f"ginrummy:{seed}:hand:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def derived_seed(seed: int, label: str) -> int:
    """A seed derived from ``seed`` for a named purpose (a match's games use ``game:<n>``)."""
    digest = hashlib.sha256(f"ginrummy:{seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def cut_dealer(cut: Cut) -> int | None:
    """Who deals after the cut ``(player 1's card, player 2's card)``: the low card (ace low);
    ``None`` when the ranks are equal and they cut again."""
    first, second = cut
    if first == second:
        raise GinRummyError(f"both players cannot cut the same card ({first})")
    if first.rank == second.rank:
        return None
    return 0 if first.rank < second.rank else 1


def cut_for_deal(rng: random.Random) -> tuple[int, tuple[Cut, ...]]:
    """Both players cut a card (player 1's first); the low card deals, equal ranks cut again.
    Returns the dealer's seat and every cut."""
    cuts: list[Cut] = []
    while True:
        first, second = rng.sample(DECK, 2)
        cuts.append((first, second))
        dealer = cut_dealer((first, second))
        if dealer is not None:
            return dealer, tuple(cuts)


def next_dealer(rules: Rules, dealer: int, result: HandResult) -> int:
    """Who deals after ``dealer`` dealt the hand that ended in ``result``."""
    winner = result.winner
    if winner is None:
        return dealer if rules.dead_hand_dealer == "same" else 1 - dealer
    if rules.next_dealer == "winner":
        return winner
    if rules.next_dealer == "loser":
        return 1 - winner
    return 1 - dealer


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand of a game. Engine hands keep their deck (top first) and their actions' canonical
    text; results entered by hand have neither."""

    number: int
    dealer: int
    result: HandResult
    action_texts: tuple[str, ...] | None = None
    deck: tuple[Card, ...] | None = None


class Game:
    """A game of gin rummy: hands until a player reaches ``rules.game_target`` (in every column,
    under Hollywood scoring).

    >>> from ginrummy.engine.results import HandResult
    >>> game = Game(Rules(), seed=7, first_dealer=0)
    >>> entry = game.record(HandResult.knock(game.rules, 1, 8, 32))
    >>> game.totals, game.dealer
    ((0, 24), 1)
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.seed = (
            check_int(seed, "the seed")
            if seed is not None
            else random.SystemRandom().randrange(1 << 63)
        )
        self.cuts: tuple[Cut, ...] = ()
        if first_dealer is not None:
            self.first_dealer = check_seat(first_dealer, "the first dealer")
        elif self.rules.first_dealer == "cut":
            rng = random.Random(derived_seed(self.seed, "cut"))
            self.first_dealer, self.cuts = cut_for_deal(rng)
        else:
            self.first_dealer = self.rules.first_dealer_seat
        self._entries: list[HandEntry] = []
        self._tallies: list[Tally] = [Tally.start(self.rules)]
        self._dealers: list[int] = [self.first_dealer]

    # -- state -------------------------------------------------------------------------------

    @property
    def hands(self) -> tuple[HandEntry, ...]:
        return tuple(self._entries)

    @property
    def tally(self) -> Tally:
        return self._tallies[-1]

    @property
    def dealer(self) -> int:
        """Who deals the next hand (after the last hand: who would deal next)."""
        return self._dealers[-1]

    @property
    def number(self) -> int:
        """The number of the next hand (1-based)."""
        return len(self._entries) + 1

    @property
    def totals(self) -> tuple[int, int]:
        """Running hand points (summed over the three columns under Hollywood scoring)."""
        return self.tally.totals

    @property
    def columns(self) -> tuple[Column, ...]:
        return self.tally.columns

    @property
    def is_over(self) -> bool:
        return self.tally.is_over

    @property
    def winner(self) -> int | None:
        """Once the game is over, the player credited with its net (see :class:`GameFinal`)."""
        return self.final().winner if self.is_over else None

    def final(self) -> GameFinal:
        """The end-of-game score; raises ``IllegalActionError`` while the game is on."""
        return self.tally.final()

    def sheet(self, names: tuple[str, str] = ("Player 1", "Player 2")) -> ScoreSheet:
        from .sheet import game_sheet

        return game_sheet(self, names)

    # -- entering hands ----------------------------------------------------------------------

    def record(self, result: HandResult) -> HandEntry:
        """Enter the result of a hand played with real cards."""
        return self._add(result, None, None)

    def undo(self) -> HandEntry:
        """Remove the last hand and return it; the game is exactly as it was before it."""
        if not self._entries:
            raise IllegalActionError("there is no hand to undo")
        self._tallies.pop()
        self._dealers.pop()
        return self._entries.pop()

    def deal_hand(self) -> Hand:
        """Deal the next hand in the engine, with the current dealer and the hand's seed."""
        from .hand import Hand

        if self.is_over:
            raise IllegalActionError("the game is over")
        return Hand.deal(self.rules, self.dealer, hand_seed(self.seed, self.number))

    def finish_hand(self, hand: Hand) -> HandEntry:
        """Score a finished engine hand, keeping its deck and actions for the record.

        The hand must have been dealt by the game's dealer under the game's rules: the record
        replays it so, and a hand dealt otherwise would not replay to its result.
        """
        if hand.result is None:
            raise IllegalActionError("the hand is not over")
        if hand.rules != self.rules:
            raise IllegalActionError("the hand was not played under the game's rules")
        if hand.dealer != self.dealer:
            raise IllegalActionError(
                f"the hand was dealt by seat {hand.dealer}, but seat {self.dealer} deals it"
            )
        return self._add(hand.result, tuple(hand.action_texts), tuple(hand.deck))

    def _add(
        self,
        result: HandResult,
        action_texts: tuple[str, ...] | None,
        deck: tuple[Card, ...] | None,
    ) -> HandEntry:
        tally = self.tally.add(result)
        entry = HandEntry(self.number, self.dealer, result, action_texts, deck)
        self._tallies.append(tally)
        self._dealers.append(next_dealer(self.rules, self.dealer, result))
        self._entries.append(entry)
        return entry

    # -- records -----------------------------------------------------------------------------

    def to_record(self) -> GameRecord:
        return GameRecord(self.rules, self.seed, self.first_dealer, self.cuts, self.hands)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to replay a game: rules, seed, the first dealer and how he was chosen,
    and every hand (its result, and for engine hands the deck and actions)."""

    rules: Rules
    seed: int
    first_dealer: int
    cuts: tuple[Cut, ...]
    hands: tuple[HandEntry, ...]

    def replay(self, *, play: bool = False) -> Game:
        """Rebuild the game. With ``play``, engine hands are played again from their deck and
        actions and must end in the recorded result."""
        game = Game(self.rules, self.seed, first_dealer=None if self.cuts else self.first_dealer)
        if (game.first_dealer, game.cuts) != (self.first_dealer, self.cuts):
            raise GinRummyError("the record's cut does not follow from its seed")
        for entry in self.hands:
            if entry.dealer != game.dealer:
                raise GinRummyError(f"hand {entry.number}: the record's dealer is not the rules'")
            result = entry.result
            if play and entry.action_texts is not None:
                result = _play_again(self.rules, entry)
            game._add(result, entry.action_texts, entry.deck)
        return game

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "cuts": [[str(a), str(b)] for a, b in self.cuts],
            "hands": [_entry_to_dict(e) for e in self.hands],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        if data.get("format") != RECORD_FORMAT or data.get("version") != RECORD_VERSION:
            raise GinRummyError("not a version 1 game record")
        try:
            cuts = tuple((Card.parse(a), Card.parse(b)) for a, b in data["cuts"])
            hands = tuple(_entry_from_dict(n, h) for n, h in enumerate(data["hands"], 1))
            return cls(
                Rules.from_dict(data["rules"]),
                check_int(data["seed"], "the seed"),
                check_seat(data["first_dealer"], "the first dealer"),
                cuts,
                hands,
            )
        except GinRummyError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidNotationError(f"bad game record: {exc!r}") from None

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        return cls.from_dict(json_object(text, "game record"))


def _play_again(rules: Rules, entry: HandEntry) -> HandResult:
    from .hand import Hand

    if entry.deck is None:
        raise GinRummyError(f"hand {entry.number}: the record has actions but no deck")
    hand = Hand.from_deck(rules, entry.dealer, Cards(entry.deck))
    for text in entry.action_texts or ():
        hand.apply(text)
    if hand.result is None or _scoring_facts(hand.result) != _scoring_facts(entry.result):
        raise GinRummyError(f"hand {entry.number}: replaying the actions gives another result")
    return hand.result


# -- plain-data forms ------------------------------------------------------------------------


def _scoring_facts(result: HandResult) -> tuple[object, ...]:
    return (
        result.kind,
        result.knocker,
        result.winner,
        result.points,
        result.knocker_deadwood,
        result.defender_deadwood,
        result.multiplier,
    )


def _entry_to_dict(entry: HandEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"dealer": entry.dealer, "result": result_to_dict(entry.result)}
    if entry.action_texts is not None:
        out["actions"] = list(entry.action_texts)
    if entry.deck is not None:
        out["deck"] = " ".join(str(c) for c in entry.deck)
    return out


def _entry_from_dict(number: int, data: dict[str, Any]) -> HandEntry:
    actions = data.get("actions")
    deck = data.get("deck")
    return HandEntry(
        number,
        check_seat(data["dealer"], f"the dealer of hand {number}"),
        result_from_dict(data["result"]),
        None if actions is None else tuple(str(a) for a in actions),
        None if deck is None else tuple(parse_cards(deck)),
    )
