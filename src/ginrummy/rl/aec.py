"""The PettingZoo AEC environment ``ginrummy_v0``: two agents, ``player_0`` and ``player_1``
(seats 0 and 1), acting in the order the rules give.

``raw_env(...)`` is the environment itself; ``env(...)`` wraps it the way PettingZoo's classic
games are wrapped (actions checked against the action space, calls checked for their order)
and makes an illegal action lose the episode instead of raising; ``parallel_env(...)`` is
PettingZoo's turn-based parallel view of ``env(...)``, in which each step applies the action of
the agent whose turn it is and ignores the other's.

Each agent's observation is ``{"observation": float32 array, "action_mask": int8 array}``; the
mask is all zero for the agent that is not to act. The options are those of
:func:`ginrummy.rl.options.make_options`.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from .actions import NUM_ACTIONS
from .names import NAME
from .options import EnvOptions, make_options
from .render import AGENTS, render
from .session import Session

RENDER_MODES: Final = ("ansi", "human")
#: An agent's observation: ``{"observation": float32 array, "action_mask": int8 array}``.
Observation = dict[str, Any]
#: What ``step`` takes: an action id, or None for an agent that is done.
ActionId = int | np.integer[Any]
ActionType = ActionId | None


def observation_space(session: Session) -> spaces.Dict:
    """The space of one agent's observation under a session's encoding."""
    encoder = session.encoders[0]
    return spaces.Dict(
        {
            "observation": spaces.Box(encoder.low, encoder.high, encoder.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None")
    return render_mode


class raw_env(AECEnv[str, Observation, ActionType]):
    """The unwrapped AEC environment; an illegal action raises ``ValueError`` unless
    ``illegal`` says otherwise."""

    metadata: dict[str, Any] = {  # noqa: RUF012  PettingZoo reads it from the class
        "name": NAME,
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        self.options: EnvOptions = make_options(**options)
        self.session = Session(self.options)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        space = observation_space(self.session)
        self.observation_spaces = {agent: space for agent in AGENTS}
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS
        }
        self._seats = {agent: seat for seat, agent in enumerate(AGENTS)}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        session = self.session
        session.reset(seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[session.current_player]
        self._rewarded = False
        self._informed = False

    def observe(self, agent: str) -> Observation:
        seat = self._seats[agent]
        session = self.session
        return {"observation": session.observe(seat), "action_mask": session.mask(seat)}

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, the same returns, with the agent's observation made here
        rather than through :meth:`observe` (it is asked for at every decision)."""
        agent = self.agent_selection
        observation = None
        if observe:
            seat = self._seats[agent]
            session = self.session
            observation = {
                "observation": session.observe(seat),
                "action_mask": session.mask(seat),
            }
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: ActionType) -> None:
        agent = self.agent_selection
        try:
            dead = self.terminations[agent] or self.truncations[agent]
        except KeyError:  # every agent has stepped out of the ended episode
            raise ValueError("the episode is over and every agent is done: reset it") from None
        if dead:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is an action only once it is done")
        session = self.session
        session.step(action)
        self._cumulative_rewards[agent] = 0.0
        first, second = session.rewards
        if first or second or self._rewarded:  # else the rewards stay 0 from the last step
            self.rewards = {AGENTS[0]: first, AGENTS[1]: second}
            self._rewarded = bool(first or second)
            self._accumulate_rewards()
        info = session.info
        if info or self._informed:  # fresh dicts: wrappers may write into them
            self.infos = {name: dict(info) for name in AGENTS}
            self._informed = bool(info)
        self.agent_selection = AGENTS[session.current_player]
        if session.done:
            ended = session.terminated
            self.terminations = dict.fromkeys(AGENTS, ended)
            self.truncations = dict.fromkeys(AGENTS, not ended)
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render(self.session, NAME, self.render_mode)

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


def env(render_mode: str | None = None, **options: Any) -> AECEnv[str, Observation, ActionType]:
    """The AEC environment with PettingZoo's usual wrappers; an illegal action ends the
    episode (the mover gets ``illegal_reward``, the other seat its negative) unless
    ``illegal`` says otherwise."""
    options.setdefault("illegal", "lose")
    wrapped: AECEnv[str, Observation, ActionType] = raw_env(render_mode=render_mode, **options)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(
    render_mode: str | None = None, **options: Any
) -> ParallelEnv[str, Observation, ActionType]:
    """PettingZoo's turn-based parallel view of :func:`env`: every step applies the action of
    the agent to act (``infos[agent]["active_agent"]`` names it) and ignores the other's."""
    return _TurnBasedParallel(env(render_mode=render_mode, **options))


class _TurnBasedParallel(turn_based_aec_to_parallel_wrapper[str, Observation, ActionId]):
    """PettingZoo's turn-based parallel view, whose reset also names the agent to act in the
    infos (``active_agent``), as its steps do."""

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        observations, infos = super().reset(seed=seed, options=options)  # type: ignore[no-untyped-call]
        active = self.aec_env.agent_selection
        return observations, {
            agent: {**info, "active_agent": active} for agent, info in infos.items()
        }

    def step(self, actions: dict[str, ActionType]) -> Any:
        """Apply the action of the agent to act (the others' are ignored); ``ValueError``,
        and nothing changed, where ``actions`` has none for it."""
        active = self.aec_env.agent_selection
        if self.agents and active not in actions:
            given = ", ".join(map(repr, actions)) or "none"
            raise ValueError(f"{active} is to act, and the actions name {given}")
        return super().step(actions)  # type: ignore[no-untyped-call]
