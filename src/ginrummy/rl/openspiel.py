"""OpenSpiel's ``gin_rummy`` in our terms: its card and meld ids, its 644-wide observation tensor
computed from a :class:`~ginrummy.engine.PlayerView`, and its action ids for our actions.

Researchers who trained on OpenSpiel's game can feed our engine's states to the same networks,
and our hands can be replayed move for move in ``pyspiel`` (the tests do, comparing the tensor
state by state). Only numpy is needed here; :mod:`.openspiel_game` is the pyspiel game.

**Players.** OpenSpiel's player 0 is the first to act: our non-dealer. Its player 1 is our
dealer. :func:`openspiel_player` converts.

**Cards.** OpenSpiel numbers cards ``suit * 13 + rank`` with the suits in the order spades,
clubs, diamonds, hearts (ours: spades, hearts, diamonds, clubs), so hearts and clubs swap.

**Where the rules differ** (so a hand can be replayed in OpenSpiel only where they agree):

* OpenSpiel plays one hand. It deals ten cards to player 0, then ten to player 1, then the
  upcard (chance outcomes are card ids); we deal alternately, non-dealer first. Same cards,
  another order: :func:`openspiel_deal` gives OpenSpiel's order for our deck.
* Knocking is one action here (``knock Kh``, melds chosen or the least-deadwood default); in
  OpenSpiel it is *knock* (55), the discard, each meld (56 + meld id, runs of at most five
  cards, so a longer run is laid in pieces: :func:`split_meld`) and *pass* (54). Gin is a
  knock with no deadwood; OpenSpiel then has the defender lay his melds and pass.
* The defender lays off card by card in both. OpenSpiel stops a chain after two cards on one
  end of a run (8s then 9s onto 5s6s7s, but not 10s); we let it run on. The defender then lays
  his own melds one by one in OpenSpiel; here the engine arranges them (least deadwood).
  ``auto`` (the best layoffs) becomes the cards one by one.
* OpenSpiel always lets the next player take the last discard at the wall to knock with it
  (our ``wall_pickup`` option); without that option our hand is dead at once, which OpenSpiel
  reaches by that player passing.
* OpenSpiel lets a player knock when the melds worth the most points, less the highest card
  left over, leave at most the knock card; that is not always the least deadwood after a
  discard, so it refuses a few of our legal knocks and gins.
* OpenSpiel has no big gin, no eleven-card deal, no ``must_gin``, no doubled spade hands in
  Oklahoma (its ace upcard means gin only, as ours by default) and scores a tied knock as
  nothing (our ``undercut_on_tie`` off). It lets a player discard the card just taken from the
  pile (we do not), ends the hand as a draw when both players do so in a row, and ends it
  after the 50th draw from the pile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..engine import DECK, Action, ActionKind, Card, Hand, Meld, Phase, PlayerView, Rules
from ..engine.actions import DONE, DRAW, PASS, TAKE, discard, gin, knock, lay_off
from ..engine.melds import best_arrangement, deadwood_mask
from ..engine.results import ResultKind

# ---------------------------------------------------------------------------------------------
# OpenSpiel's numbers

#: OpenSpiel's action ids: 0-51 a card (dealt, discarded or laid off), then these.
DRAW_UPCARD: Final = 52
DRAW_STOCK: Final = 53
PASS_ACTION: Final = 54
KNOCK_ACTION: Final = 55
MELD_BASE: Final = 56
NUM_MELDS: Final = 185
NUM_ACTIONS: Final = MELD_BASE + NUM_MELDS  # 241
#: OpenSpiel's id for a chance node's player.
CHANCE: Final = -1

#: Our suit index (spades, hearts, diamonds, clubs) to OpenSpiel's (spades, clubs, diamonds,
#: hearts); the permutation is its own inverse.
_SUIT: Final = (0, 3, 2, 1)
#: OpenSpiel's card id of each of our cards, by our card index.
CARD_IDS: Final = tuple(_SUIT[card.suit] * 13 + card.rank for card in DECK)
#: Our card for each OpenSpiel card id.
CARDS_BY_ID: Final = tuple(DECK[_SUIT[i // 13] * 13 + i % 13] for i in range(52))

#: The observation tensor: (name, offset, size) of each part, in OpenSpiel's order.
TENSOR_LAYOUT: Final = (
    ("player", 0, 2),
    ("private_hand", 2, 104),  # 2 x 52: only the observer's own row is filled
    ("current_player", 106, 2),
    ("knock_card", 108, 10),  # the first ``knock limit`` entries are 1
    ("upcard", 118, 52),
    ("discard_pile", 170, 52),
    ("stock_size", 222, 52),  # the first ``stock size`` entries are 1
    ("layed_melds", 274, 370),  # 2 x 185 meld ids
)
TENSOR_SIZE: Final = 644

_HAND, _CURRENT, _KNOCK, _UPCARD, _PILE, _STOCK, _MELDS = (x[1] for x in TENSOR_LAYOUT[1:])
_LIVE_PHASES: Final = frozenset({Phase.FIRST_UPCARD, Phase.DRAW, Phase.WALL})

Move = tuple[int, int]
"""An OpenSpiel move: (player, action id), the player :data:`CHANCE` for a dealt card."""


def card_id(card: Card) -> int:
    """OpenSpiel's id of ``card``."""
    return CARD_IDS[card.index]


def card_of(card_id: int) -> Card:
    """Our card for OpenSpiel's card id (0-51)."""
    if not 0 <= card_id < 52:
        raise ValueError(f"OpenSpiel card ids are 0-51, not {card_id}")
    return CARDS_BY_ID[card_id]


def meld_id(meld: Meld) -> int:
    """OpenSpiel's meld id (0-184): sets by rank (five a rank, the 3-card ones by the suit
    left out, then the 4-card one), then runs of 3, 4 and 5 cards by suit and lowest rank."""
    cards = list(meld.cards)
    if meld.kind == "set":
        rank = cards[0].rank
        if len(cards) == 4:
            return rank * 5 + 4
        missing = ({0, 1, 2, 3} - {_SUIT[c.suit] for c in cards}).pop()
        return rank * 5 + missing
    size = len(cards)
    if size > 5:
        raise ValueError(f"OpenSpiel's melds have at most 5 cards: split {meld} (split_meld)")
    low = min(c.rank for c in cards)
    suit = _SUIT[cards[0].suit]
    if size == 3:
        return 65 + suit * 11 + low
    if size == 4:
        return 109 + suit * 10 + low
    return 149 + suit * 9 + low


def _all_melds() -> tuple[Meld, ...]:
    melds: list[Meld] = []
    for rank in range(13):
        bits = [1 << (s * 13 + rank) for s in range(4)]
        full = sum(bits)
        melds += [Meld("set", full ^ bit) for bit in bits] + [Meld("set", full)]
    for size in (3, 4, 5):
        for suit in range(4):
            for low in range(14 - size):
                melds.append(Meld("run", ((1 << size) - 1) << (suit * 13 + low)))
    return tuple(sorted(melds, key=meld_id))


#: Every meld OpenSpiel knows, by meld id.
MELDS_BY_ID: Final = _all_melds()


def meld_of(meld_id: int) -> Meld:
    """Our meld for OpenSpiel's meld id (0-184)."""
    if not 0 <= meld_id < NUM_MELDS:
        raise ValueError(f"OpenSpiel meld ids are 0-184, not {meld_id}")
    return MELDS_BY_ID[meld_id]


def split_meld(meld: Meld) -> tuple[Meld, ...]:
    """``meld`` as OpenSpiel lays it: a run longer than five cards in pieces of at most five,
    as even as possible, the longer pieces first from the low end (6 = 3+3, 7 = 4+3,
    11 = 4+4+3)."""
    size = len(meld)
    if meld.kind == "set" or size <= 5:
        return (meld,)
    pieces = -(-size // 5)
    sizes = [size // pieces + (i < size % pieces) for i in range(pieces)]
    low = (meld.mask & -meld.mask).bit_length() - 1
    out = []
    for n in sizes:
        out.append(Meld("run", ((1 << n) - 1) << low))
        low += n
    return tuple(out)


def meld_ids(melds: Iterable[Meld]) -> list[int]:
    """OpenSpiel's meld ids for ``melds``, longer runs split (:func:`split_meld`)."""
    return [meld_id(piece) for meld in melds for piece in split_meld(meld)]


def openspiel_player(seat: int, dealer: int) -> int:
    """OpenSpiel's player number of ``seat``: 0 for the non-dealer (who acts first)."""
    return 0 if seat != dealer else 1


def openspiel_params(rules: Rules) -> dict[str, Any]:
    """The parameters of OpenSpiel's ``gin_rummy`` closest to ``rules``.

    It has no options for the rules listed in the module's docstring; the replay test uses
    ``wall_pickup`` and, to compare scores, ``undercut_on_tie`` off, which match it.
    """
    if rules.knock_limit > 10:
        raise ValueError(f"OpenSpiel's knock card is at most 10, not {rules.knock_limit}")
    return {
        "oklahoma": rules.oklahoma,
        "knock_card": rules.knock_limit,
        "gin_bonus": rules.gin_bonus,
        "undercut_bonus": rules.undercut_bonus,
    }


def openspiel_deal(deck: Sequence[Card]) -> list[int]:
    """The chance outcomes that deal our ``deck`` (top first) in OpenSpiel: the non-dealer's
    ten cards, the dealer's ten, then the upcard."""
    return [card_id(c) for c in (*deck[0:20:2], *deck[1:20:2], deck[20])]


# ---------------------------------------------------------------------------------------------
# The observation tensor


def observation_tensor(
    view: PlayerView,
    out: npt.NDArray[np.float32] | None = None,
    *,
    openspiel_players: bool = True,
) -> npt.NDArray[np.float32]:
    """OpenSpiel's ``gin_rummy`` observation tensor (float32, 644) of ``view``'s seat.

    Laid out exactly as OpenSpiel's (:data:`TENSOR_LAYOUT`); in a state both engines share it
    equals ``pyspiel``'s ``state.observation_tensor(player)``. Player numbers are OpenSpiel's
    (the non-dealer is 0) unless ``openspiel_players`` is false, when they are our seats.
    ``out`` (644 float32) is filled in place instead of a new array.

    What OpenSpiel shows, and so this does: the knocker's hand without the melds he laid, the
    knock card on the discard pile, the defender's melds and remaining deadwood once the hand
    is over, and an upcard only while it can still be taken.
    """
    t = np.zeros(TENSOR_SIZE, np.float32) if out is None else out
    if out is not None:
        if out.shape != (TENSOR_SIZE,):
            raise ValueError(f"out must have shape ({TENSOR_SIZE},), not {out.shape}")
        t.fill(0)

    def index(seat: int) -> int:
        return openspiel_player(seat, view.dealer) if openspiel_players else seat

    me = index(view.seat)
    t[me] = 1
    row = _HAND + me * 52
    for card in _own_cards(view):
        t[row + CARD_IDS[card.index]] = 1
    current = _current_seat(view)
    if current is not None:
        t[_CURRENT + index(current)] = 1
    t[_KNOCK : _KNOCK + min(view.knock_limit, 10)] = 1
    upcard, pile = _upcard_and_pile(view)
    if upcard is not None:
        t[_UPCARD + CARD_IDS[upcard.index]] = 1
    for card in pile:
        t[_PILE + CARD_IDS[card.index]] = 1
    t[_STOCK : _STOCK + view.stock_count] = 1
    for seat, melds in _laid_melds(view):
        row = _MELDS + index(seat) * NUM_MELDS
        for i in meld_ids(melds):
            t[row + i] = 1
    return t


def _own_cards(view: PlayerView) -> Iterable[Card]:
    if view.knocker is None:
        return view.hand
    if view.seat == view.knocker:
        return view.knocker_deadwood
    result = view.result
    if result is not None and result.defender_arrangement is not None:
        return result.defender_arrangement.deadwood_cards
    return view.hand


def _current_seat(view: PlayerView) -> int | None:
    """The seat OpenSpiel marks as current: over a hand that is over, the defender (he laid
    his melds last), or after a dead hand the player who passed at the wall."""
    if view.current_player is not None or view.result is None:
        return view.current_player
    if view.knocker is not None:
        return 1 - view.knocker
    for event in reversed(view.history):
        if event.action.kind is ActionKind.DISCARD:
            return 1 - event.seat
    return None


def _upcard_and_pile(view: PlayerView) -> tuple[Card | None, tuple[Card, ...]]:
    pile = view.discard_pile
    live = view.phase in _LIVE_PHASES or (
        view.result is not None and view.result.kind is ResultKind.DEAD
    )
    if live and pile:
        return pile[-1], pile[:-1]
    if view.knocker is not None:
        card = _knock_card(view)
        if card is not None:
            return None, (*pile, card)
    return None, pile


def _knock_card(view: PlayerView) -> Card | None:
    for event in reversed(view.history):
        if event.action.kind in (ActionKind.KNOCK, ActionKind.GIN):
            return event.action.card
    return None


def _laid_melds(view: PlayerView) -> list[tuple[int, tuple[Meld, ...]]]:
    if view.knocker is None:
        return []
    laid_off = 0
    for card, _ in view.layoffs:
        laid_off |= card.bit
    knocker = tuple(Meld(m.kind, m.mask & ~laid_off) for m in view.table_melds)
    out = [(view.knocker, knocker)]
    result = view.result
    if result is not None and result.defender_arrangement is not None:
        out.append((1 - view.knocker, result.defender_arrangement.melds))
    return out


# ---------------------------------------------------------------------------------------------
# Our actions as OpenSpiel's moves, and back


def openspiel_moves(hand: Hand, action: Action | str) -> list[Move]:
    """The OpenSpiel moves that play ``action`` (legal now in ``hand``).

    A stock draw is followed by the chance move dealing the drawn card; a knock or gin by the
    knocker's melds and pass, a gin or the end of the layoffs by the defender's melds and pass;
    a discard that makes the hand dead (without ``wall_pickup``) by the other player's pass
    at the wall. Raises ``ValueError`` for big gin, which OpenSpiel does not have.
    """
    a = hand.check(action)
    seat = hand.current_player
    assert seat is not None
    me = openspiel_player(seat, hand.dealer)
    other = 1 - me
    phase = hand.phase
    kind = a.kind
    if kind is ActionKind.BIG_GIN:
        raise ValueError("OpenSpiel's gin_rummy has no big gin")
    if kind is ActionKind.TAKE:
        return [(me, KNOCK_ACTION if phase is Phase.WALL else DRAW_UPCARD)]
    if kind is ActionKind.PASS:
        return [(me, PASS_ACTION)]
    if kind is ActionKind.DRAW:
        return [(me, DRAW_STOCK), (CHANCE, card_id(hand.stock[0]))]
    if kind is ActionKind.LAYOFF:
        assert a.card is not None
        return [(me, card_id(a.card))]
    after = hand.copy()
    event = after.apply(a)
    if kind is ActionKind.DISCARD:
        assert a.card is not None
        moves = [(me, card_id(a.card))]
        if after.is_over:
            moves.append((other, PASS_ACTION))
        return moves
    result = after.result
    if kind in (ActionKind.DONE, ActionKind.AUTO):
        assert result is not None and result.defender_arrangement is not None
        moves = [(me, card_id(c)) for c in event.laid_off]
        return [*moves, (me, PASS_ACTION), *_lay(me, result.defender_arrangement.melds)]
    # a knock or gin
    assert a.card is not None and after.knock_arrangement is not None
    moves = [] if _wall_take(hand) else [(me, KNOCK_ACTION)]
    moves += [(me, card_id(a.card)), *_lay(me, after.knock_arrangement.melds)]
    if result is not None:  # gin: the defender lays his melds at once
        assert result.defender_arrangement is not None
        moves += _lay(other, result.defender_arrangement.melds)
    return moves


def _lay(player: int, melds: Iterable[Meld]) -> list[Move]:
    return [(player, MELD_BASE + i) for i in meld_ids(melds)] + [(player, PASS_ACTION)]


def _wall_take(hand: Hand) -> bool:
    """Whether the player to act took the last discard at the wall (and must knock): in
    OpenSpiel that take was already the knock."""
    events = hand.events
    return (
        hand.phase is Phase.DISCARD
        and bool(events)
        and events[-1].action.kind is ActionKind.TAKE
        and hand.stock_count == 2
    )


def engine_action(hand: Hand, ids: Sequence[int]) -> Action:
    """Our action for the OpenSpiel action ids the player to act in ``hand`` plays (for a
    knock: knock, the card, then any melds and pass). Ids after the decision (the melds the
    defender lays after his layoffs) are ignored. Raises ``ValueError`` when they mean no
    action in this state."""
    if not ids:
        raise ValueError("no OpenSpiel action ids")
    first = ids[0]
    phase = hand.phase
    simple: dict[Phase, dict[int, Action]] = {
        Phase.FIRST_UPCARD: {DRAW_UPCARD: TAKE, PASS_ACTION: PASS, DRAW_STOCK: DRAW},
        Phase.DRAW: {DRAW_UPCARD: TAKE, DRAW_STOCK: DRAW},
        Phase.WALL: {KNOCK_ACTION: TAKE, PASS_ACTION: PASS},
        Phase.LAYOFF: {PASS_ACTION: DONE},
    }
    action = simple.get(phase, {}).get(first)
    if action is not None:
        return action
    if phase is Phase.LAYOFF and 0 <= first < 52:
        return lay_off(card_of(first))
    if phase is Phase.DISCARD:
        wall = _wall_take(hand)
        if first == KNOCK_ACTION or wall:
            rest = list(ids[0 if wall else 1 :])
            if not rest or not 0 <= rest[0] < 52:
                raise ValueError(f"a knock needs the card discarded: {list(ids)}")
            return _knock_action(hand, card_of(rest[0]), rest[1:])
        if 0 <= first < 52:
            return discard(card_of(first))
    raise ValueError(f"OpenSpiel action {first} means nothing in the {phase.value} phase")


def _knock_action(hand: Hand, card: Card, rest: Sequence[int]) -> Action:
    seat = hand.current_player
    assert seat is not None
    left = hand.hand_mask(seat) & ~card.bit
    ids = [i - MELD_BASE for i in rest if MELD_BASE <= i < NUM_ACTIONS]
    default = best_arrangement(left)
    if ids and sorted(ids) != sorted(meld_ids(default.melds)):
        melds = tuple(meld_of(i) for i in ids)
        laid = sum(m.mask for m in melds)
        kind = ActionKind.GIN if left & ~laid == 0 else ActionKind.KNOCK
        return Action(kind, card, melds)
    return gin(card) if deadwood_mask(left) == 0 else knock(card)


__all__ = [
    "CARDS_BY_ID",
    "CARD_IDS",
    "CHANCE",
    "DRAW_STOCK",
    "DRAW_UPCARD",
    "KNOCK_ACTION",
    "MELDS_BY_ID",
    "MELD_BASE",
    "NUM_ACTIONS",
    "NUM_MELDS",
    "PASS_ACTION",
    "TENSOR_LAYOUT",
    "TENSOR_SIZE",
    "Move",
    "card_id",
    "card_of",
    "engine_action",
    "meld_id",
    "meld_ids",
    "meld_of",
    "observation_tensor",
    "openspiel_deal",
    "openspiel_moves",
    "openspiel_params",
    "openspiel_player",
    "split_meld",
]
