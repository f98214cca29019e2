"""The Gymnasium environment ``ginrummy/GinRummy-v0``: one seat against a built-in agent.

>>> import gymnasium, ginrummy.rl
>>> env = gymnasium.make("ginrummy/GinRummy-v0", opponent="simple", preset="eaai")
>>> observation, info = env.reset(seed=1)
>>> sorted(observation)
['action_mask', 'observation']

The learner plays ``seat`` (0 or 1; by default a seat drawn for each episode) and the opponent,
any of :func:`ginrummy.agents.agent_names` or an :class:`~ginrummy.agents.Agent`, plays the
other as the project's referee drives it (``new_hand`` before each hand, ``observe`` when the
learner is to act and at each hand's end). A step is the learner's action and then the
opponent's until the learner is to act again or the episode is over; its reward is the sum of
the learner's rewards over those actions. ``info["hand_results"]`` lists the hands that ended
in the step (reset's, those the opponent ended before the learner's first decision, whose
rewards come with the first step). The options are those of
:func:`ginrummy.rl.options.make_options`, except that an illegal action loses the episode by
default (``illegal="lose"``) rather than raising.

An opponent given by name is a new agent at every reset, so it remembers nothing of earlier
episodes and the same seed and actions play the same episode. An :class:`~ginrummy.agents.Agent`
passed in is kept across resets with whatever it remembers (the expert, for one, learns its
opponent's knocking from the hands it sees end), so its episodes need not repeat.
"""

from __future__ import annotations

import random
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from ..agents import Agent, get_agent
from ..agents.base import watches
from ..engine import Hand, IllegalActionError, PlayerView
from ..engine.game import derived_seed
from ..engine.scoring import Column
from .actions import NUM_ACTIONS
from .aec import RENDER_MODES, Observation, check_render_mode, observation_space
from .names import NAME
from .options import EnvOptions, make_options
from .render import render
from .session import Session

#: The most moves the opponent makes before the learner's first: take the upcard, discard.
OPENING_MOVES: Final = 2


class GinRummyEnv(gymnasium.Env[Observation, np.int64]):
    """A single-agent Gymnasium environment against a built-in agent."""

    metadata: dict[str, Any] = {  # noqa: RUF012  Gymnasium reads it from the class
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    def __init__(
        self,
        opponent: str | Agent = "random",
        seat: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        options.setdefault("illegal", "lose")
        self.options: EnvOptions = make_options(**options)
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None (drawn each episode), not {seat!r}")
        for name in ("max_cycles", "max_hand_actions"):
            # Reset deals again while the opponent's first moves end the episode: a limit that
            # always did (for a learner who always deals) would deal again forever.
            limit = getattr(self.options, name)
            if limit is not None and limit < OPENING_MOVES + 1:
                raise ValueError(
                    f"{name} must be at least {OPENING_MOVES + 1} here, not {limit}: the "
                    f"opponent can make {OPENING_MOVES} moves before the learner's first"
                )
        self.seat_choice = seat
        # A named opponent is built afresh at every reset (see :meth:`_fresh_opponent`).
        self._opponent_name = opponent if isinstance(opponent, str) else None
        self.opponent: Agent = self._fresh_opponent() if isinstance(opponent, str) else opponent
        self.render_mode = check_render_mode(render_mode)
        self.session = Session(self.options)
        self.observation_space = observation_space(self.session)
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.seat = 0
        self._rng = random.Random()
        self._watches = watches(self.opponent)
        self._hand: Hand | None = None
        self._scores = (0, 0)
        self._columns: tuple[Column, ...] = ()
        self._match: tuple[int, int] | None = None
        self._reward = 0.0
        self._opening = 0.0
        self._results: list[dict[str, Any]] = []

    # -- the API ---------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(derived_seed(seed, "opponent"))
        self.session.reset(seed)
        if self._opponent_name is not None:
            self.opponent = self._fresh_opponent()
            self._watches = watches(self.opponent)
        while True:
            self.seat = self._rng.randrange(2) if self.seat_choice is None else self.seat_choice
            self._hand = None
            self._reward = 0.0
            self._results = []
            self._opponent_plays({})
            if not self.session.done:
                break
            # The opponent ended the episode before the learner's first decision (a gin dealt
            # to the eleven-card deal's first player): there is nothing to learn; deal again.
            self.session.reset()
        info: dict[str, Any] = {"seat": self.seat}
        if self._results:
            info["hand_results"] = self._results
        # The rewards of hands the opponent ended before the learner's first decision (a
        # shaped game's hand points) come with the first step.
        self._opening = self._reward
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        session = self.session
        session.check_playing()
        self._results = []
        info: dict[str, Any] = {}
        # An illegal action under ``illegal="raise"`` raises here and changes nothing: the
        # opening hands' reward is taken only once the action is played.
        session.step(action)
        self._reward, self._opening = self._opening, 0.0
        self._collect(info)
        self._opponent_plays(info)
        if self._results:
            info["hand_results"] = self._results
        if self.render_mode == "human":
            self.render()
        return (
            self._observation(),
            self._reward,
            session.terminated,
            session.truncated,
            info,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans (the name masked-PPO libraries call)."""
        return self.session.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        return render(self.session, NAME, self.render_mode)

    # -- the opponent ------------------------------------------------------------------------

    def _fresh_opponent(self) -> Agent:
        """A new agent of the opponent's name. Some agents learn from the hands they watch
        (the expert models its opponent's knocking), so one kept across resets would make
        ``reset(seed=s)`` play differently each time; a new one for each episode keeps the
        same seed and actions playing the same episode."""
        assert self._opponent_name is not None
        return get_agent(self._opponent_name, one_hand=self.options.mode == "hand")

    def _opponent_plays(self, info: dict[str, Any]) -> None:
        """Let the opponent act until the learner is to act or the episode is over."""
        session = self.session
        other = 1 - self.seat
        while True:
            self._follow_hand()
            if session.done:
                break
            if session.current_player != other:
                self._show(session.view(other))
                break
            view = session.view(other)
            action = self.opponent.act(view, self._rng)
            try:  # an opponent's illegal action is its bug, never the learner's reward
                session.hand.check(action, other)
            except IllegalActionError as exc:
                name = getattr(self.opponent, "name", type(self.opponent).__name__)
                raise ValueError(f"the opponent {name!r} chose '{action}': {exc}") from None
            session.play(action)
            self._collect(info)

    def _follow_hand(self) -> None:
        """Tell the opponent of a new hand, after showing it the end of the last one."""
        hand = self.session.hand
        if hand is not self._hand:
            if self._hand is not None:
                self._show(self._last_view())
            self._hand, self._scores = hand, self.session.game_scores
            self._columns, self._match = self.session.game_columns, self.session.match_points
            new_hand = getattr(self.opponent, "new_hand", None)
            if callable(new_hand):
                new_hand()
        elif self.session.done:
            self._show(self._last_view())

    def _last_view(self) -> PlayerView:
        """The opponent's view of the hand it followed, at its end: with the scores (game,
        columns and match) as they stood when that hand was dealt, as it saw them in play."""
        assert self._hand is not None
        return self._hand.view(
            1 - self.seat, self._scores, columns=self._columns, match_points=self._match
        )

    def _show(self, view: PlayerView) -> None:
        if self._watches:
            observe = getattr(self.opponent, "observe", None)
            if callable(observe):
                observe(view)

    def _collect(self, info: dict[str, Any]) -> None:
        session = self.session
        self._reward += session.rewards[self.seat]
        step_info = session.info
        if "hand_result" in step_info:
            self._results.append(step_info["hand_result"])
        for key in ("illegal_action", "final"):
            if key in step_info:
                info[key] = step_info[key]

    def _observation(self) -> Observation:
        session = self.session
        return {
            "observation": session.observe(self.seat),
            "action_mask": session.mask(self.seat),
        }
