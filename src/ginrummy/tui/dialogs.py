"""The app's dialogs: the knock (which best arrangement to lay down), the score sheet and help."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from .commands import HELP, arrangement_words, knock_title

DIALOG_CSS = """
ModalScreen { align: center middle; }
/* At 80 columns the score sheet's columns (the player's name marked "(you)") fit unwrapped. */
ModalScreen > Vertical {
    width: 100%; max-width: 100; margin: 0 1; height: auto; max-height: 90%;
    border: round $accent; background: $panel; padding: 0 1;
}
ModalScreen .title { text-style: bold; }
ModalScreen .muted { color: $text-muted; }
ModalScreen OptionList { height: auto; max-height: 10; }
ModalScreen VerticalScroll { height: auto; max-height: 30; }
"""


class KnockDialog(ModalScreen[int | None]):
    """Knock (or go gin) with which arrangement: the best ones, the first highlighted. Dismissed
    with the chosen arrangement's index, or None to cancel."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        *(Binding(str(i), f"choose({i - 1})", show=False) for i in range(1, 7)),
    ]

    def __init__(self, action: str, choices: Sequence[Mapping[str, Any]]) -> None:
        super().__init__()
        self.action = action
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(knock_title(self.action), classes="title")
            if self.choices:
                yield Static("Lay down:", classes="muted")
                options = [
                    Option(f"{i}. {arrangement_words(c)}", id=f"arr-{i - 1}")
                    for i, c in enumerate(self.choices, 1)
                ]
                yield OptionList(*options, id="arrangements")
            yield Static("Enter: lay it down · Esc: cancel", classes="muted")
        yield Footer()

    def on_mount(self) -> None:
        if self.choices:
            listing = self.query_one(OptionList)
            listing.highlighted = 0
            listing.focus()

    def on_key(self, event: Any) -> None:
        if not self.choices and event.key == "enter":
            event.stop()
            self.dismiss(0)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_choose(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self.dismiss(index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class QuitDialog(ModalScreen[bool]):
    """Quit in the middle of a hand? Dismissed with True to quit, False to play on. A lone
    ``q`` is also what a player types who meant a queen (``Q`` then ``h``): the dialog says
    so, and ``q`` again quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,q", "answer(True)", "Quit"),
        Binding("n,escape", "answer(False)", "Play on"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Quit in the middle of this hand?", classes="title")
            yield Static(QUIT_WORDS, markup=False)
            yield Static("y or q: quit · n or Esc: play on", classes="muted")
        yield Footer()

    def action_answer(self, quit: bool) -> None:
        self.dismiss(quit)


QUIT_WORDS = (
    "The game is kept as it stands: you can come back to it.\n"
    "(A queen is chosen with a capital Q, then its suit: Q then h for Q♥.)"
)


class TextDialog(ModalScreen[None]):
    """Lines of text to read (the score sheet, help), closed with Esc, q or its own key. The
    lines may be a function of the screen's width in columns (the score sheet, laid out to
    fit it), called again when the screen is resized."""

    def __init__(
        self,
        title: str,
        lines: Sequence[str] | Callable[[int], Sequence[str]],
        key: str,
        *,
        end: bool = False,
    ) -> None:
        super().__init__()
        self.heading = title
        self.layout_lines = lines if callable(lines) else None
        self.lines = list(lines) if not callable(lines) else []
        self.key = key
        #: Opened on its last line (the move log's newest move), not its first.
        self.end = end

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    @staticmethod
    def text_width(columns: int) -> int:
        """The columns a line has in the dialog on a screen this wide before it wraps: the
        dialog's margins, border and padding (see the CSS) and a scroll bar taken off."""
        return max(1, min(columns - 2, 100) - 4 - 2)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.heading, classes="title")
            with VerticalScroll():
                yield Static(self._text(), markup=False, id="text")
            yield Static("Esc: close", classes="muted")
        yield Footer()  # its own keys, not the table's beneath (which do nothing meanwhile)

    def on_mount(self) -> None:
        self._fit()
        scroll = self.query_one(VerticalScroll)
        scroll.focus()  # ↑/↓, PgUp/PgDn, Home/End scroll it
        if self.end:
            scroll.scroll_end(animate=False)

    def on_resize(self) -> None:
        self._fit()
        if self.layout_lines is not None:
            self.query_one("#text", Static).update(self._text())

    def _text(self) -> str:
        if self.layout_lines is not None:
            self.lines = list(self.layout_lines(self.app.size.width))
        return "\n".join(self.lines)

    def _fit(self) -> None:
        """Text longer than the screen scrolls inside the dialog, whose title and way out stay
        on the screen: its border, title and last line take four of the 90% of the rows above
        the footer."""
        rows = (self.app.size.height - 1) * 9 // 10 - 4
        self.query_one(VerticalScroll).styles.max_height = max(1, min(30, rows))

    def on_key(self, event: Any) -> None:
        if event.key == self.key:
            event.stop()
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


KEYS = """\
Keys:
  d draw · t take · p pass · ←/→ choose a card (or type it: K then h for K♥, 1 0 d for 10♦)
  x or Enter discard the chosen card (a click chooses, a double click discards)
  k knock · g gin · b big gin (a dialog offers the best arrangements)
  l lay off the chosen card · a optimal layoffs · f done laying off
  h hint · u undo · n next hand · r rematch · s score sheet · : type a command
  q quit (in the middle of a hand it asks first) · Ctrl+Q quit at once
  ? this help · Esc close a dialog (↑/↓, PgUp/PgDn scroll a long one)
"""


def help_lines() -> list[str]:
    return [*KEYS.splitlines(), "", *HELP.splitlines()]
