"""Pictures of the terminal table's main screens at 80x24 (the smallest it is made for) and
120x40, compared with the accepted ones in ``__snapshots__/`` (pytest-textual-snapshot; after
a deliberate change of the look, ``--snapshot-update`` accepts the new pictures).

Every game is seeded and dealt by the same code, so each picture is the same on every run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from ginrummy.engine import Rules
from ginrummy.tui.app import PlayApp
from tuiutil import SEEDS, new_game, play_hand, policy, screen_text, table, until, waiting_for_me

Compare = Callable[..., bool]
SIZES = [(80, 24), (120, 40)]


def at_start(app: PlayApp) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the deal")

    return run


def choosing_a_discard(app: PlayApp) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "discard")
        await pilot.press("right", "right")

    return run


def knock_dialog(app: PlayApp) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app, stop=lambda: policy(table(app).state).startswith("knock"))
        await pilot.press("k")
        await until(pilot, lambda: "Knock, discarding" in screen_text(app), "the dialog")

    return run


def laying_off(app: PlayApp) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "layoff")

    return run


def showdown(app: PlayApp) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app)
        await until(pilot, lambda: "n Next hand" in screen_text(app), "the footer")

    return run


def score_sheet(app: PlayApp) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app)

        # The log's last line (the deal's verdict) on screen: the log has scrolled to its end
        # (below 72 columns the log is under the table, out of sight).
        def at_end() -> bool:
            return app.size.width < 72 or "cards came from it." in screen_text(app)

        await until(pilot, at_end, "the log's end")
        await pilot.press("s")
        await until(pilot, lambda: "Score sheet" in screen_text(app), "the sheet")

    return run


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_deal(snap_compare: Compare, size: tuple[int, int]) -> None:
    app = PlayApp(new_game(SEEDS["knock"]))
    assert snap_compare(app, terminal_size=size, run_before=at_start(app))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_choosing_a_discard(snap_compare: Compare, size: tuple[int, int]) -> None:
    app = PlayApp(new_game(SEEDS["knock"]))
    assert snap_compare(app, terminal_size=size, run_before=choosing_a_discard(app))


def test_the_knock_dialog(snap_compare: Compare) -> None:
    app = PlayApp(new_game(SEEDS["knock"]))
    assert snap_compare(app, terminal_size=(80, 24), run_before=knock_dialog(app))


def test_laying_off(snap_compare: Compare) -> None:
    app = PlayApp(new_game(SEEDS["knocked"]))
    assert snap_compare(app, terminal_size=(80, 24), run_before=laying_off(app))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_showdown(snap_compare: Compare, size: tuple[int, int]) -> None:
    app = PlayApp(new_game(SEEDS["gin"]))
    assert snap_compare(app, terminal_size=size, run_before=showdown(app))


def test_the_score_sheet(snap_compare: Compare) -> None:
    app = PlayApp(new_game(SEEDS["knocked"]))
    assert snap_compare(app, terminal_size=(80, 24), run_before=score_sheet(app))


@pytest.mark.parametrize("size", [(80, 24), (40, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hollywood_score_sheet(snap_compare: Compare, size: tuple[int, int]) -> None:
    """Three games' scores fit 80 columns, and 40 a hand in two lines."""
    app = PlayApp(new_game(SEEDS["knocked"], rules=Rules.preset("hollywood")))
    assert snap_compare(app, terminal_size=size, run_before=score_sheet(app))
