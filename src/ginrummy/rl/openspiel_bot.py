"""Our computer players as OpenSpiel bots, for ``python_ginrummy`` (:mod:`.openspiel_game`).

An :class:`AgentBot` is a ``pyspiel.Bot``: OpenSpiel's own loops (``evaluate_bots``, its
tournaments, a bot against ISMCTS or a policy learnt by MCCFR) play it like any of theirs::

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import evaluate_bots
    from ginrummy.rl.openspiel_bot import AgentBot

    game = pyspiel.load_game("python_ginrummy", {"rules": "standard", "mode": "hand"})
    bots = [AgentBot(game, 0, "expert"), pyspiel.make_uniform_random_bot(1, 7)]
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), bots, np.random.RandomState(0)
    )

The bot sees only what its player may (the hand's :class:`~ginrummy.engine.PlayerView`), never
the state's hidden cards. In ``mode="hand"`` a player with a ``hand_points`` setting (the
expert) plays for the hand's points, all that a game of one hand counts; in ``mode="game"`` it
plays the game, reading the opponent's knocking from the hands it has seen end (as it does in
the arena). A knock is played as OpenSpiel's id for it, which lays the engine's default
arrangement of the melds: the expert's choice among equally good arrangements (the one leaving
the fewest layoffs) has no id of its own there.

Every random choice comes from the bot's ``seed``: the same seed, on the same states, makes the
same moves. :meth:`AgentBot.restart_at` (OpenSpiel calls it before each game) starts the bot
afresh, its seed again included.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from ..agents import Agent, get_agent
from ..agents.base import watches
from ..engine import Action
from .actions import action_id, to_openspiel
from .openspiel_game import SHORT_NAME, GinRummyGame, GinRummyState


class AgentBot(pyspiel.Bot):
    """One of our agents (by name, as the arena takes it: ``"expert:worlds=256"``) playing
    ``player`` of a ``python_ginrummy`` game."""

    def __init__(self, game: Any, player: int, agent: str = "expert", seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, GinRummyGame):
            raise TypeError(
                f"AgentBot plays {SHORT_NAME} (import ginrummy.rl.openspiel_game to register "
                f"it), not {game}"
            )
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        self._player = player
        self._name = agent
        self._one_hand = game.mode == "hand"
        self._seed = seed
        self._agent: Agent = get_agent(agent, one_hand=self._one_hand)
        self._rng = random.Random(seed)
        self._playing: tuple[int, int] | None = None  # the hand's GinRummyState.hand_key
        self._observed: tuple[int, int] | None = None  # the last finished hand it was shown

    @property
    def agent(self) -> Agent:
        """The agent that chooses the moves."""
        return self._agent

    def player_id(self) -> int:
        return self._player

    def provides_policy(self) -> bool:
        return False

    def is_clone_implemented(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        """Start afresh: a new agent (nothing read of the last game) and the seed again."""
        self._agent = get_agent(self._name, one_hand=self._one_hand)
        self._rng = random.Random(self._seed)
        self._playing = self._observed = None

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to do: the bot reads the hand from the state at its own turns."""

    def inform_actions(self, state: Any, actions: list[int]) -> None:
        """Nothing to do (the game has no simultaneous moves)."""

    def step(self, state: Any) -> int:
        """The move (OpenSpiel's id) the agent makes in ``state``, its player's turn."""
        if not isinstance(state, GinRummyState):
            raise TypeError(f"AgentBot plays {SHORT_NAME} states, not {type(state).__name__}")
        if state.current_player() != self._player:
            raise ValueError(
                f"it is not player {self._player}'s turn (player {state.current_player()} "
                "is to move)"
            )
        assert state.hand is not None  # a player is to move, so the cards are dealt
        if state.hand_key != self._playing:
            self._hand_ended(state)
            self._agent.new_hand()
            self._playing = state.hand_key
        view = state.view(self._player)
        if watches(self._agent):
            self._agent.observe(view)
        action = self._agent.act(view, self._rng)
        if action.melds is not None:  # only the default arrangement has an id
            action = Action(action.kind, action.card)
        return to_openspiel(action_id(action))

    def _hand_ended(self, state: GinRummyState) -> None:
        """Let the agent see how the last hand it played ended (what it reads of his
        knocking), once a new hand has begun."""
        finished = state.finished_hand
        if finished is not None and watches(self._agent):
            key, hand, scores = finished
            if key != self._observed:
                self._observed = key
                self._agent.observe(hand.view(self._player, scores))
