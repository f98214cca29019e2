"""Helpers for the terminal tests: a seeded local game, a fixed way to play the person's seat,
and the Textual pilot pressing the keys a person would.

:func:`policy` is the person's play in every test: pass the upcard, draw from the stock, knock
or go gin as soon as possible (with the card leaving the least deadwood), else discard the card
that leaves the least deadwood, make the optimal layoffs, and pass at the wall. Against the
seeded ``simple`` computer it gives the same hand every time, so the seeds in :data:`SEEDS`
end their first hand the way their names say.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from ginrummy.engine import Rules
from ginrummy.storage import Store
from ginrummy.tui.app import PlayApp, TableScreen
from ginrummy.tui.local import LocalGame
from ginrummy.tui.words import legal

#: Seeds whose first hand, played by :func:`policy` against ``simple`` under the standard
#: rules, ends so (found by playing seeds 1 to 80): who knocks, who wins.
SEEDS = {
    "knock": 4,  # the person knocks and wins
    "knocked": 5,  # the computer knocks: the person lays off
    "gin": 23,  # the person goes gin
    "undercut": 42,  # the computer knocks, the person undercuts
    "dead": 32,  # nobody knocks before the wall
    "undo": 2,  # the person passes the upcard first, then the computer passes too
    "answered": 1,  # the person passes the upcard first, the computer takes it and discards
}
GAME_ID = "TermTest"


def new_game(seed: int, store: Store | None = None, **kwargs: Any) -> LocalGame:
    """A seeded game against ``simple`` (standard rules unless ``rules``), no computer delay."""
    rules = kwargs.pop("rules", Rules.preset("standard"))
    return LocalGame.create(
        store if store is not None else Store("sqlite://"),
        rules,
        level=kwargs.pop("level", "simple"),
        seed=seed,
        game_id=kwargs.pop("game_id", GAME_ID),
        **kwargs,
    )


def policy(state: dict[str, Any]) -> str:
    """The person's action (see the module's docstring)."""
    view, moves = state["view"], legal(state)
    phase = view["phase"]
    if phase in ("first_upcard", "wall"):
        return "pass"
    if phase == "draw":
        return "draw"
    if phase == "layoff":
        return "auto"
    after: dict[str, int] = view["discard_deadwood"]
    for kind in ("gin", "knock"):
        ends = [m for m in moves if m.startswith(f"{kind} ")]
        if ends:
            return min(ends, key=lambda m: after[m.split()[1]])
    cards = [m.split()[1] for m in moves if m.startswith("discard ")]
    return "discard " + min(cards, key=lambda c: (after[c], c))


def keys_for(action: str) -> list[str]:
    """The keys a person presses for an action: a card is typed by name (``K`` ``h``)."""
    kind, _, card = action.partition(" ")
    simple = {"pass": "p", "draw": "d", "take": "t", "auto": "a", "done": "f"}
    if kind in simple:
        return [simple[kind]]
    if kind == "discard":
        return [card[0], card[1], "x"]
    if kind in ("knock", "gin"):
        return [kind[0], "enter"]  # the dialog opens on the best arrangement
    raise AssertionError(f"no keys for {action!r}")


def table(app: PlayApp) -> TableScreen:
    return app.table


def screen_text(app: PlayApp) -> str:
    """What the terminal shows now, as text (the screen on top, dialogs included)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def waiting_for_me(app: PlayApp) -> bool:
    state = table(app).state
    if state is None:
        return False
    return bool(legal(state)) or state["view"]["phase"] == "over"


async def until(pilot: Pilot[Any], ready: Callable[[], bool], what: str, limit: float = 60) -> None:
    """Let the app run until ``ready()`` (failing, not hanging, if it never is)."""
    deadline = time.monotonic() + limit
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}:\n{screen_text(pilot.app)}")
        await pilot.pause(0.02)


async def press_action(pilot: Pilot[Any], app: PlayApp, action: str) -> None:
    """Press the keys for ``action`` and wait until the table answered and waits for me."""
    state = table(app).state
    assert state is not None
    before = state["version"]
    for key in keys_for(action):
        await pilot.press(key)
    await until(
        pilot,
        lambda: (table(app).state or {}).get("version", before) != before and waiting_for_me(app),
        f"the answer to {action!r}",
    )


async def play_hand(
    pilot: Pilot[Any], app: PlayApp, stop: Callable[[], bool] | None = None
) -> None:
    """Play the person's seat by :func:`policy` until the hand is over (or ``stop()``)."""
    await until(pilot, lambda: waiting_for_me(app), "the first state")
    while True:
        state = table(app).state
        assert state is not None
        if state["view"]["phase"] == "over" or (stop is not None and stop()):
            return
        await press_action(pilot, app, policy(state))
