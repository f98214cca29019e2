"""Stateful random play: 20,000 seeded hands over every preset and option mix.

After every action: each card is in exactly one place, hand sizes fit the phase, the hand's
invariants hold, and a random action (any kind, any card, named melds, junk text) that is
illegal raises and changes nothing. Legal actions are applied and undone (all of them in every
``DEEP_EVERY``-th hand, a sample elsewhere), views never show a hidden card, and finished hands
replay exactly from their records in the text and JSON forms and are scored as RULES.md says
(see ``run_hand`` for what is checked how often: the file stays near a minute of one core).

A failure names the shard, hand number, seed and rules and prints the record so far; rerun it
with ``run_hand(seed, MIXES[i][1], deep=True)``.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from ginrummy import (
    Action,
    ActionKind,
    Cards,
    Hand,
    HandRecord,
    PlayerView,
    ResultKind,
    Rules,
    deadwood,
    layoff,
)
from helpers import (
    PLAIN_KINDS,
    Policy,
    check_invariants,
    quick_snapshot,
    random_action,
    random_action_text,
    rule_mixes,
    stock_masks,
    try_illegal,
)

MIXES = rule_mixes()
SHARDS = 10
HANDS_PER_SHARD = 2_000  # 20,000 hands in all
DEEP_EVERY = 250  # every 250th hand checks every legal action and both views at every step
# The chance each hand's players take the greedy move: uniform play (0.0) reaches the wall,
# greedy play knocks, gins and lays off.
GREEDS = (0.0, 0.8, 0.9, 0.9, 0.95, 0.97, 0.98, 0.99, 0.99, 1.0)

CARD_RUN = re.compile(r"\b(?:[A2-9TJQK][shdc])+\b")


def card_texts(data: object) -> set[str]:
    """Every card named anywhere in a JSON-able value (cards written alone or run together)."""
    out: set[str] = set()
    for word in CARD_RUN.findall(json.dumps(data)):
        out.update(word[i : i + 2] for i in range(0, len(word), 2))
    return out


def hidden_from(hand: Hand, seat: int, stock: int) -> int:
    """The mask of cards ``seat`` must not see: the stock (mask ``stock``), and the opponent's
    cards not taken from the pile, while the opponent's hand is not laid out or shown."""
    other = 1 - seat
    if hand.is_over or hand.knocker == other:
        return stock
    return stock | hand.hand_mask(other) & ~hand.known_cards[other]


def check_view(hand: Hand, seat: int, stock: int, round_trip: bool) -> None:
    view = hand.view(seat)
    data = view.to_dict()
    hidden = hidden_from(hand, seat, stock)
    leaked = card_texts(data) & {str(c) for c in Cards.from_mask(hidden)}
    assert not leaked, f"seat {seat}'s view shows hidden cards {sorted(leaked)}"
    assert view.hand.mask == hand.hand_mask(seat)
    assert view.unseen.mask & hidden == hidden
    if hand.current_player == seat:
        assert list(view.legal_actions) == hand.legal_actions()
    else:
        assert view.legal_actions == ()
    if round_trip:
        assert PlayerView.from_dict(json.loads(json.dumps(data))) == view


def check_public_view(hand: Hand, stock: int) -> None:
    """A spectator sees no stock card, no card a player holds that was not taken from the pile
    (but the knocker's, laid out), and not the knocker's discard while the hand is on."""
    view = hand.public_view()
    hidden = stock
    if not hand.is_over:
        for seat in (0, 1):
            if hand.knocker != seat:
                hidden |= hand.hand_mask(seat) & ~hand.known_cards[seat]
    leaked = card_texts(view.to_dict()) & {str(c) for c in Cards.from_mask(hidden)}
    assert not leaked, f"the spectator's view shows hidden cards {sorted(leaked)}"
    knocks = [e for e in view.history if e.action.kind is ActionKind.KNOCK]
    if not hand.is_over:  # the discard may be known from before (taken from the pile)
        assert all(str(e.action) == "knock" and e.card is None for e in knocks), knocks
    assert view.counts == (hand.hand_mask(0).bit_count(), hand.hand_mask(1).bit_count())
    assert (view.hands is not None) == hand.is_over


def expected_result(hand: Hand) -> tuple[ResultKind, int | None, int]:
    """(kind, winner, points) computed from RULES.md's scoring, apart from HandResult."""
    result = hand.result
    assert result is not None
    rules = hand.rules
    if result.kind is ResultKind.DEAD:
        return ResultKind.DEAD, None, 0
    knocker = hand.knocker
    assert knocker is not None and hand.knock_arrangement is not None
    k = hand.knock_arrangement.deadwood
    d = deadwood(hand.cards(1 - knocker))
    m = hand.multiplier
    if result.kind is ResultKind.BIG_GIN:
        return ResultKind.BIG_GIN, knocker, (d + rules.big_gin_bonus) * m
    if k == 0:
        assert not hand.layoffs, "layoffs against gin"
        return ResultKind.GIN, knocker, (d + rules.gin_bonus) * m
    if k < d:
        return ResultKind.KNOCK, knocker, (d - k) * m
    if d < k or rules.undercut_on_tie:
        return ResultKind.UNDERCUT, 1 - knocker, (k - d + rules.undercut_bonus) * m
    return ResultKind.KNOCK, None, 0


def check_finished(hand: Hand, replay_forms: slice = slice(None)) -> None:
    """The result is scored as RULES.md says, and the record replays it exactly in the text
    and JSON forms (``replay_forms`` picks some of the two)."""
    result = hand.result
    assert result is not None
    assert (result.kind, result.winner, result.points) == expected_result(hand)
    if result.kind is not ResultKind.DEAD:
        assert result.multiplier == hand.multiplier
    if hand.knocker is not None:
        knocker = hand.knocker
        assert hand.knock_arrangement is not None
        # The defender can do no better than the layoff solver, and `auto` reaches it.
        before = hand.hand_mask(1 - knocker)
        for card, _ in hand.layoffs:
            before |= card.bit
        best = layoff(before, hand.knock_arrangement.melds)
        if result.kind in (ResultKind.KNOCK, ResultKind.UNDERCUT):
            assert result.defender_deadwood >= best.deadwood
            if hand.events[-1].action.kind is ActionKind.AUTO and len(hand.layoffs) == len(
                hand.events[-1].laid_off
            ):
                assert result.defender_deadwood == best.deadwood
        assert result.layoffs == hand.layoffs
    rec = hand.record()
    forms = [
        lambda: HandRecord.from_text(rec.to_text()),
        lambda: HandRecord.from_json(rec.to_json()),
    ]
    for form in forms[replay_forms]:
        again = form()
        assert again == rec
        replayed = again.replay()
        assert replayed.events == hand.events
        assert replayed.result == result


def check_legal(hand: Hand, legal: list[Action], actions: list[Action], deep: bool) -> None:
    """Each of ``actions`` (from ``legal``) applies, keeps the invariants, and undoes exactly;
    deep: the list is exactly the legal set among every action on the player's cards."""
    before = quick_snapshot(hand)
    turn = hand.current_player
    for action in actions:
        if deep:
            assert hand.is_legal(action) and hand.is_legal(str(action), turn)
        event = hand.apply(action)
        assert event.action == action and event.seat == turn
        assert event.number == len(hand.events)
        if deep:
            check_invariants(hand)
        assert hand.undo() is event
        assert quick_snapshot(hand) == before, f"undo of {action} did not restore the hand"
    if deep:
        assert turn is not None
        universe = [Action(kind) for kind in PLAIN_KINDS] + [
            Action(kind, card)
            for card in hand.cards(turn)
            for kind in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN, ActionKind.LAYOFF)
        ]
        legal_set = set(legal)
        for action in universe:
            assert hand.is_legal(action) == (action in legal_set), (
                f"{action}: is_legal says {hand.is_legal(action)}, legal_actions disagrees"
            )
        assert len(legal_set) == len(legal), "duplicate legal actions"
        assert quick_snapshot(hand) == before


def run_hand(seed: int, rules: Rules, deep: bool) -> Hand:
    """Play one seeded hand under ``rules``, checking everything after every action.

    Every hand: invariants and a random illegal text after every action, one sampled legal
    action applied and undone every second step, a move out of turn every fourth step, one
    seat's view at a sampled step, and in every other hand a replay from the text or the JSON
    record. ``deep``: every legal action, the legal list against ``is_legal`` over every
    action on the player's cards, both views after every action, a copy played out, and both
    record forms.
    """
    rng = random.Random(seed)
    policy = Policy(rng, rng.choice(GREEDS))
    hand = Hand.deal(rules, rng.randrange(2), rng)
    view_step = rng.randrange(50)
    copy_step = rng.randrange(50) if deep else -1
    round_trip = deep or seed % 10 == 0
    try:
        _play_and_check(hand, rng, policy, seed, deep, view_step, copy_step, round_trip)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\nrecord so far: {hand.record().to_text()}") from exc
    return hand


def _play_and_check(
    hand: Hand,
    rng: random.Random,
    policy: Policy,
    seed: int,
    deep: bool,
    view_step: int,
    copy_step: int,
    round_trip: bool,
) -> None:
    stock = stock_masks(hand)
    step = 0
    while True:
        legal = hand.legal_actions()
        stock_mask = stock[52 - hand.stock_count]
        check_invariants(hand, legal, stock_mask)
        if deep or step == view_step:
            for seat in (0, 1) if deep else (seed % 2,):
                check_view(hand, seat, stock_mask, round_trip and step == view_step)
            check_public_view(hand, stock_mask)
        try_illegal(hand, random_action(rng), thorough=deep)
        if hand.is_over:
            break
        turn = hand.current_player
        assert turn is not None
        pick = rng.choice(legal)
        if deep or step % 4 == 0:
            assert try_illegal(hand, pick, 1 - turn, deep), "a move out of turn went through"
        if deep or step % 2 == 0:
            check_legal(hand, legal, legal if deep else [pick], deep)
        if step == copy_step:
            _check_copy(hand, rng)
        hand.apply(policy.choose(hand, legal))
        step += 1
    if round_trip:
        for seat in (0, 1):
            check_view(hand, seat, stock[52 - hand.stock_count], True)
        check_public_view(hand, stock[52 - hand.stock_count])
    # Replays: both forms in deep hands; else the text form (seed % 4 == 0) or JSON (== 2).
    forms = slice(None) if deep else slice(0, 0) if seed % 2 else slice(seed % 4 // 2, None, 2)
    check_finished(hand, forms)


def _check_copy(hand: Hand, rng: random.Random) -> None:
    before = quick_snapshot(hand)
    other = hand.copy()
    assert quick_snapshot(other) == before
    policy = Policy(rng, 0.9)
    while not other.is_over:
        other.apply(policy.choose(other, other.legal_actions()))
    assert quick_snapshot(hand) == before, "playing a copy changed the original"
    assert other.events[: len(hand.events)] == hand.events


@pytest.mark.parametrize("shard", range(SHARDS))
def test_random_hands(shard: int) -> None:
    kinds: dict[ResultKind, int] = {}
    for i in range(HANDS_PER_SHARD):
        n = shard * HANDS_PER_SHARD + i
        name, rules = MIXES[n % len(MIXES)]
        seed = 1_000_003 * shard + i
        try:
            hand = run_hand(seed, rules, deep=i % DEEP_EVERY == 0)
        except AssertionError as exc:
            raise AssertionError(
                f"shard {shard} hand {i}: run_hand({seed}, MIXES[{n % len(MIXES)}] ({name}), "
                f"deep={i % DEEP_EVERY == 0}) failed: {exc}"
            ) from exc
        assert hand.result is not None
        kinds[hand.result.kind] = kinds.get(hand.result.kind, 0) + 1
    # Every shard sees every way a hand can end (big gin needs its option: not in all shards).
    assert set(kinds) >= {ResultKind.DEAD, ResultKind.KNOCK, ResultKind.GIN, ResultKind.UNDERCUT}


def test_mixes_cover_every_preset_and_option() -> None:
    names = {name.split("+")[0] for name, _ in MIXES}
    assert names == set(Rules.presets())
    rules = [r for _, r in MIXES]
    assert any(r.wall_pickup for r in rules)
    assert any(r.big_gin for r in rules)
    assert any(r.must_gin for r in rules)
    assert any(r.deal == "eleven" for r in rules)
    assert any(not r.undercut_on_tie for r in rules)
    assert any(r.oklahoma and r.oklahoma_ace == "one" for r in rules)
    assert SHARDS * HANDS_PER_SHARD >= 20_000


# --------------------------------------------------------------------------------------------
# A smaller hypothesis state machine: play, undo, illegal moves and copies in any order


class HandMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.hand: Hand | None = None
        self.copies: list[tuple[Hand, tuple[object, ...]]] = []

    @rule(
        mix=st.integers(0, len(MIXES) - 1),
        seed=st.integers(0, 2**32),
        dealer=st.integers(0, 1),
    )
    @precondition(lambda self: self.hand is None)
    def deal(self, mix: int, seed: int, dealer: int) -> None:
        self.hand = Hand.deal(MIXES[mix][1], dealer, seed)

    @rule(data=st.data())
    @precondition(lambda self: self.hand is not None and not self.hand.is_over)
    def play(self, data: st.DataObject) -> None:
        assert self.hand is not None
        legal = self.hand.legal_actions()
        self.hand.apply(data.draw(st.sampled_from(legal)))

    @rule(data=st.data())
    @precondition(lambda self: self.hand is not None and not self.hand.is_over)
    def play_well(self, data: st.DataObject) -> None:
        assert self.hand is not None
        legal = self.hand.legal_actions()
        policy = Policy(random.Random(data.draw(st.integers(0, 1000))), 1.0)
        self.hand.apply(policy.choose(self.hand, legal))

    @rule()
    @precondition(lambda self: self.hand is not None and bool(self.hand.events))
    def undo(self) -> None:
        assert self.hand is not None
        self.hand.undo()

    @rule(seed=st.integers(0, 2**32))
    @precondition(lambda self: self.hand is not None)
    def illegal(self, seed: int) -> None:
        assert self.hand is not None
        try_illegal(self.hand, random_action_text(random.Random(seed)))

    @rule()
    @precondition(lambda self: self.hand is not None)
    def copy(self) -> None:
        assert self.hand is not None
        copy = self.hand.copy()
        self.copies.append((copy, quick_snapshot(copy)))

    @invariant()
    def consistent(self) -> None:
        if self.hand is None:
            return
        check_invariants(self.hand)
        if self.hand.is_over:
            check_finished(self.hand)
        for copy, snap in self.copies:
            assert quick_snapshot(copy) == snap, "a copy changed when the original moved"


HandMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestHandMachine = HandMachine.TestCase
