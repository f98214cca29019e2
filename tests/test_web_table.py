"""What the table tells each seat beyond the rules: the deadwood each discard would leave,
whether the other seat is connected, the players' own names, and a rematch at a new table
with the same seats.

On the README's deck (tests/test_web_fairplay.py): the non-dealer holds
``As 2s 3s 4s 3h 7h 7d Kd 4c 7c`` and draws ``Ad``.
"""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest

from ginrummy.agents import get_agent
from ginrummy.engine import IllegalActionError, Rules, deadwood, parse_cards
from ginrummy.storage import Store
from ginrummy.web import computer as computer_module
from ginrummy.web.manager import UNLIMITED, Manager
from ginrummy.web.protocol import ProtocolError
from ginrummy.web.tables import Options
from test_web_fairplay import Seat, computer_knocks, computer_table, fixed_deck
from webutil import app_client, friend_token, new_table, recv

__all__ = ["fixed_deck"]  # a fixture, used by name


def test_the_deadwood_each_discard_would_leave(fixed_deck: None) -> None:
    async def run() -> None:
        manager, store, table, me = await computer_table(dealer=1)
        await me.act("pass")
        table.act(store, 1, "pass")
        assert table.state_for(0)["view"]["discard_deadwood"] == {}  # not discarding yet
        await me.act("draw")
        view = table.state_for(0)["view"]
        held = parse_cards("As 2s 3s 4s 3h 7h 7d Kd 4c 7c Ad")
        assert sorted(view["hand"].split()) == sorted(str(c) for c in held)
        left = view["discard_deadwood"]
        # Kd leaves A-4 of spades and the sevens, with 3h 4c Ad over: 8
        assert left["Kd"] == 8 and min(left.values()) == 8
        assert left["4c"] == 14 and left["3h"] == 15
        for card in held:
            rest = [c for c in held if c != card]
            assert left[str(card)] == deadwood(rest), card
        # the other seat, and spectators, are told nothing of it
        assert table.state_for(1)["view"]["discard_deadwood"] == {}
        assert "discard_deadwood" not in table.state_for(None)["view"]
        manager.close()
        store.close()

    asyncio.run(run())


def presence(ws: Any, expected: list[bool]) -> bool:
    """Whether news that ``expected`` seats are connected comes (a socket is told of its own
    arrival too, so other news may come first); times out otherwise."""
    while True:
        msg = recv(ws, presence=True)
        if msg["type"] == "presence" and msg["connected"] == expected:
            return True


def test_each_seat_sees_whether_the_other_is_connected() -> None:
    with app_client() as client:
        created = new_table(client, mode="friend", name="Ann")
        tid, tokens = created["id"], [created["token"], friend_token(client, created)]
        with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as ws0:
            assert recv(ws0)["table"]["connected"] == [True, False]
            with client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as ws1:
                assert recv(ws1)["table"]["connected"] == [True, True]
                assert presence(ws0, [True, True])
                with client.websocket_connect(f"/ws/{tid}") as spec:  # spectators don't count
                    assert recv(spec)["table"]["connected"] == [True, True]
            assert presence(ws0, [True, False])
        # against the computer, the computer is always there
        vs = new_table(client, mode="computer")
        with client.websocket_connect(f"/ws/{vs['id']}?token={vs['token']}") as ws:
            assert recv(ws)["table"]["connected"] == [True, True]


def test_the_invited_player_gives_a_name() -> None:
    with app_client() as client:
        created = new_table(client, mode="friend", name="Ann")
        tid, tokens = created["id"], [created["token"], friend_token(client, created)]
        with (
            client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as ws0,
            client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as ws1,
            client.websocket_connect(f"/ws/{tid}") as spec,
        ):
            first = recv(ws1)
            assert first["table"]["names"] == ["Ann", "Player 2"]  # nobody is called "You"
            recv(ws0), recv(spec)
            ws1.send_json({"type": "name", "name": "  Bob \t Jones "})
            for ws in (ws0, ws1, spec):
                assert recv(ws)["table"]["names"] == ["Ann", "Bob Jones"]
            for ws, bad in ((ws1, "   "), (ws1, "x" * 3000), (spec, "Eve")):
                ws.send_json({"type": "name", "name": bad})
                assert recv(ws)["type"] == "error"
            saved = client.get(f"/api/replay/{tid}")  # open games cannot be replayed...
            assert saved.status_code == 403
        with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as ws0:
            assert recv(ws0)["table"]["names"] == ["Ann", "Bob Jones"]  # ... but it was stored


async def _finished_game() -> tuple[Any, Any, Any, Seat, Seat]:
    """A one-point game against the computer that the computer wins at once by knocking."""
    store = Store("sqlite://")
    manager = Manager(store, computer_delay=3600, seed=1, limits=UNLIMITED)
    rules = Rules(first_dealer="fixed", first_dealer_seat=0, game_target=1)
    table = (await manager.create(rules, Options("computer", "beginner"), ("Ann", "C"))).table
    me = Seat(manager, table, 0)
    # the computer (non-dealer) passes the upcard, I pass, it draws Ad and knocks with Kd
    table.act(store, 1, "pass")
    await me.act("pass")
    table.act(store, 1, "draw")
    table.act(store, 1, "knock Kd")
    await me.act("auto")  # optimal layoffs end the hand
    spectator = Seat(manager, table, None)
    manager.join(spectator.client)
    manager.join(me.client)
    return manager, store, table, me, spectator


def test_a_rematch_keeps_the_seats_and_takes_everyone_along(fixed_deck: None) -> None:
    async def run() -> None:
        manager, store, table, me, spectator = await _finished_game()
        with pytest.raises(IllegalActionError, match="once the game is over"):
            created = await manager.create(table.rules, Options("computer"), ("Ann", "C"))
            await Seat(manager, created.table, 0).do({"type": "rematch"})
        assert table.finished
        with pytest.raises(ProtocolError, match="spectators"):
            await spectator.do({"type": "rematch"})
        await me.do({"type": "rematch"})
        new_id = table.options.rematch
        assert new_id and new_id != table.id
        new = manager.tables[new_id]
        assert new.names == table.names and new.rules == table.rules
        assert new.options.mode == "computer" and not new.options.undo_used
        assert new.hand is not None and not new.finished
        # both the seat and the spectator were told where the game goes on
        for seat in (me, spectator):
            assert seat.sent[-1]["table"]["rematch"] == new_id
        # the seat's token holds at the new table; asked again, the same table
        old_hashes = store.seat_hashes(table.id)
        assert store.seat_hashes(new_id) == old_hashes
        assert store.seat_for_token(new_id, old_hashes[0][1]) == 0
        await me.do({"type": "rematch"})
        assert table.options.rematch == new_id and len(manager.tables) == 3  # 2 + the rematch
        saved = store.get_game(table.id)
        assert saved is not None and saved.options["rematch"] == new_id
        manager.close()
        store.close()

    asyncio.run(run())


def test_the_review_lists_a_deliberately_bad_discard(fixed_deck: None) -> None:
    """On the README's deck I draw Ad and could knock with Kd; I break my spades instead."""

    async def run() -> None:
        manager, store, table, me = await computer_table(dealer=1)
        await me.act("pass")
        table.act(store, 1, "pass")
        await me.act("draw")
        with pytest.raises(IllegalActionError, match="once it is over"):
            await me.do({"type": "review"})
        await me.act("discard 4s")  # the mistake: "knock Kd" was there
        simple, rng = get_agent("simple"), random.Random(1)
        while not (hand := table.hand).is_over:  # both play on as the simple player would
            seat = hand.current_player
            assert seat is not None
            action = str(simple.act(hand.view(seat, (0, 0)), rng))
            if seat == 0:
                await me.act(action)
            else:
                table.act(store, 1, action)
        await me.do({"type": "review"})
        review = me.sent[-1]
        assert review["type"] == "review" and review["hand"] == 1
        mistakes = review["mistakes"]
        assert mistakes, "the bad discard was not found"
        bad = next(m for m in mistakes if m["move"] == 4)
        assert bad["played"] == "discard 4s" and bad["best"] == "knock Kd"
        assert bad["cost"] > 0 and bad["unit"] in ("%", "points") and bad["reason"]
        costs = [m["cost"] for m in mistakes]
        assert costs == sorted(costs, reverse=True)  # the biggest first
        assert all(m["move"] != 3 for m in mistakes)  # the computer's moves are not mine
        # the hand again, step by step with both hands, for the review's replay
        steps = review["replay"]["steps"]
        assert len(steps) == len(table.hand.events) + 1
        assert steps[0]["hands"][0] == "As 2s 3s 4s 3h 7h 7d Kd 4c 7c"
        assert steps[4]["event"] == {"n": 4, "seat": 0, "action": "discard 4s", "card": "4s"}
        with pytest.raises(ProtocolError, match="spectators cannot"):
            await Seat(manager, table, None).do({"type": "review"})
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_review_names_the_hand_it_reviews_though_the_next_is_dealt_meanwhile(
    fixed_deck: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """I ask for the review of hand 1; while the expert works on it another tab of my seat
    deals hand 2. The review says it is hand 1's (the page keys reviews by hand: labelled 2,
    it showed hand 1's mistakes as hand 2's)."""
    started = threading.Event()
    real = computer_module.review_hand

    def slow_review(*args: Any, **kwargs: Any) -> Any:
        started.set()
        threading.Event().wait(0.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(computer_module, "review_hand", slow_review)

    async def run() -> None:
        manager, store, table, me = await computer_table(dealer=0)
        await computer_knocks(store, table, me)
        await me.act("done")
        assert table.hand is not None and table.hand.is_over and table.hand_number == 1
        asking = asyncio.ensure_future(me.do({"type": "review"}))
        while not started.is_set():
            await asyncio.sleep(0.01)
        await Seat(manager, table, 0).do({"type": "next"})  # the other tab
        assert table.hand_number == 2
        await asking
        review = me.sent[-1]
        assert review["type"] == "review" and review["hand"] == 1
        assert review["replay"]["steps"][0]["hands"][0] == "9s Ts Js 6h Qh 6d Qd 9c Qc Kc"
        manager.close()
        store.close()

    asyncio.run(run())


def test_between_people_the_review_waits_for_the_end_of_the_game() -> None:
    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=3600, seed=3, limits=UNLIMITED)
        table = (await manager.create(Rules(), Options("friend", hints=False), ("A", "B"))).table
        simple, rng = get_agent("simple"), random.Random(2)
        while not (hand := table.hand).is_over:
            seat = hand.current_player
            assert seat is not None
            table.act(store, seat, str(simple.act(hand.view(seat, (0, 0)), rng)))
        assert not table.game.is_over  # one hand does not end a game to 100
        with pytest.raises(IllegalActionError, match="once the game is over"):
            await Seat(manager, table, 0).do({"type": "review"})
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_match_tables_players_are_told_the_match_points() -> None:
    """The computer, the hints and the review weigh a game of a match by its net, so the
    views the table gives them carry the match points before the game."""
    from ginrummy.engine.game import Game
    from ginrummy.engine.match import Match
    from ginrummy.web.tables import Table

    rules = Rules(game_target=10, match_target=500)  # almost any hand won ends a game
    match = Match(rules, seed=4)
    table = Table("t", rules, ("Ann", "Bob"), Options("friend", match=True), match)
    simple, rng = get_agent("simple"), random.Random(2)
    table.start(table.next_deal(rng))
    assert table.hand is not None and table.player_view(table.hand, 0).match_points == (0, 0)
    while len(match.games) < 2:
        hand = table.hand
        assert hand is not None
        if hand.is_over:
            table.start(table.next_deal(rng))
            continue
        seat = hand.current_player
        assert seat is not None
        table.commit(table.plan(seat, str(simple.act(table.player_view(hand, seat), rng))))
    table.start(table.next_deal(rng))
    assert sum(match.totals) > 0 and table.match_before == match.totals
    assert table.hand is not None
    for seat in (0, 1):
        view = table.player_view(table.hand, seat)
        assert view.match_points == match.totals and view.scores == (0, 0)
    # A game on its own says so.
    alone = Table("u", rules, ("Ann", "Bob"), Options("friend"), Game(rules, seed=4))
    alone.start(alone.next_deal(rng))
    assert alone.hand is not None and alone.player_view(alone.hand, 0).match_points is None
    assert alone.match_before is None


def test_the_views_for_the_computer_and_hints_keep_a_knock_face_down() -> None:
    """The knocker's discard lies face down until the hand is over: the views the table gives
    the computer, the hints and the clock's move (sent to worker processes as JSON) say
    ``knock`` alone to the defender, and the card once the hand is over."""
    from ginrummy.engine import ActionKind
    from ginrummy.engine.game import Game
    from ginrummy.engine.hand import Phase
    from ginrummy.engine.views import PlayerView
    from ginrummy.web.tables import Table

    rules = Rules()
    simple, rng = get_agent("simple"), random.Random(5)
    knocks = 0
    for _ in range(12):
        table = Table("t", rules, ("Ann", "Bob"), Options("friend"), Game(rules, seed=4))
        table.start(table.next_deal(rng))
        hand = table.hand
        assert hand is not None
        while not hand.is_over and hand.phase is not Phase.LAYOFF:
            seat = hand.current_player
            assert seat is not None
            table.commit(table.plan(seat, str(simple.act(table.player_view(hand, seat), rng))))
            hand = table.hand
            assert hand is not None
        if hand.is_over:
            continue  # a gin or a dead hand: no discard lies face down
        knocks += 1
        knocker = hand.knocker
        assert knocker is not None and hand.knock_card is not None
        defender = table.player_view(hand, 1 - knocker)
        (knock,) = [e for e in defender.history if e.action.kind is ActionKind.KNOCK]
        assert knock.action.card is None and knock.card is None
        assert str(hand.knock_card) not in defender.to_dict().__repr__()
        assert PlayerView.from_dict(defender.to_dict()) == defender  # as a worker gets it
        assert simple.act(defender, rng) in defender.legal_actions
        own = table.player_view(hand, knocker)
        assert [e.action.card for e in own.history if e.action.kind is ActionKind.KNOCK] == [
            hand.knock_card
        ]
        while not hand.is_over:
            seat = hand.current_player
            assert seat is not None
            table.commit(table.plan(seat, str(simple.act(table.player_view(hand, seat), rng))))
            hand = table.hand
            assert hand is not None
        after = table.player_view(hand, 1 - knocker)
        assert hand.knock_card in [e.action.card for e in after.history]
    assert knocks >= 3


def test_an_address_busy_with_the_expert_waits_for_its_review(fixed_deck: None) -> None:
    """Reviews count against the requests an address may have with the expert at once, as
    hints do: many finished tables must not fill the expert's workers."""

    async def run() -> None:
        manager, store, _, me, _ = await _finished_game()
        busy = manager.limits.hints_at_once_per_address
        manager._address_hints[me.client.address] = busy  # as many hints in flight as allowed
        with pytest.raises(ProtocolError, match="busy with requests from your address"):
            await me.do({"type": "review"})
        manager._address_hints[me.client.address] = busy - 1
        await me.do({"type": "review"})
        assert me.sent[-1]["type"] == "review"
        assert manager._address_hints[me.client.address] == busy - 1  # its own count given back
        manager.close()
        store.close()

    asyncio.run(run())
