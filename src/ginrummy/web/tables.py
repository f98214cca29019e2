"""Tables: a game between two seats (a person and the computer, or two people), its hands,
their checkable deals, and what each seat may see. Knows nothing of the network.

Every accepted action is written to the store before the caller acknowledges it; a table is
rebuilt after a restart by replaying its stored deals and actions (:func:`table_of`).

:class:`Table` is put together from parts (:mod:`.table_base` declares what they share):
this module keeps its fields, its hands and their scoring, the writing of each step and
deal, and undo; :mod:`.table_clock` holds the move clock, the away allowance, the clock's
fairness kept in the store and the requests for the next hand; :mod:`.table_states` the
messages that tell each seat the table's state; :mod:`.replays` the hands replayed from
their stored actions. Everything other modules import from here is still named here.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any

from ..agents.style import Evidence, evidence
from ..engine import ActionKind, Event, Hand, IllegalActionError, Rules, parse_cards
from ..engine.game import Game
from ..engine.match import Match
from ..engine.scoring import Column
from ..engine.serial import result_to_dict
from ..engine.views import PlayerView
from ..storage import SavedGame, Store, Writer
from ..storage.writer import options_hold, seat_moves
from . import table_clock
from .dealing import Deal, commitment, deck_text, shuffle
from .replays import rebuild_hand, replay_hand
from .table_base import COMPUTER_SEAT, INVITED
from .table_clock import AWAY_ALLOWANCE, CLOCK_GRACE, FAIRNESS, READY_WAIT, TableClock
from .table_states import (
    HistoryMark,
    TableStates,
    arrangement_info,
    discard_deadwood,
    knock_options,
)
from .thinking import make_agent, think

LEVELS = ("beginner", "intermediate", "expert")
#: The ``interface`` option that marks a game as played in the terminal (``ginrummy play``):
#: its moves are made by that program alone, so the server neither opens nor plays it.
TERMINAL = "terminal"
#: The options that mark it so.
TERMINAL_MARK: dict[str, Any] = {"interface": TERMINAL}


def token_hash(token: str) -> str:
    # surrogatepass: a token from JSON may hold lone surrogates (``"\ud800"``); it hashes to
    # what no seat's token does, rather than raising.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


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
class Table(TableClock, TableStates):
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
        # read where the clock reads it (one value to change, in a test too)
        default_factory=lambda: [table_clock.AWAY_ALLOWANCE] * 2,
        repr=False,
        compare=False,
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

    def write_undo(self, tx: Writer, keep: int) -> None:
        """Store the taking back of the hand's events after its first ``keep``
        (:meth:`undo_point`), the game marked as one where undo was used."""
        tx.remove_actions(self.id, self.hand_number, keep=keep)
        tx.update_options(self.id, {"undo_used": True})

    def undo_to(self, keep: int) -> None:
        """The hand back to its first ``keep`` events, as :meth:`write_undo` stored it."""
        hand = self.hand
        assert hand is not None
        while len(hand.events) > keep:
            hand.undo()
        self.mark_undo_used()
        self.touch()

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

    # -- a rematch, a name, a review -----------------------------------------------------

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


#: Where a hand stands (:meth:`Table.position`): its number, how many events, the last of them.
Position = tuple[int, int, Event | None]


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


__all__ = [
    "AWAY_ALLOWANCE",
    "CLOCK_GRACE",
    "COMPUTER_SEAT",
    "FAIRNESS",
    "INVITED",
    "READY_WAIT",
    "Deal",
    "HistoryMark",
    "Options",
    "Table",
    "arrangement_info",
    "commitment",
    "deck_text",
    "discard_deadwood",
    "knock_options",
    "rebuild_hand",
    "replay_hand",
    "think",
    "token_hash",
]
