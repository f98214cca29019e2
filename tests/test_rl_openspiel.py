"""OpenSpiel's gin_rummy in our terms: card and meld ids, the 644-wide observation tensor and the
action mapping, checked by replaying our hands move for move in pyspiel."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pyspiel
import pytest

from ginrummy import (
    DECK,
    Action,
    ActionKind,
    Card,
    Hand,
    Meld,
    Phase,
    Rules,
    deadwood,
    parse_cards,
)
from ginrummy.agents.registry import get_agent
from ginrummy.engine.melds import min_discard_deadwood_mask
from ginrummy.rl.openspiel import (
    CHANCE,
    DRAW_STOCK,
    KNOCK_ACTION,
    MELD_BASE,
    MELDS_BY_ID,
    NUM_MELDS,
    PASS_ACTION,
    TENSOR_LAYOUT,
    TENSOR_SIZE,
    card_id,
    card_of,
    engine_action,
    meld_id,
    meld_ids,
    meld_of,
    observation_tensor,
    openspiel_deal,
    openspiel_moves,
    openspiel_params,
    openspiel_player,
    split_meld,
)

UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


# ---------------------------------------------------------------------------------------------
# Ids


def test_card_ids_name_the_same_cards_as_openspiel() -> None:
    assert sorted(card_id(c) for c in DECK) == list(range(52))
    for card in DECK:
        assert UTILS.card_string(card_id(card)) == str(card)
        assert card_of(card_id(card)) is card
    assert [card_id(Card.parse(c)) for c in ("As", "Ks", "Ac", "Ad", "Ah", "Kh")] == [
        0,
        12,
        13,
        26,
        39,
        51,
    ]
    with pytest.raises(ValueError):
        card_of(52)


def test_meld_ids_are_openspiels() -> None:
    assert len(MELDS_BY_ID) == NUM_MELDS == 185
    for i in range(NUM_MELDS):
        ours = meld_of(i)
        assert sorted(card_id(c) for c in ours.cards) == sorted(UTILS.int_to_meld[i])
        assert meld_id(ours) == i
    with pytest.raises(ValueError):
        meld_of(185)
    with pytest.raises(ValueError):
        meld_id(Meld.parse("As2s3s4s5s6s"))


@pytest.mark.parametrize(
    ("run", "pieces"),
    [
        ("As2s3s4s5s", ["As2s3s4s5s"]),
        ("As2s3s4s5s6s", ["As2s3s", "4s5s6s"]),
        ("3h4h5h6h7h8h9h", ["3h4h5h6h", "7h8h9h"]),
        ("2d3d4d5d6d7d8d9dTd", ["2d3d4d5d6d", "7d8d9dTd"]),
        ("Ac2c3c4c5c6c7c8c9cTcJc", ["Ac2c3c4c", "5c6c7c8c", "9cTcJc"]),
    ],
)
def test_long_runs_are_split_into_openspiel_melds(run: str, pieces: list[str]) -> None:
    meld = Meld.parse(run)
    split = split_meld(meld)
    assert [str(m) for m in split] == pieces
    assert sum(m.mask for m in split) == meld.mask
    assert all(3 <= len(m) <= 5 for m in split)
    assert len(meld_ids([meld])) == len(split)


def test_params_follow_the_rules() -> None:
    assert openspiel_params(Rules.preset("classic")) == {
        "oklahoma": False,
        "knock_card": 10,
        "gin_bonus": 20,
        "undercut_bonus": 10,
    }
    assert openspiel_params(Rules.preset("oklahoma"))["oklahoma"] is True
    game = pyspiel.load_game("gin_rummy", openspiel_params(Rules(knock_limit=7)))
    assert game.knock_card() == 7


# ---------------------------------------------------------------------------------------------
# Replaying our hands in OpenSpiel


@dataclass
class Replay:
    """How one hand went in both engines: ``ended`` says why the comparison stopped."""

    ended: str
    states: int  # states whose tensors were compared (both seats)
    hand: Hand


def tensors_agree(hand: Hand, state: pyspiel.State) -> None:
    for seat in (0, 1):
        ours = observation_tensor(hand.view(seat))
        theirs = np.asarray(state.observation_tensor(openspiel_player(seat, hand.dealer)))
        if not np.array_equal(ours, theirs):
            parts = sorted(
                {name for name, at, size in TENSOR_LAYOUT for i in np.flatnonzero(ours != theirs)
                 if at <= i < at + size}
            )  # fmt: skip
            raise AssertionError(f"seat {seat}, {hand!r}: tensors differ in {parts}\n{state}")


def choose(hand: Hand, rng: random.Random) -> Action:
    """Mostly the simple player, who often plays on for gin instead of knocking (so hands end
    in knocks, gins and layoffs), and some random moves."""
    legal = hand.legal_actions()
    seat = hand.current_player
    assert seat is not None
    if hand.phase is Phase.LAYOFF or rng.random() < 0.15:
        return rng.choice(legal)
    kinds = {a.kind for a in legal}
    if ActionKind.KNOCK in kinds and ActionKind.GIN not in kinds and rng.random() < 0.7:
        cards = hand.hand_mask(seat)
        discards = {a.card: a for a in legal if a.kind is ActionKind.DISCARD and a.card}
        if discards:
            return discards[min(discards, key=lambda card: deadwood(cards & ~card.bit))]
    return get_agent("simple").act(hand.view(seat), rng)


def replay(rules: Rules, dealer: int, seed: int, rng: random.Random) -> Replay:
    hand = Hand.deal(rules, dealer, seed)
    state = pyspiel.load_game("gin_rummy", openspiel_params(rules)).new_initial_state()
    for outcome in openspiel_deal(hand.deck):
        state.apply_action(outcome)
    tensors_agree(hand, state)
    states = 1
    while not hand.is_over:
        action = choose(hand, rng)
        moves = openspiel_moves(hand, action)
        seat = hand.current_player
        assert seat is not None
        mine = [i for player, i in moves if player == openspiel_player(seat, dealer)]
        check_reverse(hand, action, mine)
        for player, move in moves:
            if move not in state.legal_actions():
                return Replay(refused(hand, move, state), states, hand)
            assert state.current_player() == player, (action, moves)
            state.apply_action(move)
        hand.apply(action)
        if state.is_terminal() and not hand.is_over:
            # OpenSpiel ends a hand at its 50th draw from the pile.
            assert state.move_number() > 100
            return Replay("openspiel ended the hand", states, hand)
        tensors_agree(hand, state)
        states += 1
    assert state.is_terminal()
    result = hand.result
    assert result is not None
    returns = [0.0, 0.0]
    if result.winner is not None:
        winner = openspiel_player(result.winner, dealer)
        returns[winner], returns[1 - winner] = result.points, -result.points
    assert state.returns() == returns, (result, str(state))
    return Replay("over", states, hand)


def refused(hand: Hand, move: int, state: pyspiel.State) -> str:
    """Why OpenSpiel refused one of our legal moves: one of its two known rule bugs."""
    phase = hand.phase
    if phase is Phase.LAYOFF and move < 52:
        # It stops a chain of layoffs after two cards on one end of a run.
        return "openspiel refused a chained layoff"
    seat = hand.current_player
    assert seat is not None
    if phase is Phase.DISCARD and move == KNOCK_ACTION:
        # Its 11-card deadwood melds the most points and then discards the highest card left,
        # which is not always the least deadwood after a discard.
        theirs = state.deadwood()[openspiel_player(seat, hand.dealer)]
        assert theirs > hand.knock_limit >= min_discard_deadwood_mask(hand.hand_mask(seat))
        return "openspiel refused a knock"
    raise AssertionError(f"OpenSpiel refused move {move} in the {phase} phase:\n{state}")


def check_reverse(hand: Hand, action: Action, mine: list[int]) -> None:
    """OpenSpiel's moves read back as the same action (``auto`` as its first layoff or done)."""
    back = engine_action(hand, mine)
    if action.kind is ActionKind.AUTO:
        assert back.kind in (ActionKind.LAYOFF, ActionKind.DONE)
    elif action.kind in (ActionKind.KNOCK, ActionKind.GIN):
        ours, theirs = hand.copy(), hand.copy()
        ours.apply(action)
        theirs.apply(back)
        assert ours.knock_arrangement is not None and theirs.knock_arrangement is not None
        assert back.kind is action.kind and back.card is action.card
        assert sorted(meld_ids(ours.knock_arrangement.melds)) == sorted(
            meld_ids(theirs.knock_arrangement.melds)
        )
    else:
        assert back == action


#: Rules under which OpenSpiel's gin_rummy plays the same game (scores included): a tie is no
#: undercut there, and the last discard may be taken at the wall to knock.
COMPARABLE = {
    "wall pickup": Rules(wall_pickup=True, undercut_on_tie=False),
    "standard": Rules(undercut_on_tie=False),
    "knock 5": Rules(knock_limit=5, undercut_on_tie=False, wall_pickup=True),
    "oklahoma": Rules.preset(
        "oklahoma", undercut_on_tie=False, oklahoma_spade_double=False, game_target=100
    ),
}


@pytest.mark.parametrize("name", COMPARABLE)
def test_our_hands_replay_in_openspiel_with_the_same_tensors(name: str) -> None:
    rules = COMPARABLE[name]
    rng = random.Random(name)
    replays = [replay(rules, seed % 2, seed, rng) for seed in range(40)]
    endings = Counter(r.ended for r in replays)
    kinds = Counter(r.hand.result.kind.value for r in replays if r.hand.result is not None)
    moves = Counter(e.action.kind.value for r in replays for e in r.hand.events)
    # Nearly every hand is compared to its end; the few others stop at a known difference.
    assert endings["over"] >= 36, endings
    assert sum(r.states for r in replays) > 1000
    # The hands reach every part of the tensor: knocks, gins, layoffs.
    assert kinds["knock"] + kinds["undercut"] >= 10 and kinds["gin"] >= 1, kinds
    assert moves["layoff"] + moves["auto"] >= 3, moves


def test_a_known_hand_in_openspiel() -> None:
    """The README's hand: both pass, the non-dealer draws the Ad and knocks with the Kd."""
    top = parse_cards("As Qh 2s Qd 3s Qc 4s 9s 7h Ts 7d Js 7c 6d Kd 6h 4c 9c 3h Kc Jd Ad")
    deck = [*top, *(card for card in DECK if card not in top)]
    hand = Hand.from_deck(Rules(), dealer=0, deck=deck)
    assert openspiel_moves(hand, "pass") == [(0, PASS_ACTION)]
    hand.apply("pass")
    hand.apply("pass")
    assert openspiel_moves(hand, "draw") == [(0, DRAW_STOCK), (CHANCE, card_id(Card.parse("Ad")))]
    hand.apply("draw")
    moves = openspiel_moves(hand, "knock Kd")
    assert moves[:2] == [(0, KNOCK_ACTION), (0, card_id(Card.parse("Kd")))]
    laid = {meld_of(i - MELD_BASE) for _, i in moves[2:-1]}
    assert {str(m) for m in laid} == {"7h7d7c", "As2s3s4s"}
    assert moves[-1] == (0, PASS_ACTION)
    hand.apply("knock Kd")
    tensor = observation_tensor(hand.view(0))  # the defender, the dealer: OpenSpiel's player 1
    parts = {name: tensor[at : at + size] for name, at, size in TENSOR_LAYOUT}
    assert parts["player"].tolist() == [0, 1]
    assert parts["current_player"].tolist() == [0, 1]
    assert np.flatnonzero(parts["upcard"]).size == 0
    assert card_id(Card.parse("Kd")) in np.flatnonzero(parts["discard_pile"])
    assert parts["layed_melds"][:NUM_MELDS].sum() == 2
    knocker = observation_tensor(hand.view(1))
    hand_row = knocker[2:54]  # the knocker's own row (player 0) holds his deadwood only
    assert sorted(card_of(int(i)) for i in np.flatnonzero(hand_row)) == sorted(
        parse_cards("3h Ad 4c")
    )


def test_tensor_fills_a_given_array_and_numbers_players_by_seat() -> None:
    hand = Hand.deal(Rules(), dealer=0, seed=3)
    out = np.ones(TENSOR_SIZE, np.float32)
    got = observation_tensor(hand.view(0), out)
    assert got is out and out.dtype == np.float32
    assert out[:2].tolist() == [0, 1]  # seat 0 deals, so OpenSpiel calls it player 1
    by_seat = observation_tensor(hand.view(0), openspiel_players=False)
    assert by_seat[:2].tolist() == [1, 0]
    assert by_seat.sum() == out.sum()
    with pytest.raises(ValueError):
        observation_tensor(hand.view(0), np.zeros(10, np.float32))


def test_big_gin_has_no_openspiel_move() -> None:
    melded = list(parse_cards("As 2s 3s 4s 5s 7h 7d 7c Kh Kc"))
    melded.append(Card.parse("Kd"))  # the card the dealer draws
    rest = [c for c in DECK if c not in melded]
    deck: list[Card] = []
    for i in range(10):
        deck += [rest[i], melded[i]]
    deck += [rest[10], rest[11], melded[10], *rest[12:]]  # the dealer draws the 2nd stock card
    hand = Hand.from_deck(Rules(big_gin=True), dealer=0, deck=deck)
    hand.apply("pass")
    hand.apply("pass")
    hand.apply("draw")
    hand.apply(f"discard {hand.events[-1].card}")
    hand.apply("draw")  # the dealer draws the Kd
    assert Action.parse("biggin") in hand.legal_actions()
    with pytest.raises(ValueError, match="big gin"):
        openspiel_moves(hand, "biggin")
