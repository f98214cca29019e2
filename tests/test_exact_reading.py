"""benchmarks/exact_reading.py: a simple player's hand read from his whole history by his rules."""

from __future__ import annotations

import random

from benchutil import load
from ginrummy.agents.basic import SimpleAgent
from ginrummy.agents.inference import beliefs
from ginrummy.agents.play import drive
from ginrummy.engine import Action, ActionKind, Hand, PlayerView, Rules
from ginrummy.engine.game import Game

exact_reading = load("exact_reading")


class Watching(SimpleAgent):
    """Simple, keeping each view of its own discards from the third on."""

    def __init__(self) -> None:
        self.views: list[PlayerView] = []

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        if view.phase.value == "discard" and len(view.legal_actions) > 1:
            self.views.append(view)
        return super().act(view, rng)


def truth(hand: Hand, seat: int, upto: int) -> tuple[int, list[int], int]:
    """Seat ``seat``'s dealt cards, the cards it drew from the stock, and its hand after the
    first ``upto`` events of ``hand`` (replayed from the deck)."""
    again = Hand.from_deck(hand.rules, hand.dealer, hand.deck)
    dealt = again.view(seat).hand.mask
    for event in hand.events[:upto]:
        again.apply(event.action)
    drawn = [
        e.card.index
        for e in hand.events[:upto]
        if e.seat == seat and e.action.kind is ActionKind.DRAW and e.card is not None
    ]
    return dealt, drawn, again.view(seat).hand.mask


def test_his_real_history_breaks_none_of_simples_rules_and_the_chain_keeps_to_the_view() -> None:
    checked = 0
    for seed in range(3):
        game = Game(Rules.preset("eaai"), seed)
        hand = game.deal_hand()
        me = Watching()
        drive(hand, (me, SimpleAgent()), random.Random(seed))
        for view in me.views:
            history = exact_reading.History(view)
            if not history.draws:
                continue
            dealt, drawn, now = truth(hand, 1, len(view.history))
            assert dealt.bit_count() == 10
            out = history.replay(dealt, drawn)
            assert out is not None
            broken, _ = out
            assert broken == 0, (seed, len(view.history))
            # A dealt hand without a card he threw cannot have played his turns.
            first = history.thrown[0][0]
            other = next(c for c in history.pool if not now >> c & 1 and not dealt >> c & 1)
            if dealt >> first & 1 and first not in drawn:
                assert history.replay(dealt & ~(1 << first) | 1 << other, drawn) is None
            b = beliefs(view)
            hidden = now & ~b.known
            hands = history.chain(hidden, random.Random(1), 50, 5, 10)
            assert len(hands) == 10
            for h in hands:
                assert h.bit_count() == b.hidden
                assert h & ~b.unseen == 0
            checked += 1
    assert checked >= 5
