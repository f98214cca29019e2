"""The game behind every environment here: episodes of a hand, a game or a match, stepped by
action ids, with each seat's rewards, observations and masks.

The PettingZoo, Gymnasium and batched environments are thin adapters over a :class:`Session`,
so they share one set of rules for rewards, seeds, truncation and illegal actions.

Seeds: ``reset(seed)`` starts a fresh ``random.Random(seed)``; every episode draws its own seed
from it, so the same seed gives the same deals, and ``reset()`` without one goes on from there.
An episode with seed ``s`` is dealt exactly as ``Game(rules, s)`` (or ``Match``) deals: in hand
mode its first hand, with the dealer the rules choose (the cut, or the fixed seat).
"""

from __future__ import annotations

import operator
import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..engine import Action, Game, Hand, HandResult, IllegalActionError, Match
from ..engine.scoring import Column
from ..engine.views import PlayerView
from .actions import ACTIONS, NUM_ACTIONS, ids_of
from .encodings import Array, Encoder
from .observations import Observations
from .options import EnvOptions

_NO_MASK: Final = np.zeros(NUM_ACTIONS, np.int8)


class Session:
    """One environment's current episode. Seats are 0 and 1."""

    def __init__(self, options: EnvOptions) -> None:
        self.options = options
        #: Each seat's knowledge, encoder and observation of the hand being played.
        self.observations = Observations(options)
        self.encoders: tuple[Encoder, Encoder] = self.observations.encoders
        self._rng = random.Random()
        self.game: Game | None = None
        self.match: Match | None = None
        #: The hand being played (the last one once the episode is over).
        self.hand: Hand
        #: Each seat's reward for the last step.
        self.rewards = [0.0, 0.0]
        self.terminated = False
        self.truncated = False
        #: ``terminated or truncated``; True before the first reset too: no episode to step.
        self.done = True
        #: What the last step reports to both seats (a hand's result, an illegal action).
        self.info: dict[str, Any] = {}
        self.steps = 0
        self.hands = 0
        self.game_scores = (0, 0)
        #: The game's score columns as they were when ``game_scores`` was read (what a view
        #: needs under Hollywood scoring, where ``game_scores`` sums three games).
        self.game_columns: tuple[Column, ...] = ()
        self.match_scores = (0, 0)
        self._legal: list[int] | None = None
        self._last_seat = 0

    @property
    def match_points(self) -> tuple[int, int] | None:
        """In a match, the match points before the game being played (``match_scores``);
        None in a game or a hand."""
        return self.match_scores if self.match is not None else None

    def view(self, seat: int) -> PlayerView:
        """``seat``'s view of the hand being played, for a player that weighs it: with the
        game's score, its columns and, in a match, the match points before the game."""
        return self.hand.view(
            seat, self.game_scores, columns=self.game_columns, match_points=self.match_points
        )

    # -- episodes ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        """Start an episode (see the module's note on seeds)."""
        if seed is not None:  # an integer of any kind (numpy's too), as random.Random takes
            self._rng = random.Random(seed_of(seed))
        episode_seed = self._rng.getrandbits(63)
        rules = self.options.rules
        self.match = Match(rules, episode_seed) if self.options.mode == "match" else None
        self.game = None if self.match is not None else Game(rules, episode_seed)
        self.rewards = [0.0, 0.0]
        self.terminated = self.truncated = self.done = False
        self.info = {}
        self.steps = 0
        self.hands = 0
        self._deal()

    def _deal(self) -> None:
        if self.match is not None:
            self.hand = self.match.deal_hand()
            self.game_scores = self.match.game.totals
            self.game_columns = self.match.game.columns
            self.match_scores = self.match.totals
        else:
            assert self.game is not None
            self.hand = self.game.deal_hand()
            self.game_scores = self.game.totals
            self.game_columns = self.game.columns
        self.hands += 1
        self._legal = None
        self.observations.deal(self.hand, self)

    def _end(self, *, truncated: bool = False) -> None:
        """The episode is over: it ended, or was cut short."""
        self.terminated = not truncated
        self.truncated = truncated
        self.done = True

    @property
    def current_player(self) -> int:
        """The seat to act; once the episode is over, the seat that acted last."""
        seat = self.hand.current_player
        return self._last_seat if seat is None or self.done else seat

    # -- stepping ------------------------------------------------------------------------------

    def check_playing(self) -> None:
        """Raise ``ValueError`` unless an episode is being played: none before the first reset,
        and none once it is over."""
        if self.done:
            if not self.hands:
                raise ValueError("no episode has begun: reset the environment first")
            raise ValueError("the episode is over: reset it")

    def legal_ids(self) -> list[int]:
        """The ids of the current player's legal actions (none once the episode is over)."""
        if self._legal is None:
            self._legal = [] if self.done else ids_of(self.hand.legal_actions())
        return self._legal

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """A new int8 mask of ``seat``'s legal actions (all 0 when it is not to act)."""
        if self.done or seat != self.hand.current_player:
            return _NO_MASK.copy()
        # Filled as bytes, which are cheaper to set one by one than numpy's items, and then
        # lent to numpy as they are: the array is the caller's, writable, never shared.
        mask = bytearray(NUM_ACTIONS)
        for index in self.legal_ids():
            mask[index] = 1
        return np.frombuffer(mask, np.int8)

    def observe(self, seat: int) -> Array:
        """A new array of ``seat``'s observation, the caller's to keep or write into."""
        return self.observations.take(seat)

    def step(self, action_id: int | np.integer[Any]) -> None:
        """Play the current player's action of id ``action_id``; ``rewards``, ``terminated``,
        ``truncated`` and ``info`` then describe the step."""
        try:
            index = operator.index(action_id)
        except TypeError:
            index = -1
        if 0 <= index < NUM_ACTIONS:
            self.play(ACTIONS[index], action_id)
        else:
            self.play(None, action_id)

    def play(self, action: Action | None, action_id: object = None) -> None:
        """Play an engine action (any legal one: a knock may name its melds); ``None`` is an
        action outside the space. An illegal action is handled as the options say."""
        if self.done:
            self.check_playing()
        hand = self.hand
        seat = hand.current_player
        assert seat is not None
        try:
            if action is None:
                raise IllegalActionError("not an action id")
            event = hand.apply(action)
        except IllegalActionError as exc:
            self._illegal(seat, action if action_id is None else action_id, exc)
            return
        self._begin(seat)
        self.observations.saw(event)
        if hand.is_over:
            self._hand_over()
        elif event.number >= self.options.max_hand_actions:  # the hand's count of actions
            self._end(truncated=True)
        if not self.done and self.steps == self.options.max_cycles:
            self._end(truncated=True)

    def _begin(self, seat: int) -> None:
        """A step is taken: count it and forget the last step's rewards, info and mask."""
        self.steps += 1
        self._last_seat = seat
        self._legal = None
        self.rewards = [0.0, 0.0]
        if self.info:
            self.info = {}

    def _illegal(self, seat: int, action_id: object, exc: Exception) -> None:
        what = f"action {action_id!r}"
        if isinstance(action_id, int | np.integer) and 0 <= action_id < NUM_ACTIONS:
            what += f" ({ACTIONS[int(action_id)]})"
        policy = self.options.illegal
        if policy == "raise":
            raise ValueError(f"seat {seat}: illegal {what}: {exc}") from None
        self._begin(seat)
        penalty = self.options.illegal_reward
        self.rewards[seat] = penalty
        self.info = {"illegal_action": what}
        if policy == "lose":
            self.rewards[1 - seat] = -penalty
            self._end()
        elif self.steps == self.options.max_cycles:
            self._end(truncated=True)

    def _hand_over(self) -> None:
        result = self.hand.result
        assert result is not None
        self.info = {"hand_result": _result_info(result, self.hands)}
        mode = self.options.mode
        winner = result.winner
        if mode == "hand":
            if winner is not None:
                self.rewards[winner] += result.points
                self.rewards[1 - winner] -= result.points
            self._end()
            return
        shaping = self.options.shaping
        if shaping and winner is not None:
            amount = shaping * result.points / self.options.rules.game_target
            self.rewards[winner] += amount
            self.rewards[1 - winner] -= amount
        episode: Game | Match
        if self.match is not None:
            self.match.finish_hand(self.hand)
            episode = self.match
        else:
            assert self.game is not None
            self.game.finish_hand(self.hand)
            episode = self.game
        if not episode.is_over:
            self._deal()
            return
        if self.match is not None:  # the final observation shows the final score
            self.game_scores, self.match_scores = self.match.game.totals, self.match.totals
            self.game_columns = self.match.game.columns
        else:
            assert self.game is not None
            self.game_scores, self.game_columns = self.game.totals, self.game.columns
        self.observations.forget()
        final = episode.final()
        if final.winner is not None:
            self.rewards[final.winner] += 1.0
            self.rewards[1 - final.winner] -= 1.0
        self.info["final"] = final.to_dict()
        self._end()


def seed_of(seed: object) -> int:
    """``seed`` as the int it stands for (Python's or numpy's integers); ``TypeError`` saying
    so for anything else."""
    try:
        return operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a seed is an integer or None, not {seed!r}") from None


def _result_info(result: HandResult, number: int) -> dict[str, Any]:
    return {
        "hand": number,
        "kind": result.kind.value,
        "winner": result.winner,
        "points": result.points,
    }
