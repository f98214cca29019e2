"""Both seats' observations of one hand: each seat's knowledge and encoder, the encoder fed
every event as its seat saw it, and each observation encoded at most twice a state (once
when it is asked for once, which is the common case; see :meth:`Observations.take`).

The environments (through :class:`~ginrummy.rl.session.Session`) and the self-play generator
(:mod:`.selfplay`) both observe hands through this class, so a self-play file holds exactly the
observations an environment gives in the same states, and a policy trained on one plays in the
other.
"""

from __future__ import annotations

from ..engine import Event, Hand
from .encoding_registry import make_encoders
from .encodings import Array, Encoder
from .knowledge import PARTLY_HIDDEN, Knowledge, Scores, visible
from .options import EnvOptions


class Observations:
    """The two seats' encoders over the hand being played. Call :meth:`deal` for each hand and
    :meth:`saw` with each event the hand gives; :meth:`encoded` is a seat's observation now."""

    __slots__ = ("_cache", "_hand", "_lent", "encoders", "knowledge")

    def __init__(self, options: EnvOptions) -> None:
        self.encoders: tuple[Encoder, Encoder] = make_encoders(options)
        self.knowledge: tuple[Knowledge, Knowledge]
        self._hand: Hand | None = None
        #: Each seat's observation of the present state, once kept (see :meth:`take`).
        self._cache: list[Array | None] = [None, None]
        #: Per seat, whether :meth:`take` has handed out the present state's first encoding.
        self._lent = [False, False]

    def deal(self, hand: Hand, scores: Scores) -> None:
        """A new hand, dealt and not yet played; ``scores`` is where the seats read the score."""
        self._hand = hand
        self.knowledge = (Knowledge(hand, 0, scores), Knowledge(hand, 1, scores))
        for encoder, knowledge in zip(self.encoders, self.knowledge, strict=True):
            encoder.new_hand(knowledge)
        self._cache = [None, None]
        self._lent = [False, False]

    def saw(self, event: Event) -> None:
        """The hand's latest event happened: each seat sees it as it may (the opponent's stock
        draw without its card, a knock card face down until the hand is over)."""
        hand = self._hand
        assert hand is not None, "deal a hand first"
        encoders, knowledge, cache = self.encoders, self.knowledge, self._cache
        actor = event.seat
        other = 1 - actor
        encoders[actor].see(event, knowledge[actor])
        if event.action.kind in PARTLY_HIDDEN:
            event = visible(event, other, hand.is_over)
        encoders[other].see(event, knowledge[other])
        cache[0] = cache[1] = None
        lent = self._lent
        lent[0] = lent[1] = False

    def forget(self) -> None:
        """Something the encoders read besides the hand's events changed (the score)."""
        self._cache[0] = self._cache[1] = None
        self._lent[0] = self._lent[1] = False

    def encoded(self, seat: int) -> Array:
        """``seat``'s observation now, encoded on the first call after a change and the same
        array after that: callers copy it before writing into it."""
        cached = self._cache[seat]
        if cached is None:
            cached = self._cache[seat] = self.encoders[seat].encode(self.knowledge[seat])
        return cached

    def take(self, seat: int) -> Array:
        """``seat``'s observation now as a new array, the caller's to keep or write into.

        An environment asks once a state, most often: the encoder's new array is then handed
        out as it is, not kept and copied. A second ask in the same state encodes again and
        keeps that one (the first may have been written into), and every later ask copies it;
        an encoder gives the same array for the same state however often it is asked."""
        if self._cache[seat] is None and not self._lent[seat]:
            self._lent[seat] = True
            return self.encoders[seat].encode(self.knowledge[seat])
        return self.encoded(seat).copy()


__all__ = ["Observations"]
