"""The move clock of a table between people, the away allowance, and the clock's fairness kept
in the store.

Each change of the table (:meth:`TableClock.touch`) starts the seat to move's time afresh
(a move, a deal, an undo) or keeps it. The clock runs only while the seat to move is here
(:meth:`TableClock.hold_clock`), until the seat has been away for its
:data:`AWAY_ALLOWANCE` (:meth:`TableClock.run_clock_away`);
each change stores what a table read again needs to go on fairly from it
(:meth:`TableClock.fairness`, :meth:`TableClock.restore_fairness`); and between people the
next hand is dealt once both have asked for it, or one has waited long enough
(:meth:`TableClock.ready_for_next`). :class:`TableClock` is a base of
:class:`~.tables.Table`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .table_base import TableBase

if TYPE_CHECKING:
    from ..engine import Hand
    from ..storage import Writer

#: Seconds at least that the seat to move has when it comes back to a held clock (those past
#: what it had left taken from its :data:`AWAY_ALLOWANCE`, while there are any).
CLOCK_GRACE = 10.0
#: Seconds in all, a table long, that a seat which has come to it may be away from its turn
#: with its clock held: past that its clock runs while it is away, as while it is here, so
#: that leaving a losing game open does not stall it for the other (a first arrival never
#: counts: a friend who has not opened the invite yet is waited for).
AWAY_ALLOWANCE = 120.0
#: Seconds a player who has asked for the next hand waits for the other before it is dealt.
READY_WAIT = 30.0
#: The key of a game's stored options that keeps its move clock's fairness between people
#: (:meth:`Table.fairness`): what a table read again (a restarted server, another instance,
#: a table let go of idle) goes on from, instead of a full clock and allowance.
FAIRNESS = "fairness"


class TableClock(TableBase):
    """The move clock and its stored fairness: see the module docstring."""

    def touch(self, *, clock: bool = True) -> None:
        """Mark the table changed: a new version for the states sent, and the move clock.

        Only a move, a deal or an undo (``clock``) gives the seat to move its full time
        again; any other change (a name, the link to a rematch) keeps the deadline as it
        was, or a seat could stall for ever by sending such changes. A table against the
        computer never has a clock, even one stored with a clock before that was enforced:
        the clock's move for a seat out of time is the simple player's, which must play no
        seat of a game that counts as one against the computer's level."""
        self.version += 1
        self.updated = time.monotonic()
        if (
            not self.options.clock
            or self.vs_computer
            or self.abandoned
            or self.hand is None
            or self.hand.is_over
        ):
            self.deadline = None
            self.clock_held = self.held_at = None
        elif clock or (self.deadline is None and self.clock_held is None):
            self.deadline = time.time() + self.options.clock
            self.clock_held = self.held_at = None
        self.hold_clock()

    def hold_clock(self) -> bool:
        """The clock runs only while the seat to move is here (has a socket open): it never
        plays for a friend who has not opened the invite yet, or whose connection dropped.
        Away, the seat's time is held; back, it runs on from what was left, at least
        :data:`CLOCK_GRACE` seconds (a page reloaded in its last second is not moved for
        before it is drawn; for a seat that had come, out of its :data:`AWAY_ALLOWANCE`).
        Whether the deadline changed."""
        connected = self.connected()
        came = list(self.came)  # before now: a first arrival was waited for
        for each, there in enumerate(connected):
            self.came[each] = self.came[each] or there
        hand = self.hand
        if hand is None or hand.is_over or hand.current_player is None:
            return False
        seat = hand.current_player
        here = connected[seat]
        now = time.time()
        if self.deadline is not None and not here and self.away_left[seat] > 0:
            self.clock_held = max(0.0, self.deadline - now)
            self.held_at = now
            self.deadline = None
            return True
        if self.clock_held is not None and here:
            left, grace = self.clock_held, min(float(self.options.clock), CLOCK_GRACE)
            if came[seat]:
                self._spend_away(seat, now)
                # The seconds of grace past what was left come out of the allowance too: a
                # page reloaded in each last second would otherwise gain them without end.
                extra = min(max(0.0, grace - left), self.away_left[seat])
                self.away_left[seat] -= extra
                left += extra
            else:  # a first arrival: waited for, never counted
                left = max(left, grace)
            self.deadline = now + left
            self.clock_held = self.held_at = None
            return True
        return False

    def run_clock_away(self, now: float) -> bool:
        """Past its :data:`AWAY_ALLOWANCE`, the time of a seat away from its turn runs on (from
        what was left when it was held) as if it were here. Whether the deadline changed."""
        hand = self.hand
        if self.clock_held is None or self.held_at is None or hand is None:
            return False
        seat = hand.current_player
        if seat is None or not self.came[seat] or now - self.held_at < self.away_left[seat]:
            return False
        self._spend_away(seat, now)
        self.deadline = now + self.clock_held
        self.clock_held = self.held_at = None
        return True

    def _spend_away(self, seat: int, now: float) -> None:
        """Count the time the clock was held against the seat's allowance (unless it had
        never come: a friend not there yet is waited for)."""
        if self.came[seat] and self.held_at is not None:
            self.away_left[seat] = max(0.0, self.away_left[seat] - (now - self.held_at))

    def write_fairness(
        self, tx: Writer, after: tuple[int, Hand] | None = None, *, move: bool = False
    ) -> None:
        """Store :meth:`fairness` with the change being written (between people only: a
        table against the computer has no clock, and deals at once). A ``move`` after which
        the store would hold the same but the clock, started afresh and running, writes
        nothing: most moves, so that a move costs no second write of the game's row (a
        table read again starts that clock from the move's own stored time, table_of)."""
        saved = self.fairness(after)
        kept = _kept(saved)
        fresh = saved["clock"] is None or saved["clock"] == {
            "left": float(self.options.clock),
            "held": False,
        }
        self.fairness_pending = kept
        if move and fresh and kept == self.fairness_stored:
            return
        tx.update_options(self.id, {FAIRNESS: saved})

    def fairness_kept(self) -> None:
        """The change just stored holds :meth:`fairness` as :meth:`write_fairness` wrote it."""
        if self.fairness_pending is not None:
            self.fairness_stored, self.fairness_pending = self.fairness_pending, None

    def fairness(self, after: tuple[int, Hand] | None = None) -> dict[str, Any]:
        """What a table read again needs to go on fairly (:func:`table_of`,
        :meth:`restore_fairness`), as of now: whether each seat has come, the seconds of its
        :data:`AWAY_ALLOWANCE` it has used, the seat to move's time left, and who has asked
        for the next hand. ``after``: the hand (its number, and it) a change being stored
        makes, with its clock started afresh (a move, a deal). Stored with the changes only
        (not each second): read again, a table goes on from the last change stored, its
        clock counted on from then as if it had run all along, so that it never has more
        time than it had then (the other seat does not wait for a restart)."""
        now = time.time()
        connected = self.connected()
        came = [c or there for c, there in zip(self.came, connected, strict=True)]
        used = [AWAY_ALLOWANCE - left for left in self.away_left]
        hand = self.hand
        seat = None if hand is None else hand.current_player
        if seat is not None and self.held_at is not None and self.came[seat]:
            used[seat] = min(AWAY_ALLOWANCE, used[seat] + max(0.0, now - self.held_at))
        number, hand = (self.hand_number, hand) if after is None else after
        clock: dict[str, Any] | None = None
        if (
            self.options.clock
            and not self.abandoned
            and hand is not None
            and not hand.is_over
            and hand.current_player is not None
        ):
            seat = hand.current_player
            if after is not None:  # a fresh clock, held at once where the seat is away
                held = not connected[seat] and used[seat] < AWAY_ALLOWANCE
                clock = {"left": float(self.options.clock), "held": held}
            elif self.deadline is not None:
                clock = {"left": max(0.0, self.deadline - now), "held": False}
            elif self.clock_held is not None:
                clock = {"left": self.clock_held, "held": True}
        ready = [] if after is not None else sorted(self.ready)
        return {
            "at": now,
            "hand": number,
            "events": 0 if hand is None else len(hand.events),
            "came": came,
            "away_used": used,
            "clock": clock,
            "ready": ready,
            "ready_at": None
            if not ready or self.ready_deadline is None
            else self.ready_deadline - READY_WAIT,
        }

    def restore_fairness(self, saved: Any, moved_at: float | None = None) -> None:
        """Go on from :meth:`fairness` as stored (a table just read again, nobody at it yet):
        the seats' used allowance, whether they came, the clock of the hand it was stored
        with, counted on since (held, it runs on no more than it would have; a seat held
        for that had come spends its allowance from then) and the next hand's requests.
        Where moves were stored after it (each started the next clock afresh, running, and
        changed nothing else of it: :meth:`write_fairness`), the clock runs from the last
        one's time, ``moved_at``."""
        if not isinstance(saved, dict):
            return
        try:
            at = float(saved["at"])
            for seat in (0, 1):
                self.came[seat] = self.came[seat] or bool(saved["came"][seat])
                used = min(AWAY_ALLOWANCE, max(0.0, float(saved["away_used"][seat])))
                self.away_left[seat] = AWAY_ALLOWANCE - used
            hand = self.hand
            same = (
                hand is not None
                and saved["hand"] == self.hand_number
                and saved["events"] == len(hand.events)
            )
            clock = saved.get("clock")
            ready = [int(s) for s in saved.get("ready") or () if s in (0, 1)]
            self.fairness_stored = _kept(saved)
        except (KeyError, IndexError, TypeError, ValueError):
            return  # nothing usable: the table starts as it always did
        if hand is None:
            return
        if not same:
            running = self.deadline is not None or self.clock_held is not None
            if running and moved_at is not None and not hand.is_over:
                self.deadline = moved_at + float(self.options.clock)
                self.clock_held = self.held_at = None
                self.hold_clock()
            return
        if isinstance(clock, dict) and (self.deadline is not None or self.clock_held is not None):
            left = min(float(clock["left"]), float(self.options.clock))
            if clock.get("held"):
                self.deadline = None
                self.clock_held, self.held_at = left, at
            else:
                self.deadline = at + left
                self.clock_held = self.held_at = None
            self.hold_clock()
        ready_at = saved.get("ready_at")
        if hand.is_over and ready and isinstance(ready_at, (int, float)):
            self.ready = set(ready)
            self.ready_deadline = ready_at + READY_WAIT
            self.ready_since = time.monotonic() - max(0.0, time.time() - ready_at)

    def ready_for_next(self, seat: int) -> bool:
        """``seat`` has seen the result and asks for the next hand: whether to deal it now.
        Against the computer at once; between people once both have asked, or the other seat
        has no socket open, so that nobody's result is taken from under them while they read
        it (:data:`READY_WAIT` seconds after the first asked, the next hand is dealt anyway:
        :meth:`waited_long_enough`)."""
        if self.vs_computer:
            return True
        if seat not in self.ready:
            self.ready.add(seat)
            if self.ready_since is None:
                self.ready_since = time.monotonic()
                self.ready_deadline = time.time() + READY_WAIT
            self.touch(clock=False)
        return (1 - seat) in self.ready or not self.connected()[1 - seat]

    def waited_long_enough(self, now: float) -> bool:
        """Whether a seat has asked for the next hand and waited long enough for the other
        (:data:`READY_WAIT`), or the other has gone."""
        if self.ready_since is None or self.hand is None or not self.hand.is_over:
            return False
        if self.finished or self.abandoned:
            return False
        away = any(not self.connected()[1 - seat] for seat in self.ready)
        return away or now - self.ready_since >= READY_WAIT


def _kept(saved: Mapping[str, Any]) -> tuple[Any, ...]:
    """What of :meth:`Table.fairness` a move must store when it changes (not the clock, which
    each move starts afresh): whether the seats came, the whole seconds of allowance they
    have used, and the requests for the next hand."""
    used = tuple(round(float(u)) for u in saved["away_used"])
    return (tuple(bool(c) for c in saved["came"]), used, tuple(saved["ready"]), saved["ready_at"])
