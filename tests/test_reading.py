"""Reading his hand from his last turn (``inference.discard_regret``, ``pass_chance``,
``misfit``): what his last discard and the card he passed on say about the cards he kept."""

from __future__ import annotations

import random
from dataclasses import replace
from statistics import mean

from ginrummy.agents import get_agent
from ginrummy.agents.base import BaseAgent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import (
    Beliefs,
    Guesser,
    HandChain,
    Observed,
    Reading,
    beliefs,
    deal_world,
    discard_regret,
    observe,
    pass_chance,
    sample_hidden,
    sample_hidden_chain,
    sample_world,
)
from ginrummy.agents.play import drive
from ginrummy.agents.style import turns_of
from ginrummy.engine import Action, Card, Event, PlayerView, Rules, parse_cards
from ginrummy.engine.actions import DISCARDS, DRAW, PASS, TAKE
from ginrummy.engine.game import Game
from ginrummy.engine.melds import deadwood_mask
from test_agents import discard_view

#: His last discard and the card he passed on, each at weight 1; at the expert's weights.
BOTH = Reading(1.0, 1.0)
LAST = Reading(2.0, 3.0)

HAND = "As 2s 3s 4h 5h 6h 7c 8c 9c Kd"


def mask(text: str) -> int:
    return parse_cards(text).mask


def index(text: str) -> int:
    return Card.parse(text).index


def test_a_discard_that_kept_a_higher_loose_card_is_a_blunder_by_the_difference() -> None:
    hand = mask(HAND)
    assert discard_regret(hand, index("2d")) == 8  # kept Kd (10), threw 2d: 8 too much
    assert discard_regret(hand, index("Qc")) == 0  # threw Qc, kept Kd: as good
    assert discard_regret(hand, index("Kh")) == 0
    assert discard_regret(hand, -1) == 0  # no discard yet: nothing to read
    # The card just taken from the pile cannot be thrown back: keeping it is no blunder.
    assert discard_regret(hand, index("Qd"), taken=index("Kd")) == 0
    assert discard_regret(hand, index("2d"), taken=index("Kd")) == 0
    # Breaking a meld to throw its card: As 2s 3s with Kd thrown leaves Qh alone (10), not
    # As 2s Kd Qh (23).
    broken = mask("As 2s 4h 5h 6h 7c 8c 9c Kd Qh")
    assert deadwood_mask(broken) == 23
    assert discard_regret(broken, index("3s")) == 23 - 10


def test_a_card_he_passed_on_rules_out_hands_it_melds_with() -> None:
    hand = mask(HAND)
    assert pass_chance(hand, index("2d"), index("Ks"), 0) == 1.0  # no meld with Ks
    assert pass_chance(hand, index("2d"), -1, 0) == 1.0  # he took it: nothing to read
    # 7h melds with 5h 6h: he passed only if he drew one of them that turn, 2 of 11 cards.
    assert pass_chance(hand, index("2d"), index("7h"), 0) == 2 / 11
    # Cards he took from the pile were not drawn from the stock.
    assert pass_chance(hand, index("2d"), index("7h"), mask("5h")) == 1 / 10
    # Tc extends 7c 8c 9c through 8c 9c: without either it melds no more.
    assert pass_chance(hand, index("2d"), index("Tc"), 0) == 2 / 11
    # 3s makes a set with any two of 3h 3c 3d: no single card drawn breaks them all.
    assert pass_chance(mask("2h 3h 4h 2c 3c 4c 2d 3d 4d Kd"), index("Ks"), index("3s"), 0) == 0.0


def test_his_older_discards_are_read_against_the_guess_at_half_and_a_quarter() -> None:
    """``older``: the regret of his second last discard counts half, of the third last a
    quarter, each against the guess as if he had held it then; earlier ones, and a card he
    holds again, not at all."""
    hand = mask(HAND)  # deadwood Kd, 10
    thrown = tuple(index(c) for c in ("9h", "2d", "3c", "Jh"))  # Jh his last
    b = Beliefs(0, 0, 0, (), (), Observed((), (), thrown, 4, index("Jh")))
    assert Reading(1.0).misfit(hand, b) == 0.0  # Jh for Kd: no regret
    assert Reading(1.0, older=0.0).misfit(hand, b) == 0.0
    # 3c (regret 10 - 3 = 7) at half of 2, 2d (8) at a quarter; 9h (1) is too far back.
    assert Reading(1.0, older=2.0).misfit(hand, b) == 7 + 4
    held = mask("As 2s 3s 4h 5h 6h 7c 8c 9c 3c")
    assert Reading(1.0, older=2.0).misfit(held, b) == 0.5 * (3 - 2)  # 3c is his again: only 2d


def history(*events: tuple[int, Action, str | None]) -> list[Event]:
    return [
        Event(i + 1, seat, action, Card.parse(card) if card else None)
        for i, (seat, action, card) in enumerate(events)
    ]


def test_his_last_turn_is_read_from_the_history() -> None:
    """The last discard, the card taken that turn or the pile card passed on instead."""
    drew = history(
        (1, DRAW, None),
        (1, DISCARDS[index("9d")], "9d"),
        (0, DRAW, "2c"),
        (0, DISCARDS[index("2c")], "2c"),
        (1, DRAW, None),
        (1, DISCARDS[index("Jh")], "Jh"),
    )
    obs = observe(replace(discard_view(HAND + " Qs", drawn="Qs"), history=tuple(drew)))
    assert (obs.last_discard, obs.last_taken, obs.last_passed) == (
        index("Jh"),
        -1,
        index("2c"),
    )
    took = drew[:4] + history((1, TAKE, "2c"), (1, DISCARDS[index("Jh")], "Jh"))
    obs = observe(replace(discard_view(HAND + " Qs", drawn="Qs"), history=tuple(took)))
    assert (obs.last_discard, obs.last_taken, obs.last_passed) == (index("Jh"), index("2c"), -1)
    # The first upcard passed on, then the forced draw: the upcard is the card passed on.
    first = history((1, PASS, None), (0, PASS, None), (1, DRAW, None), (1, DISCARDS[1], "2s"))
    v = discard_view(HAND + " Qs", drawn="Qs")
    v = replace(v, history=tuple(first), upcard=Card.parse("7h"))
    obs = observe(v)
    assert (obs.last_discard, obs.last_passed) == (1, index("7h"))
    assert observe(replace(v, history=())).last_discard == -1


def test_his_earlier_passes_and_his_takes_are_read_from_the_history() -> None:
    """Each pass before the last with his stock draws since (the draw at which he passed
    counts) and the pile cards he took since; each take with what he threw and took since."""
    events = history(
        (1, PASS, None),  # the first upcard, 7h
        (0, PASS, None),
        (1, DRAW, None),
        (1, DISCARDS[index("9d")], "9d"),
        (0, DRAW, None),
        (0, DISCARDS[index("2c")], "2c"),
        (1, DRAW, None),  # passes on 2c
        (1, DISCARDS[index("Jh")], "Jh"),
        (0, DRAW, None),
        (0, DISCARDS[index("5d")], "5d"),
        (1, TAKE, "5d"),
        (1, DISCARDS[index("Qh")], "Qh"),
        (0, DRAW, None),
        (0, DISCARDS[index("3c")], "3c"),
        (1, DRAW, None),  # passes on 3c: his last pass, read by ``passing``
        (1, DISCARDS[index("Kh")], "Kh"),
    )
    v = replace(discard_view(HAND + " Qs", drawn="Qs"), history=tuple(events))
    obs = observe(replace(v, upcard=Card.parse("7h")))
    assert obs.last_passed == index("3c")
    assert obs.earlier_passes == ((index("7h"), 3, mask("5d")), (index("2c"), 2, mask("5d")))
    assert obs.takes == ((index("5d"), mask("Qh Kh"), 0),)


def test_his_earlier_passes_and_his_takes_are_read_against_the_guess() -> None:
    """A pass counts against a guess holding two cards it melds with that he held then (at
    0.8 a stock draw since); a take counts against a guess where it melds with no two cards
    he can have held (those of the guess and those he threw since)."""
    obs = Observed(
        (index("5d"),),
        (index("7h"),),
        (),
        3,
        earlier_passes=((index("7h"), 3, mask("5d")),),
        takes=((index("5d"), mask("5s"), 0),),
    )
    b = Beliefs(mask("5d"), 0, 0, (), (), obs)
    passes, takes = Reading(passes=2.0), Reading(takes=3.0)
    assert passes.misfit(mask("5h 6h 5d 5c Kd"), b) == 2.0 * 0.8**3  # 5h 6h meld with 7h
    assert passes.misfit(mask("5h 5d 5c Kd"), b) == 0.0
    assert passes.misfit(mask("7d 7c 5d 5c Kd"), b) == 2.0 * 0.8**3  # a set of sevens
    # A card taken since was not his when he passed on 7h: 5h 6h is then no reason.
    taken = replace(obs, earlier_passes=((index("7h"), 0, mask("5h")),))
    assert passes.misfit(mask("5h 6h Kd"), replace(b, observed=taken)) == 0.0
    assert (
        passes.misfit(
            mask("5h 6h Kd"),
            replace(b, observed=replace(taken, earlier_passes=((index("7h"), 0, 0),))),
        )
        == 2.0
    )
    assert takes.misfit(mask("5d 5c Kd"), b) == 0.0  # 5s (thrown since) and 5c
    assert takes.misfit(mask("5d 4d 3d Kd"), b) == 0.0  # a run
    assert takes.misfit(mask("5d Kd Qh"), b) == 3.0  # nothing it melds with


def decisions(games: int) -> list[tuple[PlayerView, int]]:
    """At each of seat 0's discards against ``simple``: seat 0's view and seat 1's real hand."""
    out: list[tuple[PlayerView, int]] = []

    class Noting(BaseAgent):
        def __init__(self) -> None:
            self.inner = get_agent("simple")
            self.hand: object = None

        def act(self, view: PlayerView, rng: random.Random) -> Action:
            if view.phase.value == "discard" and self.hand is not None:
                out.append((view, self.hand.view(1).hand.mask))  # type: ignore[attr-defined]
            return self.inner.act(view, rng)

    for seed in range(games):
        game = Game(Rules.preset("eaai"), seed)
        noting = Noting()
        rng = random.Random(seed)
        while not game.is_over and len(game.hands) < 3:
            hand = game.deal_hand()
            noting.hand = hand
            drive(hand, (noting, get_agent("simple")), rng, game.totals)
            game.finish_hand(hand)
    return out


def test_against_simple_his_real_hand_always_fits_his_last_turn() -> None:
    """``simple`` throws a least-deadwood card and takes only a card that melds: his real
    hand is never one his last turn rules out, and nearly always fits it exactly; the hands
    guessed without the reading often do not, the ones guessed with it far less often."""
    seen = [(v, real) for v, real in decisions(12) if observe(v).last_discard >= 0]
    assert len(seen) > 150
    fits = [BOTH.misfit(real, beliefs(v)) for v, real in seen]
    assert all(
        pass_chance(real, observe(v).last_discard, observe(v).last_passed, 0) > 0
        for v, real in seen
    )
    assert mean(f == 0 for f in fits) > 0.9
    # He takes a pile card only into a meld: no real hand of his is against his takes.
    assert all(Reading(takes=1.0).misfit(real, beliefs(v)) == 0.0 for v, real in seen)
    rng = random.Random(5)
    blind, read = [], []
    for v, _ in seen[::3]:
        b = beliefs(v)
        blind.append(BOTH.misfit(sample_hidden(b, rng, 8, 0.1) | b.known, b))
        read.append(BOTH.misfit(sample_hidden(b, rng, 8, 0.1, Reading(1.0, 3.0)) | b.known, b))
        chain = sample_hidden_chain(b, rng, 60, 0.1, Reading(1.0, 3.0)) | b.known
        assert chain.bit_count() == v.opponent_count
    assert mean(read) < 0.6 * mean(blind)


def test_the_expert_reads_his_last_turn_unless_told_not_to() -> None:
    """By default the expert's guesses at his hand fit his last turn far better than with
    ``read_discard=0,read_pass=0``; with ``steps=0`` they are the best of ``tries``."""
    assert Settings().read_discard > 0 and Settings().read_pass > 0
    seen = [(v, real) for v, real in decisions(4) if observe(v).last_discard >= 0][::4]

    def fit(settings: Settings) -> float:
        expert = ExpertAgent(settings)
        rng = random.Random(3)
        out = []
        for v, _ in seen:
            b = beliefs(v)
            guesser = settings.guesser(b, rng)
            for _ in range(8):
                _rule, opp, _stock = expert._world(guesser, rng, None, 5, 10, 8, 0.05, None)
                out.append(BOTH.misfit(opp, b))
        return mean(out)

    blind = fit(Settings(read_discard=0.0, read_pass=0.0))
    assert fit(Settings()) < 0.5 * blind
    assert fit(Settings(steps=0)) < 0.8 * fit(Settings(steps=0, read_discard=0.0, read_pass=0.0))


def test_a_chain_walked_in_parts_is_the_chain_walked_at_once() -> None:
    """``HandChain.walk`` goes on where it stopped: 50 swaps then 5 are 55 swaps, and the
    first walk is :func:`sample_hidden_chain`'s guess."""
    v, _ = next((v, real) for v, real in decisions(1) if observe(v).last_discard >= 0)
    b = beliefs(v)
    for reading in (Reading(), Reading(2.0, 3.0)):
        chain = HandChain(b, random.Random(7), 0.1, reading)
        first = chain.walk(50)
        assert first == sample_hidden_chain(b, random.Random(7), 50, 0.1, reading)
        later = chain.walk(5)
        assert later == sample_hidden_chain(b, random.Random(7), 55, 0.1, reading)
        assert later.bit_count() == b.hidden and later & b.unseen == later


def test_the_expert_draws_a_decisions_worlds_from_one_chain_when_asked() -> None:
    """With ``chain_thin`` the worlds that guess his hand by the chain at one sharpness
    share a chain; every world is still a whole, legal guess, and a seed replays them."""
    v, _ = next((v, real) for v, real in decisions(2) if turns_of(v, 1) >= 4)
    b = beliefs(v)
    expert = ExpertAgent(Settings(steps=50, chain_thin=5, read_discard=2.0, read_pass=3.0))

    def worlds(seed: int) -> list[int]:
        rng = random.Random(seed)
        guesser = Guesser(b, rng, LAST, 5)
        out = [expert._world(guesser, rng, None, 5, 10, 8, 0.1, None)[1] for _ in range(40)]
        assert len(guesser.chains) == 1
        return out

    hands = worlds(3)
    assert hands == worlds(3) and len(set(hands)) > 10
    for hand in hands:
        assert hand.bit_count() == v.opponent_count
        assert hand & b.known == b.known and hand & ~(b.known | b.unseen) == 0


def test_a_guesser_walks_one_chain_per_sharpness_and_draws_the_rest_afresh() -> None:
    """``Guesser.world``: the first guess at a sharpness is a chain's after ``steps`` swaps,
    the next ``thin`` swaps on; a fresh guess, no chain (``thin=0``), or no sharpness and no
    discard of his to read are :func:`sample_world`'s, from the same random numbers."""
    v, _ = next((v, real) for v, real in decisions(2) if turns_of(v, 1) >= 4)
    b = beliefs(v)
    rng = random.Random(11)
    g = Guesser(b, rng, LAST, 5)
    got = [g.world(8, 0.1, 50)[0], g.world(8, 0.1, 50)[0], g.world(8, 0.2, 50)[0]]
    rng = random.Random(11)
    chain = HandChain(b, rng, 0.1, LAST)
    want = [deal_world(b, rng, chain.walk(50))[0], deal_world(b, rng, chain.walk(5))[0]]
    want.append(deal_world(b, rng, HandChain(b, rng, 0.2, LAST).walk(50))[0])
    assert got == want and set(g.chains) == {0.1, 0.2}
    for thin, fresh in ((5, True), (0, False)):
        g = Guesser(b, random.Random(4), LAST, thin)
        plain = sample_world(b, random.Random(4), 8, 0.1, 50, LAST)
        assert g.world(8, 0.1, 50, fresh=fresh) == plain and not g.chains
    first = next(v for v, _ in decisions(1) if observe(v).last_discard < 0)
    b = beliefs(first)
    g = Guesser(b, random.Random(4), LAST, 5)
    assert g.world(8, 0.0, 50) == sample_world(b, random.Random(4), 8) and not g.chains
