"""A scorekeeper game kept in a store: started, told each hand and irregularity, undone.

Every accepted entry is written in one transaction (with the game's final summary, when it ends
the game) before anyone is told it was taken; the state is then rebuilt from the stored entries
(``Keeper.replay``), so what an interface shows and what the database holds never disagree.
The store is passed in: a :class:`ginrummy.storage.Store`, or anything with its methods.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine.cards import Card
from ..engine.results import HandResult
from ..engine.rulings import Ruling
from .errors import EntryError, MissingGameError
from .exchange import GameRecord
from .keeper import Keeper, Setup
from .saved import is_edit, keeper_of

if TYPE_CHECKING:
    from ..storage import EntryInfo, GameInfo, SavedGame, Store

KIND = "scorekeeper"


class Session:
    """One scorekeeper game in ``store``; ``keeper`` is where it stands, as stored."""

    def __init__(self, store: Store, game_id: str) -> None:
        self.store = store
        self.id = game_id
        self.keeper = keeper_of(self._saved())

    @classmethod
    def create(cls, store: Store, setup: Setup) -> Session:
        """A new game, its players added to the store if they are new there."""
        with store.transaction() as tx:
            ids = [tx.ensure_player(name).id for name in setup.names]
            game_id = tx.create_game(
                KIND, setup.rules, setup.names, player_ids=ids, options=setup.options()
            )
        return cls(store, game_id)

    @classmethod
    def imported(cls, store: Store, record: GameRecord) -> Session:
        """A new game that is ``record`` (read from a file): its entries, dates and status,
        all stored in one transaction."""
        setup = record.setup
        final = record.keeper().final_data() if record.status == "finished" else None
        with store.transaction() as tx:
            ids = [tx.ensure_player(name).id for name in setup.names]
            game_id = tx.create_game(
                KIND,
                setup.rules,
                setup.names,
                player_ids=ids,
                options=setup.options(),
                created_at=record.started,
            )
            for kind, data, when in record.entries:
                tx.add_entry(game_id, kind, data, created_at=when)
            if final is not None:
                tx.finish_game(game_id, final)
            elif record.status == "abandoned":
                tx.abandon_game(game_id)
        return cls(store, game_id)

    def again(self) -> Session:
        """Another game (or match) with the same players, rules and mode; whoever the rules
        make deal after the last hand deals first."""
        keeper = self.keeper
        setup = Setup(keeper.names, keeper.rules, keeper.setup.mode, keeper.expected)
        return Session.create(self.store, setup)

    # -- entries ---------------------------------------------------------------------------

    def enter_result(self, result: HandResult, text: str, upcard: Card | None = None) -> Keeper:
        """Record a hand's result, typed as ``text`` (with its first upcard, in Oklahoma);
        returns the new state."""
        return self._enter("result", self.keeper.result_data(result, text, upcard))

    def enter_ruling(self, ruling: Ruling, text: str, dealt_by: int) -> Keeper:
        """Record an irregularity, told as ``text``, and its ruling; returns the new state."""
        return self._enter("irregularity", self.keeper.ruling_data(ruling, text, dealt_by))

    def undo(self) -> EntryInfo | None:
        """Take back the last thing done: the last entry (reopening the game it ended), or
        the last edit (the hands it changed as they were before it), whichever came last;
        returns it (an edit as its ``note`` entry), None when there is nothing to undo."""
        saved = self._saved()
        last = saved.entries[-1] if saved.entries else None
        if last is not None and is_edit(last.kind, last.data):
            return self._undo_edit(saved, last)
        with self.store.transaction() as tx:
            removed = tx.remove_last_entry(self.id)
            if removed is not None and self.keeper.is_over:
                tx.reopen_game(self.id)
        if removed is not None:
            self.keeper = keeper_of(self._saved())
        return removed

    def _undo_edit(self, saved: SavedGame, last: EntryInfo) -> EntryInfo:
        """Put back the entries an edit changed, as they were, and forget the edit."""
        before = {int(seq): data for seq, data in last.data["edit"]["before"].items()}
        entries = [(e.kind, before.get(e.seq, e.data)) for e in saved.entries if e.seq != last.seq]
        keeper = Keeper.replay(self.keeper.setup, entries)
        with self.store.transaction() as tx:
            if saved.game.status == "finished":
                tx.reopen_game(self.id)
            tx.remove_last_entry(self.id)
            tx.rewrite_entries(self.id, before)
            if keeper.is_over:
                tx.finish_game(self.id, keeper.final_data())
        self.keeper = keeper
        return last

    def edit(
        self, game: int, hand: int, result: HandResult, text: str, upcard: Card | None = None
    ) -> Keeper:
        """Replace the result of hand ``hand`` of game ``game`` (typed as ``text``) and score
        every later entry again; returns the new state. An edit that would move a later entry
        to another hand or game, or past the end, raises ``EntryError`` and changes nothing."""
        saved = self._saved()
        if saved.game.status == "abandoned":
            raise EntryError(f"game {self.id} is abandoned: it cannot be changed")
        stored = list(saved.entries)
        index = next(
            (
                i
                for i, e in enumerate(stored)
                if e.kind == "result" and (e.data.get("game"), e.data.get("hand")) == (game, hand)
            ),
            None,
        )
        if index is None:
            where = f"hand {hand} of game {game}" if self.keeper.match else f"hand {hand}"
            raise EntryError(f"there is no {where} to edit (see 'sheet')")
        keeper = Keeper.replay(self.keeper.setup, ((e.kind, e.data) for e in stored[:index]))
        changes = {stored[index].seq: keeper.result_data(result, text, upcard)}
        keeper.apply("result", changes[stored[index].seq])
        for later in stored[index + 1 :]:
            data = dict(later.data)
            if is_edit(later.kind, data):  # an earlier edit's record: kept as it is
                keeper.apply(later.kind, data)
                continue
            if keeper.is_over:
                what = "match" if keeper.match is not None else "game"
                raise EntryError(
                    f"this result would end the {what} at hand {hand}, but later entries "
                    "follow: undo them first"
                )
            now = (keeper.game_number, keeper.hand_number)
            if (data.get("game"), data.get("hand")) != now:
                raise EntryError(
                    f"this result would change where game {game} ends and move the later "
                    "hands to another game: undo them first"
                )
            if later.kind == "result" and data.get("dealer") != keeper.dealer:
                data["dealer"] = keeper.dealer
                changes[later.seq] = data
            keeper.apply(later.kind, data)
        # The edit is kept as a note after the last entry, with the entries it changes as
        # they were: undo takes back whichever came last, an entry or an edit, in a game
        # resumed too.
        before = {str(e.seq): e.data for e in stored if e.seq in changes}
        note = {"game": game, "hand": hand, "text": text, "edit": {"before": before}}
        with self.store.transaction() as tx:
            tx.rewrite_entries(self.id, changes)
            if saved.game.status == "finished":
                tx.reopen_game(self.id)
            tx.add_entry(self.id, "note", note)
            keeper.apply("note", {})
            if keeper.is_over:
                tx.finish_game(self.id, keeper.final_data())
        self.keeper = keeper
        return keeper

    def abandon(self) -> None:
        """End the game, unfinished, as abandoned: it is listed so and no longer resumed."""
        self.store.abandon_game(self.id)

    def delete(self) -> None:
        """Delete the game and all its entries from the store."""
        self.store.delete_game(self.id)

    def _enter(self, kind: str, data: Mapping[str, Any]) -> Keeper:
        """Save one entry (and the final, when it ends the game); keep and return the new
        state. An entry the stored ones cannot take raises ``KeeperError`` and saves nothing."""
        saved = self._saved()
        after = Keeper.replay(
            self.keeper.setup, [*((e.kind, e.data) for e in saved.entries), (kind, data)]
        )
        with self.store.transaction() as tx:
            tx.add_entry(self.id, kind, data)
            if after.is_over:
                tx.finish_game(self.id, after.final_data())
        self.keeper = after
        return after

    def _saved(self) -> SavedGame:
        saved = self.store.load_game(self.id)
        if saved is None:
            raise MissingGameError(f"game {self.id} has gone from the database")
        return saved


def find_game(store: Store, game_id: str) -> GameInfo | None:
    """The scorekeeper game ``game_id``; None if there is none (or it is an online game)."""
    game = store.get_game(game_id)
    return game if game is not None and game.kind == KIND else None


def latest_open_game(store: Store) -> GameInfo | None:
    """The unfinished scorekeeper game changed last, to resume; None if every game is over."""
    games = store.list_games(KIND, "open", limit=1)
    return games[0] if games else None
