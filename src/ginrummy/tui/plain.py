"""``ginrummy play --plain``: the game line by line, for screen readers, pipes and terminals
without cursor control. The same words as the app (the move log, its prompts, the results),
one line each, and commands typed at a ``>`` prompt (``draw``, ``discard Kh``, ``knock``,
``hint``, ``undo``, ``quit``; ``help`` lists them).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from . import board
from .commands import (
    HELP,
    LOCAL,
    CommandWordsError,
    arrangement_words,
    error_sentence,
    knock_action,
    knock_choices,
    parse_command,
)
from .session import Message, Session
from .sheet import final_lines, sheet_lines
from .verify import DealCheck
from .words import (
    Namer,
    State,
    action_words,
    clock_words,
    column_scores,
    deadwood_words,
    legal,
    log_lines,
    marked_names,
    pretty,
    pretty_cards,
    pretty_text,
    prompt,
    result_words,
    sentence,
    split_cards,
)


def choices_hint(state: State) -> str:
    """The commands that fit now, after the prompt: ``(draw, take)``."""
    view, table = state.get("view") or {}, state["table"]
    moves = legal(state)
    if view.get("phase") == "over":
        if table.get("over"):
            return "(rematch, sheet, quit)" if not table.get("rematch") else "(sheet, quit)"
        return "(next, sheet, quit)"
    if not moves:
        return ""
    words: list[str] = []
    for simple in ("take", "pass", "draw"):
        if simple in moves:
            words.append(simple)
    if any(m.startswith("discard ") for m in moves):
        words.append("discard CARD")
    if any(m.startswith("knock ") for m in moves):
        words.append("knock")
    if any(m.startswith("gin ") for m in moves):
        words.append("gin")
    if "biggin" in moves:
        words.append("biggin")
    if any(m.startswith("layoff ") for m in moves):
        words.append("layoff CARD")
    words += [w for w in ("auto", "done") if w in moves]
    fair = table.get("fair_play") or {}
    if fair.get("hints"):
        words.append("hint")
    if table.get("can_undo"):
        words.append("undo")
    return f"({', '.join(words)})"


def table_lines(state: State) -> list[str]:
    """Where things stand, in a few lines: the stock and the pile, the other's cards, yours."""
    view = state.get("view") or {}
    if not view:
        return []
    n = Namer.of(state)
    me = view.get("seat")
    other = 1 - me if me is not None else 1
    out: list[str] = []
    if view.get("phase") != "over":
        pile = split_cards(view.get("discard_pile"))
        top = f"pile {pretty(pile[-1])}" if pile else "the pile is empty"
        known = split_cards(view.get("opponent_known"))
        took = f" (took {pretty_cards(known)})" if known else ""
        out.append(
            f"Stock {view.get('stock_count', 0)} · {top} · {n.who(other)} "
            f"{n.does(other, 'have')} {view.get('opponent_count', 0)} cards{took}."
        )
        if (view.get("rules") or state["table"].get("rules") or {}).get("oklahoma"):
            limit = view.get("knock_limit")
            this_hand = "Gin only" if limit == 0 else f"Knock limit {limit}"
            doubled = " · every score doubled (a spade upcard)"
            out.append(f"{this_hand} this hand{doubled if view.get('multiplier', 1) > 1 else ''}.")
        area = board.knock_area(state)
        if area is not None:
            dead = split_cards(view.get("knocker_deadwood"))
            laid = " | ".join([*_meld_words(view, ()), *([pretty_cards(dead)] if dead else [])])
            out.append(f"{area[0].plain}: {laid}.")
    groups = board.hand_groups(view)
    hand = " | ".join(pretty_cards([c for c in g if c]) for g in groups)
    drawn = board.drawn_words(view)
    note = f" ({drawn})" if drawn else ""
    out.append(f"Your hand: {hand or 'no cards'}{note}.")
    if view.get("phase") != "over":
        out.append(f"{deadwood_words(view)}.")
    return out


def _meld_words(view: Mapping[str, Any], melds: Sequence[Sequence[str]]) -> list[str]:
    """The knocker's melds in words, each with the cards laid off on it after a "+"."""
    return [
        pretty_cards(meld) + (f" + {pretty_cards(laid)}" if laid else "")
        for meld, laid in board.knocker_melds(view, melds)
    ]


def showdown_lines(state: State, verdict: str | None = None) -> list[str]:
    """The hand's end: the result in words, both sides as laid down, the deal's check, who won
    the game."""
    view, table = state.get("view") or {}, state["table"]
    result = view.get("result")
    if not result:
        return []
    n = Namer.of(state)
    out = [
        result_words(
            result,
            n,
            layoffs=view.get("layoffs") or [],
            rules=table["rules"],
            dealer_next=table["dealer_next"],
        )
    ]
    for seat in (0, 1):
        side = board.showdown_side(view, seat)
        if side is not None and seat == result.get("knocker") and view.get("layoffs"):
            melds = "  |  ".join(_meld_words(view, side.get("melds") or []))
            dead = side.get("deadwood") or []
            tail = f"  — deadwood {pretty_cards(dead)}" if dead else "  — no deadwood"
            by = n.whom(1 - seat)
            out.append(f"{n.who(seat)}: {melds}{tail} (+ laid off by {by}).")
        elif side is not None:
            out.append(f"{n.who(seat)}: {arrangement_words(side)}.")
    if result.get("knocker") is None and view.get("opponent_hand"):
        other = 1 - view["seat"]
        out.append(f"{n.who(other)} held {pretty_cards(split_cards(view['opponent_hand']))}.")
    totals = table.get("scores") or [0, 0]
    columns = column_scores(table)
    if columns is None:
        out.append(f"Score: {n.who(0)} {totals[0]}, {n.who(1)} {totals[1]}.")
    else:  # Hollywood: each game's column
        each = "; ".join(
            f"game {i}: {n.who(0)} {p[0]}, {n.who(1)} {p[1]}" for i, p in enumerate(columns, 1)
        )
        out.append(f"Score: {each}.")
    if verdict:
        out.append(verdict)
    # a finished game's tally, then who wins by how much (then the match, once it is over)
    out += final_lines(table, n, headings=False)
    return out


class PlainPlayer:
    """Prints what the table says and sends what is typed (see the module's docstring)."""

    def __init__(
        self,
        session: Session,
        *,
        read_line: Callable[[], str] | None = None,
        out: TextIO | None = None,
    ) -> None:
        self.session = session
        self.read_line = read_line or sys.stdin.readline
        self.out = out or sys.stdout
        self.state: Message | None = None
        self.shown: tuple[Any, int] = (None, 0)
        self.asked: str | None = None
        #: The hand whose result was said: (table, hand number).
        self.said_result: tuple[Any, int] | None = None
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        #: Lines typed ahead, kept until the table waits for this seat.
        self.held: list[str] = []
        #: A message was sent and its answer has not come yet.
        self.waiting = False
        self.ended = False  # the input ended
        #: A joined table's socket is there (lines typed while it is lost are kept for it).
        self.online = True
        self.deals = DealCheck()
        self.done = False
        #: Who is at the table as last said: each seat, from the first state on, then each
        #: presence message (which says also when this seat's own socket comes or goes).
        self.present: list[bool] = []

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self) -> None:
        print("> ", end="", file=self.out, flush=True)

    async def run(self) -> int:
        await self.session.start()
        self._start_reading()
        incoming: asyncio.Task[Message] | None = None
        typed: asyncio.Task[str | None] | None = None
        try:
            while not self.done:
                incoming = incoming or asyncio.ensure_future(self.session.receive())
                waits: set[asyncio.Future[Any]] = {incoming}
                if not self.ended:
                    typed = typed or asyncio.ensure_future(self.lines.get())
                    waits.add(typed)
                finished, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                if incoming in finished:
                    message = incoming.result()
                    incoming = None
                    if message.get("type") in ("state", "error", "hints", "closed"):
                        self.waiting = False
                    self.take(message)
                if typed is not None and typed in finished:
                    line = typed.result()
                    typed = None
                    if line is None:
                        self.ended = True
                    else:
                        self.type(line)
                await self.drain()
                if self.ended and not self.held and not self.waiting:
                    break
        finally:
            for task in (incoming, typed):
                if task is not None:
                    task.cancel()
        return 0

    def ready(self) -> bool:
        """Whether the table waits for this seat (its move, or a hand over)."""
        state = self.state
        if state is None or self.waiting or not self.online:
            return False
        view = state.get("view") or {}
        return bool(legal(state)) or view.get("phase") == "over"

    def type(self, line: str) -> None:
        """A typed line: the screen's own commands (sheet, help, quit ...) at once, the rest
        once it is your turn, so that lines typed ahead, or piped in, are played in order."""
        words = line.split()
        # The command alone: "q h" (a queen meant) is read, and refused, on its turn.
        local = len(words) == 1 and words[0].lower() in LOCAL
        if local and not self.held and self.state is not None:
            self.local(LOCAL[words[0].lower()])
        else:
            self.held.append(line)

    async def drain(self) -> None:
        while self.held and self.ready() and not self.done:
            await self.command(self.held.pop(0))

    async def next_line(self) -> str | None:
        if self.held:
            return self.held.pop(0)
        if self.ended:
            return None
        line = await self.lines.get()
        if line is None:
            self.ended = True
        return line

    def _start_reading(self) -> None:
        """Read the typed lines in a thread of their own: a daemon, so that quitting never
        waits for a line nobody will type."""
        loop = asyncio.get_running_loop()

        def read() -> None:
            while True:
                line = self.read_line()
                text = line.strip() if line else None
                try:
                    loop.call_soon_threadsafe(self.lines.put_nowait, text)
                except RuntimeError:  # the loop has closed: nobody is listening
                    return
                if text is None:
                    return

        threading.Thread(target=read, name="ginrummy-input", daemon=True).start()

    # -- what the table says ----------------------------------------------------------------

    def take(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "state":
            self.show(message)
        elif kind == "hints":
            self.say("Hints (best first):")
            for i, found in enumerate((message.get("hints") or [])[:5], 1):
                self.say(f"  {i}. {pretty_text(str(found['reason']))}")
            self.ask()
        elif kind == "error":
            self.say(f"Not done: {sentence(str(message.get('message')), capital=False)}")
            self.ask()
        elif kind == "presence" and self.state is not None:
            n = Namer.of(self.state)
            now = [bool(here) for here in message.get("connected") or []]
            for seat, here in enumerate(now):
                was = seat < len(self.present) and self.present[seat]
                if not n.you(seat) and here != was:  # said once it changes, not at every message
                    self.say(f"{n.who(seat)} {'is here' if here else 'left the table'}.")
            self.present = now
        elif kind == "seat":
            self.say(f"Your seat's own link (the invite opens nothing more): {message.get('url')}")
        elif kind == "connection":
            self.online = bool(message.get("connected"))
            self.say("Connected again." if self.online else "Connection lost: reconnecting…")
            self.waiting = self.online  # for the table's state, which comes next
        elif kind == "closed":
            self.say("The table closed the connection.")
            self.done = True

    def show(self, state: Message) -> None:
        first = self.state is None
        self.state = state
        self.deals.saw(state)
        table = state["table"]
        if first:
            self.present = [bool(here) for here in table.get("connected") or []]
            me = table.get("seat") or 0
            names = marked_names(table)
            self.say(f"Gin rummy: {names[me]} against {names[1 - me]}. {table['rules_text']}")
            self.say(f"Playing {self.session.label}. Type help for the commands.")
        key = (table["id"], table["hand_number"])
        lines = log_lines(state)
        start = self.shown[1] if self.shown[0] == key else 0
        for logged in lines[start:]:
            self.say(logged.text)
        self.shown = (key, len(lines))
        view = state.get("view") or {}
        asked = prompt(state)
        mine = bool(legal(state)) or view.get("phase") == "over"
        if view.get("phase") == "over" and self.said_result != key:  # once a hand
            self.said_result = key
            for line in showdown_lines(state, self.deals.verdict(state)):
                self.say(line)
        if mine and (asked != self.asked or len(lines) > start):
            if view.get("phase") != "over":
                for line in table_lines(state):
                    self.say(line)
            # between people with a move clock, counted by the table's time
            clock = clock_words(state, time.time() + self.session.skew)
            self.say(f"{clock + ' · ' if clock else ''}{asked} {choices_hint(state)}".rstrip())
            self.ask()
        elif not mine and asked != self.asked:
            self.say(asked)
        self.asked = asked

    # -- what is typed -----------------------------------------------------------------------

    async def command(self, text: str) -> None:
        if self.state is None:
            self.say("Wait for the table.")
            return
        if not text:
            self.ask()
            return
        try:
            command = parse_command(text, self.state)
        except CommandWordsError as exc:
            self.say(error_sentence(exc))
            self.ask()
            return
        if command.kind == "local":
            self.local(command.name)
            return
        if command.kind == "knock":
            action = await self.arrangement(command.action)
            if action is None:
                self.ask()
                return
            await self.send({"type": "action", "action": action})
            return
        if command.message is not None:
            if command.message.get("type") == "hint":
                self.say("The expert is thinking…")
            await self.send(command.message)

    async def send(self, message: Message) -> None:
        self.asked = None
        self.waiting = True
        await self.session.send(message)

    async def arrangement(self, action: str) -> str | None:
        """The knock dialog, in lines: which best arrangement to lay down (Enter: the first)."""
        assert self.state is not None
        choices = knock_choices(self.state, action)
        if len(choices) <= 1:
            return action
        self.say(f"{action_words(action).capitalize()}: lay down which arrangement?")
        for i, choice in enumerate(choices, 1):
            self.say(f"  {i}. {arrangement_words(choice)}")
        self.say("Type its number (Enter: 1), or cancel.")
        while True:
            self.ask()
            line = await self.next_line()
            if line is None or line.lower() in ("cancel", "c", "no"):
                return None
            if not line:
                return action
            if line.isdigit() and 1 <= int(line) <= len(choices):
                return knock_action(action, choices, int(line) - 1)
            self.say(f"A number from 1 to {len(choices)}, please.")

    def local(self, name: str) -> None:
        state = self.state
        assert state is not None
        if name == "quit":
            self.done = True
            return
        if name == "help":
            self.say(HELP)
            rules = str(state["table"].get("rules_text") or "")
            if rules:  # said at the start, and scrolled away since
                self.say(f"Rules: {rules}")
        elif name == "sheet":
            for line in sheet_lines(state["table"]):
                self.say(line)
            for line in final_lines(state["table"], Namer.of(state)):
                self.say(line)
        elif name == "hand":
            for line in table_lines(state):
                self.say(line)
        elif name == "log":
            for logged in log_lines(state):
                self.say(logged.text)
        self.ask()


async def play_plain(session: Session, **kwargs: Any) -> int:
    """Play ``session`` line by line until ``quit`` or the end of the input."""
    player = PlainPlayer(session, **kwargs)
    try:
        return await player.run()
    finally:
        await session.close()
