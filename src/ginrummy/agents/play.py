"""A referee for computer players: it plays hands, whole games and matches between two agents,
times every decision and checks that every action an agent returns is legal.

Each agent gets ``new_hand()`` before each hand, and ``observe(view)`` with its view whenever
the other seat is about to act and once more when the hand is over (views are built only for
agents whose ``observe`` does something, :func:`~.base.watches`). Players are given by name, as
agents, or as anything with an ``act`` method (adapted by :func:`~.base.as_agent`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from time import perf_counter

from ..engine import Action, Hand, HandResult, IllegalActionError, PlayerView, Rules
from ..engine.game import Game, GameRecord, derived_seed
from ..engine.match import Match, MatchRecord
from ..engine.scoring import Column
from .base import Actor, Agent, as_agent, watches
from .registry import get_agent

#: A game that lasts this many hands is stopped (only agents that never end a hand get here).
MAX_HANDS = 1000


class AgentError(IllegalActionError):
    """An agent returned an action that is not legal; the message names the agent."""


@dataclass
class DecisionTimes:
    """Seconds each seat's agent took per decision, in order."""

    seconds: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    def add(self, seat: int, elapsed: float) -> None:
        self.seconds[seat].append(elapsed)


@dataclass(frozen=True)
class GameOutcome:
    """A finished game (or match) between ``agents`` (seat 0's name first).

    ``winner`` is the seat credited with the game (the larger final total), ``totals`` are the
    final totals with every end-of-game bonus, and ``times`` each seat's decision times. Of a
    match (:func:`play_match`): the match's winner, the match points, and every game's hands.
    """

    seed: int
    agents: tuple[str, str]
    winner: int | None
    totals: tuple[int, int]
    results: tuple[HandResult, ...]
    times: tuple[tuple[float, ...], tuple[float, ...]]
    record: GameRecord | MatchRecord


#: A player: an agent's name, an agent, or anything with ``act`` (see :func:`~.base.as_agent`).
AgentLike = Agent | Actor | str


def _resolve(agents: Sequence[AgentLike]) -> tuple[Agent, Agent]:
    if len(agents) != 2:
        raise ValueError(f"a hand needs two agents, not {len(agents)}")
    first, second = (get_agent(a) if isinstance(a, str) else as_agent(a) for a in agents)
    return first, second


def play_hand(
    rules: Rules,
    dealer: int,
    seed_or_rng: int | random.Random,
    agents: Sequence[AgentLike],
    scores: tuple[int, int] = (0, 0),
    *,
    times: DecisionTimes | None = None,
) -> Hand:
    """Deal a hand and let ``agents`` (seat 0's first) play it to the end.

    An int seed deals the same cards as ``Hand.deal(rules, dealer, seed)``, and the agents draw
    their random choices from a generator derived from it; a ``random.Random`` is used for both.
    """
    if isinstance(seed_or_rng, random.Random):
        rng = seed_or_rng
        hand = Hand.deal(rules, dealer, rng)
    else:
        hand = Hand.deal(rules, dealer, seed_or_rng)
        rng = random.Random(derived_seed(seed_or_rng, "agents"))
    return drive(hand, _resolve(agents), rng, scores, times)


def drive(
    hand: Hand,
    agents: tuple[Agent, Agent],
    rng: random.Random,
    scores: tuple[int, int] = (0, 0),
    times: DecisionTimes | None = None,
    columns: tuple[Column, ...] = (),
    match_points: tuple[int, int] | None = None,
) -> Hand:
    """Play a dealt hand to the end; returns it. Raises :class:`AgentError` on an illegal move.
    The agents' views carry the game's ``scores`` and score ``columns``, and in a match the
    ``match_points`` before the game."""
    for agent in agents:
        agent.new_hand()
    watchers = [watches(agent) for agent in agents]

    def view_of(seat: int) -> PlayerView:
        return hand.view(seat, scores, columns=columns, match_points=match_points)

    while True:
        seat = hand.current_player
        if seat is None:
            break
        other = 1 - seat
        if watchers[other]:
            agents[other].observe(view_of(other))
        view = view_of(seat)
        agent = agents[seat]
        start = perf_counter()
        action = agent.act(view, rng)
        elapsed = perf_counter() - start
        if times is not None:
            times.add(seat, elapsed)
        _check(hand, view.legal_actions, action, agent, seat)
        hand.apply(action)
    for seat, agent in enumerate(agents):
        if watchers[seat]:
            agent.observe(view_of(seat))
    return hand


def _check(hand: Hand, legal: tuple[Action, ...], action: object, agent: Agent, seat: int) -> None:
    if action in legal:
        return
    name = agent.name
    if not isinstance(action, Action):
        raise AgentError(f"agent {name!r} (seat {seat}) returned {action!r}, not an Action")
    try:
        hand.check(action, seat)  # a knock naming its own arrangement is not in ``legal``
    except IllegalActionError as exc:
        raise AgentError(
            f"agent {name!r} (seat {seat}) chose the illegal action '{action}': {exc}"
        ) from None


def play_game(
    rules: Rules,
    agents: Sequence[AgentLike],
    seed: int,
) -> GameOutcome:
    """Play a whole game to ``rules.game_target`` with the rules' scoring (dealers, bonuses).

    The game's hands are dealt as ``Game(rules, seed)`` deals them, so the same seed with the
    agents swapped deals the same first hand to the other agent.
    """
    pair = _resolve(agents)
    names = (pair[0].name, pair[1].name)
    times = DecisionTimes()
    rng = random.Random(derived_seed(seed, "agents"))
    game = Game(rules, seed)
    while not game.is_over:
        if game.number > MAX_HANDS:
            raise RuntimeError(f"{names[0]} vs {names[1]}: no end after {MAX_HANDS} hands")
        hand = drive(game.deal_hand(), pair, rng, game.totals, times, game.columns)
        game.finish_hand(hand)
    final = game.final()
    totals = (final.players[0].total, final.players[1].total)
    return GameOutcome(
        seed=seed,
        agents=names,
        winner=final.winner,
        totals=totals,
        results=tuple(entry.result for entry in game.hands),
        times=(tuple(times.seconds[0]), tuple(times.seconds[1])),
        record=game.to_record(),
    )


def play_match(
    rules: Rules,
    agents: Sequence[AgentLike],
    seed: int,
) -> GameOutcome:
    """Play a whole match to ``rules.match_target``: games as :func:`play_game` plays them,
    each game's net credited to its winner (:class:`~ginrummy.engine.match.Match`), the views
    carrying the match points before each game. The same seed with the agents swapped deals
    the same first hand to the other agent."""
    pair = _resolve(agents)
    names = (pair[0].name, pair[1].name)
    times = DecisionTimes()
    rng = random.Random(derived_seed(seed, "agents"))
    match = Match(rules, seed)
    hands = 0
    while not match.is_over:
        hands += 1
        if hands > MAX_HANDS:
            raise RuntimeError(f"{names[0]} vs {names[1]}: no end after {MAX_HANDS} hands")
        game, points = match.game, match.totals
        hand = drive(match.deal_hand(), pair, rng, game.totals, times, game.columns, points)
        match.finish_hand(hand)
    final = match.final()
    return GameOutcome(
        seed=seed,
        agents=names,
        winner=final.winner,
        totals=final.totals,
        results=tuple(entry.result for game in match.games for entry in game.hands),
        times=(tuple(times.seconds[0]), tuple(times.seconds[1])),
        record=match.to_record(),
    )
