"""python_ginrummy: our rules as an OpenSpiel game, played by OpenSpiel's own tools."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from ginrummy import ActionKind, Card, Rules
from ginrummy.agents.registry import get_agent
from ginrummy.rl.actions import OPENSPIEL_NUM_ACTIONS, action_id, ids_of, to_openspiel
from ginrummy.rl.openspiel import card_id, card_of, observation_tensor
from ginrummy.rl.openspiel_game import SHORT_NAME, GinRummyState, rules_of


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game(SHORT_NAME, dict(params))


def deal(state: pyspiel.State, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert sum(probs) == pytest.approx(1.0)
        state.apply_action(rng.choice(outcomes))


def play(state: pyspiel.State, rng: random.Random, agent: str = "random") -> pyspiel.State:
    """Play to the end: chance at random, the players by one of our agents through the ids."""
    player = get_agent(agent)
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
            continue
        hand = state.hand
        seat = state.current_player()
        view = hand.view(seat)
        legal = state.legal_actions()
        assert legal == sorted(to_openspiel(i) for i in ids_of(view.legal_actions))
        assert np.array_equal(
            np.asarray(state.observation_tensor(seat)),
            observation_tensor(view, openspiel_players=False),
        )
        action = player.act(view, rng)
        if action.melds is not None:  # a knock naming its melds: the id is the default's
            action = type(action)(action.kind, action.card)
        state.apply_action(to_openspiel(action_id(action)))
    return state


def test_the_game_registers_with_its_parameters() -> None:
    game = load()
    assert game.get_type().short_name == SHORT_NAME
    assert game.num_distinct_actions() == OPENSPIEL_NUM_ACTIONS == 213
    assert game.observation_tensor_shape() == [644]
    assert game.num_players() == 2
    assert game.max_chance_outcomes() == 52
    assert rules_of({"rules": "oklahoma", "options": '{"big_gin": true}'}) == Rules.preset(
        "oklahoma", big_gin=True
    )
    with pytest.raises(ValueError, match="mode"):
        load(mode="match")


def test_a_game_with_several_options_reads_back_from_its_own_string() -> None:
    """A game string splits parameters at commas: a JSON object of two options written into
    it could not be loaded again. The game keeps them as OPTION:VALUE;OPTION:VALUE."""
    options = '{"big_gin": true, "gin_bonus": 30, "stake": "0.10", "next_dealer": "alternate"}'
    game = load(rules="oklahoma", options=options)
    want = Rules.preset(
        "oklahoma", big_gin=True, gin_bonus=30, stake="0.10", next_dealer="alternate"
    )
    assert game.rules == want
    assert game.get_parameters()["options"] == (
        "big_gin:true;gin_bonus:30;stake:0.10;next_dealer:alternate"
    )
    again = pyspiel.load_game(str(game))
    assert again.rules == want and str(again) == str(game)
    assert load(rules="oklahoma", options=" big_gin : true ;gin_bonus:30").rules == (
        Rules.preset("oklahoma", big_gin=True, gin_bonus=30)
    )
    state = game.new_initial_state()
    deal(state, random.Random(3))
    state.apply_action(state.legal_actions()[0])
    back_game, back = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert back_game.rules == want and str(back) == str(state)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ('{"big_gin": tru}', "not a JSON object"),
        ("[1]", "OPTION:VALUE"),
        ("big_gin", "OPTION:VALUE"),
        ("knock:3", "unknown rule option 'knock'"),
        ("big_gin:maybe", "true or false"),
        ('{"knock_limit": 11}', "between 0 and 10"),
    ],
)
def test_bad_options_say_what_is_wrong(options: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        load(options=options)


@pytest.mark.parametrize("preset", Rules.presets())
def test_a_hand_under_every_preset(preset: str) -> None:
    rng = random.Random(preset)
    state = play(load(rules=preset).new_initial_state(), rng, "simple")
    result = state.hand.result
    returns = state.returns()
    assert sum(returns) == 0
    if result.winner is None:
        assert returns == [0, 0]
    else:
        assert returns[result.winner] == result.points > 0


def test_player_zero_acts_first_unless_told() -> None:
    rng = random.Random(1)
    state = load().new_initial_state()
    deal(state, rng)
    assert state.current_player() == 0 and state.hand.dealer == 1
    state = load(dealer=0).new_initial_state()
    deal(state, rng)
    assert state.current_player() == 1


def test_chance_deals_in_our_order_and_draws_the_chosen_stock_card() -> None:
    state = load().new_initial_state()
    cards = [card_of(i) for i in range(21)]
    for card in cards:
        assert state.is_chance_node()
        state.apply_action(card_id(card))
    hand = state.hand
    assert list(hand.cards(0)) == sorted(cards[0:20:2])  # seat 0 does not deal: 1st, 3rd, ...
    assert list(hand.cards(1)) == sorted(cards[1:20:2])
    assert hand.upcard is cards[20]
    state.apply_action(54)  # pass, as in OpenSpiel's gin_rummy
    state.apply_action(54)
    state.apply_action(53)  # draw from the stock
    assert state.is_chance_node() and len(state.chance_outcomes()) == 31
    wanted = Card.parse("Kc")
    state.apply_action(card_id(wanted))
    assert state.hand.events[-1].card is wanted and wanted in state.hand.cards(0)
    assert state.hand.stock_count == 30


@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
def test_the_information_state_shows_the_upcard_both_players_passed(preset: str) -> None:
    """Two deals that differ only in the upcard: both players saw it, so after both pass it
    (which leaves no card in the history) their information states must still differ."""
    states = []
    for upcard in (20, 30):
        state = load(rules=preset).new_initial_state()
        for card in [*range(20), upcard]:
            state.apply_action(card_id(card_of(card)))
        state.apply_action(54)  # both pass
        state.apply_action(54)
        states.append(state)
    first, second = states
    assert first.hand.upcard is not second.hand.upcard
    for seat in (0, 1):
        assert first.information_state_string(seat) != second.information_state_string(seat)
        assert f"upcard {first.hand.upcard}" in first.information_state_string(seat)


@pytest.mark.parametrize("mode", ["hand", "game"])
def test_players_who_always_take_the_discard_end_within_the_declared_length(mode: str) -> None:
    """Nothing in the rules ends such a hand: the state ends it, with nothing won, once it
    has had as many decisions as the environments allow one."""
    game = load(mode=mode)
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert len(state.history()) < game.max_game_length()
        if state.is_chance_node():
            deal(state, rng)
            continue
        legal = state.legal_actions()
        discards = [a for a in legal if a < 52]
        state.apply_action(52 if 52 in legal else discards[0] if discards else legal[0])
    assert state.returns() == [0.0, 0.0]
    assert not state.hand.is_over  # cut off, not ended by the rules


def test_a_card_not_left_to_deal_is_an_illegal_chance_outcome_and_changes_nothing() -> None:
    state = load().new_initial_state()
    state.apply_action(card_id(card_of(0)))
    before = state.history(), str(state)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(card_id(card_of(0)))  # dealt already
    assert (state.history(), str(state)) == before
    for card in range(1, 21):
        state.apply_action(card_id(card_of(card)))
    state.apply_action(54)  # both pass, and player 0 draws
    state.apply_action(54)
    state.apply_action(53)
    held = state.hand.cards(0)[0]
    before = state.history(), str(state)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(card_id(held))  # in a hand, not in the stock
    assert (state.history(), str(state)) == before
    assert state.is_chance_node()


def test_a_whole_game_with_bonuses() -> None:
    rng = random.Random(7)
    state = play(load(mode="game", rules="standard").new_initial_state(), rng, "simple")
    assert sorted(state.returns()) == [-1, 1]


def test_states_clone_and_serialize_independently() -> None:
    rng = random.Random(2)
    game = load()
    state = game.new_initial_state()
    deal(state, rng)
    copy = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert copy.move_number() == state.move_number() - 1
    assert copy.hand.events == [] and len(state.hand.events) == 1
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()


def hidden_world(rng: random.Random, moves: int) -> GinRummyState:
    """A hand some moves in (random moves, which seldom end a hand), at a player's decision."""
    state = load().new_initial_state()
    deal(state, rng)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            deal(state, rng)
        else:
            view = state.hand.view(state.current_player())
            state.apply_action(to_openspiel(action_id(rng.choice(view.legal_actions))))
    deal(state, rng)
    return state


@pytest.mark.parametrize("moves", [0, 9, 25, 60])
def test_resampling_keeps_what_the_player_has_seen(moves: int) -> None:
    rng = random.Random(moves)
    state = hidden_world(rng, moves)
    if state.is_terminal():
        pytest.fail("the hand ended before the resampling point")
    seat = state.current_player()
    other = 1 - seat
    view = state.hand.view(seat)
    worlds = set()
    for _ in range(20):
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.hand.view(seat).to_dict() == view.to_dict()
        assert world.legal_actions() == state.legal_actions()
        # The opponent still holds every card he took from the pile or showed.
        assert view.opponent_known.mask & ~world.hand.hand_mask(other) == 0
        worlds.add(world.hand.hand_mask(other))
    assert len(worlds) > 10  # his hidden cards are dealt anew


def test_resampling_changes_only_the_opponents_stock_draws() -> None:
    """Every move replays in the new world, every card the player saw is where it was, and the
    opponent's discards (from his deal or his draws) were in his hand when he made them."""
    rng = random.Random(11)
    state = hidden_world(rng, 60)
    seat = state.current_player()
    other = 1 - seat
    events = state.hand.events
    assert any(e.seat == other and e.action.kind is ActionKind.DISCARD for e in events)
    for _ in range(10):
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        for mine, theirs in zip(events, world.hand.events, strict=True):
            if mine.seat == other and mine.action.kind is ActionKind.DRAW:
                continue  # a card the player never saw
            assert mine == theirs


@pytest.mark.parametrize("mode", ["hand", "game"])
def test_a_resampled_worlds_history_is_that_world_and_hides_the_true_deal(mode: str) -> None:
    """Replaying a resampled world's ``history()`` gives that world, not the true one: the
    history holds the new deal, every finished hand of a game as it was, and so nothing of
    the opponent's hidden cards that the player has not seen."""
    game = load(mode=mode)
    rng = random.Random(7)
    checked = 0
    while checked < 6:
        state = game.new_initial_state()
        for _ in range(rng.randrange(20, 300)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                deal(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node() or state.hand is None:
            continue
        seat = state.current_player()
        other = 1 - seat
        start = len(state.history()) - len(state.hand.events) - _stock_draws(state)
        start -= 21  # the current hand's deal
        differs = False
        for _ in range(8):
            world = state.resample_from_infostate(seat, random.Random(rng.random()).random)
            again = game.new_initial_state()
            for action in world.history():
                again.apply_action(action)
            assert str(again) == str(world)
            for p in (0, 1):
                assert again.information_state_string(p) == world.information_state_string(p)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.history()[:start] == state.history()[:start]  # the hands before
            differs |= again.hand.hand_mask(other) != state.hand.hand_mask(other)
        assert differs
        checked += 1


def _stock_draws(state: GinRummyState) -> int:
    assert state.hand is not None
    return sum(e.action.kind is ActionKind.DRAW for e in state.hand.events)


def test_ismcts_plays_random_through_the_game() -> None:
    game = load()
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        2.0,
        max_simulations=4,
        random_state=np.random.RandomState(1),
    )
    other = pyspiel.make_uniform_random_bot(1, 7)
    rng = random.Random(3)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                deal(state, rng)
                continue
            player = bot if state.current_player() == 0 else other
            action = player.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == 0


def test_openspiels_random_simulation_serializes_every_state_of_a_game() -> None:
    """pyspiel's own check, serializing and reading back every state of a whole game (melds
    included: the compiled build's meld classes once refused to be read back)."""
    game = load(mode="game", options='{"game_target": 20}')
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_an_action_is_named_from_its_id_once_it_is_no_longer_legal() -> None:
    """History strings name every move (they said "action 52" for a take once it was played)."""
    state = load().new_initial_state()
    rng = random.Random(4)
    deal(state, rng)
    player = state.current_player()
    state.apply_action(52)  # takes the upcard
    assert state.action_to_string(player, 52) == "take"
    assert state.action_to_string(player, 53) == "draw"
    assert state.action_to_string(player, 54) == "pass/done"
    assert state.action_to_string(player, 0) == "discard " + str(card_of(0))
    assert state.action_to_string(player, OPENSPIEL_NUM_ACTIONS) == "action 213"


def _observe(
    state: GinRummyState, player: int, private: object, public: bool = True
) -> tuple[dict[str, np.ndarray], np.ndarray, str]:
    kind = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=public, private_info=private
    )
    observer = make_observation(state.get_game(), kind)
    observer.set_from(state, player)
    return dict(observer.dict), observer.tensor.copy(), observer.string_from(state, player)


def _row(cards: object) -> np.ndarray:
    row = np.zeros(52, np.float32)
    for card in cards:  # type: ignore[attr-defined]
        row[card_id(card)] = 1
    return row


@pytest.mark.parametrize("moves", [0, 9, 30])
def test_each_observation_type_shows_the_hands_it_names_and_no_other(moves: int) -> None:
    state = hidden_world(random.Random(moves), moves)
    hands = [_row(state.hand.cards(seat)) for seat in (0, 1)]
    words = [" ".join(map(str, sorted(state.hand.cards(seat)))) for seat in (0, 1)]
    types = pyspiel.PrivateInfoType
    for player in (0, 1):
        mine, full, text = _observe(state, player, types.SINGLE_PLAYER)
        assert np.array_equal(full, np.asarray(state.observation_tensor(player)))
        assert text == state.observation_string(player)
        assert np.array_equal(mine["private_hand"][player], hands[player])
        assert not mine["private_hand"][1 - player].any()

        public, tensor, text = _observe(state, player, types.NONE)
        assert "private_hand" not in public and "private_hands" not in public
        assert np.array_equal(tensor, np.concatenate([full[:2], full[106:]]))
        assert "hand" not in text and f"seat {player} scores" in text

        both, tensor, text = _observe(state, player, types.ALL_PLAYERS)
        assert np.array_equal(both["private_hands"], np.stack(hands))
        assert np.array_equal(tensor[106:], full[106:])
        assert f"seat {1 - player} hand" in text

        _, tensor, text = _observe(state, player, types.SINGLE_PLAYER, public=False)
        assert np.array_equal(tensor, full[:106])
        assert text.splitlines() == [f"seat {player}", f"hand {state.hand.view(player).hand}"]
        assert words[1 - player] not in text


def test_perfect_recall_is_only_the_information_state() -> None:
    game = load()
    state = game.new_initial_state()
    deal(state, random.Random(4))
    default = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert default.tensor is None
    assert default.string_from(state, 0) == state.information_state_string(0)
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        kind = pyspiel.IIGObservationType(perfect_recall=True, private_info=private)
        with pytest.raises(ValueError, match="information state"):
            make_observation(game, kind)
