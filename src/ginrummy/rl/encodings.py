"""Observation encodings, chosen by name: ``default``, ``rlcard``, ``infostate``, ``openspiel``.

An encoding is a factory that, given the environment's options, makes one :class:`Encoder` per
seat. An encoder sees each event of the hand as its seat saw it (:meth:`Encoder.see`) and turns
its seat's :class:`~ginrummy.rl.knowledge.Knowledge` into a float32 array of a fixed shape
(:meth:`Encoder.encode`). Because its only inputs are the seat's knowledge and the events the
seat saw, no encoding can show the opponent's hidden cards or the stock.

Researchers add their own with :func:`register_encoding`, or from a function of the engine's
:class:`~ginrummy.engine.PlayerView` with :func:`view_encoding`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from ..engine import ActionKind, Card, Event, Phase, PlayerView
from ..engine.masks import STOCK_FLOOR
from .knowledge import FULL, Knowledge

if TYPE_CHECKING:
    from .options import EnvOptions

Array = npt.NDArray[np.float32]


class Encoder:
    """One seat's encoder. Subclasses set ``shape`` (and ``low``/``high``) and ``encode``."""

    shape: tuple[int, ...] = ()
    low: float = 0.0
    high: float = 1.0

    def new_hand(self, knowledge: Knowledge) -> None:
        """A hand has been dealt (called before any :meth:`see` of it)."""

    def see(self, event: Event, knowledge: Knowledge) -> None:
        """``event`` happened, as this seat saw it; ``knowledge`` is already after it."""

    def encode(self, knowledge: Knowledge) -> Array:
        """This seat's observation now: a new float32 array of ``shape``."""
        raise NotImplementedError


EncoderFactory = Callable[["EnvOptions"], Encoder]


# -- helpers -------------------------------------------------------------------------------------


def unpack(bits: int, count: int) -> npt.NDArray[np.uint8]:
    """The low ``count`` bits of ``bits`` as 0/1 bytes, bit 0 first: one numpy call for every
    plane at once, the planes laid side by side in one Python integer. (The integer is written
    big-endian and unpacked most significant bit first, then read backwards: numpy's default
    bit order is the fast one.)"""
    size = (count + 7) // 8
    raw = np.unpackbits(np.frombuffer(bits.to_bytes(size, "big"), np.uint8))
    return raw[: 8 * size - count - 1 : -1] if 8 * size > count else raw[::-1]


def pile_mask(pile: tuple[Card, ...]) -> int:
    mask = 0
    for card in pile:
        mask |= card.bit
    return mask


# -- default -------------------------------------------------------------------------------------

#: The card planes of the default encoding, 52 values each (1 where the card is in the set).
DEFAULT_PLANES: Final = (
    "hand",  # this seat's cards
    "opponent_known",  # the opponent's cards it knows (all of them once the hand is over)
    "pile",  # the discard pile
    "top",  # the pile's top card
    "discarded_by_me",  # every card this seat discarded this hand (knock and gin cards too)
    "discarded_by_opponent",  # the same for the opponent (its knock card once it is shown)
    "declined_by_opponent",  # pile tops the opponent passed, or drew from the stock instead of
    "unseen",  # cards this seat has never seen: the stock and the opponent's unknown cards
    "taken",  # the card this seat took from the pile this turn (it may not discard it now)
    "table",  # after a knock: the knocker's melds with the cards laid off on them
    "knocker_deadwood",  # after a knock: the knocker's deadwood
    "laid_off",  # after a knock: the cards the defender laid off
)
#: The 0/1 values after the card planes.
DEFAULT_FLAGS: Final = (
    *(f"phase_{p.value}" for p in Phase),  # one-hot: the hand's phase
    "my_turn",
    "i_dealt",
    "i_knocked",
    "opponent_knocked",
    "doubled",  # the hand scores double (an Oklahoma spade upcard)
)
#: The plane after the flags: the discard pile's order, a card's place in the pile counted
#: from the bottom (1/32 for the bottom card, 2/32 for the next, ...; 0 when not in the pile).
RECENCY_PLANE: Final = "pile_order"
#: The numbers at the end, each in [0, 1].
DEFAULT_NUMBERS: Final = (
    "stock",  # cards left in the stock / 31
    "hand_count",  # cards this seat holds / 11
    "opponent_count",  # cards the opponent holds / 11
    "pile_count",  # cards in the discard pile / 32
    "knock_limit",  # this hand's knock limit / 10 (Oklahoma's upcard sets it)
    "score",  # this seat's game score / the game target (x3 in Hollywood), at most 1
    "opponent_score",
    "match_score",  # this seat's match points / the match target, at most 1 (match mode)
    "opponent_match_score",
)
_BITS: Final = 52 * len(DEFAULT_PLANES) + len(DEFAULT_FLAGS)
_ORDER: Final = _BITS + 52
DEFAULT_SIZE: Final = _ORDER + len(DEFAULT_NUMBERS)
_PILE_DEPTH: Final = 32
#: The numbers that change within a hand, looked up rather than divided.
_STOCK: Final = tuple(min(1.0, n / 31) for n in range(53))
_CARDS: Final = tuple(n / 11 for n in range(53))
_PILE: Final = tuple(min(1.0, n / _PILE_DEPTH) for n in range(53))
_FLAGS: Final = 52 * len(DEFAULT_PLANES)
#: The flag bit of each phase.
_PHASE_BITS: Final = {p: 1 << (_FLAGS + i) for i, p in enumerate(Phase)}
_MY_TURN, _I_DEALT, _I_KNOCKED, _THEY_KNOCKED, _DOUBLED = (
    1 << (_FLAGS + len(Phase) + i) for i in range(5)
)


#: Where the planes, the dynamic flags, the pile's order and the numbers begin.
_PILE_ORDER: Final = _BITS
_HAND, _KNOWN, _IN_PILE, _TOP, _MINE, _THEIRS, _DECLINED, _UNSEEN, _TAKEN = (
    52 * i for i in range(9)
)
_PHASE_AT: Final = {p: _FLAGS + i for i, p in enumerate(Phase)}
_MY_TURN_AT: Final = _FLAGS + len(Phase)
(
    _STOCK_AT,
    _MY_COUNT_AT,
    _THEIR_COUNT_AT,
    _PILE_COUNT_AT,
    _KNOCK_LIMIT_AT,
    _SCORE_AT,
    _THEIR_SCORE_AT,
    _MATCH_AT,
    _THEIR_MATCH_AT,
) = range(_ORDER, DEFAULT_SIZE)
#: The bits that change with the turn rather than with an event: a running encoding leaves
#: them 0 and sets them at :meth:`DefaultEncoder.encode`.
_TURN_BITS: Final = sum(_PHASE_BITS.values()) | _MY_TURN | (FULL << _TAKEN)
#: The actions after which the planes are worked out afresh (the table, the knock card, the
#: hand's end): rare, and each changes much at once.
_KNOCKS: Final = frozenset({ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN})
#: The kinds :meth:`DefaultEncoder.see` tells apart, as plain names (read at every event).
_DISCARD_KIND, _TAKE_KIND, _DRAW_KIND, _PASS_KIND = (
    ActionKind.DISCARD,
    ActionKind.TAKE,
    ActionKind.DRAW,
    ActionKind.PASS,
)


class DefaultEncoder(Encoder):
    """The default encoding: card planes, flags, the pile's order, then numbers (see the names
    above, in that order).

    It keeps, from the events, what only the history tells (who discarded which card, which
    pile tops the opponent turned down) and, to save work, the pile and its order. Until a
    knock or the hand's end it also keeps the whole encoding running (``_live``), a few values
    changed an event, so that :meth:`encode` is a copy and the turn's few values; from the
    knock on, which is rare and changes much at once, it works each one out afresh
    (:meth:`afresh`), which is what the running one must always equal (the tests hold it to
    that at every state of many hands).
    """

    shape = (DEFAULT_SIZE,)

    def __init__(self, options: EnvOptions) -> None:
        rules = options.rules
        self._score_scale = rules.game_target * (3 if rules.hollywood else 1)
        self._match_scale = rules.match_target if options.mode == "match" else 0
        self._discarded = [0, 0]  # by seat
        self._declined = 0
        self._pile = 0
        self._pile_size = 0
        self._top = -1  # the pile's top card's index, -1 for none
        self._stock = 0
        self._counts = [0, 0]  # the cards each seat holds
        self._hand_flags = 0  # the flags that hold for the whole hand
        #: The encoding as it stands, less the turn's bits (:data:`_TURN_BITS`) and the counts,
        #: kept up to date event by event while ``_running``; its pile order, knock limit and
        #: scores always are.
        self._live = np.zeros(DEFAULT_SIZE, np.float32)
        #: ``_live`` as a memoryview, whose items are cheaper to set one by one than numpy's.
        self._planes = self._live.data.cast("B").cast("f")
        self._running = False

    def __getstate__(self) -> dict[str, object]:
        """Pickled and copied (an environment may be) without the memoryview, which cannot
        be: :meth:`__setstate__` makes it again over the copied array."""
        state = self.__dict__.copy()
        del state["_planes"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._planes = self._live.data.cast("B").cast("f")

    def new_hand(self, knowledge: Knowledge) -> None:
        self._discarded = [0, 0]
        self._declined = 0
        pile = knowledge.pile
        self._pile = pile_mask(pile)
        self._pile_size = len(pile)
        self._top = pile[-1].index if pile else -1
        live = self._live
        live[:] = 0.0
        for place, card in enumerate(pile, 1):
            live[_PILE_ORDER + card.index] = place / _PILE_DEPTH
        live[_KNOCK_LIMIT_AT] = knowledge.knock_limit / 10
        self._scores(knowledge)
        seat = knowledge.seat
        self._hand_flags = (_I_DEALT if knowledge.dealer == seat else 0) | (
            _DOUBLED if knowledge.multiplier > 1 else 0
        )
        self._stock = knowledge.stock_count
        self._counts[seat] = knowledge.hand.bit_count()
        self._counts[1 - seat] = knowledge.opponent_count
        live[:_BITS] = unpack(self._bits(knowledge) & ~_TURN_BITS, _BITS)
        self._running = True

    def _scores(self, knowledge: Knowledge) -> None:
        """The score numbers, which change only between hands (and at the episode's end)."""
        live = self._live
        score, other = knowledge.scores
        live[_SCORE_AT] = min(1.0, score / self._score_scale)
        live[_THEIR_SCORE_AT] = min(1.0, other / self._score_scale)
        if self._match_scale:
            match, other_match = knowledge.match_scores
            live[_MATCH_AT] = min(1.0, match / self._match_scale)
            live[_THEIR_MATCH_AT] = min(1.0, other_match / self._match_scale)

    def see(self, event: Event, knowledge: Knowledge) -> None:
        _, actor, action, card, _ = event
        kind = action.kind
        mine = actor == knowledge.seat
        live = self._planes
        if kind is _DISCARD_KIND:
            assert card is not None
            index = card.index
            self._discarded[actor] |= card.bit
            self._pile |= card.bit
            self._pile_size += 1
            self._counts[actor] -= 1
            live[_PILE_ORDER + index] = _PILE[self._pile_size]
            if self._running:
                live[_IN_PILE + index] = 1.0
                if self._top >= 0:
                    live[_TOP + self._top] = 0.0
                live[_TOP + index] = 1.0
                if mine:
                    live[_HAND + index] = 0.0
                    live[_MINE + index] = 1.0
                else:  # no longer in the opponent's hand, known or not: seen now
                    live[_KNOWN + index] = 0.0
                    live[_THEIRS + index] = 1.0
                    live[_UNSEEN + index] = 0.0
                # A discard ends the hand only at the stock's floor (a dead hand): then the
                # opponent's cards are shown.
                if self._stock <= STOCK_FLOOR and knowledge.over:
                    self._running = False
            self._top = index
        elif kind is _DRAW_KIND:
            self._stock -= 1
            self._counts[actor] += 1
            if mine:
                assert card is not None
                if self._running:
                    live[_HAND + card.index] = 1.0
                    live[_UNSEEN + card.index] = 0.0
            elif self._top >= 0:
                self._declined |= 1 << self._top
                live[_DECLINED + self._top] = 1.0
        elif kind is _TAKE_KIND:
            assert card is not None
            index = card.index
            self._pile &= ~card.bit
            self._pile_size -= 1
            self._counts[actor] += 1
            live[_PILE_ORDER + index] = 0.0
            pile = knowledge.pile
            top = self._top = pile[-1].index if pile else -1
            if self._running:
                live[_IN_PILE + index] = 0.0
                live[_TOP + index] = 0.0
                if top >= 0:
                    live[_TOP + top] = 1.0
                live[(_HAND if mine else _KNOWN) + index] = 1.0
        elif kind in _KNOCKS:
            card = action.card
            if card is not None:
                self._discarded[actor] |= card.bit
            self._running = False
        elif kind is _PASS_KIND:
            if not mine and self._top >= 0:
                self._declined |= 1 << self._top
                live[_DECLINED + self._top] = 1.0
            if knowledge.over:  # passed at the wall: a dead hand, the opponent's cards shown
                self._running = False

    def encode(self, knowledge: Knowledge) -> Array:
        if not self._running:
            return self.afresh(knowledge)
        out = self._live.copy()
        k = knowledge
        seat = k.seat
        counts = self._counts
        out[_STOCK_AT] = _STOCK[self._stock]
        out[_MY_COUNT_AT] = _CARDS[counts[seat]]
        out[_THEIR_COUNT_AT] = _CARDS[counts[1 - seat]]
        out[_PILE_COUNT_AT] = _PILE[self._pile_size]
        phase, mine, taken = k.turn_state()
        out[_PHASE_AT[phase]] = 1.0
        if mine:
            out[_MY_TURN_AT] = 1.0
            if taken is not None:
                out[_TAKEN + taken.index] = 1.0
        return out

    def afresh(self, knowledge: Knowledge) -> Array:
        """This seat's observation worked out from its knowledge and the history kept: what
        :meth:`encode` gives, however it gets there."""
        k = knowledge
        if k.over:  # the episode may be over, its score final
            self._scores(k)
        out = np.empty(DEFAULT_SIZE, np.float32)
        out[:_BITS] = unpack(self._bits(k), _BITS)
        out[_BITS:] = self._live[_BITS:]
        out[_STOCK_AT] = _STOCK[k.stock_count]
        out[_MY_COUNT_AT] = _CARDS[k.hand.bit_count()]
        out[_THEIR_COUNT_AT] = _CARDS[k.opponent_count]
        out[_PILE_COUNT_AT] = _PILE[self._pile_size]
        return out

    def _bits(self, knowledge: Knowledge) -> int:
        """The card planes and the flags, bit ``i`` for value ``i``."""
        k = knowledge
        seat = k.seat
        pile = k.pile
        in_pile = self._pile
        hand = k.hand
        known = k.opponent_known
        taken = k.taken
        knocker = k.knocker
        flags = _PHASE_BITS[k.phase] | self._hand_flags
        if k.turn == seat:
            flags |= _MY_TURN
        table = deadwood = laid_off = 0
        seen = hand | known | in_pile
        opponent_discards = self._discarded[1 - seat]
        if knocker is not None:
            flags |= _I_KNOCKED if knocker == seat else _THEY_KNOCKED
            table, deadwood, laid_off = k.table, k.knocker_deadwood, k.laid_off
            seen |= table | deadwood
            knock_card = k.knock_card
            if knock_card is not None:
                seen |= knock_card.bit
                if knocker != seat:  # shown at the end of the hand
                    opponent_discards |= knock_card.bit
        return (
            hand
            | known << 52
            | in_pile << 104
            | (pile[-1].bit << 156 if pile else 0)
            | self._discarded[seat] << 208
            | opponent_discards << 260
            | self._declined << 312
            | (FULL & ~seen) << 364
            | (taken.bit << 416 if taken is not None else 0)
            | table << 468
            | deadwood << 520
            | laid_off << 572
            | flags
        )


# -- rlcard --------------------------------------------------------------------------------------

#: RLCard's gin-rummy planes, in its order.
RLCARD_PLANES: Final = ("hand", "top_discard", "dead_cards", "opponent_known", "unknown")


class RLCardEncoder(Encoder):
    """RLCard's 5x52 planes as its ``GinRummyEnv._extract_state`` lays them out: this seat's
    hand, the pile's top card, the rest of the pile, the opponent's known cards, and every other
    card (the stock and the opponent's unknown cards). Card ids are RLCard's (``suit * 13 +
    rank``, suits S H D C), which are the engine's indices.

    RLCard's hand ends at the knock, where this one goes on: from then on the cards the other
    seat put on the table (the knocker's melds and deadwood, or the defender's layoffs) count as
    its known cards, the knock card (once this seat may see it) as a dead card, and once the
    hand is over its planes show the end (RLCard's are all zero).
    """

    shape = (5, 52)

    def encode(self, knowledge: Knowledge) -> Array:
        k = knowledge
        pile = k.pile
        in_pile = pile_mask(pile)
        top = pile[-1].bit if pile else 0
        dead = in_pile & ~top
        hand = k.hand
        known = k.opponent_known
        knocker = k.knocker
        if knocker is not None:
            if knocker == k.seat:
                known |= k.laid_off
            else:
                known |= (k.table & ~k.laid_off) | k.knocker_deadwood
            knock_card = k.knock_card
            if knock_card is not None:
                dead |= knock_card.bit
        unknown = FULL & ~(hand | in_pile | known | dead)
        bits = hand | top << 52 | dead << 104 | known << 156 | unknown << 208
        return unpack(bits, 260).reshape(5, 52).astype(np.float32)


# -- from a PlayerView -----------------------------------------------------------------------


class ViewEncoder(Encoder):
    """An encoder made from a function of the engine's PlayerView (the engine's view as it is,
    which names the knock card to the defender as OpenSpiel does)."""

    def __init__(
        self, function: Callable[[PlayerView], npt.ArrayLike], shape: tuple[int, ...]
    ) -> None:
        self.function = function
        self.shape = shape

    def encode(self, knowledge: Knowledge) -> Array:
        array = np.asarray(self.function(knowledge.view()), dtype=np.float32)
        if array.shape != self.shape:
            raise ValueError(f"the encoding gave shape {array.shape}, not {self.shape}")
        return array


def view_encoding(
    function: Callable[[PlayerView], npt.ArrayLike],
    shape: tuple[int, ...],
    low: float = 0.0,
    high: float = 1.0,
) -> EncoderFactory:
    """A factory for :func:`register_encoding` from a function of a PlayerView."""

    def make(options: EnvOptions) -> Encoder:
        encoder = ViewEncoder(function, shape)
        encoder.low, encoder.high = low, high
        return encoder

    return make


#: OpenSpiel's gin_rummy observation tensor, 644 values in [0, 1].
OPENSPIEL_SHAPE: Final = (644,)


__all__ = [
    "DEFAULT_FLAGS",
    "DEFAULT_NUMBERS",
    "DEFAULT_PLANES",
    "DEFAULT_SIZE",
    "RECENCY_PLANE",
    "RLCARD_PLANES",
    "DefaultEncoder",
    "Encoder",
    "EncoderFactory",
    "RLCardEncoder",
    "ViewEncoder",
    "view_encoding",
]
