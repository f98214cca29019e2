"""The agent protocol: what a computer player is, and how a player that only acts becomes one.

An agent receives a :class:`~ginrummy.engine.PlayerView` (which carries the rules and the game
score) and a ``random.Random``, and returns one of the view's legal actions. It never sees the
full state. Agents may keep memory within a hand: the referee (:mod:`.play`) calls
``new_hand()`` before each hand, and ``observe(view)`` with the agent's view whenever the other
seat is about to move and once more when the hand is over, so it can follow the opponent.

:class:`BaseAgent` gives both hooks as no-ops; subclass it and write ``act``. A player written
elsewhere that has only ``act`` (an :class:`Actor`) still plays: :func:`as_agent` wraps it in an
adapter that supplies what it lacks, and the referee and :func:`~.registry.get_agent` do that
for every player they are given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..engine import Action, PlayerView


@runtime_checkable
class Agent(Protocol):
    """A computer player."""

    name: str

    def new_hand(self) -> None:
        """Forget everything about the previous hand."""
        ...

    def observe(self, view: PlayerView) -> None:
        """See this seat's view while the other seat moves, and when the hand is over."""
        ...

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        """Choose one of ``view.legal_actions``."""
        ...


class Actor(Protocol):
    """Anything that chooses moves: ``act`` is all it needs (see :func:`as_agent`)."""

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        """Choose one of ``view.legal_actions``."""
        ...


class BaseAgent:
    """Convenience base: no memory unless a subclass keeps some."""

    name = "base"

    def new_hand(self) -> None:
        """Forget everything about the previous hand."""

    def observe(self, view: PlayerView) -> None:
        """See the state when it is not this agent's turn (optional)."""

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        raise NotImplementedError


def watches(agent: Agent) -> bool:
    """Whether ``agent.observe`` does anything: the referee builds the views to show it only
    then (a view is not free, and most agents read everything from the view at their turn).
    An agent whose ``observe`` reads only under some of its settings says when with a
    ``watching`` attribute."""
    if type(agent).observe is BaseAgent.observe:
        return False
    return bool(getattr(agent, "watching", True))


class ActorAgent(BaseAgent):
    """An :class:`Actor` as an :class:`Agent`: its ``act``; its ``name`` if it has one (else its
    class's name); its own ``new_hand`` if it has one (else nothing to forget). Its ``observe``
    sees nothing: an actor that has one is wrapped by :class:`ObservingActorAgent`."""

    def __init__(self, actor: Actor) -> None:
        self.actor = actor
        self.name = str(getattr(actor, "name", type(actor).__name__))
        hook = getattr(actor, "new_hand", None)
        self._new_hand: Callable[[], object] | None = hook if callable(hook) else None

    def new_hand(self) -> None:
        if self._new_hand is not None:
            self._new_hand()

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        return self.actor.act(view, rng)


class ObservingActorAgent(ActorAgent):
    """:class:`ActorAgent` for an actor with its own ``observe``, which it passes each view."""

    def __init__(self, actor: Actor, observe: Callable[[PlayerView], object]) -> None:
        super().__init__(actor)
        self._observe = observe

    def observe(self, view: PlayerView) -> None:
        self._observe(view)


def as_agent(player: Actor) -> Agent:
    """``player`` itself when it is a whole :class:`Agent`; otherwise an adapter around it
    (:class:`ActorAgent`), so that the rest of the package can rely on the whole protocol."""
    if isinstance(player, Agent):
        return player
    observe = getattr(player, "observe", None)
    if callable(observe):
        return ObservingActorAgent(player, observe)
    return ActorAgent(player)
