"""A seat at a table, as the screens see it: the web app's protocol messages both ways.

The app and the plain mode send the messages a browser sends (``{"type": "action", "action":
"discard Kh"}``, ``next``, ``undo``, ``hint``, ``state``, ``rematch``) and draw whatever comes
back (``state``, ``hints``, ``error``, ``presence``), whether the table is a local game against
the computer (:class:`~ginrummy.tui.local.LocalGame`) or a table of a running ``ginrummy
serve`` (:class:`~ginrummy.tui.remote.RemoteSession`). Nothing on the screen knows which.

Two messages exist only here: ``{"type": "connection", "connected": false}`` when a joined
table's socket dropped (and ``true`` once it is back), and ``{"type": "closed"}`` when the
session has ended for good.
"""

from __future__ import annotations

from typing import Any, Protocol

Message = dict[str, Any]


class Session(Protocol):
    #: One line about the table for the screen's title ("game x7Qa9b2C, saved as you play").
    label: str
    #: The table's clock less this machine's, in seconds: the move clock in a state is the
    #: table's time, and counted down by ``time.time() + skew``.
    skew: float

    async def start(self) -> None:
        """Begin: the first ``state`` message is on its way once this returns."""

    async def send(self, message: Message) -> None:
        """A client message; its answer comes through :meth:`receive`."""

    async def receive(self) -> Message:
        """The next message for this seat (waits for it)."""

    async def close(self) -> None:
        """Stop: nothing more is sent or received."""


def error(message: str) -> Message:
    return {"type": "error", "message": message}
