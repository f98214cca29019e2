"""Our agents as OpenSpiel bots: played by OpenSpiel's own loops on python_ginrummy."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots

from ginrummy.agents.expert import ExpertAgent
from ginrummy.engine import PlayerView
from ginrummy.rl.openspiel_bot import AgentBot
from ginrummy.rl.openspiel_game import SHORT_NAME, GinRummyState


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game(SHORT_NAME, dict(params))


class Spy(pyspiel.Bot):
    """A bot that records each state it is asked about, then plays like the one it wraps."""

    def __init__(self, inner: pyspiel.Bot) -> None:
        pyspiel.Bot.__init__(self)
        self.inner = inner
        self.moves: list[int] = []

    def restart_at(self, state: pyspiel.State) -> None:
        self.inner.restart_at(state)

    def step(self, state: pyspiel.State) -> int:
        move = int(self.inner.step(state))
        assert move in state.legal_actions()
        self.moves.append(move)
        return move


def play(game: pyspiel.Game, bots: list[pyspiel.Bot], seed: int) -> GinRummyState:
    """One game in OpenSpiel's own loop (``evaluate_bots``); the final state."""
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(seed))
    assert sum(returns) == 0
    assert isinstance(state, GinRummyState)
    return state


def test_the_expert_plays_whole_hands_in_openspiels_loop() -> None:
    game = load(rules="eaai")
    for seed in range(3):
        expert = Spy(AgentBot(game, seed % 2, "expert:worlds=32", seed=seed))
        other = pyspiel.make_uniform_random_bot(1 - seed % 2, seed)
        bots = [expert, other] if seed % 2 == 0 else [other, expert]
        state = play(game, bots, seed)
        assert state.is_terminal() and expert.moves
        result = state.hand.result if state.hand is not None else None
        assert result is not None


def test_the_same_seed_makes_the_same_moves() -> None:
    game = load(rules="standard")
    runs = []
    for _ in range(2):
        bots = [Spy(AgentBot(game, p, "intermediate", seed=11)) for p in (0, 1)]
        play(game, bots, 5)
        runs.append([bot.moves for bot in bots])
    assert runs[0] == runs[1]


def test_restart_at_starts_afresh() -> None:
    game = load(rules="standard", mode="game")
    bots = [AgentBot(game, p, "simple", seed=p) for p in (0, 1)]
    first = play(game, bots, 2)
    for bot in bots:
        bot.restart_at(game.new_initial_state())
    again = play(game, bots, 2)
    assert first.returns() == again.returns()
    assert str(first) == str(again)


def test_one_hand_makes_the_expert_play_for_its_points() -> None:
    one = AgentBot(load(mode="hand"), 0, "expert")
    assert isinstance(one.agent, ExpertAgent) and one.agent.settings.hand_points
    game = AgentBot(load(mode="game"), 0, "expert")
    assert isinstance(game.agent, ExpertAgent) and not game.agent.settings.hand_points
    told = AgentBot(load(mode="hand"), 0, "expert:hand_points=false")
    assert isinstance(told.agent, ExpertAgent) and not told.agent.settings.hand_points


def test_a_game_of_many_hands_shows_the_expert_each_finished_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    finished: list[int] = []
    observe = ExpertAgent.observe

    def spy(self: ExpertAgent, view: PlayerView) -> None:
        if view.result is not None:
            finished.append(view.scores[0] + view.scores[1])
        observe(self, view)

    monkeypatch.setattr(ExpertAgent, "observe", spy)
    begun: list[int] = []
    new_hand = ExpertAgent.new_hand

    def count(self: ExpertAgent) -> None:
        begun.append(1)
        new_hand(self)

    monkeypatch.setattr(ExpertAgent, "new_hand", count)
    game = load(rules="eaai", mode="game")
    bot = AgentBot(game, 0, "expert:worlds=16", seed=1)
    state = play(game, [bot, pyspiel.make_uniform_random_bot(1, 3)], 4)
    # Every hand but the last (the game is over before the bot moves again) is seen once,
    # at the score it was played at.
    # (The information state is a header, a line a finished hand, and the last hand again.)
    hands = len(state.information_state_string(0).splitlines()) - 2
    assert hands >= 2
    assert len(finished) == hands - 1
    assert finished == sorted(finished)
    # A new hand once a hand (a stock card dealt out of the deck's order replaces the hand's
    # object, which once looked like a new hand at nearly every draw).
    assert hands - 1 <= len(begun) <= hands


def test_it_never_looks_at_hidden_cards() -> None:
    """The bot's moves depend only on what its player has seen: a state whose unseen cards
    are dealt anew (OpenSpiel's resampling) gets the same move from the same seed."""
    game = load(rules="standard")
    rng = random.Random(8)
    checked = 0
    while checked < 4:
        state = game.new_initial_state()
        while state.is_chance_node() or rng.random() < 0.9:
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, random.Random(1).random)
        assert other.view(player) == state.view(player)
        moves = [AgentBot(game, player, "expert:worlds=32", seed=3).step(s) for s in (state, other)]
        assert moves[0] == moves[1]
        checked += 1


def test_bad_use_gets_a_clear_error() -> None:
    with pytest.raises(TypeError, match="python_ginrummy"):
        AgentBot(pyspiel.load_game("gin_rummy"), 0)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        AgentBot(load(), 2)
    with pytest.raises(ValueError, match="unknown agent"):
        AgentBot(load(), 0, "nobody")
    game = load()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = AgentBot(game, 1 - state.current_player(), "simple")
    with pytest.raises(ValueError, match="turn"):
        bot.step(state)
    with pytest.raises(TypeError, match="python_ginrummy states"):
        bot.step(pyspiel.load_game("gin_rummy").new_initial_state())
