"""Tables: a game between two seats (a person and the computer, or two people), its hands,
their checkable deals, and what each seat may see. Knows nothing of the network.

Every accepted action is written to the store before the caller acknowledges it; a table is
rebuilt after a restart by replaying its stored deals and actions.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from ..agents.style import Evidence, evidence
from ..engine import (
    Action,
    ActionKind,
    Card,
    Cards,
    Event,
    Hand,
    IllegalActionError,
    Phase,
    Rules,
    best_arrangements,
    parse_cards,
)
from ..engine.game import Game
from ..engine.match import Match
from ..engine.melds import Arrangement, discard_deadwoods_mask
from ..engine.scoring import Column
from ..engine.serial import event_to_dict, result_to_dict
from ..engine.views import PlayerView
from ..storage import SavedGame, Store, Writer
from ..storage.writer import options_hold, seat_moves
from .dealing import Deal, commitment, deck_text, shuffle
from .thinking import make_agent, think

LEVELS = ("beginner", "intermediate", "expert")
COMPUTER_SEAT = 1
#: The ``interface`` option that marks a game as played in the terminal (``ginrummy play``):
#: its moves are made by that program alone, so the server neither opens nor plays it.
TERMINAL = "terminal"
#: The options that mark it so.
TERMINAL_MARK: dict[str, Any] = {"interface": TERMINAL}
#: The seat whose link the creator of a friend table sends out as an invite (the friend's).
INVITED = 1


def token_hash(token: str) -> str:
    # surrogatepass: a token from JSON may hold lone surrogates (``"\ud800"``); it hashes to
    # what no seat's token does, rather than raising.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


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
#: What a move, an undo or a hint at a game closed as abandoned is told.
ABANDONED = "this game was closed as abandoned: nobody moved for long"


@dataclass
class Options:
    """How a table was set up, and what happened to it that changes how it counts."""

    mode: str = "computer"  # computer | friend
    level: str = "intermediate"
    match: bool = False
    clock: int = 0  # seconds per move in friend games, 0 = none
    #: Hints for both seats. Always on against the computer; between people only when the
    #: table was opened so (both see it before the first move); never in a game for stakes.
    hints: bool = True
    #: Undo was used: the game is marked so and left out of statistics.
    undo_used: bool = False
    #: The table the players moved on to for a rematch, once one of them asked.
    rematch: str | None = None
    #: The preset chosen when the table was opened (statistics are kept by it).
    preset: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "level": self.level,
            "match": self.match,
            "clock": self.clock,
            "hints": self.hints,
            "undo_used": self.undo_used,
            "rematch": self.rematch,
            "preset": self.preset,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        mode = str(data.get("mode", "computer"))
        return cls(
            mode,
            str(data.get("level", "intermediate")),
            bool(data.get("match", False)),
            int(data.get("clock", 0)),
            bool(data.get("hints", mode == "computer")),
            bool(data.get("undo_used", False)),
            None if data.get("rematch") is None else str(data["rematch"]),
            str(data.get("preset", "")),
        )


@dataclass(frozen=True)
class Step:
    """An action worked out on a copy of the hand, not yet made: :meth:`Table.write` stores
    it (in any thread), then :meth:`Table.commit` makes it the table's state. Until then the
    table is exactly as it was, so nobody is told of a move the store has not kept."""

    version: int
    seat: int
    hand: Hand
    event: Event
    #: When the hand ended: the game's final summary and winner if it ended the game too.
    final: dict[str, Any] | None = None
    winner: int | None = None


@dataclass
class Table:
    id: str
    rules: Rules
    names: tuple[str, str]
    options: Options
    scoring: Game | Match
    hand: Hand | None = None
    deal: Deal | None = None
    hand_number: int = 0
    finished: bool = False
    abandoned: bool = False  # closed after long without a move
    version: int = 0
    updated: float = field(default_factory=time.monotonic)
    deadline: float | None = None  # move clock
    #: Seconds the seat to move had left when its clock was held, for it was away (None:
    #: not held): :meth:`hold_clock`.
    clock_held: float | None = None
    #: When the clock was held (``time.time``), while it is.
    held_at: float | None = field(default=None, repr=False, compare=False)
    #: Per seat: whether it has come to the table (a socket opened), and the seconds of
    #: :data:`AWAY_ALLOWANCE` it has left.
    came: list[bool] = field(default_factory=lambda: [False, False], repr=False, compare=False)
    away_left: list[float] = field(
        default_factory=lambda: [AWAY_ALLOWANCE, AWAY_ALLOWANCE], repr=False, compare=False
    )
    #: Between people, the seats that have seen the hand's result and asked for the next
    #: (:meth:`ready_for_next`), and since when (``time.monotonic``) the first has waited.
    ready: set[int] = field(default_factory=set, repr=False, compare=False)
    ready_since: float | None = field(default=None, repr=False, compare=False)
    #: The table whose invite link still waits for the friend (this one, or the game this
    #: rematch followed: the invite carries over, Manager.create), shown to its sender; None
    #: once taken (or never sent).
    invite_from: str | None = field(default=None, repr=False, compare=False)
    #: When the next hand is dealt anyway (``time.time()``, as :attr:`deadline`): the page
    #: counts down to it.
    ready_deadline: float | None = field(default=None, repr=False, compare=False)
    #: The numbers of this hand's events the move clock made for a seat out of time (kept in
    #: memory: a restarted server names none of the hand's earlier ones).
    clock_moves: list[int] = field(default_factory=list, repr=False, compare=False)
    #: What of :meth:`fairness` the store holds (:meth:`fairness_kept`), and what the change
    #: being stored writes: a move that changes nothing of it but starts the next clock
    #: afresh writes nothing (the clock is then told by the move's own time, table_of).
    fairness_stored: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)
    fairness_pending: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)
    #: Held by whoever changes the table (its moves, deals, undo, the clock), across the wait
    #: for the store, so that changes happen one at a time and in order.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    #: The computer player of this hand: owned by the table, used by one thread at a time
    #: (the table's one computer turn in progress), dropped at the next deal.
    agent: Any = field(default=None, repr=False, compare=False)
    #: The game's score when this hand was dealt (what the players' views were given).
    scores_before: tuple[int, int] = (0, 0)
    #: The game's score columns when the hand began (what the review weighs a Hollywood
    #: hand by, as the hints did while it was played).
    columns_before: tuple[Column, ...] = ()
    #: In a match, the match points when the hand began (what the review weighs a hand of a
    #: match by, as the hints did); None in a game played on its own.
    match_before: tuple[int, int] | None = None
    #: What the finished hands showed the computer of the person's knocking (a game against
    #: the computer only; :func:`~ginrummy.agents.style.evidence` of the computer's view), for
    #: the expert's reading of his style. Rebuilt with the hands when a table is read again.
    seen: list[Evidence] = field(default_factory=list, repr=False, compare=False)
    #: Where the hand stood (:meth:`position`) when the computer's move fell due: while it
    #: still stands there the computer is thinking past its delay, and the person's last move
    #: stands (:meth:`undo_point`). A name or any other change of the table leaves it so.
    replying: Position | None = field(default=None, repr=False, compare=False)
    #: Open sockets per seat (kept by the manager): each side sees whether the other is there.
    present: list[int] = field(default_factory=lambda: [0, 0], repr=False, compare=False)
    #: Per seat, whose browser holds it (the hash of its player cookie, as the store's seat
    #: owner; None: nobody's yet), and how many times it has moved to another browser: every
    #: socket of a seat is its owner's (:meth:`Manager.join` makes others spectators), and both
    #: players are shown a seat that moved (its cards were open in another browser).
    owners: list[str | None] = field(
        default_factory=lambda: [None, None], repr=False, compare=False
    )
    moves: list[int] = field(default_factory=lambda: [0, 0], repr=False, compare=False)
    # What every state message repeats, worked out once: the rules and options never change
    # at a table, the score sheet only when a hand ends or starts. Shared by the messages, so
    # nobody may change these dicts.
    _fixed: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _sheet: tuple[tuple[int, bool], dict[str, Any]] | None = field(
        default=None, repr=False, compare=False
    )

    # -- derived --------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.scoring.game if isinstance(self.scoring, Match) else self.scoring

    @property
    def game_shown(self) -> Game:
        """The game the hand on the table counts in: in a match, the game that hand ended
        (the match has begun the next one already) until the next hand is dealt."""
        scoring = self.scoring
        if (
            isinstance(scoring, Match)
            and self.hand is not None
            and self.hand.is_over
            and not scoring.game.hands
            and len(scoring.games) > 1
        ):
            return scoring.games[-2]
        return self.game

    @property
    def match_points(self) -> tuple[int, int] | None:
        """In a match, the match points before the game being played; None otherwise."""
        return self.scoring.totals if isinstance(self.scoring, Match) else None

    def player_view(self, hand: Hand, seat: int) -> PlayerView:
        """``seat``'s view of ``hand`` (this table's hand, or a snapshot of it) for a player
        that weighs it (the computer, a hint, the clock's move): with the game's score, its
        columns and, in a match, the match points. As at the table, the other seat's knock
        lies face down until the hand is over: the engine's view names its discard."""
        view = hand.view(
            seat,
            self.game.totals,
            history=False,
            columns=self.game.columns,
            match_points=self.match_points,
        )
        face_down = not hand.is_over
        history = tuple(e.public(seat, face_down_knock=face_down) for e in hand.events)
        return replace(view, history=history)

    @property
    def vs_computer(self) -> bool:
        return self.options.mode == "computer"

    def computer_to_move(self) -> bool:
        return (
            self.vs_computer
            and not self.abandoned
            and self.hand is not None
            and self.hand.current_player == COMPUTER_SEAT
        )

    def mark_undo_used(self) -> None:
        self.options.undo_used = True
        self._fixed = None

    # -- playing ----------------------------------------------------------------------------

    def next_deal(self, rng: random.Random | None = None) -> Deal:
        """A fresh deal for the next hand (to be stored, then :meth:`start`)."""
        if self.scoring.is_over:
            raise IllegalActionError("the game is over")
        if self.abandoned:
            raise IllegalActionError(ABANDONED)
        if self.hand is not None and not self.hand.is_over:
            raise IllegalActionError("the hand is still being played")
        return shuffle(rng)

    def write_deal(self, tx: Writer, deal: Deal) -> None:
        tx.start_hand(
            self.id,
            self.hand_number + 1,
            self.game.dealer,
            deal.deck_text,
            deal.salt,
            deal.commitment,
        )
        if not self.vs_computer:
            after = Hand.from_deck(self.rules, self.game.dealer, deal.deck)
            self.write_fairness(tx, (self.hand_number + 1, after))

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

    def start(self, deal: Deal) -> None:
        self.deal = deal
        self.scores_before = self.game.totals
        self.columns_before = self.game.columns
        self.match_before = self.match_points
        self.hand = Hand.from_deck(self.rules, self.game.dealer, deal.deck)
        self.hand_number += 1
        self.agent = None
        self.ready.clear()
        self.clock_moves = []
        self.ready_since = self.ready_deadline = None
        self.fairness_kept()
        self.touch()

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

    def plan(self, seat: int, text: str) -> Step:
        """``seat``'s action worked out on copies; raises (changing nothing) if illegal."""
        hand = self.hand
        if hand is None:
            raise IllegalActionError("no hand is being played")
        if self.abandoned:
            raise IllegalActionError(ABANDONED)
        after = hand.copy()
        event = after.apply(text, seat=seat)
        final = winner = None
        if after.is_over:
            # What the scores become, worked out and taken back: they change at the commit.
            self.scoring.finish_hand(after)
            try:
                if self.scoring.is_over:
                    final, winner = self.final(), self.scoring.final().winner
            finally:
                self.scoring.undo()
        return Step(self.version, seat, after, event, final, winner)

    def write(self, tx: Writer, step: Step) -> None:
        """Store ``step``: its action, and the hand's result and the game's end with it."""
        tx.add_action(
            self.id, self.hand_number, step.event.number, step.seat, str(step.event.action)
        )
        result = step.hand.result
        if result is not None:
            tx.finish_hand(self.id, self.hand_number, result_to_dict(result))
            if step.final is not None:
                tx.finish_game(self.id, step.final, winner=step.winner)
        if not self.vs_computer and step.final is None:
            self.write_fairness(tx, (self.hand_number, step.hand), move=True)

    def commit(self, step: Step) -> None:
        if step.version != self.version:  # pragma: no cover - callers hold the table's lock
            raise RuntimeError("the table changed while a step was being stored")
        self.hand = step.hand
        self.fairness_kept()
        if step.hand.is_over:
            self.learn(step.hand)
            self.scoring.finish_hand(step.hand)
            self.finished = self.scoring.is_over
        self.touch()

    def learn(self, hand: Hand) -> None:
        """Keep what the finished ``hand`` showed the computer of the person's knocking."""
        if self.vs_computer:
            ev = evidence(hand.view(COMPUTER_SEAT, self.scores_before))
            if ev is not None:
                self.seen.append(ev)

    def act(self, store: Store, seat: int, text: str) -> None:
        """Plan, store and commit ``seat``'s action in this thread (tests, tools)."""
        step = self.plan(seat, text)
        with store.transaction() as tx:
            self.write(tx, step)
        self.commit(step)

    def final(self) -> dict[str, Any]:
        sheet = self.scoring.sheet(self.names)
        return {
            "sheet": sheet.to_dict(),
            "final": self.scoring.final().to_dict(),
            "names": list(self.names),
        }

    # -- undo -------------------------------------------------------------------------------

    def undo_point(self, seat: int | None) -> int:
        """How many of the hand's events to keep to take back ``seat``'s last action; raises
        IllegalActionError saying why when the fair-play policy forbids it: only against the
        computer, only within the hand being played, never a stock draw (its card was seen),
        and never past any move of the computer. Even the computer's stock draw or pass tells
        something (that it did not want the upcard or your discard), and no player may take
        back a choice once it has learnt something from it: only your own last action is
        taken back, and only while the computer has not moved since, nor its move fallen
        due (:attr:`replying`: how long it thinks past that depends on its cards)."""
        hand = self.hand
        if self.abandoned:
            raise IllegalActionError(ABANDONED)
        if not self.vs_computer:
            raise IllegalActionError("there is no undo in a game between two people")
        if hand is None or hand.is_over:
            raise IllegalActionError("nothing can be undone once the hand is over")
        events = hand.events
        mine = [i for i, e in enumerate(events) if e.seat == seat]
        if seat != 0 or not mine:
            raise IllegalActionError("nothing of yours to undo in this hand")
        keep = mine[-1]
        if events[keep].action.kind is ActionKind.DRAW:
            raise IllegalActionError("a card drawn from the stock cannot be put back")
        if keep + 1 < len(events):  # everything after your last action is the computer's
            raise IllegalActionError(
                "the computer has moved since: your move cannot be taken back now"
            )
        if self.replying == self.position():  # its move is due: it is only thinking longer
            raise IllegalActionError(
                "the computer is making its move: yours cannot be taken back now"
            )
        return keep

    def position(self) -> Position:
        """Where the hand being played stands: its number, how many events, and the last of
        them (an undo and another move make another position; a name does not)."""
        hand = self.hand
        if hand is None:
            return (self.hand_number, 0, None)
        events = hand.events
        return (self.hand_number, len(events), events[-1] if events else None)

    def can_undo(self, seat: int | None) -> bool:
        try:
            self.undo_point(seat)
        except IllegalActionError:
            return False
        return True

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

    # -- what a seat sees -----------------------------------------------------------------

    def state_for(self, seat: int | None, history_from: int = 0) -> dict[str, Any]:
        """The ``state`` message for a seat (or a spectator when ``seat`` is None).

        With ``history_from`` (a seat's, during a hand) its history holds only the events
        from that one on, and ``view.history_from`` says so: for a socket that has the ones
        before (see :func:`history_mark`)."""
        hand = self.hand
        scores = self.game.totals
        msg: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "table": self.table_info(seat),
        }
        if hand is None:
            msg["view"] = None
            return msg
        if seat is None:
            view = hand.public_view().to_dict()
        else:
            # During the hand the history is the seat's own, made below: not made twice.
            view = hand.view(seat, scores, history=hand.is_over).to_dict()
            legal = hand.legal_actions() if hand.current_player == seat else []
            view["knock_options"] = knock_options(hand, legal)
            view["arrangement"] = _arrangement_info(hand.cards(seat))
            if self.options.hints:  # the best discard by deadwood is help: only with hints
                view["discard_deadwood"] = discard_deadwood(hand, legal)
            if not hand.is_over:  # the knocker's discard is face down until the hand ends
                view["history"] = [
                    event_to_dict(e.public(seat, face_down_knock=True))
                    for e in islice(hand.events, history_from, None)
                ]
                if history_from:
                    view["history_from"] = history_from
        result = hand.result
        if result is not None:  # both sides laid out, as lists (the result has them as text)
            view["showdown"] = [
                None if a is None else arrangement_info(a)
                for a in (result.knocker_arrangement, result.defender_arrangement)
            ]
        msg["view"] = view
        if hand.is_over and self.deal is not None:
            msg["reveal"] = {"deck": self.deal.deck_text, "salt": self.deal.salt}
        return msg

    def history_mark(self, seat: int | None) -> HistoryMark | None:
        """What a seat's socket holds of the hand's history once sent the state as it is
        now: None when that state carries no running history (a spectator's, between
        hands, once the hand is over)."""
        hand = self.hand
        if seat is None or hand is None or hand.is_over or not hand.events:
            return None
        return (self.hand_number, seat, len(hand.events), hand.events[-1])

    def history_from(self, seat: int | None, mark: HistoryMark | None) -> int:
        """Where ``seat``'s history may start for a socket holding ``mark``: after the events
        it has, if they are still the hand's first ones; else 0, the whole history."""
        hand = self.hand
        if mark is None or hand is None or hand.is_over:
            return 0
        number, marked_seat, count, last = mark
        if number != self.hand_number or marked_seat != seat or count > len(hand.events):
            return 0
        return count if hand.events[count - 1] == last else 0

    def _fixed_info(self) -> dict[str, Any]:
        if self._fixed is None:
            self._fixed = {
                "options": self.options.to_dict(),
                "rules": self.rules.to_dict(),
                "rules_text": self.rules.describe(match=self.options.match),
                "preset": self.rules.preset_name(),  # compares with every preset: not cheap
            }
        return self._fixed

    def _sheet_info(self) -> dict[str, Any]:
        key = (self.hand_number, self.hand is not None and self.hand.is_over)
        if self._sheet is None or self._sheet[0] != key:
            self._sheet = (key, self.scoring.sheet(self.names).to_dict())
        return self._sheet[1]

    def table_info(self, seat: int | None) -> dict[str, Any]:
        sheet = self._sheet_info()
        fixed = self._fixed_info()
        info: dict[str, Any] = {
            "id": self.id,
            "seat": seat,
            "names": list(self.names),
            "options": fixed["options"],
            "rules": fixed["rules"],
            "rules_text": fixed["rules_text"],
            "preset": fixed["preset"],
            "hand_number": self.hand_number,
            "commitment": None if self.deal is None else self.deal.commitment,
            "scores": list(self.game_shown.totals),
            "dealer_next": self.game.dealer,
            "game_over": self.game_shown.is_over,
            "over": self.scoring.is_over,
            "abandoned": self.abandoned,
            "sheet": sheet,
            "deadline": self.deadline,
            "clock_held": None if self.clock_held is None else round(self.clock_held),
            "can_undo": self.can_undo(seat),
            "fair_play": self.fair_play(),
            "connected": self.connected(),
            "seat_moves": list(self.moves),
            "ready": sorted(self.ready),
            "clock_moves": list(self.clock_moves),
            "ready_wait": READY_WAIT,
            "ready_deadline": self.ready_deadline,
            "rematch": self.options.rematch,
            # the invite's sender (seat 0) still has it to send: from the table it names (a
            # friend here has taken it, whichever instance saw it taken)
            "invite_open": self.invite_from if seat == 0 and not self.came[INVITED] else None,
        }
        if isinstance(self.scoring, Match):
            info["match_totals"] = list(self.scoring.totals)
            info["game_number"] = len(self.scoring.games)
        if self.scoring.is_over:
            info["final"] = self.scoring.final().to_dict()
        elif self.game_shown.is_over:
            info["final"] = self.game_shown.final().to_dict()
        return info

    def connected(self) -> list[bool]:
        """Whether each seat has a socket open (the computer is always there)."""
        return [
            self.present[seat] > 0 or (self.vs_computer and seat == COMPUTER_SEAT)
            for seat in (0, 1)
        ]

    def moved_to(self, table_id: str) -> None:
        """The players moved on to a rematch at ``table_id``: every state says so."""
        self.options.rematch = table_id
        self._fixed = None
        self.touch(clock=False)

    def rename(self, seat: int, name: str) -> None:
        """Give a seat another name (the score sheet is worked out again)."""
        names = list(self.names)
        names[seat] = name
        self.names = (names[0], names[1])
        self._sheet = None

    def reviewable(self, seat: int) -> str | None:
        """Why the seat's play of this hand cannot be reviewed now (None: it can): once the hand
        is over against the computer, once the game is over between people."""
        if self.hand is None or not self.hand.is_over:
            return "a hand is reviewed once it is over"
        if not self.vs_computer and not self.game_shown.is_over and not self.finished:
            return "between people, the expert reviews your play once the game is over"
        return None

    def fair_play(self) -> dict[str, Any]:
        """The table's fair-play terms, shown to both seats from the first move."""
        return {
            "hints": self.options.hints,
            "undo": self.vs_computer,
            "undo_used": self.options.undo_used,
            "counts": not self.options.undo_used,
        }


#: Where a hand stands (:meth:`Table.position`): its number, how many events, the last of them.
Position = tuple[int, int, Event | None]
#: A socket's record of the history it was sent: the hand's number, the seat, how many events,
#: and the last of them (an undo takes events back; the next ones then differ).
HistoryMark = tuple[int, int, int, Event]


def knock_options(hand: Hand, legal: Sequence[Action]) -> dict[str, list[dict[str, Any]]]:
    """For each knock or gin among the mover's ``legal`` actions: the minimum-deadwood
    arrangements to choose from (the first is laid down unless the action names another), as
    lists of cards and as text."""
    out: dict[str, list[dict[str, Any]]] = {}
    seat = hand.current_player
    if seat is None:
        return out
    for action in legal:
        if action.kind in (ActionKind.KNOCK, ActionKind.GIN) and action.card is not None:
            rest = hand.hand_mask(seat) & ~action.card.bit
            out[str(action)] = [arrangement_info(a) for a in best_arrangements(rest)[:6]]
    return out


def discard_deadwood(hand: Hand, legal: Sequence[Action]) -> dict[str, int]:
    """In the discard phase: each card the mover may discard (among its ``legal`` actions),
    and the least deadwood of the cards left after discarding it."""
    seat = hand.current_player
    if seat is None or hand.phase is not Phase.DISCARD:
        return {}
    allowed = {
        a.card
        for a in legal
        if a.card is not None and a.kind in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)
    }
    left = discard_deadwoods_mask(hand.hand_mask(seat))
    return {str(c): left[c.index] for c in sorted(allowed, key=lambda c: c.index)}


def _arrangement_info(cards: Cards) -> dict[str, Any]:
    return _best_info(cards.mask)


@functools.lru_cache(maxsize=8192)
def _best_info(mask: int) -> dict[str, Any]:
    """The best arrangement of the cards of ``mask`` (:func:`arrangement_info`), worked out
    once for every state that shows them: a seat's cards stay the same through the other
    seat's turn and its own draw. Shared by those states, so nobody may change it."""
    if not mask:
        return {"melds": [], "deadwood": [], "count": 0, "text": "- | -"}
    return arrangement_info(best_arrangements(Cards.from_mask(mask))[0])


def arrangement_info(arrangement: Arrangement) -> dict[str, Any]:
    """Melds and deadwood as lists of cards (nothing for a page to parse), the deadwood count,
    and the text form (``"As2s3s 7h7d7c | Kd"``) that a knock action may name."""
    return {
        "melds": [[str(c) for c in m.cards] for m in arrangement.melds],
        "deadwood": [str(c) for c in arrangement.deadwood_cards],
        "count": arrangement.deadwood,
        "text": str(arrangement),
    }


# -- the computer -----------------------------------------------------------------------------


def computer_level(table: Table) -> str:
    """The agent that plays the table's computer seat (its level, or ``intermediate``)."""
    return table.options.level if table.options.level in LEVELS else "intermediate"


def computer_agent(table: Table, budget_ms: float | None = None) -> Any:
    """The table's computer player for this hand (made on first use), for thinking in a
    thread, within ``budget_ms`` a decision (:func:`.thinking.think_budget`); a worker
    process makes its own for each move (:mod:`.thinking`)."""
    if table.agent is None:
        table.agent = make_agent(computer_level(table), table.seen, budget_ms)
    return table.agent


def computer_payload(
    table: Table, view: PlayerView, seed: int, budget_ms: float | None = None
) -> dict[str, Any]:
    """A computer move as a worker process is sent it (:func:`.thinking.move`): the level,
    the seat's view, the seed for its random choices, what the finished hands showed of
    the person's knocking, and how long it may think (:func:`.thinking.think_budget`)."""
    return {
        "level": computer_level(table),
        "view": view.to_dict(),
        "seed": seed,
        "seen": [e.to_list() for e in table.seen],
        "budget_ms": budget_ms,
    }


def new_token() -> str:
    return secrets.token_urlsafe(24)


def replay_hand(
    rules: Rules, dealer: int, deck: str | Sequence[Card], actions: Sequence[str]
) -> dict[str, Any]:
    """A finished hand step by step, for replays and reviews: both hands, the pile, the stock
    and the melds on the table after the deal and after each action (with the action)."""
    hand = Hand.from_deck(rules, dealer, parse_cards(deck) if isinstance(deck, str) else deck)
    steps = [_step(hand, None)]
    for text in actions:
        event = hand.apply(text)
        steps.append(_step(hand, event))
    return {
        "dealer": dealer,
        "upcard": None if hand.upcard is None else str(hand.upcard),
        "steps": steps,
        "result": None if hand.result is None else result_to_dict(hand.result),
    }


def _step(hand: Hand, event: Event | None) -> dict[str, Any]:
    step: dict[str, Any] = {
        "hands": [str(hand.cards(0)), str(hand.cards(1))],
        "pile": " ".join(map(str, hand.discard_pile)),
        "stock": hand.stock_count,
        "melds": [str(m) for m in hand.table_melds],
        "phase": hand.phase.value,
    }
    if event is not None:
        step["event"] = event_to_dict(event)  # the page says it in words
    return step


def is_terminal(options: dict[str, Any] | None) -> bool:
    """Whether a stored game's options mark it as played in the terminal."""
    return options_hold(options, TERMINAL_MARK)


def table_of(stored: SavedGame) -> Table:
    """A stored online game's table, rebuilt by replaying its deals and actions: the hand in
    play, the deal to check, the scores, and whether the game is over or was abandoned."""
    info = stored.game
    rules = info.rules
    options = Options.from_dict(info.options or {})
    scoring: Game | Match = Match(rules, info.seed) if options.match else Game(rules, info.seed)
    table = Table(info.id, rules, info.names, options, scoring)
    for seat in stored.seats:
        table.owners[seat.seat] = seat.owner
    table.moves = seat_moves(info.options)
    for h in stored.hands:
        hand = rebuild_hand(rules, h.dealer, h.deck, [a.text for a in h.actions])
        for event in hand.events:  # a seat that has moved has come (Table.hold_clock)
            table.came[event.seat] = True
        table.hand = hand
        table.hand_number = h.number
        table.deal = Deal(parse_cards(h.deck), h.salt, h.commitment)
        table.scores_before = table.game.totals
        table.columns_before = table.game.columns
        table.match_before = table.match_points
        if hand.is_over:
            table.learn(hand)
            scoring.finish_hand(hand)
    stored_options = info.options or {}
    if INVITED in stored_options.get("invites", ()):
        table.invite_from = info.id
    elif str(INVITED) in stored_options.get("pending_invites", {}):
        table.invite_from = stored_options.get("invite_table")
    table.finished = scoring.is_over or info.status != "open"
    table.abandoned = info.status == "abandoned"
    table.touch()
    if not table.vs_computer and not table.finished:
        last = stored.hands[-1] if stored.hands else None
        moved_at = None
        if last is not None:
            moved_at = (
                last.actions[-1].created_at if last.actions else last.started_at
            ).timestamp()
        table.restore_fairness(stored_options.get(FAIRNESS), moved_at)
    return table


def _kept(saved: Mapping[str, Any]) -> tuple[Any, ...]:
    """What of :meth:`Table.fairness` a move must store when it changes (not the clock, which
    each move starts afresh): whether the seats came, the whole seconds of allowance they
    have used, and the requests for the next hand."""
    used = tuple(round(float(u)) for u in saved["away_used"])
    return (tuple(bool(c) for c in saved["came"]), used, tuple(saved["ready"]), saved["ready_at"])


def rebuild_hand(rules: Rules, dealer: int, deck: str, actions: list[str]) -> Hand:
    hand = Hand.from_deck(rules, dealer, parse_cards(deck))
    for text in actions:
        hand.apply(text)
    return hand


__all__ = [
    "Deal",
    "Options",
    "Table",
    "commitment",
    "deck_text",
    "think",
    "token_hash",
]
