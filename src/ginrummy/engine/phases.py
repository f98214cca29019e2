"""The rules of play phase by phase: the hand's state, what each phase allows, why an action is
refused, and what it does.

A hand's state is one immutable value, :class:`HandState`. Each phase has one function that
lists its legal actions, one that checks an action (raising :class:`IllegalActionError` saying
why it is not legal, and returning the knocker's arrangement when the action lays one down) and,
per action it allows, one function that applies it: the new state and the event, built from the
old state without changing it. :data:`PHASES` maps each phase to these, as OpenSpiel's gin rummy
has one legal-actions and one apply function per phase, so each phase reads on its own like the
rulebook and :class:`~ginrummy.engine.hand.Hand` only dispatches.

The functions take the hand for what the deal fixes (the rules, the deck, the knock limit and
the multiplier) and the state for everything else. The module is one of those mypyc compiles
(:data:`ginrummy.speedups.MODULES`); it runs the same from its source.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Final, NamedTuple

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
)
from .cards import SUIT_CARDS, Card, mask_cards
from .errors import IllegalActionError, InvalidNotationError
from .masks import STOCK_FLOOR, SUIT_MASK
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

if TYPE_CHECKING:
    from .hand import Hand


class Phase(StrEnum):
    FIRST_UPCARD = "first_upcard"  # non-dealer, then dealer: take or pass the first upcard
    DRAW = "draw"  # take the pile's top card or draw from the stock
    DISCARD = "discard"  # discard, knock, gin or big gin
    WALL = "wall"  # wall_pickup: take the last discard to knock with it, or pass
    LAYOFF = "layoff"  # the defender lays off onto the knocker's melds
    OVER = "over"


def parse_phase(text: object) -> Phase:
    """The phase named ``text`` (its value, as views write it); InvalidNotationError naming the
    phases otherwise."""
    if isinstance(text, Phase):
        return text
    if isinstance(text, str):
        try:
            return Phase(text)
        except ValueError:
            pass
    names = ", ".join(p.value for p in Phase)
    raise InvalidNotationError(f"unknown phase {text!r}; the phases are: {names}")


class HandState(NamedTuple):
    """Everything about a hand that changes as it is played, as one immutable value.

    Every field holds an immutable value, so the state before an action is kept for undo by
    reference, a copy of the hand shares it, and an action that raises changes nothing (a new
    state replaces the old one only once the action has been applied). Two hands with the same
    deal and equal states are in the same position.
    """

    # The fields of ordinary play, which most actions change (the functions that apply them
    # build the next state field by field, in this order, and keep the rest as they are):

    #: The cards each seat holds, as card masks.
    hands: tuple[int, int]
    #: Per seat, the mask of the cards it took from the pile and still holds (public).
    known: tuple[int, int]
    #: The index in the deck of the stock's top card (21 after the deal).
    stock_pos: int
    #: The discard pile, bottom first.
    pile: tuple[Card, ...]
    phase: Phase
    #: The seat to act (once the hand is over, the seat that would have been next).
    turn: int
    #: How many players have passed the first upcard (after 2 the non-dealer draws).
    passes: int
    #: The card taken from the pile this turn, which may not be discarded this turn.
    taken: Card | None
    #: The pile's card was taken at the wall: the turn must end in a knock.
    wall_take: bool

    # The knock, the layoffs and the result (see PLAY_FIELDS):

    #: The seat that knocked, went gin or went big gin.
    knocker: int | None
    #: The knocker's discard (None for big gin, which discards nothing).
    knock_card: Card | None
    #: The arrangement the knocker laid down.
    knock_arrangement: Arrangement | None
    #: The knocker's melds, extended by the defender's layoffs so far.
    melds: tuple[Meld, ...]
    #: The layoffs so far: (card, the meld as it was when the card went on).
    layoffs: tuple[tuple[Card, Meld], ...]
    #: How the hand ended, once it has.
    result: HandResult | None


#: How many of HandState's fields are those of ordinary play: ``state[PLAY_FIELDS:]`` is the
#: knock, the layoffs and the result, which the actions of ordinary play keep as they are.
PLAY_FIELDS: Final = 9

#: Checks an action in one phase: raises saying why it is not legal; returns the arrangement
#: a knock lays down (None for other actions).
Check = Callable[["Hand", HandState, Action], Arrangement | None]
#: What applying an action gives: the new state and the event.
Applied = tuple[HandState, Event]
#: Applies a checked action (with the arrangement its check returned and the event's number).
Apply = Callable[["Hand", HandState, Action, Arrangement | None, int], Applied]


class PhaseRules(NamedTuple):
    """One phase of play: what the player to act does in it, and its functions."""

    #: Completes "seat 1 is to ...", for a move out of turn.
    verb: str
    legal: Callable[[Hand, HandState], list[Action]]
    check: Check
    #: The function that applies each action the phase allows.
    apply: Mapping[ActionKind, Apply]


# Members read on every action, bound to plain names once: in Python 3.11 reading a member off
# its enum class (``Phase.DRAW``) costs several times the comparison it is made for.
_P_DRAW: Final = Phase.DRAW
_P_DISCARD: Final = Phase.DISCARD
_P_WALL: Final = Phase.WALL
_P_OVER: Final = Phase.OVER
_K_TAKE: Final = ActionKind.TAKE
_K_PASS: Final = ActionKind.PASS
_K_DRAW: Final = ActionKind.DRAW
_K_DISCARD: Final = ActionKind.DISCARD
_K_KNOCK: Final = ActionKind.KNOCK
_K_GIN: Final = ActionKind.GIN
_K_BIG_GIN: Final = ActionKind.BIG_GIN
_K_LAYOFF: Final = ActionKind.LAYOFF
_TAKE_OR_PASS: Final = frozenset({_K_TAKE, _K_PASS})
_DISCARD_KNOCK_OR_GIN: Final = frozenset({_K_DISCARD, _K_KNOCK, _K_GIN})
_DONE_OR_AUTO: Final = frozenset({ActionKind.DONE, ActionKind.AUTO})


# -- actions more than one phase allows -------------------------------------------------------


def _take(hand: Hand, s: HandState, a: Action, _: Arrangement | None, n: int) -> Applied:
    """Take the pile's top card (the first upcard, in the draw, or at the wall)."""
    seat = s.turn
    card = s.pile[-1]
    state = HandState(
        _add(s.hands, seat, card.bit),
        _add(s.known, seat, card.bit),
        s.stock_pos,
        s.pile[:-1],
        _P_DISCARD,
        seat,
        0,  # no passes: the upcard is taken
        card,  # may not be discarded this turn
        s.phase is _P_WALL,  # taken at the wall: only to knock
        *s[PLAY_FIELDS:],
    )
    return state, Event(n, seat, a, card)


def _end(s: HandState, result: HandResult) -> HandState:
    return s._replace(phase=_P_OVER, result=result)


# -- the first upcard: the non-dealer, then the dealer, takes it or passes --------------------


def _first_upcard_legal(hand: Hand, s: HandState) -> list[Action]:
    return [TAKE, PASS]


def _first_upcard_check(hand: Hand, s: HandState, a: Action) -> None:
    if a.kind not in _TAKE_OR_PASS:
        raise IllegalActionError(
            f"'{a}' is not allowed now: take or pass the first upcard {s.pile[-1]}"
        )


def _pass_upcard(hand: Hand, s: HandState, a: Action, _: Arrangement | None, n: int) -> Applied:
    """Pass the first upcard; once both have, the non-dealer draws from the stock."""
    passes = s.passes + 1
    state = HandState(
        s.hands,
        s.known,
        s.stock_pos,
        s.pile,
        _P_DRAW if passes == 2 else s.phase,
        1 - s.turn,
        passes,
        s.taken,
        s.wall_take,
        *s[PLAY_FIELDS:],
    )
    return state, Event(n, s.turn, a)


# -- the draw: the pile's top card or the stock's --------------------------------------------


def _draw_legal(hand: Hand, s: HandState) -> list[Action]:
    return [DRAW] if s.passes == 2 else [TAKE, DRAW]


def _draw_check(hand: Hand, s: HandState, a: Action) -> None:
    kind = a.kind
    if kind is _K_DRAW:
        return
    if kind is _K_TAKE:
        if s.passes == 2:
            raise IllegalActionError(
                "both players passed the upcard: the non-dealer must draw from the stock"
            )
        return
    raise IllegalActionError(
        f"'{a}' is not allowed now: draw from the stock or take the top card of the discard pile"
    )


def _draw(hand: Hand, s: HandState, a: Action, _: Arrangement | None, n: int) -> Applied:
    """Draw the stock's top card (the event carries it; views show it to the drawer only)."""
    seat = s.turn
    card = hand._order[s.stock_pos]
    state = HandState(
        _add(s.hands, seat, card.bit),
        s.known,
        s.stock_pos + 1,
        s.pile,
        _P_DISCARD,
        seat,
        0,  # passes
        s.taken,
        s.wall_take,
        *s[PLAY_FIELDS:],
    )
    return state, Event(n, seat, a, card)


# -- the discard: discard, knock, gin or big gin ---------------------------------------------


def _discard_legal(hand: Hand, s: HandState) -> list[Action]:
    """Discards in card order, then knocks, gins and big gin; only gins under must_gin when
    one is possible; only knocks and gins after taking at the wall."""
    mask = s.hands[s.turn]
    taken = s.taken
    limit = hand.knock_limit
    knocks: list[Action] = []
    gins: list[Action] = []
    if min_discard_deadwood_mask(mask) <= limit:
        table = hand._discard_table(mask)
        for idx in sorted(table):
            if taken is not None and idx == taken.index:
                continue
            dw = table[idx]
            if dw == 0:
                gins.append(GINS[idx])
            elif dw <= limit:
                knocks.append(KNOCKS[idx])
    big = [BIG_GIN] if hand.rules.big_gin and deadwood_mask(mask) == 0 else []
    if hand.rules.must_gin and (gins or big):
        return gins + big
    if s.wall_take:
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


def _discard_check(hand: Hand, s: HandState, a: Action) -> Arrangement | None:
    kind = a.kind
    mask = s.hands[s.turn]
    if kind is _K_BIG_GIN:
        if not hand.rules.big_gin:
            raise IllegalActionError("big gin is not played under these rules")
        if deadwood_mask(mask) != 0:
            raise IllegalActionError("big gin needs all 11 cards melded")
        return _named_arrangement(a, mask, 0)
    if kind not in _DISCARD_KNOCK_OR_GIN:
        raise IllegalActionError(f"'{a}' is not allowed now: discard, knock or gin")
    card = a.card
    assert card is not None
    if not mask & card.bit:
        raise IllegalActionError(f"you do not hold {card}")
    if card is s.taken:
        raise IllegalActionError(
            f"{card} was just taken from the discard pile and may not be discarded this turn"
        )
    if kind is _K_DISCARD:
        if s.wall_take:
            raise IllegalActionError("a card taken at the wall must be used to knock")
        if hand.rules.must_gin and _can_gin(hand, s, mask):
            raise IllegalActionError("you can go gin, and these rules say you must")
        return None
    arrangement = _named_arrangement(a, mask & ~card.bit, None)
    assert arrangement is not None
    dw = arrangement.deadwood
    limit = hand.knock_limit
    if kind is _K_GIN:
        if dw != 0:
            raise IllegalActionError(f"not gin: {dw} deadwood after discarding {card}")
        return arrangement
    if dw == 0:
        raise IllegalActionError(f"that is gin: use 'gin {card}'")
    if dw > limit:
        if limit == 0:
            raise IllegalActionError(f"deadwood {dw}: only gin ends this hand")
        raise IllegalActionError(f"deadwood {dw} over the knock limit {limit}")
    if hand.rules.must_gin and _can_gin(hand, s, mask):
        raise IllegalActionError("you can go gin, and these rules say you must")
    return arrangement


def _can_gin(hand: Hand, s: HandState, mask: int) -> bool:
    taken = s.taken
    table = hand._discard_table(mask)
    if any(v == 0 for i, v in table.items() if taken is None or i != taken.index):
        return True
    return hand.rules.big_gin and deadwood_mask(mask) == 0


def _named_arrangement(a: Action, rest: int, need: int | None) -> Arrangement | None:
    """The arrangement a knock names (its melds over the cards ``rest``), else the default
    minimum-deadwood one; ``need`` is the deadwood it must leave, when that is fixed."""
    if a.melds is None:
        return best_arrangement(rest)
    try:
        arrangement = arrange(rest, a.melds)
    except InvalidNotationError as exc:
        raise IllegalActionError(str(exc)) from None
    if need is not None and arrangement.deadwood != need:
        raise IllegalActionError(f"those melds leave {arrangement.deadwood} deadwood")
    return arrangement


def _discard(hand: Hand, s: HandState, a: Action, _: Arrangement | None, n: int) -> Applied:
    """Discard; the turn passes, or with two cards left in the stock the wall (or a dead hand)
    follows."""
    seat = s.turn
    card = a.card
    assert card is not None
    known = s.known
    if known[seat] & card.bit:
        known = _remove(known, seat, card.bit)
    last = s.stock_pos >= 52 - STOCK_FLOOR
    state = HandState(
        _remove(s.hands, seat, card.bit),
        known,
        s.stock_pos,
        (*s.pile, card),
        _P_WALL if last and hand.rules.wall_pickup else _P_DRAW,
        1 - seat,
        s.passes,
        None,  # nothing taken: a new turn
        s.wall_take,
        *s[PLAY_FIELDS:],
    )
    if last and not hand.rules.wall_pickup:
        state = _dead(state)
    return state, Event(n, seat, a, card)


def _knock(hand: Hand, s: HandState, a: Action, arrangement: Arrangement | None, n: int) -> Applied:
    """Knock, gin or big gin: lay the arrangement down. After a knock the defender lays off;
    gin and big gin are scored at once, the defender laying nothing off."""
    seat = s.turn
    other = 1 - seat
    assert arrangement is not None
    card = a.card
    hands, known = s.hands, s.known
    if card is not None:
        hands = _remove(hands, seat, card.bit)
        known = _remove(known, seat, card.bit)
    state = s._replace(
        hands=hands,
        known=known,
        knocker=seat,
        knock_card=card,
        knock_arrangement=arrangement,
        melds=arrangement.melds,
        taken=None,
        wall_take=False,
        turn=other,
        phase=Phase.LAYOFF,
    )
    if a.kind is not _K_KNOCK:
        defender = best_arrangement(hands[other])
        make = HandResult.gin if a.kind is _K_GIN else HandResult.big_gin
        result = make(hand.rules, seat, defender.deadwood, hand.multiplier)
        state = _end(
            state,
            replace(result, knocker_arrangement=arrangement, defender_arrangement=defender),
        )
    return state, Event(n, seat, a, card)


# -- the wall (wall_pickup): take the last discard only to knock with it, or pass -------------


def _wall_legal(hand: Hand, s: HandState) -> list[Action]:
    return [TAKE, PASS] if _wall_take_can_knock(hand, s) else [PASS]


def _wall_check(hand: Hand, s: HandState, a: Action) -> None:
    kind = a.kind
    if kind is _K_PASS:
        return
    if kind is _K_TAKE:
        if not _wall_take_can_knock(hand, s):
            raise IllegalActionError(
                f"at the wall {s.pile[-1]} may be taken only to knock with it, "
                f"and it gives no knock"
            )
        return
    raise IllegalActionError(f"'{a}' is not allowed at the wall: take (to knock) or pass")


def _wall_take_can_knock(hand: Hand, s: HandState) -> bool:
    card = s.pile[-1]
    table = discard_deadwoods_mask(s.hands[s.turn] | card.bit)
    return any(v <= hand.knock_limit for i, v in table.items() if i != card.index)


def _pass_wall(hand: Hand, s: HandState, a: Action, _: Arrangement | None, n: int) -> Applied:
    """Pass at the wall: the hand is dead."""
    return _dead(s), Event(n, s.turn, a)


def _dead(s: HandState) -> HandState:
    return _end(s, HandResult.dead())


# -- the layoffs: the defender lays cards off onto the knocker's melds, then the score --------


def _layoff_legal(hand: Hand, s: HandState) -> list[Action]:
    melds = s.melds
    fits = [c for c in mask_cards(s.hands[s.turn]) if any(m.accepts(c) for m in melds)]
    return [LAYOFFS[c.index] for c in fits] + [DONE, AUTO]


def _layoff_check(hand: Hand, s: HandState, a: Action) -> None:
    kind = a.kind
    if kind in _DONE_OR_AUTO:
        return
    if kind is not _K_LAYOFF:
        raise IllegalActionError(f"'{a}' is not allowed now: lay off a card, done or auto")
    card = a.card
    assert card is not None
    if not s.hands[s.turn] & card.bit:
        raise IllegalActionError(f"you do not hold {card}")
    if not any(m.accepts(card) for m in s.melds):
        raise IllegalActionError(f"{card} does not fit any of the knocker's melds")


def _lay_off_one(hand: Hand, s: HandState, a: Action, _: Arrangement | None, n: int) -> Applied:
    """Lay one card off; the defender may go on."""
    assert a.card is not None
    return _lay_off(s, [a.card]), Event(n, s.turn, a, a.card)


def _lay_off_best(hand: Hand, s: HandState, a: Action, _: Arrangement | None, n: int) -> Applied:
    """``auto``: lay off what leaves the least deadwood (the solver's choice), then score."""
    best = layoff(s.hands[s.turn], s.melds)
    cards = [card for card, _ in best.layoffs]
    state = _lay_off(s, cards, [i for _, i in best.layoffs])
    return _score_knock(hand, state), Event(n, s.turn, a, None, tuple(cards))


def _done(hand: Hand, s: HandState, a: Action, _: Arrangement | None, n: int) -> Applied:
    """The defender is done laying off: score the knock."""
    return _score_knock(hand, s), Event(n, s.turn, a)


def _lay_off(s: HandState, cards: list[Card], where: list[int] | None = None) -> HandState:
    """Lay cards off one at a time onto the melds at ``where`` (the solver's choice), or
    each onto a run that takes it, else the set that does.

    A card that fits both a 3-set and a run goes onto the run: the set can take no other
    card, while the run can then take the next card of the chain (8s onto 5s6s7s, then 9s).
    """
    seat = s.turn
    hands, known = s.hands, s.known
    melds = list(s.melds)
    layoffs = list(s.layoffs)
    for n, card in enumerate(cards):
        if where is not None:
            i = where[n]
        else:
            fits = [i for i, m in enumerate(melds) if m.accepts(card)]
            i = next((i for i in fits if melds[i].kind == "run"), fits[0])
        layoffs.append((card, melds[i]))
        melds[i] = melds[i].with_card(card)
        hands = _remove(hands, seat, card.bit)
        known = _remove(known, seat, card.bit)
    return s._replace(hands=hands, known=known, melds=tuple(melds), layoffs=tuple(layoffs))


def _score_knock(hand: Hand, s: HandState) -> HandState:
    knocker = s.knocker
    knocked = s.knock_arrangement
    assert knocker is not None and knocked is not None
    defender = best_arrangement(s.hands[1 - knocker])
    result = HandResult.knock(
        hand.rules, knocker, knocked.deadwood, defender.deadwood, hand.multiplier
    )
    return _end(
        s,
        replace(
            result,
            knocker_arrangement=knocked,
            defender_arrangement=defender,
            layoffs=s.layoffs,
        ),
    )


# -- the end -----------------------------------------------------------------------------------


def _over_legal(hand: Hand, s: HandState) -> list[Action]:
    return []


def _over_check(hand: Hand, s: HandState, a: Action) -> None:
    raise IllegalActionError("the hand is over")


#: Each phase's rules, in the order a hand meets them.
PHASES: Final[Mapping[Phase, PhaseRules]] = {
    Phase.FIRST_UPCARD: PhaseRules(
        "take or pass the upcard",
        _first_upcard_legal,
        _first_upcard_check,
        {_K_TAKE: _take, _K_PASS: _pass_upcard},
    ),
    Phase.DRAW: PhaseRules("draw", _draw_legal, _draw_check, {_K_TAKE: _take, _K_DRAW: _draw}),
    Phase.DISCARD: PhaseRules(
        "discard",
        _discard_legal,
        _discard_check,
        {_K_DISCARD: _discard, _K_KNOCK: _knock, _K_GIN: _knock, _K_BIG_GIN: _knock},
    ),
    Phase.WALL: PhaseRules(
        "take or pass at the wall",
        _wall_legal,
        _wall_check,
        {_K_TAKE: _take, _K_PASS: _pass_wall},
    ),
    Phase.LAYOFF: PhaseRules(
        "lay off",
        _layoff_legal,
        _layoff_check,
        {_K_LAYOFF: _lay_off_one, ActionKind.DONE: _done, ActionKind.AUTO: _lay_off_best},
    ),
    Phase.OVER: PhaseRules("nothing", _over_legal, _over_check, {}),
}


# -- small helpers ------------------------------------------------------------------------------

#: SUIT_DISCARDS[suit][pattern]: the discard actions of a 13-bit rank pattern in one suit.
SUIT_DISCARDS: Final = tuple(
    tuple(tuple(DISCARDS[c.index] for c in cards) for cards in by_pattern)
    for by_pattern in SUIT_CARDS
)


def _add(pair: tuple[int, int], seat: int, bits: int) -> tuple[int, int]:
    return (pair[0] | bits, pair[1]) if seat == 0 else (pair[0], pair[1] | bits)


def _remove(pair: tuple[int, int], seat: int, bits: int) -> tuple[int, int]:
    return (pair[0] & ~bits, pair[1]) if seat == 0 else (pair[0], pair[1] & ~bits)


__all__ = ["PHASES", "HandState", "Phase", "PhaseRules", "parse_phase"]
