"""A game against the computer in this process, stored where the web app stores its tables.

The game is a :class:`ginrummy.web.tables.Table`, the web app's own: the same deals with their
commitments, the same state messages, the same fair-play policy for undo (a stock draw is never
taken back, nor anything past the end of a hand or past any move of the computer) and
the same rows in the database (an ``online`` game whose options say ``"interface":
"terminal"``), each move written before the screen is told. What the web's manager does with
sockets and threads is done here for one seat: this module plays the computer's turns, works
out hints in a thread and answers each message with the messages a server would send.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from ..agents import get_agent
from ..agents.hints import hint
from ..engine import GinRummyError, IllegalActionError, Rules
from ..engine.game import Game
from ..engine.match import Match
from ..storage import StorageError, Store
from ..web.tables import (
    COMPUTER_SEAT,
    TERMINAL_MARK,
    Options,
    Step,
    Table,
    is_terminal,
    table_of,
    think,
)
from .session import Message, error

PERSON_SEAT = 0


class ResumeError(LookupError):
    """No game to resume: the id is unknown, not a terminal game, or the game is over."""


def preset_label(preset: str, rules: Rules) -> str:
    """How the web labels a table's rules: the preset's name, and what was changed of it
    ("standard, gin bonus 20")."""
    return rules.label(preset)


class LocalGame:
    """One person (seat 0) against a computer player (seat 1), as a :class:`Session`.

    ``seed`` makes the game repeatable (the cut, the deals and the computer's choices);
    without it the deals come from the system's cryptographic generator, as on the web.
    ``hint_worlds`` makes hints repeatable too (that many sampled deals, whatever the time).
    """

    def __init__(
        self,
        store: Store,
        table: Table,
        *,
        seed: int | None = None,
        computer_delay: float = 0.0,
        hint_worlds: int | None = None,
    ) -> None:
        self.store = store
        self.skew = 0.0  # the table's clock is this machine's
        self.table = table
        self.computer_delay = computer_delay
        self.hint_worlds = hint_worlds
        self._deal_rng = random.Random(seed) if seed is not None else None
        self._agent_rng = random.Random(seed)
        self._queue: asyncio.Queue[Message] | None = None
        self._thinking: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._hinting = False

    # -- making and finding games -------------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: Store,
        rules: Rules,
        *,
        level: str,
        preset: str = "standard",
        match: bool = False,
        name: str = "Player 1",
        seed: int | None = None,
        game_id: str | None = None,
        computer_delay: float = 0.0,
        hint_worlds: int | None = None,
    ) -> LocalGame:
        """A new game, stored with its first deal (as the web's ``Manager.create`` does)."""
        get_agent(level)  # an unknown level raises ValueError before anything is stored
        if match and not rules.match_target:
            rules = rules.replace(match_target=500)
        options = Options("computer", level, match, 0, True, preset=preset_label(preset, rules))
        game_seed = seed if seed is not None else random.SystemRandom().randrange(1 << 63)
        scoring: Game | Match = Match(rules, game_seed) if match else Game(rules, game_seed)
        table = Table("", rules, (name, f"Computer ({level})"), options, scoring)
        game = cls(store, table, seed=seed, computer_delay=computer_delay, hint_worlds=hint_worlds)
        deal = table.next_deal(game._deal_rng)
        with store.transaction() as tx:
            table.id = tx.create_game(
                "online",
                rules,
                table.names,
                seed=game_seed,
                options={**options.to_dict(), **TERMINAL_MARK},
                game_id=game_id,
            )
            table.write_deal(tx, deal)
        table.start(deal)
        return game

    @classmethod
    def resume(
        cls,
        store: Store,
        game_id: str | None = None,
        *,
        computer_delay: float = 0.0,
        hint_worlds: int | None = None,
    ) -> LocalGame:
        """A stored terminal game, as it was left (``None``: the latest open one)."""
        if game_id is None:
            game_id = latest_open(store)
            if game_id is None:
                raise ResumeError("there is no open terminal game to resume")
        table = load_table(store, game_id)
        if table.finished:
            raise ResumeError(f"game {game_id} is over; start a new one with: ginrummy play")
        return cls(store, table, computer_delay=computer_delay, hint_worlds=hint_worlds)

    @property
    def label(self) -> str:
        return f"game {self.table.id}"

    # -- the session ----------------------------------------------------------------------------

    async def start(self) -> None:
        self._queue = asyncio.Queue()
        self._tell_state()
        self._kick()

    async def receive(self) -> Message:
        assert self._queue is not None, "start() first"
        return await self._queue.get()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()

    async def send(self, message: Message) -> None:
        """Answer one client message as the web's manager would (errors become messages)."""
        try:
            await self._handle(message)
        except (GinRummyError, ValueError) as exc:
            self._put(error(str(exc)))
        except (StorageError, SQLAlchemyError) as exc:  # another process moved in this game
            self._put(error(f"the game could not be saved: {_first_line(exc)}"))

    async def _handle(self, message: Message) -> None:
        kind = message.get("type")
        table = self.table
        if kind == "state":
            self._tell_state()
            return
        if kind == "hint":
            self._spawn(self._hint())
            return
        if kind == "rematch":
            await self._rematch()
            return
        async with table.lock:
            if kind == "action":
                await self._store_and_commit(table.plan(PERSON_SEAT, str(message["action"])))
            elif kind == "next":
                deal = table.next_deal(self._deal_rng)
                await asyncio.to_thread(self._write, table.write_deal, deal)
                table.start(deal)
            elif kind == "undo":
                await self._undo()
            else:
                raise IllegalActionError(f"unknown message type {kind!r}")
        self._tell_state()
        self._kick()

    # -- what the manager does --------------------------------------------------------------

    def _put(self, message: Message) -> None:
        if self._queue is not None:
            self._queue.put_nowait(message)

    def _tell_state(self) -> None:
        self._put(self.table.state_for(PERSON_SEAT))

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _write(self, fn: Callable[..., None], *args: Any) -> None:
        with self.store.transaction() as tx:
            fn(tx, *args)

    async def _store_and_commit(self, step: Step) -> None:
        """Store a planned step, then make it the table's state (the caller holds the lock)."""
        await asyncio.to_thread(self._write, self.table.write, step)
        self.table.commit(step)

    def _agent(self) -> Any:
        """The computer player of this hand (made on first use, dropped at the next deal)."""
        table = self.table
        if table.agent is None:
            agent = get_agent(table.options.level)
            new_hand = getattr(agent, "new_hand", None)
            if new_hand is not None:
                new_hand()
            table.agent = agent
        return table.agent

    def _kick(self) -> None:
        if self.table.computer_to_move() and (self._thinking is None or self._thinking.done()):
            self._thinking = self._spawn(self._computer_turns())

    async def _computer_turns(self) -> None:
        try:
            await self._play_computer()
        except (GinRummyError, ValueError, StorageError, SQLAlchemyError) as exc:
            self._put(error(f"the computer could not move: {_first_line(exc)}"))
        finally:
            # No move of the computer is due any more (made, or failed): the person's last
            # move may be taken back again, and the undo starts the computer's turn anew.
            self.table.replying = None

    async def _play_computer(self) -> None:
        table = self.table
        while table.computer_to_move():
            position, hand = table.position(), table.hand
            assert hand is not None  # computer_to_move
            view = table.player_view(hand, COMPUTER_SEAT)
            rng = random.Random(self._agent_rng.getrandbits(64))
            # As on the web (Manager._computer_turns): the computer thinks while its delay
            # runs, so how long it thought (which depends on its cards) does not show, and
            # from the moment its move is due the person's last move stands.
            thinking = asyncio.ensure_future(asyncio.to_thread(think, self._agent(), view, rng))
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)
            if table.position() != position:
                # The person moved (undo): look again, not waiting for this thinking, which
                # keeps the table's agent (the next turn makes another).
                thinking.add_done_callback(_forgotten)
                table.agent = None
                continue
            table.replying = position
            action = await thinking
            async with table.lock:
                if table.position() != position or not table.computer_to_move():
                    continue
                await self._store_and_commit(table.plan(COMPUTER_SEAT, str(action)))
            self._tell_state()

    async def _undo(self) -> None:
        """Take back the person's last move as far as the table's fair-play policy allows;
        the game is marked as one where undo was used."""
        table = self.table
        keep = table.undo_point(PERSON_SEAT)  # raises, saying why, when the policy forbids it

        def write() -> None:
            with self.store.transaction() as tx:
                table.write_undo(tx, keep)

        await asyncio.to_thread(write)
        table.undo_to(keep)

    async def _hint(self) -> None:
        table, hand = self.table, self.table.hand
        if hand is None or hand.current_player != PERSON_SEAT:
            self._put(error("hints are given on your turn"))
            return
        if self._hinting:
            self._put(error("a hint is being worked out: wait for it"))
            return
        view = table.player_view(hand, PERSON_SEAT)
        self._hinting = True
        try:
            found = await asyncio.to_thread(
                hint, view, rng=random.Random(0), worlds=self.hint_worlds
            )
        finally:
            self._hinting = False
        if table.hand is not hand or hand.current_player != PERSON_SEAT:
            return  # the hand moved on meanwhile
        hints = [
            {"action": str(h.action), "score": round(float(h.score), 2), "reason": h.reason}
            for h in found
        ]
        self._put({"type": "hints", "hints": hints})

    async def _rematch(self) -> None:
        """Once the game is over: a new game with the same rules, level and names."""
        old = self.table
        if not old.finished:
            raise IllegalActionError("a rematch is offered once the game is over")
        rules, options = old.rules, old.options
        match = isinstance(old.scoring, Match)
        seed = random.SystemRandom().randrange(1 << 63)
        scoring: Game | Match = Match(rules, seed) if match else Game(rules, seed)
        fresh = Options("computer", options.level, match, 0, True, preset=options.preset)
        table = Table("", rules, old.names, fresh, scoring)
        deal = table.next_deal(self._deal_rng)

        def write() -> str:
            with self.store.transaction() as tx:
                game_id: str = tx.create_game(
                    "online",
                    rules,
                    table.names,
                    seed=seed,
                    options={**fresh.to_dict(), **TERMINAL_MARK},
                )
                table.id = game_id
                table.write_deal(tx, deal)
                tx.update_options(old.id, {"rematch": game_id})
                return game_id

        await asyncio.to_thread(write)
        table.start(deal)
        old.moved_to(table.id)
        self.table = table
        self._tell_state()
        self._kick()


def _first_line(exc: BaseException) -> str:
    return (str(getattr(exc, "orig", None) or exc).strip().splitlines() or [type(exc).__name__])[0]


def latest_open(store: Store) -> str | None:
    """The id of the most recently changed open terminal game, if any."""
    for info in store.list_games("online", "open"):
        if is_terminal(info.options):
            return str(info.id)
    return None


def load_table(store: Store, game_id: str) -> Table:
    """A stored terminal game rebuilt by replaying its deals and actions (as the web's manager
    loads a table); raises :class:`ResumeError` when there is no such terminal game."""
    stored = store.load_game(game_id)
    if stored is None or stored.game.kind != "online" or not is_terminal(stored.game.options):
        raise ResumeError(f"there is no terminal game {game_id!r}")
    return table_of(stored)


def _forgotten(task: asyncio.Future[Any]) -> None:
    """The end of the computer's thinking over a position the person has since taken back."""
    if not task.cancelled():
        task.exception()  # dropped with the position
