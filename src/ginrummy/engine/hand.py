"""One hand as a state machine: the deal, the first upcard, draws, discards, knocks, layoffs,
the wall, and the result.

All state is held in immutable values (card masks, tuples), so a snapshot is a tuple of
references: :meth:`Hand.undo` restores one, :meth:`Hand.copy` is cheap, and an action that
raises leaves the hand exactly as it was.
"""

from __future__ import annotations

import random
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from .actions import (
    AUTO,
    BIG_GIN,
    DISCARDS,
    DONE,
    DRAW,
    GINS,
    KNOCKS,
    LAYOFFS,
    PASS,
    TAKE,
    Action,
    ActionKind,
    Event,
    to_action,
)
from .cards import DECK, SUIT_CARDS, Card, Cards, CardsLike, mask_cards, to_cards
from .errors import IllegalActionError, InvalidNotationError
from .masks import FULL_DECK_MASK, STOCK_FLOOR, SUIT_MASK
from .melds import (
    Arrangement,
    Meld,
    arrange,
    best_arrangement,
    deadwood_mask,
    discard_deadwoods_mask,
    layoff,
    min_discard_deadwood_mask,
)
from .results import HandResult
from .rules import Rules

if TYPE_CHECKING:
    from .records import HandRecord
    from .views import PlayerView


class Phase(StrEnum):
    FIRST_UPCARD = "first_upcard"  # non-dealer, then dealer: take or pass the first upcard
    DRAW = "draw"  # take the pile's top card or draw from the stock
    DISCARD = "discard"  # discard, knock, gin or big gin
    WALL = "wall"  # wall_pickup: take the last discard to knock with it, or pass
    LAYOFF = "layoff"  # the defender lays off onto the knocker's melds
    OVER = "over"


_FIELDS = (
    "_hands",
    "_stock_pos",
    "_pile",
    "_phase",
    "_turn",
    "_passes",
    "_taken",
    "_known",
    "_knocker",
    "_knock_card",
    "_knock_arr",
    "_melds",
    "_layoffs",
    "_wall_take",
    "_result",
)
_Snapshot = tuple[object, ...]


class Hand:
    """One deal from the shuffle to the result.

    >>> from ginrummy import Hand, Rules
    >>> hand = Hand.deal(Rules(), dealer=0, seed=7)
    >>> hand.current_player, hand.phase.value
    (1, 'first_upcard')
    >>> hand.apply("pass").action
    Action('pass')
    """

    __slots__ = (
        "_cache",
        "_history",
        "_order",
        "dealer",
        "deck",
        "events",
        "knock_limit",
        "multiplier",
        "rules",
        "upcard",
        *_FIELDS,
    )

    # The state. Every field holds an immutable value, so a snapshot is a tuple of references.
    _hands: tuple[int, int]  # card masks
    _stock_pos: int  # index into the deck of the stock's top card
    _pile: tuple[Card, ...]  # discard pile, bottom first
    _phase: Phase
    _turn: int
    _passes: int  # first-upcard passes so far
    _taken: Card | None  # taken from the pile this turn: may not be discarded this turn
    _known: tuple[int, int]  # cards each seat took from the pile and still holds (public)
    _knocker: int | None
    _knock_card: Card | None
    _knock_arr: Arrangement | None
    _melds: tuple[Meld, ...]  # the knocker's melds, extended by layoffs
    _layoffs: tuple[tuple[Card, Meld], ...]  # (card, meld as it was when the card went on)
    _wall_take: bool  # the pile card was taken at the wall: the turn must end in a knock
    _result: HandResult | None

    def __init__(self, rules: Rules, dealer: int, deck: CardsLike) -> None:
        cards = to_cards(deck)
        if len(cards) != 52:
            raise InvalidNotationError(f"a deck has 52 cards, not {len(cards)}")
        if dealer not in (0, 1):
            raise IllegalActionError(f"the dealer is seat 0 or 1, not {dealer!r}")
        self.rules = rules
        self.dealer = dealer
        self.deck: Cards = cards
        self._order: tuple[Card, ...] = tuple(cards)  # the deck as a plain tuple, for speed
        non_dealer = 1 - dealer
        hands = [0, 0]
        for i in range(20):
            hands[non_dealer if i % 2 == 0 else dealer] |= cards[i].bit
        if rules.deal == "eleven":
            hands[non_dealer] |= cards[20].bit
            self.upcard: Card | None = None
            pile: tuple[Card, ...] = ()
            phase = Phase.DISCARD
        else:
            self.upcard = cards[20]
            pile = (cards[20],)
            phase = Phase.FIRST_UPCARD
        self.knock_limit = rules.knock_limit_for(self.upcard)
        self.multiplier = rules.hand_multiplier(self.upcard)
        self._restore(
            (
                (hands[0], hands[1]),
                21,
                pile,
                phase,
                non_dealer,
                0,
                None,
                (0, 0),
                None,
                None,
                None,
                (),
                (),
                False,
                None,
            )
        )
        self._history: list[_Snapshot] = []
        self.events: list[Event] = []
        self._cache: tuple[int, dict[int, int]] | None = None

    # -- construction --------------------------------------------------------------------

    @classmethod
    def deal(cls, rules: Rules, dealer: int, seed: int | str | random.Random | None) -> Hand:
        """Shuffle with ``seed`` (an int, or a ``random.Random`` to draw from) and deal."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        return cls(rules, dealer, Cards._trusted(tuple(deck), FULL_DECK_MASK))

    @classmethod
    def from_deck(cls, rules: Rules, dealer: int, deck: CardsLike) -> Hand:
        """Deal a given deck, top card first."""
        return cls(rules, dealer, deck)

    def copy(self) -> Hand:
        """An independent copy (shares only immutable values)."""
        other = object.__new__(Hand)
        for name in (
            "rules",
            "dealer",
            "deck",
            "_order",
            "upcard",
            "knock_limit",
            "multiplier",
            "_cache",
            *_FIELDS,
        ):
            object.__setattr__(other, name, getattr(self, name))
        other._history = list(self._history)
        other.events = list(self.events)
        return other

    def _snapshot(self) -> _Snapshot:
        return (
            self._hands,
            self._stock_pos,
            self._pile,
            self._phase,
            self._turn,
            self._passes,
            self._taken,
            self._known,
            self._knocker,
            self._knock_card,
            self._knock_arr,
            self._melds,
            self._layoffs,
            self._wall_take,
            self._result,
        )

    def _restore(self, snap: _Snapshot) -> None:
        (
            self._hands,
            self._stock_pos,
            self._pile,
            self._phase,
            self._turn,
            self._passes,
            self._taken,
            self._known,
            self._knocker,
            self._knock_card,
            self._knock_arr,
            self._melds,
            self._layoffs,
            self._wall_take,
            self._result,
        ) = snap  # type: ignore[assignment]

    # -- state ----------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        return None if self._phase is Phase.OVER else self._turn

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def result(self) -> HandResult | None:
        return self._result

    def cards(self, seat: int) -> Cards:
        """The cards ``seat`` holds, in card order."""
        return Cards.from_mask(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def stock(self) -> Cards:
        """The stock, top card first."""
        return Cards(self.deck[self._stock_pos :])

    @property
    def stock_count(self) -> int:
        return 52 - self._stock_pos

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first."""
        return self._pile

    @property
    def known_cards(self) -> tuple[int, int]:
        """Per seat, the mask of cards it took from the pile and still holds (public)."""
        return self._known

    @property
    def knocker(self) -> int | None:
        return self._knocker

    @property
    def knock_arrangement(self) -> Arrangement | None:
        return self._knock_arr

    @property
    def knock_card(self) -> Card | None:
        return self._knock_card

    @property
    def table_melds(self) -> tuple[Meld, ...]:
        """The knocker's melds as extended by the layoffs so far."""
        return self._melds

    @property
    def layoffs(self) -> tuple[tuple[Card, Meld], ...]:
        return self._layoffs

    @property
    def taken_card(self) -> Card | None:
        """The card taken from the pile this turn, which may not be discarded this turn."""
        return self._taken

    @property
    def actions(self) -> list[str]:
        """The canonical text of every action applied so far."""
        return [str(e.action) for e in self.events]

    # -- legal actions ----------------------------------------------------------------------

    def _discard_table(self, mask: int) -> dict[int, int]:
        cache = self._cache
        if cache is not None and cache[0] == mask:
            return cache[1]
        table = discard_deadwoods_mask(mask)
        self._cache = (mask, table)
        return table

    def legal_actions(self) -> list[Action]:
        """The current player's legal actions (knocks in their default arrangement)."""
        phase = self._phase
        if phase is Phase.DRAW:
            return [DRAW] if self._passes == 2 else [TAKE, DRAW]
        if phase is Phase.DISCARD:
            return self._discard_phase_actions()
        if phase is Phase.FIRST_UPCARD:
            return [TAKE, PASS]
        if phase is Phase.LAYOFF:
            return [LAYOFFS[c.index] for c in self._layoff_cards()] + [DONE, AUTO]
        if phase is Phase.WALL:
            return [TAKE, PASS] if self._wall_take_can_knock() else [PASS]
        return []

    def _discard_phase_actions(self) -> list[Action]:
        mask = self._hands[self._turn]
        taken = self._taken
        limit = self.knock_limit
        knocks: list[Action] = []
        gins: list[Action] = []
        if min_discard_deadwood_mask(mask) <= limit:
            table = self._discard_table(mask)
            for idx in sorted(table):
                if taken is not None and idx == taken.index:
                    continue
                dw = table[idx]
                if dw == 0:
                    gins.append(GINS[idx])
                elif dw <= limit:
                    knocks.append(KNOCKS[idx])
        big = [BIG_GIN] if self.rules.big_gin and deadwood_mask(mask) == 0 else []
        if self.rules.must_gin and (gins or big):
            return gins + big
        if self._wall_take:
            return gins + knocks + big
        if taken is not None:
            mask &= ~taken.bit
        t = SUIT_DISCARDS
        discards = (
            t[0][mask & SUIT_MASK]
            + t[1][(mask >> 13) & SUIT_MASK]
            + t[2][(mask >> 26) & SUIT_MASK]
            + t[3][mask >> 39]
        )
        return [*discards, *knocks, *gins, *big]

    def _layoff_cards(self) -> list[Card]:
        melds = self._melds
        return [c for c in mask_cards(self._hands[self._turn]) if any(m.accepts(c) for m in melds)]

    def _wall_take_can_knock(self) -> bool:
        card = self._pile[-1]
        mask = self._hands[self._turn] | card.bit
        table = discard_deadwoods_mask(mask)
        return any(v <= self.knock_limit for i, v in table.items() if i != card.index)

    # -- checking ---------------------------------------------------------------------------

    def is_legal(self, action: Action | str, seat: int | None = None) -> bool:
        try:
            self.check(action, seat)
        except (IllegalActionError, InvalidNotationError):
            return False
        return True

    def check(self, action: Action | str, seat: int | None = None) -> Action:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal now.

        ``seat``, when given, is who is trying to act (for out-of-turn moves).
        Returns the parsed action.
        """
        a = to_action(action)
        self._check(a, seat)
        return a

    def _check(self, a: Action, seat: int | None) -> Arrangement | None:
        phase = self._phase
        kind = a.kind
        if phase is Phase.OVER:
            raise IllegalActionError("the hand is over")
        if seat is not None and seat != self._turn:
            raise IllegalActionError(f"it is not your turn: seat {self._turn} is to {_verb(phase)}")
        if phase is Phase.DISCARD:
            return self._check_discard_phase(a)
        if phase is Phase.DRAW:
            if kind is ActionKind.DRAW:
                return None
            if kind is ActionKind.TAKE:
                if self._passes == 2:
                    raise IllegalActionError(
                        "both players passed the upcard: the non-dealer must draw from the stock"
                    )
                return None
            raise IllegalActionError(
                f"'{a}' is not allowed now: draw from the stock or take "
                f"the top card of the discard pile"
            )
        if phase is Phase.FIRST_UPCARD:
            if kind not in (ActionKind.TAKE, ActionKind.PASS):
                raise IllegalActionError(
                    f"'{a}' is not allowed now: take or pass the first upcard {self._pile[-1]}"
                )
            return None
        if phase is Phase.WALL:
            if kind is ActionKind.PASS:
                return None
            if kind is ActionKind.TAKE:
                if not self._wall_take_can_knock():
                    raise IllegalActionError(
                        f"at the wall {self._pile[-1]} may be taken only to knock with it, "
                        f"and it gives no knock"
                    )
                return None
            raise IllegalActionError(f"'{a}' is not allowed at the wall: take (to knock) or pass")
        # LAYOFF
        if kind in (ActionKind.DONE, ActionKind.AUTO):
            return None
        if kind is not ActionKind.LAYOFF:
            raise IllegalActionError(f"'{a}' is not allowed now: lay off a card, done or auto")
        card = a.card
        assert card is not None
        if not self._hands[self._turn] & card.bit:
            raise IllegalActionError(f"you do not hold {card}")
        if not any(m.accepts(card) for m in self._melds):
            raise IllegalActionError(f"{card} does not fit any of the knocker's melds")
        return None

    def _check_discard_phase(self, a: Action) -> Arrangement | None:
        kind = a.kind
        mask = self._hands[self._turn]
        if kind is ActionKind.BIG_GIN:
            if not self.rules.big_gin:
                raise IllegalActionError("big gin is not played under these rules")
            if deadwood_mask(mask) != 0:
                raise IllegalActionError("big gin needs all 11 cards melded")
            return self._named_arrangement(a, mask, 0)
        if kind not in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN):
            raise IllegalActionError(f"'{a}' is not allowed now: discard, knock or gin")
        card = a.card
        assert card is not None
        if not mask & card.bit:
            raise IllegalActionError(f"you do not hold {card}")
        if card is self._taken:
            raise IllegalActionError(
                f"{card} was just taken from the discard pile and may not be discarded this turn"
            )
        if kind is ActionKind.DISCARD:
            if self._wall_take:
                raise IllegalActionError("a card taken at the wall must be used to knock")
            if self.rules.must_gin and self._can_gin(mask):
                raise IllegalActionError("you can go gin, and these rules say you must")
            return None
        arrangement = self._named_arrangement(a, mask & ~card.bit, None)
        assert arrangement is not None
        dw = arrangement.deadwood
        if kind is ActionKind.GIN:
            if dw != 0:
                raise IllegalActionError(f"not gin: {dw} deadwood after discarding {card}")
            return arrangement
        if dw == 0:
            raise IllegalActionError(f"that is gin: use 'gin {card}'")
        if dw > self.knock_limit:
            if self.knock_limit == 0:
                raise IllegalActionError(f"deadwood {dw}: only gin ends this hand")
            raise IllegalActionError(f"deadwood {dw} over the knock limit {self.knock_limit}")
        if self.rules.must_gin and self._can_gin(mask):
            raise IllegalActionError("you can go gin, and these rules say you must")
        return arrangement

    def _can_gin(self, mask: int) -> bool:
        taken = self._taken
        table = self._discard_table(mask)
        if any(v == 0 for i, v in table.items() if taken is None or i != taken.index):
            return True
        return self.rules.big_gin and deadwood_mask(mask) == 0

    def _named_arrangement(self, a: Action, rest: int, need: int | None) -> Arrangement | None:
        if a.melds is None:
            return best_arrangement(rest)
        try:
            arrangement = arrange(rest, a.melds)
        except InvalidNotationError as exc:
            raise IllegalActionError(str(exc)) from None
        if need is not None and arrangement.deadwood != need:
            raise IllegalActionError(f"those melds leave {arrangement.deadwood} deadwood")
        return arrangement

    # -- applying ----------------------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> Event:
        """Apply a legal action (or its text); return the event, also appended to ``events``.

        ``seat``, when given, is who is acting: another seat's turn raises. Raises
        :class:`IllegalActionError` (or :class:`InvalidNotationError` for bad text) and
        changes nothing when the action is not legal.
        """
        a = action if isinstance(action, Action) else Action.parse(action)
        arrangement = self._check(a, seat)
        before = self._snapshot()
        try:
            event = self._do(a, arrangement)
        except BaseException:
            self._restore(before)
            raise
        self._history.append(before)
        self.events.append(event)
        return event

    def undo(self) -> Event:
        """Take back the last action; returns its event."""
        if not self._history:
            raise IllegalActionError("nothing to undo")
        self._restore(self._history.pop())
        return self.events.pop()

    def _do(self, a: Action, arrangement: Arrangement | None) -> Event:
        seat = self._turn
        number = len(self.events) + 1
        kind = a.kind
        if kind is ActionKind.DRAW:
            card = self._order[self._stock_pos]
            h = self._hands
            self._hands = (h[0] | card.bit, h[1]) if seat == 0 else (h[0], h[1] | card.bit)
            self._stock_pos += 1
            self._phase = Phase.DISCARD
            self._passes = 0
            return Event(number, seat, a, card)
        if kind is ActionKind.DISCARD:
            discarded = a.card
            assert discarded is not None
            card = discarded
            h = self._hands
            self._hands = (h[0] & ~card.bit, h[1]) if seat == 0 else (h[0], h[1] & ~card.bit)
            self._pile += (card,)
            self._taken = None
            if self._known[seat] & card.bit:
                self._known = _remove(self._known, seat, card.bit)
            self._turn = 1 - seat
            if self._stock_pos >= 52 - STOCK_FLOOR:
                if self.rules.wall_pickup:
                    self._phase = Phase.WALL
                else:
                    self._end(HandResult.dead())
            else:
                self._phase = Phase.DRAW
            return Event(number, seat, a, card)
        if kind is ActionKind.TAKE:
            card = self._pile[-1]
            self._wall_take = self._phase is Phase.WALL
            self._hands = _add(self._hands, seat, card.bit)
            self._known = _add(self._known, seat, card.bit)
            self._pile = self._pile[:-1]
            self._phase = Phase.DISCARD
            self._taken = card
            self._passes = 0
            return Event(number, seat, a, card)
        if kind is ActionKind.PASS:
            if self._phase is Phase.WALL:
                self._end(HandResult.dead())
            else:
                self._passes += 1
                self._turn = 1 - seat
                if self._passes == 2:
                    self._phase = Phase.DRAW
            return Event(number, seat, a)
        if kind is ActionKind.LAYOFF:
            assert a.card is not None
            self._lay_off(seat, [a.card])
            return Event(number, seat, a, a.card)
        if kind is ActionKind.AUTO:
            best = layoff(self._hands[seat], self._melds)
            cards = [card for card, _ in best.layoffs]
            self._lay_off(seat, cards, [i for _, i in best.layoffs])
            self._finish_knock()
            return Event(number, seat, a, None, tuple(cards))
        if kind is ActionKind.DONE:
            self._finish_knock()
            return Event(number, seat, a)
        return self._knock(a, arrangement, number)

    def _lay_off(self, seat: int, cards: list[Card], where: list[int] | None = None) -> None:
        """Lay cards off one at a time onto the melds at ``where`` (the solver's choice), or
        each onto a run that takes it, else the set that does.

        A card that fits both a 3-set and a run goes onto the run: the set can take no other
        card, while the run can then take the next card of the chain (8s onto 5s6s7s, then 9s).
        """
        melds = list(self._melds)
        layoffs = list(self._layoffs)
        for n, card in enumerate(cards):
            if where is not None:
                i = where[n]
            else:
                fits = [i for i, m in enumerate(melds) if m.accepts(card)]
                i = next((i for i in fits if melds[i].kind == "run"), fits[0])
            layoffs.append((card, melds[i]))
            melds[i] = melds[i].with_card(card)
            self._hands = _remove(self._hands, seat, card.bit)
            self._known = _remove(self._known, seat, card.bit)
        self._melds = tuple(melds)
        self._layoffs = tuple(layoffs)

    def _knock(self, a: Action, arrangement: Arrangement | None, number: int) -> Event:
        seat = self._turn
        other = 1 - seat
        assert arrangement is not None
        card = a.card
        if card is not None:
            self._hands = _remove(self._hands, seat, card.bit)
            self._known = _remove(self._known, seat, card.bit)
        self._knocker = seat
        self._knock_card = card
        self._knock_arr = arrangement
        self._melds = arrangement.melds
        self._taken = None
        self._wall_take = False
        self._turn = other
        if a.kind is ActionKind.KNOCK:
            self._phase = Phase.LAYOFF
        else:
            defender = best_arrangement(self._hands[other])
            make = HandResult.gin if a.kind is ActionKind.GIN else HandResult.big_gin
            result = make(self.rules, seat, defender.deadwood, self.multiplier)
            self._end(
                replace(result, knocker_arrangement=arrangement, defender_arrangement=defender)
            )
        return Event(number, seat, a, card)

    def _finish_knock(self) -> None:
        knocker = self._knocker
        assert knocker is not None and self._knock_arr is not None
        defender = best_arrangement(self._hands[1 - knocker])
        result = HandResult.knock(
            self.rules, knocker, self._knock_arr.deadwood, defender.deadwood, self.multiplier
        )
        self._end(
            replace(
                result,
                knocker_arrangement=self._knock_arr,
                defender_arrangement=defender,
                layoffs=self._layoffs,
            )
        )

    def _end(self, result: HandResult) -> None:
        self._phase = Phase.OVER
        self._result = result

    # -- views and records ---------------------------------------------------------------

    def view(self, seat: int, scores: tuple[int, int] = (0, 0)) -> PlayerView:
        """What ``seat`` knows: never the opponent's hidden cards or the stock order.

        ``scores`` is the game score to carry in the view, for players that weigh it.
        """
        from .views import view_of

        return view_of(self, seat, scores)

    def record(self) -> HandRecord:
        """The hand's record: rules, dealer, deck and actions; it replays exactly."""
        from .records import HandRecord

        return HandRecord.of(self)

    def __repr__(self) -> str:
        return (
            f"<Hand dealer={self.dealer} phase={self.phase.value} "
            f"turn={self.current_player} stock={self.stock_count}>"
        )

    def __str__(self) -> str:
        lines = [repr(self)]
        for seat in (0, 1):
            lines.append(f"seat {seat}: {self.cards(seat)}  ({deadwood_mask(self._hands[seat])})")
        lines.append(f"pile: {' '.join(map(str, self._pile)) or '-'}")
        return "\n".join(lines)


SUIT_DISCARDS: Final = tuple(
    tuple(tuple(DISCARDS[c.index] for c in cards) for cards in by_pattern)
    for by_pattern in SUIT_CARDS
)


def _add(pair: tuple[int, int], seat: int, bits: int) -> tuple[int, int]:
    return (pair[0] | bits, pair[1]) if seat == 0 else (pair[0], pair[1] | bits)


def _remove(pair: tuple[int, int], seat: int, bits: int) -> tuple[int, int]:
    return (pair[0] & ~bits, pair[1]) if seat == 0 else (pair[0], pair[1] & ~bits)


def _verb(phase: Phase) -> str:
    return {
        Phase.FIRST_UPCARD: "take or pass the upcard",
        Phase.DRAW: "draw",
        Phase.DISCARD: "discard",
        Phase.WALL: "take or pass at the wall",
        Phase.LAYOFF: "lay off",
        Phase.OVER: "nothing",
    }[phase]


__all__ = ["Hand", "Phase"]
