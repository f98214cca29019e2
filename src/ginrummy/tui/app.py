"""``ginrummy play``: the table in a terminal (Textual), for a local game or a joined table.

The screen is drawn from the last ``state`` message of its :class:`~.session.Session` and
sends the messages a browser sends. Every action has a key (the footer lists those possible
now); cards are chosen with ←/→, by typing them (``K`` then ``h``) or with the mouse, and the
stock and the pile are clicked to draw or take.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from . import board
from .cards import Drawing, draw_groups
from .commands import (
    CommandWordsError,
    best_end,
    error_sentence,
    knock_action,
    knock_choices,
    parse_command,
)
from .dialogs import DIALOG_CSS, KnockDialog, QuitDialog, TextDialog, help_lines
from .plain import table_lines
from .session import Message, Session
from .sheet import final_lines, sheet_lines
from .verify import DealCheck
from .words import (
    Namer,
    action_words,
    clock_words,
    deadwood_words,
    fit_title,
    legal,
    log_lines,
    pretty,
    pretty_text,
    prompt,
    sentence,
    title_line,
)

RANK_KEYS = "AKQJT23456789"
SUIT_KEYS = "shdc"
#: The table's keys for moves and table messages: (action, parameter) as bound below.
MOVE_KEYS = {
    "d": ("act", "draw"),
    "t": ("act", "take"),
    "p": ("act", "pass"),
    "x": ("discard", ""),
    "k": ("knock", ""),
    "g": ("gin", ""),
    "b": ("biggin", ""),
    "l": ("layoff", ""),
    "a": ("act", "auto"),
    "f": ("act", "done"),
    "n": ("next", ""),
    "r": ("rematch", ""),
    "h": ("hint", ""),
    "u": ("undo", ""),
}

CSS = """
Screen { layout: vertical; }
#title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
#main { height: 1fr; }
#felt { width: 1fr; padding: 0 1; background: #0f3d2e; color: #f1f5f9; }
#side { width: 30%; min-width: 26; max-width: 48; padding: 0 1; background: $panel; }
/* Wrapped, not cut: at 80 columns their ends ("not connected", "cannot be discarded this
   turn") went past the felt's edge. */
#opponent-label, #hand-label { height: auto; }
.row { height: auto; }
#piles { margin: 1 0; }
#table-melds { height: auto; margin-bottom: 1; }
#hand { margin-bottom: 0; }
#deadwood { height: auto; color: #cbd5e1; }
#status { height: auto; text-style: bold; color: #fde68a; }
#status.error { color: #fca5a5; }
#hints { height: auto; display: none; margin-bottom: 1; }
#hints.shown { display: block; }
#log { height: auto; }
#logbox { height: 1fr; }
#command { dock: bottom; display: none; }
#command.shown { display: block; }
/* A narrow screen: the hints and the log below the table, which takes the whole width. */
.-narrow #main { layout: vertical; }
.-narrow #felt { height: auto; max-height: 100%; }
.-narrow #piles, .-narrow #table-melds { margin: 0; }
.-narrow #side { width: 100%; max-width: 100%; min-width: 0; height: 1fr; }
/* A short screen: the opponent's backs give way (its label says how many cards). */
.-short #opponent.backs { display: none; }
.-short #piles { margin: 0; }
"""


class Cards(Widget):
    """Rows of cards drawn by a function of the screen's state; a click on a card (or the
    stock, or the pile) tells the screen which."""

    DEFAULT_CSS = "Cards { height: auto; }"

    def __init__(self, kind: str, *, id: str) -> None:
        super().__init__(id=id, classes="row")
        self.kind = kind
        self.drawing = Drawing()

    @property
    def table(self) -> TableScreen:
        return cast(TableScreen, self.screen)

    def render(self) -> Text:
        self.drawing = self.table.draw(self.kind, self.size.width)
        text = self.drawing.text()
        text.no_wrap = True
        text.overflow = "crop"
        return text

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many rows of cards as fit the width (the hand wraps on a narrow screen)."""
        return len(self.table.draw(self.kind, width).lines)

    def on_click(self, event: events.Click) -> None:
        found = self.drawing.card_at(event.x, event.y)
        if found is not None:
            self.table.clicked(self.kind, found, double=event.chain >= 2)


class Line(Static):
    """A line (or a few) of text redrawn from the screen's state."""

    def __init__(self, kind: str, *, id: str) -> None:
        super().__init__("", id=id, markup=False)
        self.kind = kind

    def refresh_from(self, screen: TableScreen) -> None:
        self.update(screen.text(self.kind))

    def on_resize(self, event: events.Resize) -> None:
        if self.kind in ("melds", "title"):  # drawn to fit its width
            self.refresh_from(cast(TableScreen, self.screen))


class LogBox(VerticalScroll):
    """The move log's box, on its newest move: anchored, it follows the moves as they are laid
    out (not at a refresh, which under load can come before the layout), unless the player
    scrolls up; scrolled back to its end, it follows again. Anchored only while the log is
    longer than the box, which would otherwise hold a short log at its foot."""

    def fit(self) -> None:
        log = self.query_one("#log")
        longer = log.size.height > self.scrollable_content_region.height
        if longer and not self.is_anchored:
            self.anchor()
        elif not longer and self.is_anchored:
            self.anchor(False)
            self.scroll_home(animate=False, immediate=True)

    def on_resize(self, event: events.Resize) -> None:
        self.fit()


class LogLines(Line):
    """The move log's lines, which tell their box when they grow or shrink."""

    def on_resize(self, event: events.Resize) -> None:
        if isinstance(self.parent, LogBox):
            self.parent.fit()


class TableScreen(Screen[None]):
    """The table: the opponent, the stock and the pile, the melds or the showdown, your hand,
    what to do now, and beside it the hints and the move log."""

    #: Below 72 columns the hints and the log go under the table (see the CSS).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (72, "-wide")]  # noqa: RUF012 (Textual types it so)
    #: Below 20 rows the table scrolls to the hand and the prompt after each change.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "act('draw')", "Draw"),
        Binding("t", "act('take')", "Take"),
        Binding("p", "act('pass')", "Pass"),
        Binding("x", "discard", "Discard"),
        Binding("enter", "confirm", "Discard", show=False),
        Binding("k", "knock", "Knock"),
        Binding("g", "gin", "Gin"),
        Binding("b", "biggin", "Big gin"),
        Binding("l", "layoff", "Lay off"),
        Binding("a", "act('auto')", "Auto layoffs"),
        Binding("f", "act('done')", "Done"),
        Binding("n", "next", "Next hand"),
        Binding("r", "rematch", "Rematch"),
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("left", "move(-1)", "Card", show=False),
        Binding("right", "move(1)", "Card", show=False),
        Binding("s", "sheet", "Sheet"),
        Binding("question_mark", "help", "Help"),
        Binding("colon", "command", "Type", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.state: Message | None = None
        self.selected: str | None = None
        #: The expert's hints for this position, once asked for (None: not asked).
        self.hints: list[dict[str, Any]] | None = None
        self.hinting = False  # asked, not answered yet
        self.problem: str | None = None
        self.online = True
        self.closed = False  # the table ended the session for good
        self.pending_rank: str | None = None
        self.deals = DealCheck()
        self._pump: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Line("title", id="title")
        with Horizontal(id="main"):
            with VerticalScroll(id="felt"):
                yield Line("opponent", id="opponent-label")
                yield Cards("opponent", id="opponent")
                yield Cards("piles", id="piles")
                yield Line("melds", id="table-melds")
                yield Line("mine", id="hand-label")
                yield Cards("hand", id="hand")
                yield Line("deadwood", id="deadwood")
                yield Line("status", id="status")
            with Vertical(id="side"):
                yield Line("hints", id="hints")
                with LogBox(id="logbox"):
                    yield LogLines("log", id="log")
        yield Input(placeholder="a command: draw, discard Kh, knock, hint, help …", id="command")
        yield Footer()

    async def on_mount(self) -> None:
        await self.session.start()
        self._pump = asyncio.ensure_future(self._receive())
        self.set_interval(1.0, self._tick_clock)

    def _tick_clock(self) -> None:
        """The move clock's seconds counted down on the status line, while one runs."""
        if self.state is not None and self.state["table"].get("deadline") is not None:
            for line in self.query("#status").results(Line):
                line.refresh_from(self)

    async def on_unmount(self) -> None:
        if self._pump is not None:
            self._pump.cancel()

    async def _receive(self) -> None:
        while True:
            message = await self.session.receive()
            self.take(message)
            if message.get("type") == "closed":
                return

    # -- messages from the table ------------------------------------------------------------

    def take(self, message: Message) -> None:
        """Redraw after a message from the table."""
        kind = message.get("type")
        if kind == "state":
            before = self.state
            self.state = message
            self.deals.saw(message)
            self.problem = None
            if before is None or _moved(before, message):
                self.hints = None
                self.hinting = False
            view = message.get("view") or {}
            if self.selected not in board.hand_order(view):
                self.selected = None
            if _to_act(message) and (
                before is None or _moved(before, message) or not _to_act(before)
            ):
                self.call_after_refresh(self._show_what_to_do)
        elif kind == "hints":
            self.hints = list(message.get("hints") or [])
            self.hinting = False
        elif kind == "error":
            self.problem = str(message.get("message", "that did not work"))
            self.hinting = False
        elif kind == "presence" and self.state is not None:
            self.state["table"]["connected"] = message.get("connected")
        elif kind == "seat":  # an invite opened: the seat's own link, for coming back
            self.app.notify(
                f"Your seat's own link (the invite opens nothing more): {message.get('url')}",
                timeout=60,
            )
        elif kind == "connection":
            self.online = bool(message.get("connected"))
        elif kind == "closed":
            self.closed = True
        self.redraw()

    def redraw(self) -> None:
        for line in self.query(Line):
            line.refresh_from(self)
        for cards in self.query(Cards):
            cards.refresh(layout=True)
        self.query_one("#hints").set_class(self.hinting or self.hints is not None, "shown")
        self.query_one("#status").set_class(self.problem is not None, "error")
        self.refresh_bindings()
        self.query_one("#opponent").set_class(self.view.get("phase") != "over", "backs")

    def _show_what_to_do(self) -> None:
        """On a short screen, once it is the player's turn (or the hand is over): what to do
        now in sight, not the top of the table. Only then, so that a player who scrolled up
        to look at the piles is left there while the other seat moves."""
        if not self.has_class("-short"):
            return
        felt = self.query_one("#felt")
        if self.view.get("phase") == "over":  # the showdown: the result and the hands
            result = self.query_one("#table-melds")
            self.call_after_refresh(felt.scroll_to_widget, result, animate=False, top=True)
        else:
            self.call_after_refresh(felt.scroll_end, animate=False)

    # -- what each part shows ---------------------------------------------------------------

    @property
    def view(self) -> dict[str, Any]:
        return (self.state or {}).get("view") or {}

    def draw(self, kind: str, width: int) -> Drawing:
        view = self.view
        if not view:
            return Drawing()
        if kind == "opponent":
            return draw_groups(board.opponent_groups(view), width=width)
        if kind == "piles":
            return board.piles(view, width)
        if board.laid_out(view, view.get("seat")):  # drawn on the table above instead
            return Drawing()
        return draw_groups(
            board.hand_groups(view),
            selected=self.selected,
            marked=board.just_drawn(view),
            dimmed=view.get("taken_card") if view.get("phase") == "discard" else None,
            width=width,
        )

    def text(self, kind: str) -> Text:
        state = self.state
        if state is None:
            return Text("Connecting…" if kind == "status" else "")
        if kind == "title":
            width = self.query_one("#title").content_size.width or self.app.size.width - 2
            return Text(fit_title(title_line(state), self.session.label, width), no_wrap=True)
        if kind == "opponent":
            return board.opponent_label(state)
        if kind == "mine":
            return board.my_label(state, self.selected)
        if kind == "melds":
            return self._melds_text(state)
        if kind == "deadwood":
            return Text(deadwood_words(self.view, self.selected) if self.view else "")
        if kind == "status":
            return self._status_text(state)
        if kind == "hints":
            return self._hints_text()
        if kind == "log":
            text = Text("\n".join(line.text for line in log_lines(state)))
            verdict = self.deals.verdict(state)
            if verdict:  # the deal checked once the deck is revealed
                text.append("\n" + verdict, style="green" if verdict[0] == "✓" else "bold red")
            return text
        return Text()

    def _melds_text(self, state: Message) -> Text:
        result = board.result_text(state)
        if result is not None:
            return result
        width = self.query_one("#table-melds").size.width
        area = board.knock_area(state, width or None)
        if area is None:
            return Text()
        title, drawing = area
        return Text("\n").join([title, *drawing.lines])

    def _status_text(self, state: Message) -> Text:
        if self.closed:
            why = f" ({self.problem})" if self.problem else ""  # the server's reason, if any
            return Text(f"The table closed the connection{why}: q quits.", style="bold")
        if not self.online:
            return Text("Reconnecting… no move is sent until then.", style="bold")
        text = prompt(state)
        if self.problem is not None:  # the refusal, and under it still what to do now
            return Text(f"{sentence(self.problem)}\n{text}")
        clock = clock_words(state, time.time() + self.session.skew)
        if clock:  # between people with a move clock
            text = f"{clock} · {text}"
        if self.pending_rank is not None:
            text += f"  Card {self.pending_rank}… (then s, h, d or c)"
        elif self.selected is not None and f"discard {self.selected}" in legal(state):
            text = f"{pretty(self.selected)} chosen: x discards it."
        elif any(m.startswith("discard ") for m in legal(state)):
            text += " ←/→ or type a card (K then h), then x."
        return Text(text)

    def _hints_text(self) -> Text:
        if self.hinting:
            return Text("The expert is thinking…")
        if self.hints is None:
            return Text()
        text = Text("Hints (best first)", style="bold")
        for i, found in enumerate(self.hints[:5], 1):
            text.append(f"\n{i}. {pretty_text(str(found['reason']))}")
        return text

    # -- keys and clicks ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        state = self.state
        if action in ("quit", "sheet", "help", "command"):
            return True
        if state is None:
            return False
        moves = legal(state)
        table, view = state["table"], self.view
        sel = self.selected
        if action == "act":
            return parameters[0] in moves
        if action in ("discard", "confirm"):
            return sel is not None and (
                f"discard {sel}" in moves or (action == "confirm" and f"layoff {sel}" in moves)
            )
        if action in ("knock", "gin"):
            return best_end(state, action, sel) is not None
        if action == "biggin":
            return "biggin" in moves
        if action == "layoff":
            return any(m.startswith("layoff ") for m in moves)
        if action == "next":
            return view.get("phase") == "over" and not table.get("over")
        if action == "rematch":
            return bool(table.get("over")) and not table.get("rematch")
        if action == "hint":
            fair = table.get("fair_play") or {}
            return bool(fair.get("hints")) and bool(moves)
        if action == "undo":
            return bool(table.get("can_undo"))
        if action == "move":
            return bool(board.hand_order(view))
        return True

    def on_key(self, event: events.Key) -> None:
        """Cards typed by name: a rank (A K Q J T, 2 to 9, or 1 0) then a suit letter; and a
        move's key pressed when that move is not possible, refused saying why."""
        char = event.character or ""
        if isinstance(self.focused, Input):  # a command being typed
            return
        if self.pending_rank is None and event.key in MOVE_KEYS and self.state is not None:
            action, parameter = MOVE_KEYS[event.key]
            if not self.check_action(action, (parameter,) if parameter else ()):
                event.stop()
                event.prevent_default()
                self.problem = self.why_not(action, parameter)
                self.redraw()
                return
        if self.pending_rank is not None:
            if char.lower() in SUIT_KEYS and char:
                self._choose_typed(self.pending_rank + char.lower())
            elif self.pending_rank == "1" and char == "0":
                self.pending_rank = "T"
                self.redraw()
            else:
                self.pending_rank = None
                self.redraw()
                return
            event.stop()
            event.prevent_default()
            return
        if char and ((char in RANK_KEYS and not char.islower()) or char == "1"):
            self.pending_rank = char
            event.stop()
            event.prevent_default()
            self.redraw()

    def why_not(self, action: str, parameter: str) -> str:
        """Why a key's move is not possible now, in a few words for the status line (what to
        do now is said under it): whose turn it is, or that there is nothing to take."""
        state = self.state or {"table": {}}
        table, view = state["table"], self.view
        moves = legal(state)
        fair = table.get("fair_play") or {}
        turn, phase = view.get("current_player"), view.get("phase")
        if action == "next":
            over = table.get("over")
            return "The game is over: r for a rematch." if over else "The hand is not over yet."
        if action == "rematch":
            if table.get("rematch"):
                return "The rematch is already dealt."
            return "A rematch is offered once the game is over."
        if action == "undo":
            return "Nothing to undo now."
        if action == "hint" and not fair.get("hints"):
            return "Hints are off at this table."
        if phase == "over":
            return "The game is over." if table.get("over") else "The hand is over."
        if not view or turn is None:
            return "Nothing to do yet."
        if turn != view.get("seat"):
            computer = (table.get("options") or {}).get("mode") == "computer"
            whose = "the computer's" if computer else f"{Namer.of(state).names[turn]}'s"
            return f"It is {whose} turn."
        if action == "act" and parameter in ("take", "draw", "pass"):
            return f"Nothing to {parameter if parameter != 'pass' else 'pass on'} now."
        if action == "act":  # auto, done
            return f"You cannot {action_words(parameter)} now."
        if action == "layoff":
            return "Nothing to lay off now."
        verb = {"discard": "discard", "knock": "knock", "gin": "go gin", "biggin": "go big gin"}
        if action != "biggin" and any(m.startswith(f"{action} ") for m in moves):
            what = "discard" if action == "discard" else f"{verb[action]} with"
            return f"Choose a card to {what} first (←/→ or type it)."
        return f"You cannot {verb.get(action, action)} now."

    def _choose_typed(self, card: str) -> None:
        self.pending_rank = None
        if card in board.hand_order(self.view):
            self.selected = card
            self.problem = None
        else:
            self.problem = f"{pretty(card)} is not in your hand."
        self.redraw()

    def clicked(self, kind: str, what: str, *, double: bool = False) -> None:
        moves = legal(self.state or {"view": {}})
        if kind == "piles":
            action = "draw" if what == "stock" else "take"
            if action in moves:
                self.send_action(action)
            return
        if kind != "hand":
            return
        if f"layoff {what}" in moves:
            self.send_action(f"layoff {what}")
        elif double and f"discard {what}" in moves:
            self.send_action(f"discard {what}")
        else:
            self.selected = None if self.selected == what and not double else what
            self.redraw()

    def send(self, message: Message) -> None:
        if not self.online:
            # A joined table's socket is lost: nothing would reach the table, so nothing is
            # sent (the status line says so), and the terminal bell says it was not.
            self.app.bell()
            return
        self.problem = None
        task = asyncio.ensure_future(self.session.send(message))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def send_action(self, action: str) -> None:
        if self.online:  # (offline nothing is sent: the card chosen stays chosen)
            self.selected = None
            self.hints = None
        self.send({"type": "action", "action": action})
        self.redraw()

    def action_act(self, action: str) -> None:
        if action in legal(self.state or {"view": {}}):
            self.send_action(action)

    def action_discard(self) -> None:
        if self.selected is not None:
            self.send_action(f"discard {self.selected}")

    def action_confirm(self) -> None:
        sel, moves = self.selected, legal(self.state or {"view": {}})
        if sel is None:
            return
        if f"layoff {sel}" in moves:
            self.send_action(f"layoff {sel}")
        elif f"discard {sel}" in moves:
            self.send_action(f"discard {sel}")

    def action_layoff(self) -> None:
        if self.selected is None:
            self.problem = "Choose a card to lay off first (←/→ or type it)."
            self.redraw()
            return
        self.send_action(f"layoff {self.selected}")

    def action_knock(self) -> None:
        self._ask_knock("knock")

    def action_gin(self) -> None:
        self._ask_knock("gin")

    def action_biggin(self) -> None:
        self.ask_arrangement("biggin")

    def _ask_knock(self, kind: str) -> None:
        if self.state is None:
            return
        card = best_end(self.state, kind, self.selected)
        if card is not None:
            self.ask_arrangement(f"{kind} {card}")

    def ask_arrangement(self, action: str) -> None:
        """The knock dialog: the best arrangements for this knock, the first chosen."""
        choices = knock_choices(self.state or {}, action)

        def chosen(index: int | None) -> None:
            if index is not None:
                self.send_action(knock_action(action, choices, index))

        self.app.push_screen(KnockDialog(action, choices), chosen)

    def action_next(self) -> None:
        self.send({"type": "next"})

    def action_rematch(self) -> None:
        self.send({"type": "rematch"})

    def action_hint(self) -> None:
        self.hinting = True
        self.send({"type": "hint"})
        self.redraw()

    def action_undo(self) -> None:
        self.selected = None
        self.send({"type": "undo"})

    def action_move(self, step: int) -> None:
        cards = board.hand_order(self.view)
        if not cards:
            return
        if self.selected in cards:
            index = (cards.index(self.selected) + step) % len(cards)
        else:
            index = 0 if step > 0 else len(cards) - 1
        self.selected = cards[index]
        self.redraw()

    def action_sheet(self) -> None:
        state = self.state
        if state is None:
            return

        def lines(columns: int) -> list[str]:  # laid out again when the screen is resized
            table = state["table"]
            width = TextDialog.text_width(columns)
            out = sheet_lines(table, width)
            final = final_lines(table, Namer.of(state), width=width)
            return [*out, "", *final] if final else out

        heading = f"Score sheet · {self.session.label}"  # the title leaves it out when narrow
        self.app.push_screen(TextDialog(heading, lines, "s"))

    def action_help(self) -> None:
        lines = [f"Playing {self.session.label}.", ""]
        rules = str(((self.state or {}).get("table") or {}).get("rules_text") or "")
        if rules:  # as the page and the plain mode say them: the title names only the preset
            lines += ["Rules:", *(f"  {line}" for line in rules.splitlines()), ""]
        lines += help_lines()
        self.app.push_screen(TextDialog("How to play here", lines, "question_mark"))

    def action_command(self) -> None:
        box = self.query_one("#command", Input)
        box.add_class("shown")
        box.value = ""
        box.focus()

    async def action_quit(self) -> None:
        """q: quit at once where nothing is under way (between hands, the game over, the
        table closed); in the middle of a hand, after asking (a lone q may be a queen meant,
        typed without its capital)."""
        if not self.in_a_hand():
            self.app.exit()
            return

        def answered(quit: bool | None) -> None:
            if quit:
                self.app.exit()

        self.pending_rank = None
        self.app.push_screen(QuitDialog(), answered)

    def in_a_hand(self) -> bool:
        """Whether a hand is being played: dealt, and not over."""
        state = self.state
        if state is None or self.closed or state["table"].get("over"):
            return False
        return bool(self.view) and self.view.get("phase") not in (None, "over")

    def action_cancel(self) -> None:
        """Esc: forget the card being typed, the chosen card and the command line."""
        self.pending_rank = None
        self.selected = None
        box = self.query_one("#command", Input)
        box.remove_class("shown")
        box.blur()
        self.redraw()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box = event.input
        box.remove_class("shown")
        box.blur()
        self.run_command(event.value)

    def run_command(self, text: str) -> None:
        """A typed command, as in the plain mode."""
        if self.state is None or not text.strip():
            return
        try:
            command = parse_command(text, self.state)
        except CommandWordsError as exc:
            self.problem = error_sentence(exc)
            self.redraw()
            return
        if command.kind == "knock":
            self.ask_arrangement(command.action)
        elif command.kind == "send" and command.message is not None:
            if command.message.get("type") == "action":
                self.send_action(str(command.message["action"]))
            elif command.message.get("type") == "hint":
                self.action_hint()
            else:
                self.send(command.message)
        elif command.name == "quit":
            self.app.exit()
        elif command.name == "sheet":
            self.action_sheet()
        elif command.name == "help":
            self.action_help()
        elif command.name == "hand":
            self.app.push_screen(TextDialog("The table", table_lines(self.state), "escape"))
        elif command.name == "log":
            lines = [line.text for line in log_lines(self.state)] or ["No moves yet."]
            self.app.push_screen(TextDialog("This hand's moves", lines, "escape", end=True))

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        box = self.query_one("#command", Input)
        if event.widget is box:
            box.remove_class("shown")


def _to_act(state: Message) -> bool:
    """Whether the player is to act: a move of theirs, or the hand over."""
    return bool(legal(state)) or (state.get("view") or {}).get("phase") == "over"


def _moved(before: Message, after: Message) -> bool:
    """Whether a state shows another position than the one before (hints go stale)."""
    a, b = before.get("view") or {}, after.get("view") or {}
    return (
        before["table"].get("hand_number") != after["table"].get("hand_number")
        or len(a.get("history") or []) != len(b.get("history") or [])
        or a.get("phase") != b.get("phase")
    )


class PlayApp(App[None]):
    """The terminal table for one session (a local game or a joined table)."""

    CSS = CSS + DIALOG_CSS
    TITLE = "Gin rummy"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def get_default_screen(self) -> Screen[Any]:
        return TableScreen(self.session)

    @property
    def table(self) -> TableScreen:
        return cast(TableScreen, self.screen_stack[0])

    async def on_unmount(self) -> None:
        await self.session.close()
