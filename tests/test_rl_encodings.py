"""The observation encodings, each read back against the engine on random states: the default
planes, flags and numbers; RLCard's planes compared with RLCard's own environment on the same
deals; the information state's rows against the hand's events; the registry; and the work saved
on the way (the default encoding kept running event by event, each observation encoded at most twice
a state) checked against observations worked out afresh."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
import rlcard

from ginrummy import DECK, ActionKind, Card, Hand, Phase, PlayerView, Rules, deadwood
from ginrummy.rl import encoding_names, raw_env, register_encoding, view_encoding
from ginrummy.rl.actions import action_id, ids_of, to_action
from ginrummy.rl.encoding_registry import get_encoding
from ginrummy.rl.encodings import (
    DEFAULT_FLAGS,
    DEFAULT_NUMBERS,
    DEFAULT_PLANES,
    DEFAULT_SIZE,
    DefaultEncoder,
    Encoder,
    RLCardEncoder,
)
from ginrummy.rl.infostate import ROW
from ginrummy.rl.knowledge import Knowledge, NoScores, visible
from ginrummy.rl.session import Session
from helpers import rule_mixes
from rlutil import session, states

FULL = (1 << 52) - 1


def bits(plane: npt.NDArray[np.float32]) -> int:
    """A 52-value plane of 0s and 1s as a card mask."""
    assert set(np.unique(plane).tolist()) <= {0.0, 1.0}
    return sum(1 << i for i in np.flatnonzero(plane).tolist())


def mask(cards: object) -> int:
    out = 0
    for card in cards:  # type: ignore[attr-defined]
        out |= card.bit
    return out


def replayed(hand: Hand) -> list[tuple[int, ActionKind, Card | None]]:
    """Each event's seat, kind and the pile's top card just before it (replaying the hand)."""
    again = Hand.from_deck(hand.rules, hand.dealer, hand.deck)
    out = []
    for event in hand.events:
        pile = again.discard_pile
        out.append((event.seat, event.action.kind, pile[-1] if pile else None))
        again.apply(event.action)
    return out


def expected_default(played: Session, seat: int) -> dict[str, object]:
    """What the default encoding should hold for ``seat``, worked out from the engine."""
    hand = played.hand
    other = 1 - seat
    over = hand.is_over
    knocker = hand.knocker
    knock_card = hand.knock_card if knocker == seat or over else None
    discarded = [0, 0]
    for event in hand.events:
        kind = event.action.kind
        if kind in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN):
            assert event.action.card is not None
            if kind is ActionKind.KNOCK and event.seat != seat and not over:
                continue  # face down
            discarded[event.seat] |= event.action.card.bit
    declined = 0
    for who, kind, top in replayed(hand):
        if who == other and kind in (ActionKind.DRAW, ActionKind.PASS) and top is not None:
            declined |= top.bit
    view = hand.view(seat)
    unseen = view.unseen.mask & ~(knock_card.bit if knock_card is not None else 0)
    pile = hand.discard_pile
    arrangement = hand.knock_arrangement
    planes = {
        "hand": hand.hand_mask(seat),
        "opponent_known": hand.hand_mask(other) if over else hand.known_cards[other],
        "pile": mask(pile),
        "top": pile[-1].bit if pile else 0,
        "discarded_by_me": discarded[seat],
        "discarded_by_opponent": discarded[other],
        "declined_by_opponent": declined,
        "unseen": unseen,
        "taken": hand.taken_card.bit
        if hand.taken_card is not None and hand.current_player == seat
        else 0,
        "table": sum(m.mask for m in hand.table_melds),
        "knocker_deadwood": 0 if arrangement is None else arrangement.deadwood_mask,
        "laid_off": mask(card for card, _ in hand.layoffs),
    }
    flags = {f"phase_{p.value}": float(hand.phase is p) for p in Phase}
    flags |= {
        "my_turn": float(hand.current_player == seat),
        "i_dealt": float(hand.dealer == seat),
        "i_knocked": float(knocker == seat),
        "opponent_knocked": float(knocker == other),
        "doubled": float(hand.multiplier == 2),
    }
    order = np.zeros(52, np.float32)
    for place, card in enumerate(pile, 1):
        order[card.index] = place / 32
    rules = hand.rules
    scale = rules.game_target * (3 if rules.hollywood else 1)
    scores = played.game_scores
    numbers = {
        "stock": hand.stock_count / 31,
        "hand_count": hand.hand_mask(seat).bit_count() / 11,
        "opponent_count": hand.hand_mask(other).bit_count() / 11,
        "pile_count": len(pile) / 32,
        "knock_limit": hand.knock_limit / 10,
        "score": min(1.0, scores[seat] / scale),
        "opponent_score": min(1.0, scores[other] / scale),
        "match_score": 0.0,
        "opponent_match_score": 0.0,
    }
    return {"planes": planes, "flags": flags, "order": order, "numbers": numbers}


MIXES = [
    ("standard", "hand", Rules()),
    ("oklahoma-game", "game", Rules.preset("oklahoma")),
    ("hollywood-game", "game", Rules.preset("hollywood", game_target=30)),
    ("eleven-big-wall", "hand", Rules(deal="eleven", big_gin=True, wall_pickup=True)),
    ("straight-must", "hand", Rules.preset("straight", must_gin=True)),
]


@pytest.mark.parametrize(("name", "mode", "rules"), MIXES, ids=[m[0] for m in MIXES])
def test_the_default_encoding_holds_what_the_engine_says(
    name: str, mode: str, rules: Rules
) -> None:
    planes_at = {plane: 52 * i for i, plane in enumerate(DEFAULT_PLANES)}
    flags_at = 52 * len(DEFAULT_PLANES)
    order_at = flags_at + len(DEFAULT_FLAGS)
    numbers_at = order_at + 52
    checked = 0
    for played in states(len(name), 4, rules=rules, mode=mode):
        for seat in (0, 1):
            obs = played.observe(seat)
            assert obs.shape == (DEFAULT_SIZE,) and obs.dtype == np.float32
            want = expected_default(played, seat)
            got_planes = {p: bits(obs[at : at + 52]) for p, at in planes_at.items()}
            assert got_planes == want["planes"]
            got_flags = dict(zip(DEFAULT_FLAGS, obs[flags_at:order_at].tolist(), strict=True))
            assert got_flags == want["flags"]
            assert np.array_equal(obs[order_at:numbers_at], want["order"])
            numbers = dict(zip(DEFAULT_NUMBERS, obs[numbers_at:].tolist(), strict=True))
            assert numbers == pytest.approx(want["numbers"])
            checked += 1
    assert checked > 100


def test_match_points_are_in_the_default_encoding() -> None:
    rules = Rules(game_target=10, match_target=60, game_bonus=0, box_bonus=0, shutout="none")
    seen = 0
    for played in states(5, 1, rules=rules, mode="match"):
        first, second = played.match_scores
        obs = played.observe(1)
        assert obs[-2:].tolist() == pytest.approx([min(1, second / 60), min(1, first / 60)])
        seen += played.match_scores != (0, 0)
    assert seen


# -- RLCard --------------------------------------------------------------------------------------


def rlcard_deal(env: object) -> tuple[Hand, int]:
    """The engine hand RLCard dealt: the same cards, dealer and stock order (RLCard deals the
    non-dealer 11 cards, then the dealer 10, and draws, from the end of its shuffled deck)."""
    from rlcard.games.gin_rummy.utils import utils as rl_utils

    game = env.game  # type: ignore[attr-defined]
    shuffled = [DECK[rl_utils.get_card_id(card)] for card in game.round.dealer.shuffled_deck]
    dealer = game.round.dealer_id
    popped = shuffled[::-1]
    non_dealer, dealt, stock = popped[:11], popped[11:21], popped[21:]
    deck = [card for pair in zip(non_dealer, dealt, strict=False) for card in pair]
    deck += [non_dealer[10], *stock]
    return Hand.from_deck(Rules(deal="eleven"), dealer, deck), dealer


SHARED_IDS = frozenset({2, 3, *range(6, 58)})  # draw, take (pick up) and discards: same ids


@pytest.mark.parametrize("seed", range(6))
def test_the_rlcard_planes_equal_rlcards_own_on_the_same_deal(seed: int) -> None:
    """Hands dealt by RLCard's environment are replayed in the engine (eleven-card deal) with
    the same draws, pick-ups and discards: at every state the two reach, the seat to act has
    the same 5x52 planes and the same legal draws, pick-ups and discards. (Where RLCard allows
    gin it allows nothing else, and its dead hand comes a turn later: the replay stops there.)"""
    env = rlcard.make("gin-rummy", config={"seed": seed})
    state, _ = env.reset()
    hand, _ = rlcard_deal(env)
    encoder = RLCardEncoder()
    rng = np.random.default_rng(seed)
    compared = 0
    while not env.is_over() and hand.stock_count > 2:
        seat = env.get_player_id()
        assert hand.current_player == seat
        ours = encoder.encode(Knowledge(hand, seat, NoScores()))
        assert np.array_equal(ours, env.get_state(seat)["obs"].astype(np.float32))
        compared += 1
        theirs = {int(i) for i in state["legal_actions"]} & SHARED_IDS
        if not theirs:  # gin, which RLCard plays its own way
            break
        assert {i for i in ids_of(hand.legal_actions()) if i in SHARED_IDS} == theirs
        choice = int(rng.choice(sorted(theirs)))
        hand.apply(to_action(choice))
        state, _ = env.step(choice)
    assert compared > 10


# -- the information state -----------------------------------------------------------------------

KINDS = list(ActionKind)


@pytest.mark.parametrize("rules", [Rules(), Rules(deal="eleven", wall_pickup=True)])
def test_the_information_state_holds_every_event_as_the_seat_saw_it(rules: Rules) -> None:
    """Its present is the default encoding; then the seat's dealt cards, the first upcard and
    one row per event: who acted, the kind, and the cards the seat was shown."""
    plain = session(11, rules=rules)
    for played in states(11, 3, rules=rules, encoding="infostate"):
        if played.hand.events:
            plain.step(action_id(played.hand.events[-1].action))
        elif plain.steps:  # the next episode
            plain.reset()
        hand = played.hand
        assert plain.hand.events == hand.events
        for seat in (0, 1):
            obs = played.observe(seat)
            assert obs.shape == (DEFAULT_SIZE + 104 + 256 * ROW,)
            assert np.array_equal(obs[:DEFAULT_SIZE], plain.observe(seat))
            deck = hand.deck
            dealt = [deck[i] for i in range(20) if (i % 2 == 0) == (seat != hand.dealer)]
            if rules.deal == "eleven" and seat != hand.dealer:
                dealt.append(deck[20])
            assert bits(obs[DEFAULT_SIZE : DEFAULT_SIZE + 52]) == mask(dealt)
            upcard = obs[DEFAULT_SIZE + 52 : DEFAULT_SIZE + 104]
            assert bits(upcard) == (0 if hand.upcard is None else hand.upcard.bit)
            rows = obs[DEFAULT_SIZE + 104 :].reshape(256, ROW)
            events = hand.events
            assert not rows[len(events) :].any()
            for event, row in zip(events, rows, strict=False):
                assert row[:2].tolist() == ([1, 0] if event.seat == seat else [0, 1])
                assert np.flatnonzero(row[2:12]).tolist() == [KINDS.index(event.action.kind)]
                shown = {event.action.card, event.card, *event.laid_off} - {None}
                if event.seat != seat and event.action.kind is ActionKind.DRAW:
                    shown = set()  # the opponent's stock draw
                if event.seat != seat and event.action.kind is ActionKind.KNOCK:
                    shown = shown if hand.is_over else set()  # face down until the end
                assert bits(row[12:]) == mask(shown)


# -- the registry --------------------------------------------------------------------------------


def test_the_encodings_are_registered_by_name() -> None:
    assert {"default", "rlcard", "infostate", "openspiel"} <= set(encoding_names())
    with pytest.raises(ValueError, match="unknown encoding 'planes'; the encodings are: default"):
        raw_env(encoding="planes")


def test_openspiel_is_the_openspiel_modules_tensor_of_the_seats_view() -> None:
    """``openspiel`` is ginrummy.rl.openspiel's ``observation_tensor`` of the seat's engine
    view, state after state."""
    from ginrummy.rl.openspiel import observation_tensor

    env = raw_env(encoding="openspiel", preset="standard")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    for agent in env.agent_iter(400):
        observation, _, terminated, truncated, _ = env.last()
        seat = env.possible_agents.index(agent)
        expected = observation_tensor(env.session.hand.view(seat))
        assert observation["observation"].shape == (644,)
        assert np.array_equal(observation["observation"], expected)
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    assert steps > 100


def test_an_encoding_from_a_function_of_the_player_view() -> None:
    def my_deadwood(view: PlayerView) -> list[float]:
        return [deadwood(view.hand) / 100, len(view.history) / 256]

    register_encoding("deadwood", view_encoding(my_deadwood, (2,)), "the deadwood, for a test")
    env = raw_env(encoding="deadwood", preset="eaai")
    env.reset(seed=2)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (2,)
    for _ in range(6):
        agent = env.agent_selection
        observation = env.observe(agent)
        view = env.session.hand.view(env.possible_agents.index(agent))
        assert observation["observation"].tolist() == pytest.approx(
            [deadwood(view.hand) / 100, len(view.history) / 256]
        )
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))


def test_a_view_encoding_sees_the_match_points_and_the_score_columns() -> None:
    """The view an encoding of the player view is given is the one the session's players are
    given: in a match, with the match points before the game; under Hollywood, the columns."""
    seen: list[PlayerView] = []
    told: set[tuple[int, int] | None] = set()

    def note(view: PlayerView) -> list[float]:
        seen.append(view)
        told.add(view.match_points)
        return [0.0]

    register_encoding("noting", view_encoding(note, (1,)), "the views, for a test")
    rules = Rules(game_target=20, match_target=60, game_bonus=0, box_bonus=0, shutout="none")
    for options, check in (
        (
            {"rules": rules, "mode": "match"},
            lambda v, s: v.match_points == s.match_scores and v.columns == s.game_columns,
        ),
        ({"preset": "hollywood", "mode": "game"}, lambda v, s: len(v.columns) == 3),
        ({"preset": "eaai", "mode": "game"}, lambda v, s: v.match_points is None),
    ):
        env = raw_env(encoding="noting", **options)
        env.reset(seed=3)
        rng = np.random.default_rng(3)
        for _ in env.agent_iter(20_000):
            seen.clear()
            observation, _, terminated, truncated, _ = env.last()
            assert seen and all(check(v, env.session) for v in seen)
            if len(told - {None, (0, 0)}) > 0 and options["mode"] == "match":
                break  # the match went on past its first game
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert env.session.match_points is None
    assert len(told - {None, (0, 0)}) > 0


@pytest.mark.parametrize("encoding", ["default", "rlcard", "infostate"])
def test_every_observation_is_inside_its_space(encoding: str) -> None:
    env = raw_env(encoding=encoding, mode="game", preset="oklahoma", game_target=25)
    space = env.observation_space("player_0")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter(3000):
        observation, _, terminated, truncated, _ = env.last()
        assert space.contains(observation)
        other = env.observe(env.possible_agents[1 - env.possible_agents.index(agent)])
        assert space.contains(other)
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


# -- the work saved --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "rules"), rule_mixes(), ids=[n for n, _ in rule_mixes()])
def test_the_running_default_encoding_equals_one_worked_out_afresh(name: str, rules: Rules) -> None:
    """Until a knock the default encoder keeps its planes running, a few values an event; at
    every state of random hands (every preset and rule mix: the wall, dead hands, big gin, the
    eleven-card deal, Oklahoma), what it gives equals the encoding worked out afresh."""
    checked = 0
    for played in states(len(name), 3, greed=0.7, rules=rules, mode="game"):
        if played.hands > 3:  # long enough a game, for this test
            break
        observations = played.observations
        for seat in (0, 1):
            encoder, knowledge = observations.encoders[seat], observations.knowledge[seat]
            assert isinstance(encoder, DefaultEncoder)
            assert np.array_equal(encoder.encode(knowledge), encoder.afresh(knowledge))
            turn = (knowledge.phase, knowledge.turn == seat, knowledge.taken)
            assert knowledge.turn_state() == turn
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("encoding", ["default", "rlcard", "infostate", "openspiel"])
@pytest.mark.parametrize("mode", ["hand", "game"])
def test_a_cached_observation_equals_a_fresh_one_after_every_step(encoding: str, mode: str) -> None:
    """After every step of random hands each seat's observation, asked for twice (the second
    time from the session's cache), equals the one a new encoder fed the same events computes;
    and writing into the array one caller got changes nothing another gets."""
    fresh: list[tuple[Encoder, Knowledge]] = []
    hand: Hand | None = None
    fed = 0
    checked = 0
    for played in states(11, 3, greed=0.6, preset="oklahoma", mode=mode, encoding=encoding):
        if played.hand is not hand:  # a new hand: new encoders see it from the deal
            hand, fed = played.hand, 0
            make = get_encoding(encoding).make
            fresh = [(make(played.options), Knowledge(hand, seat, played)) for seat in (0, 1)]
            for encoder, knowledge in fresh:
                encoder.new_hand(knowledge)
        for event in hand.events[fed:]:
            for seat, (encoder, knowledge) in enumerate(fresh):
                encoder.see(visible(event, seat, hand.is_over), knowledge)
        fed = len(hand.events)
        for seat, (encoder, knowledge) in enumerate(fresh):
            first = played.observe(seat)
            again = played.observe(seat)
            assert first is not again
            assert np.array_equal(first, again)
            assert np.array_equal(first, encoder.encode(knowledge))
            first.fill(-1.0)
            assert np.array_equal(played.observe(seat), again)
            checked += 1
        if mode == "game" and played.hands > 2:
            break
    assert checked > 100
