"""The computer player, and the expert's hints and reviews.

At a table against the computer, :meth:`Computer.kick` starts its turns whenever it is to
move: it thinks (in a worker process of :mod:`.thinking`, or in a thread with none) while its
delay runs, so that how long it thought never shows, and its move is stored and made as a
seat's is (:mod:`.changes`). A person's undo meanwhile drops that thinking and starts again.
The expert's hints and reviews think the same way, one at a time per seat and a few at a time
per address, so that they cannot crowd out the computer's moves. :class:`Computer` is a base of
:class:`~.manager.Manager`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from ..agents.hints import hint
from ..agents.review import review_hand
from ..engine import IllegalActionError
from ..engine.views import PlayerView
from ..storage import DatabaseUnavailable, StorageError
from .base import ManagerBase, _count
from .clock import timeout_move
from .connections import Client
from .protocol import ProtocolError
from .tables import (
    ABANDONED,
    COMPUTER_SEAT,
    Position,
    Table,
    computer_agent,
    computer_payload,
    replay_hand,
    think,
)
from .thinking import ThinkError, ThinkTimeout, hint_dicts, think_budget

log = logging.getLogger("ginrummy.web")


class Computer(ManagerBase):
    """The computer's turns and the expert's answers: see the module docstring."""

    async def think(self, kind: str, payload: dict[str, Any]) -> Any:
        """A job's answer from the worker processes; raises :class:`ThinkError` (a
        :class:`ThinkTimeout` when it took longer than the pool's limit)."""
        pool = self.thinking
        assert pool is not None
        future = pool.submit(kind, payload)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), pool.timeout)
        except TimeoutError:  # the pool stops the worker, if one had started on it
            raise ThinkTimeout(f"the {kind} took too long") from None

    def kick(self, table: Table) -> None:
        """Start the computer's turns at this table unless they are already running."""
        if table.computer_to_move() and table.id not in self._thinking:
            task = self._spawn(self._computer_turns(table))
            self._thinking[table.id] = task
            task.add_done_callback(lambda t: self._done(t, table.id))

    def _done(self, task: asyncio.Task[Any], table_id: str) -> None:
        self._stop_thinking(table_id, task)
        if not task.cancelled() and task.exception() is not None:
            log.error("computer player failed at table %s", table_id, exc_info=task.exception())

    def _stop_thinking(self, table_id: str, task: asyncio.Future[Any] | None) -> None:
        if task is not None and self._thinking.get(table_id) is task:
            del self._thinking[table_id]

    async def _computer_turns(self, table: Table) -> None:
        # The move worked out and not yet stored (the database away), with the position it
        # is for: tried again as it is, not thought out again.
        planned: tuple[Position, str] | None = None
        try:
            while table.computer_to_move():
                position, hand = table.position(), table.hand
                assert hand is not None  # computer_to_move
                if planned is not None and planned[0] == position:
                    action = planned[1]  # its move, due already, tried again as it is
                else:
                    # A frozen view and a seed drawn here: the thinker shares nothing that
                    # changes.
                    view = table.player_view(hand, COMPUTER_SEAT)
                    seed = self._agent_rng.getrandbits(64)
                    # The computer thinks while its delay runs, and its move is made once both
                    # are done: how long it thinks depends on its cards (the expert searches
                    # when the upcard would meld with them, or it could knock), and a page
                    # timing its moves must not learn that. From the moment the move is due
                    # the person's last move stands (Table.replying): an undo later would be
                    # one made knowing that the computer is still thinking. Only a change of
                    # the hand (an undo) puts the move off, never a name: the delay would
                    # start again, and the undo with it.
                    thinking = asyncio.ensure_future(self._computer_move(table, view, seed))
                    await asyncio.sleep(self.computer_delay)
                    if table.position() != position:
                        # The person moved (undo): look again, not waiting for this thinking
                        # (when the next turn began would tell how long it went on), and
                        # dropping it from the workers' queue if it waits there. Begun, it
                        # keeps the table's agent, which thinks in one thread at a time: the
                        # next turn makes another (an agent keeps nothing within a hand).
                        thinking.cancel()
                        thinking.add_done_callback(_forgotten)
                        table.agent = None
                        continue
                    table.replying = position
                    action = await thinking
                    planned = (position, action)
                async with table.lock:
                    if table.position() != position or not table.computer_to_move():
                        continue  # (closed as abandoned meanwhile)
                    try:
                        await self._store_and_commit(table, table.plan(COMPUTER_SEAT, action))
                        stored = True
                    except DatabaseUnavailable as exc:
                        if exc.in_doubt:
                            return  # let go of: it is read again, and its turns kicked
                        stored = False  # (logged by _store)
                    except StorageError as exc:  # the game closed as the move was stored
                        log.warning("computer move at table %s: %s", table.id, exc)
                        return
                if not stored:
                    await asyncio.sleep(1.0)  # then try again: the database may be back
                    continue
                await self.broadcast(table)
        finally:
            # No move of the computer is due any more (made, or failed): the person's last
            # move may be taken back again, and the undo kicks the computer's turns anew.
            table.replying = None
            # At once, not in the done callback a loop turn later: a move the person makes in
            # between must start the computer's next turns (kick), or the table would stall.
            self._stop_thinking(table.id, asyncio.current_task())

    async def _computer_move(self, table: Table, view: PlayerView, seed: int) -> str:
        """The computer's action for ``view``: from a worker process, or in a thread with the
        table's own agent when there are no workers. A worker too slow or dead gives the move
        the clock makes for a seat out of time, so the table goes on."""
        # Its search is cut short in time for the delay (a move that came later would tell
        # that it had a close decision to make: see _computer_turns).
        budget = think_budget(self.computer_delay)
        if self.thinking is None:
            agent = computer_agent(table, budget)
            return str(await asyncio.to_thread(think, agent, view, random.Random(seed)))
        payload = computer_payload(table, view, seed, budget)
        try:
            return str(await self.think("move", payload))
        except ThinkError as exc:
            log.warning("computer move at table %s: %s; making the clock's move", table.id, exc)
            return str(await asyncio.to_thread(timeout_move, view))

    async def _review(self, table: Table, client: Client) -> dict[str, Any]:
        """The expert's review of this seat's play of the hand just over (in a thread, one at
        a time per seat, counted with the seat's hints and its address's: an address with
        many finished tables could otherwise fill the expert's workers with reviews, and the
        computer's moves waiting behind them would fall back to the simple player)."""
        seat = client.seat
        # All of the hand reviewed taken now: the next hand may be dealt while it is worked on.
        hand, deal, number = table.hand, table.deal, table.hand_number
        if seat is None or hand is None or deal is None:
            raise IllegalActionError("only a seat's own play is reviewed")
        why = table.reviewable(seat)
        if why is not None:
            raise IllegalActionError(why)
        key = (table.id, seat)
        if key in self._hinting:
            raise ProtocolError("the expert is busy with your last request: wait for it")
        if self._address_hints.get(client.address, 0) >= self.limits.hints_at_once_per_address:
            raise ProtocolError("the expert is busy with requests from your address: wait")
        if not self._seat_hints.take(key):
            raise ProtocolError("too many requests for the expert: wait a little")
        actions = [str(e.action) for e in hand.events]
        self._hinting.add(key)
        _count(self._address_hints, client.address, +1)
        try:
            if self.thinking is None:
                found = await asyncio.to_thread(
                    review_hand,
                    table.rules,
                    hand.dealer,
                    list(deal.deck),
                    actions,
                    seat=seat,
                    scores=table.scores_before,
                    columns=table.columns_before,
                    match_points=table.match_before,
                    seed=number,
                )
                mistakes = [m.to_dict() for m in found]
            else:
                payload = {
                    "rules": table.rules.to_dict(),
                    "dealer": hand.dealer,
                    "deck": deal.deck_text,
                    "actions": actions,
                    "seat": seat,
                    "scores": list(table.scores_before),
                    "columns": [c.to_dict() for c in table.columns_before],
                    "match_points": None
                    if table.match_before is None
                    else list(table.match_before),
                    "seed": number,
                }
                mistakes = await self._expert("review", payload, "the review")
        finally:
            self._hinting.discard(key)
            _count(self._address_hints, client.address, -1)
        # the hand step by step with both hands, for the review's replay (the deck is
        # revealed once a hand is over)
        played = replay_hand(table.rules, hand.dealer, list(deal.deck), actions)
        return {
            "type": "review",
            "hand": number,
            "seat": seat,
            "mistakes": mistakes,
            "replay": played,
        }

    async def _hints(self, table: Table, client: Client) -> list[dict[str, Any]]:
        seat = client.seat
        hand = table.hand
        if seat is None or hand is None:
            raise IllegalActionError("hints are given on your turn")
        if table.abandoned:
            raise IllegalActionError(ABANDONED)
        if not table.options.hints:
            raise IllegalActionError(
                "this table has no hints: a game for stakes never has them, and between two "
                "people only when the table was opened with hints for both"
            )
        if hand.current_player != seat:
            raise IllegalActionError("hints are given on your turn")
        key = (table.id, seat)
        if key in self._hinting:
            raise ProtocolError("a hint is being worked out: wait for it")
        if self._address_hints.get(client.address, 0) >= self.limits.hints_at_once_per_address:
            raise ProtocolError("hints are being worked out for your address: wait for them")
        if not self._seat_hints.take(key):
            raise ProtocolError("too many hints: wait a little")
        # A frozen snapshot: safe in another thread.
        view = table.player_view(hand, seat)
        # The expert thinks for a while: in a thread, as the computer's moves are, so that
        # every other table goes on meanwhile; one at a time per seat, however many sockets.
        self._hinting.add(key)
        _count(self._address_hints, client.address, +1)
        try:
            if self.thinking is None:
                return hint_dicts(await asyncio.to_thread(hint, view, rng=random.Random(0)))
            found: list[dict[str, Any]] = await self._expert(
                "hints", {"view": view.to_dict()}, "the hint"
            )
            return found
        finally:
            self._hinting.discard(key)
            _count(self._address_hints, client.address, -1)

    async def _expert(self, kind: str, payload: dict[str, Any], what: str) -> Any:
        """A hint's or review's answer from the workers, or an error the client is told."""
        try:
            return await self.think(kind, payload)
        except ThinkTimeout:
            raise ProtocolError(f"the expert took too long over {what}: try again") from None
        except ThinkError as exc:
            log.warning("%s failed: %s", what, exc)
            raise ProtocolError(f"the expert could not work out {what}: try again") from None


def _forgotten(task: asyncio.Future[Any]) -> None:
    """The end of a computer's thinking over a position the person has since taken back."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("computer player failed over a move taken back", exc_info=task.exception())
