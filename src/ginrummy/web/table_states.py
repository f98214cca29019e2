"""What each seat (or a spectator) is told of a table: the ``state`` message.

:meth:`TableStates.state_for` makes it: the table's facts (:meth:`TableStates.table_info`,
the parts that never change worked out once), the seat's view of the hand, and what helps
it choose (its knocks' arrangements, with hints the deadwood of each discard); a socket
holding the hand's history so far is sent only the events it lacks
(:meth:`TableStates.history_mark`). :class:`TableStates` is a base of
:class:`~.tables.Table`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import islice
from typing import Any

from ..engine import Action, ActionKind, Cards, Event, Hand, Phase, best_arrangements
from ..engine.match import Match
from ..engine.melds import Arrangement, discard_deadwoods_mask
from ..engine.serial import event_to_dict
from .table_base import COMPUTER_SEAT, INVITED, TableBase
from .table_clock import READY_WAIT

#: A socket's record of the history it was sent: the hand's number, the seat, how many events,
#: and the last of them (an undo takes events back; the next ones then differ).
HistoryMark = tuple[int, int, int, Event]


class TableStates(TableBase):
    """The messages that tell each seat the table's state: see the module docstring."""

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
                # The preset the rules are, a stake apart (what a point is worth is no rule
                # of play); compares with every preset: not cheap.
                "preset": self.rules.replace(stake=0).preset_name(),
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

    def fair_play(self) -> dict[str, Any]:
        """The table's fair-play terms, shown to both seats from the first move."""
        return {
            "hints": self.options.hints,
            "undo": self.vs_computer,
            "undo_used": self.options.undo_used,
            "counts": not self.options.undo_used,
        }


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
