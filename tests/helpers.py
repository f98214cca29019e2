"""Shared test helpers: build decks from card notation, snapshot a hand, play random hands.

``deck_for`` writes a deal the way a person reads it::

    deck = deck_for(non_dealer="As 2s 3s ...", dealer="...", upcard="Kh", stock="5c 9d")
    hand = Hand.from_deck(Rules(), dealer=0, deck=deck)

The deck convention (``Hand.from_deck``): 52 cards top first; cards 1-20 are dealt alternately
starting with the non-dealer, card 21 is the upcard (in the eleven-card deal it is the
non-dealer's eleventh card), the rest is the stock, top first.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from ginrummy import (
    DECK,
    Action,
    ActionKind,
    Card,
    Cards,
    Hand,
    IllegalActionError,
    InvalidNotationError,
    Phase,
    Rules,
    parse_cards,
)
from ginrummy.engine.melds import (
    deadwood_mask,
    discard_deadwoods_mask,
    min_discard_deadwood_mask,
)
from ginrummy.engine.results import ResultKind

# --------------------------------------------------------------------------------------------
# Building decks


def deck_for(
    non_dealer: str,
    dealer: str,
    upcard: str | None = None,
    stock: str = "",
) -> Cards:
    """A 52-card deck, top first, that deals the given hands.

    ``non_dealer`` and ``dealer`` are 10 cards each (the non-dealer 11 for the eleven-card
    deal, with ``upcard`` left out). ``stock`` is the top of the stock, first drawn first; the
    rest of the stock is every other card in a fixed order (``DECK`` order).
    """
    nd = parse_cards(non_dealer)
    dl = parse_cards(dealer)
    if len(dl) != 10:
        raise ValueError(f"the dealer gets 10 cards, not {len(dl)}")
    if upcard is None:
        if len(nd) != 11:
            raise ValueError("without an upcard (eleven-card deal) the non-dealer gets 11 cards")
        card21 = nd[10]
    else:
        if len(nd) != 10:
            raise ValueError(f"the non-dealer gets 10 cards, not {len(nd)}")
        card21 = Card.parse(upcard)
    top: list[Card] = []
    for i in range(10):
        top += [nd[i], dl[i]]
    top.append(card21)
    top += parse_cards(stock, allow_empty=True)
    used = 0
    for card in top:
        if used & card.bit:
            raise ValueError(f"card {card} is used twice")
        used |= card.bit
    rest = [c for c in DECK if not used & c.bit]
    return Cards(top + rest)


def filler(exclude: str, n: int) -> str:
    """``n`` cards not named in ``exclude``, in ``DECK`` order, as text."""
    used = parse_cards(exclude, allow_empty=True).mask
    return " ".join(str(c) for c in DECK if not used & c.bit)[: 3 * n - 1]


def wall_stock(used: str, last: str, before_last: int = 28) -> str:
    """A stock whose card number ``before_last + 1`` is ``last`` (card 29 of 31 leaves two in
    the stock: it is the non-dealer's 15th draw when both pass the upcard), filled with cards
    not in ``used``."""
    return f"{filler(used + ' ' + last, before_last)} {last}"


def play(hand: Hand, actions: str | Iterable[str]) -> Hand:
    """Apply actions given as ``"pass, draw, discard Kh"`` or a list of texts."""
    texts = actions.split(",") if isinstance(actions, str) else actions
    for text in texts:
        if text.strip():
            hand.apply(text.strip())
    return hand


def cards(text: str) -> Cards:
    return parse_cards(text, allow_empty=True)


def mask(text: str) -> int:
    return parse_cards(text, allow_empty=True).mask


# --------------------------------------------------------------------------------------------
# Snapshots and invariants


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Everything observable about a hand, as plain values, for before/after comparisons:
    both hands, the stock, the pile, the phase and turn, the knock, layoffs, result, events and
    the legal actions."""
    return (
        str(hand.cards(0)),
        str(hand.cards(1)),
        str(hand.stock),
        tuple(str(c) for c in hand.discard_pile),
        hand.phase,
        hand.current_player,
        hand.taken_card,
        hand.known_cards,
        hand.knocker,
        hand.knock_card,
        hand.knock_arrangement,
        hand.table_melds,
        hand.layoffs,
        hand.result,
        tuple(hand.events),
        tuple(str(a) for a in hand.legal_actions()),
    )


def quick_snapshot(hand: Hand) -> tuple[Any, ...]:
    """The whole state, cheaply, for random play: the hand's own state tuple (every field an
    action may change, all immutable values), its events and its undo history."""
    events = hand.events
    return (
        hand._state,
        len(events),
        events[-1] if events else None,
        len(hand._history),
        hand.deck,
        hand.knock_limit,
        hand.multiplier,
    )


def stock_masks(hand: Hand) -> list[int]:
    """``masks[i]``: the mask of the deck's cards from position ``i`` on (the stock when
    ``52 - stock_count == i``)."""
    masks = [0] * 53
    for i in range(51, -1, -1):
        masks[i] = masks[i + 1] | hand.deck[i].bit
    return masks


def card_places(hand: Hand, stock_mask: int | None = None) -> list[tuple[str, int]]:
    """(place, mask) for every place a card can be; the masks must partition the deck."""
    laid_off = 0
    for card, _ in hand.layoffs:
        laid_off |= card.bit
    knock = hand.knock_card
    pile = 0
    for card in hand.discard_pile:
        pile |= card.bit
    return [
        ("seat 0", hand.hand_mask(0)),
        ("seat 1", hand.hand_mask(1)),
        ("stock", hand.stock.mask if stock_mask is None else stock_mask),
        ("pile", pile),
        ("knock card", 0 if knock is None else knock.bit),
        ("laid off", laid_off),
    ]


def check_invariants(
    hand: Hand, legal: list[Action] | None = None, stock_mask: int | None = None
) -> None:
    """Raise AssertionError when the hand's state is inconsistent.

    ``legal`` is ``hand.legal_actions()`` when the caller has it; ``stock_mask`` the stock's
    mask (from :func:`stock_masks`) when the caller has it.
    """
    seen = 0
    total = 0
    for name, m in card_places(hand, stock_mask):
        assert not seen & m, f"a card of {name} is also somewhere else:\n{hand}"
        seen |= m
        total += m.bit_count()
    assert seen == (1 << 52) - 1 and total == 52, f"cards missing:\n{hand}"
    assert hand.stock_count >= 2
    n0, n1 = hand.hand_mask(0).bit_count(), hand.hand_mask(1).bit_count()
    phase = hand.phase
    turn = hand.current_player
    sizes = {0: n0, 1: n1}
    if phase in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.WALL):
        assert sizes == {0: 10, 1: 10}, sizes
        assert hand.taken_card is None
        assert hand.discard_pile, "nothing to take"
    elif phase is Phase.DISCARD:
        assert turn is not None
        assert sizes[turn] == 11 and sizes[1 - turn] == 10, sizes
        taken = hand.taken_card
        assert taken is None or hand.hand_mask(turn) & taken.bit
    else:
        _check_showdown(hand, sizes)
    if legal is None:
        legal = hand.legal_actions()
    if phase is Phase.OVER:
        assert hand.result is not None and turn is None
        assert legal == []
    else:
        assert hand.result is None
        assert legal, "no legal action in a live hand"
    for seat in (0, 1):
        known = hand.known_cards[seat]
        assert known & ~hand.hand_mask(seat) == 0, (
            f"seat {seat}'s known cards {Cards.from_mask(known)} are not all in its hand"
        )


def _check_showdown(hand: Hand, sizes: dict[int, int]) -> None:
    knocker = hand.knocker
    result = hand.result
    if result is not None and result.kind is ResultKind.DEAD:
        assert sizes == {0: 10, 1: 10}, sizes
        assert knocker is None
        return
    assert knocker is not None
    arrangement = hand.knock_arrangement
    assert arrangement is not None
    big = result is not None and result.kind is ResultKind.BIG_GIN
    assert sizes[knocker] == (11 if big else 10), sizes
    assert (hand.knock_card is None) == big
    assert sizes[1 - knocker] == 10 - len(hand.layoffs), sizes
    # The knocker's hand is exactly what he laid down, within the knock limit.
    assert arrangement.mask == hand.hand_mask(knocker)
    assert arrangement.deadwood <= hand.knock_limit
    laid = 0
    for meld in hand.table_melds:
        laid |= meld.mask
    melds = 0
    for meld in arrangement.melds:
        melds |= meld.mask
    off = 0
    for card, _ in hand.layoffs:
        off |= card.bit
    assert laid == melds | off


# --------------------------------------------------------------------------------------------
# Random play

CARD_KINDS = (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN, ActionKind.LAYOFF)
PLAIN_KINDS = (
    ActionKind.PASS,
    ActionKind.TAKE,
    ActionKind.DRAW,
    ActionKind.BIG_GIN,
    ActionKind.DONE,
    ActionKind.AUTO,
)
MELD_WORDS = ("As2s3s", "7h7d7c", "9c10cJc", "KsKhKd", "4d5d6d7d", "QhQdQcQs", "2h3h4h")
JUNK_WORDS = ("", "   ", "discard", "knock Zz", "fold", "discard Kh Kh", "take Kh", "layoff")


def _action_texts() -> tuple[str, ...]:
    texts = [kind.value for kind in PLAIN_KINDS] * 12 + list(JUNK_WORDS)
    for kind in CARD_KINDS:
        texts += [f"{kind.value} {card}" for card in DECK]
    melds = random.Random(0)
    for card in melds.sample(DECK, 12):
        words = " ".join(melds.sample(MELD_WORDS, melds.randint(1, 3)))
        texts += [f"knock {card} {words}", f"gin {card} {words}"]
    return tuple(texts)


#: Action texts of every kind: each plain action, each kind with each card, knocks and gins
#: naming melds (mostly not held), and malformed text.
ACTION_TEXTS = _action_texts()


def _parsed(text: str) -> Action | str:
    try:
        return Action.parse(text)
    except InvalidNotationError:
        return text


#: ACTION_TEXTS parsed where they parse (applying an Action skips the parsing; the texts that
#: do not parse stay text).
ACTIONS: tuple[Action | str, ...] = tuple(_parsed(t) for t in ACTION_TEXTS)


def random_action_text(rng: random.Random) -> str:
    """A random action text: any kind, any card, sometimes named melds, sometimes junk."""
    return ACTION_TEXTS[int(rng.random() * len(ACTION_TEXTS))]


def random_action(rng: random.Random) -> Action | str:
    """Like :func:`random_action_text`, as an ``Action`` when the text parses."""
    return ACTIONS[int(rng.random() * len(ACTIONS))]


def try_illegal(
    hand: Hand, text: Action | str, seat: int | None = None, thorough: bool = True
) -> bool:
    """Try ``text`` (as ``seat``): if it is illegal it must raise a ``ValueError`` with a
    message and change nothing. Returns whether it was illegal; a legal one is undone.

    ``thorough`` also checks that ``check`` and ``is_legal`` agree with ``apply``, for the
    action and for its text.
    """
    if thorough and isinstance(text, Action):
        as_text = _try(hand, str(text), seat, thorough)
        assert _try(hand, text, seat, thorough) == as_text, f"{text} and its text differ"
        return as_text
    return _try(hand, text, seat, thorough)


def _try(hand: Hand, text: Action | str, seat: int | None, thorough: bool) -> bool:
    before = quick_snapshot(hand)
    try:
        hand.apply(text, seat)
    except (IllegalActionError, InvalidNotationError) as exc:
        assert isinstance(exc, ValueError)
        assert str(exc), "an error without a message"
        assert quick_snapshot(hand) == before, f"a refused {text!r} changed the hand"
        if thorough:
            try:
                hand.check(text, seat)
            except (IllegalActionError, InvalidNotationError) as exc2:
                assert type(exc2) is type(exc) and str(exc2) == str(exc)
            else:
                raise AssertionError(f"apply refused {text!r} but check accepted it") from None
            assert not hand.is_legal(text, seat)
            assert quick_snapshot(hand) == before
        return True
    hand.undo()
    assert quick_snapshot(hand) == before, f"undo of {text!r} did not restore the hand"
    if thorough:
        assert hand.is_legal(text, seat)
        action = hand.check(text, seat)
        assert action.melds is not None or action in hand.legal_actions()
    return False


class Policy:
    """A seeded random player. ``greed`` is the chance to take the best-looking action (gin,
    then knock, then the discard keeping the least deadwood) instead of a uniform choice;
    greedy hands end sooner and reach knocks, gins and layoffs more often."""

    def __init__(self, rng: random.Random, greed: float) -> None:
        self.rng = rng
        self.greed = greed

    def choose(self, hand: Hand, legal: list[Action]) -> Action:
        rng = self.rng
        if rng.random() >= self.greed:
            return rng.choice(legal)
        last = legal[-1].kind  # gins, knocks and big gin come last in the list
        if last in (ActionKind.BIG_GIN, ActionKind.GIN, ActionKind.KNOCK):
            for kind in (ActionKind.BIG_GIN, ActionKind.GIN, ActionKind.KNOCK):
                found = [a for a in legal if a.kind is kind]
                if found:
                    return rng.choice(found)
        seat = hand.current_player
        assert seat is not None
        m = hand.hand_mask(seat)
        phase = hand.phase
        if phase is Phase.DISCARD:
            table = discard_deadwoods_mask(m)
            best = min(table[_card_of(a).index] for a in legal)
            return rng.choice([a for a in legal if table[_card_of(a).index] == best])
        if legal[0].kind is ActionKind.TAKE and phase is not Phase.WALL:
            # Take the pile's top card when keeping it (and discarding another) is better.
            top = hand.discard_pile[-1]
            if min_discard_deadwood_mask(m | top.bit) < deadwood_mask(m):
                return legal[0]
            return legal[1]
        return rng.choice(legal)


def _card_of(action: Action) -> Card:
    assert action.card is not None
    return action.card


def play_out(hand: Hand, policy: Policy) -> Hand:
    while not hand.is_over:
        hand.apply(policy.choose(hand, hand.legal_actions()))
    return hand


def rule_mixes() -> list[tuple[str, Rules]]:
    """Every preset, and each preset with the per-hand options mixed in."""
    mixes: list[tuple[str, Rules]] = []
    for name in Rules.presets():
        base = Rules.preset(name)
        mixes.append((name, base))
        mixes.append((f"{name}+wall", base.replace(wall_pickup=True)))
        mixes.append((f"{name}+big+must", base.replace(big_gin=True, must_gin=True)))
        mixes.append(
            (
                f"{name}+wall+must+tie",
                base.replace(wall_pickup=True, must_gin=True, undercut_on_tie=False),
            )
        )
        if not base.oklahoma:
            mixes.append((f"{name}+eleven", base.replace(deal="eleven")))
            mixes.append(
                (
                    f"{name}+eleven+big+wall",
                    base.replace(deal="eleven", big_gin=True, wall_pickup=True),
                )
            )
        else:
            mixes.append((f"{name}+ace1", base.replace(oklahoma_ace="one", big_gin=True)))
    return mixes


# --------------------------------------------------------------------------------------------
# Deals the scenario tests and the golden playthroughs share (dealer seat 0, non-dealer seat 1)

#: The non-dealer holds As-4s and 7h7d7c with Kd 4c 3h (17); drawing Ad, ``knock Kd`` leaves
#: 4c 3h Ad = 8, while ``knock 4c`` would leave 14.
KNOCKER = "As 2s 3s 4s 7h 7d 7c Kd 4c 3h"
#: Defenders against KNOCKER (none can lay off): 31, 2 (an undercut) and 8 (a tie).
DEFENDER_31 = "Qh Qd Qc 9s Ts Js 6d 6h 9c Kc"
DEFENDER_2 = "Qh Qd Qc 9s Ts Js 6d 6h 6s 2c"
DEFENDER_8 = "Qh Qd Qc 9s Ts Js 6d 6h 6s 8c"

#: Layoffs: the non-dealer will lay down 2h2d2c QhQdQc 5s6s7s with Ac (1). The dealer takes
#: the 4s upcard and discards Kh; he then holds 8s9sTs, 4s, Qs and Jh Jd 6c 8d 3h (37).
LAYOFF_DEAL = {
    "non_dealer": "5s 6s 7s Qh Qd Qc 2h 2d Ac Kd",
    "dealer": "8s 9s Ts Qs Jh Jd 6c 8d 3h Kh",
    "upcard": "4s",
    "stock": "2c",
}
LAYOFF_START = "pass, take, discard Kh, draw, knock Kd"

#: Gin: the non-dealer takes the 2c upcard and goes gin with Kd (5s-8s QhQdQc 2h2d2c). The
#: dealer's 74 deadwood holds 4s, 9s and Qs, which would lay off against a knock.
GIN_DEAL = {
    "non_dealer": "5s 6s 7s 8s Qh Qd Qc 2h 2d Kd",
    "dealer": "4s 9s Qs Jh Jd 6c 8d 3h 5d 9c",
    "upcard": "2c",
}
#: Big gin: with the 2c upcard all eleven cards meld (5s-8s QhQdQc 2s2h2d2c).
BIG_GIN_DEAL = {**GIN_DEAL, "non_dealer": "5s 6s 7s 8s Qh Qd Qc 2h 2d 2s"}

#: Naming an arrangement: after drawing Kd the non-dealer holds 7s7h7d7c, 3h4h5h 3d3c Ac.
#: The least deadwood (7) melds 3h4h5h, which the dealer's 2h and 6h extend; naming the set
#: 3h3d3c instead leaves 10, and nothing lays off. The dealer's 76 has no meld.
ARRANGE_DEAL = {
    "non_dealer": "7s 7h 7d 7c 3h 4h 5h 3d 3c Ac",
    "dealer": "2h 6h 9s 9d Jc Qc Kh 8c 8d 4s",
    "upcard": "Qs",
    "stock": "Kd",
}


def knock_deal(dealer: str = DEFENDER_31, upcard: str = "Jd", **rest: str) -> dict[str, str]:
    """The KNOCKER deal against ``dealer``; the non-dealer's first draw is Ad."""
    return {"non_dealer": KNOCKER, "dealer": dealer, "upcard": upcard, "stock": "Ad", **rest}


def wall_deal(dealer: str, last: str, avoid: str = "") -> dict[str, str]:
    """KNOCKER against ``dealer`` with ``last`` as the 29th stock card: after both pass the
    upcard, the non-dealer draws it and leaves two cards in the stock. The 28 cards before it
    leave out ``avoid`` (cards that would give a player gin under must_gin)."""
    used = f"{KNOCKER} {dealer} Jd {avoid}"
    return {
        "non_dealer": KNOCKER,
        "dealer": dealer,
        "upcard": "Jd",
        "stock": wall_stock(used, last),
    }


def draw_and_discard(hand: Hand, turns: int) -> Hand:
    """Each of ``turns`` turns: draw from the stock and discard the card drawn."""
    for _ in range(turns):
        drawn = hand.apply("draw").card
        hand.apply(f"discard {drawn}")
    return hand


def deal(rules: Rules | None = None, **kwargs: str) -> Hand:
    """``Hand.from_deck`` on ``deck_for(**kwargs)``, seat 0 dealing."""
    return Hand.from_deck(rules or Rules(), 0, deck_for(**kwargs))


#: Against KNOCKER at the wall: QhQdQc 9sTsJs 6d6h with 2c 3d; the 6s gives a knock (3d: 2).
WALL_DEALER = "Qh Qd Qc 9s Ts Js 6d 6h 2c 3d"


# --------------------------------------------------------------------------------------------
# The human-readable part of a golden playthrough


def describe_hand(hand: Hand) -> str:
    """The events and the result of a finished hand, one fact a line (golden files)."""
    lines = ["events:"]
    for event in hand.events:
        text = str(event)
        if event.action.kind is ActionKind.AUTO:
            laid = " ".join(str(c) for c in event.laid_off)
            text += f" (lays off {laid or 'nothing'})"
        lines.append(f"  {text}")
    result = hand.result
    assert result is not None, "the hand is not over"
    if result.kind is ResultKind.DEAD:
        lines.append("result: dead hand, no score")
        return "\n".join(lines) + "\n"
    knocker = result.knocker
    how = {
        ResultKind.KNOCK: "knock",
        ResultKind.GIN: "gin",
        ResultKind.BIG_GIN: "big gin",
        ResultKind.UNDERCUT: "knock, undercut",
    }[result.kind]
    score = "no score" if result.winner is None else f"seat {result.winner} scores {result.points}"
    double = f" (x{result.multiplier})" if result.multiplier != 1 else ""
    lines.append(f"result: {how} by seat {knocker}; {score}{double}")
    lines.append(
        f"  knocker seat {knocker}: {result.knocker_arrangement} = {result.knocker_deadwood}"
    )
    lines.append(
        f"  defender seat {result.defender}: {result.defender_arrangement}"
        f" = {result.defender_deadwood}"
    )
    laid = ", ".join(f"{card} onto {meld}" for card, meld in result.layoffs)
    lines.append(f"  layoffs: {laid or 'none'}")
    return "\n".join(lines) + "\n"
