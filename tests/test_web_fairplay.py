"""The fair-play policy the server enforces: undo never lets a player learn a hidden card and
then choose differently, hints only where both seats have them, the knocker's discard face
down, and the move clock never moving for a seat that moved in time.

Written in card notation on chosen decks (the README's example deal): the non-dealer holds
``As 2s 3s 4s 3h 7h 7d Kd 4c 7c`` and can knock with ``Kd`` after drawing ``Ad``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ginrummy.agents.style import Evidence
from ginrummy.engine import DECK, IllegalActionError, Phase, Rules, parse_cards
from ginrummy.storage import Store
from ginrummy.web import clock as clock_module
from ginrummy.web import manager as manager_module
from ginrummy.web import tables as tables_module
from ginrummy.web.dealing import Deal, commitment, deck_text
from ginrummy.web.manager import UNLIMITED, Client, Manager
from ginrummy.web.protocol import TOO_MANY_MESSAGES, ProtocolError
from ginrummy.web.tables import Options, Table
from webutil import app_client, friend_token, leaks, new_table, recv, sync

TOP = parse_cards("As Qh 2s Qd 3s Qc 4s 9s 7h Ts 7d Js 7c 6d Kd 6h 4c 9c 3h Kc Jd Ad")
DECK_ORDER = [*TOP, *(card for card in DECK if card not in TOP)]


@pytest.fixture
def fixed_deck(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every deal is the README's deck (the server's shuffle is replaced)."""
    from ginrummy.engine import Cards

    def shuffle(rng: random.Random | None = None) -> Deal:
        cards = Cards(DECK_ORDER)
        salt = "0" * 32
        return Deal(cards, salt, commitment(deck_text(cards), salt))

    monkeypatch.setattr(tables_module, "shuffle", shuffle)
    yield


class Seat:
    """A seat's socket, as the manager sees it: records what it is sent."""

    def __init__(self, manager: Manager, table: Table, seat: int | None) -> None:
        self.sent: list[dict[str, Any]] = []
        self.client = Client(table.id, seat, self._send, "10.0.0.1")
        self.manager = manager

    async def _send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)

    @property
    def state(self) -> dict[str, Any]:
        """The last state it was sent (a presence message may come after it)."""
        return [m for m in self.sent if m["type"] == "state"][-1]

    async def do(self, msg: dict[str, Any]) -> None:
        await self.manager.handle(self.client, msg)

    async def act(self, action: str) -> None:
        await self.do({"type": "action", "action": action})


async def computer_table(dealer: int) -> tuple[Manager, Store, Table, Seat]:
    """A table against the computer on the fixed deck; the computer never moves by itself
    (it would wait an hour): the test moves for it with ``table.act``."""
    store = Store("sqlite://")
    manager = Manager(store, computer_delay=3600, seed=1, limits=UNLIMITED)
    rules = Rules(first_dealer="fixed", first_dealer_seat=dealer)
    table = (await manager.create(rules, Options("computer", "beginner"), ("Ann", "C"))).table
    return manager, store, table, Seat(manager, table, 0)


async def computer_knocks(store: Store, table: Table, me: Seat) -> None:
    """The computer (the non-dealer) and I pass the upcard; it draws Ad and knocks with Kd."""
    table.act(store, 1, "pass")
    await me.act("pass")
    table.act(store, 1, "draw")
    table.act(store, 1, "knock Kd")


def stored_actions(store: Store, table: Table) -> list[str]:
    saved = store.load_game(table.id)
    assert saved is not None
    return [a.text for a in saved.hands[-1].actions]


def test_a_stock_draw_cannot_be_undone(fixed_deck: None) -> None:
    """Draw, see the card, undo, take the upcard instead: refused, and nothing changes."""

    async def run() -> None:
        manager, store, table, me = await computer_table(dealer=1)  # I am the non-dealer
        hand = table.hand
        assert hand is not None and hand.current_player == 0
        await me.act("pass")
        table.act(store, 1, "pass")  # the computer passes the upcard Jd too
        await me.act("draw")
        assert table.hand is not None and "Ad" in str(table.hand.cards(0))
        version, actions = table.version, stored_actions(store, table)
        assert table.state_for(0)["table"]["can_undo"] is False
        with pytest.raises(IllegalActionError, match="drawn from the stock cannot be put back"):
            await me.do({"type": "undo"})
        assert table.version == version and stored_actions(store, table) == actions
        assert table.options.undo_used is False
        # A discard after the draw may be taken back, to the discard, not past the draw.
        await me.act("discard Kd")
        assert table.state_for(0)["table"]["can_undo"] is True
        await me.do({"type": "undo"})
        assert table.hand is not None and len(table.hand.cards(0)) == 11
        assert stored_actions(store, table) == ["pass", "pass", "draw"]
        with pytest.raises(IllegalActionError, match="drawn from the stock"):
            await me.do({"type": "undo"})
        # The game says undo was used: at the table, in the store, and it no longer counts.
        state = table.state_for(0)
        assert state["table"]["fair_play"]["undo_used"] is True
        assert state["table"]["fair_play"]["counts"] is False
        saved = store.get_game(table.id)
        assert saved is not None and saved.options["undo_used"] is True
        manager.close()
        store.close()

    asyncio.run(run())


def test_no_undo_past_any_move_of_the_computer(fixed_deck: None) -> None:
    """Even the computer's pass or stock draw tells me something: that it did not want the
    upcard, or my discard. A move of mine may be taken back while the computer has not moved
    since, never once it has: I would try again knowing what it turned down."""

    async def run() -> None:
        manager, store, table, me = await computer_table(dealer=1)
        await me.act("pass")
        assert table.can_undo(0)  # the computer has not moved yet
        table.act(store, 1, "pass")  # it passes the upcard Jd too: it did not want it
        assert table.state_for(0)["table"]["can_undo"] is False
        with pytest.raises(IllegalActionError, match="the computer has moved since"):
            await me.do({"type": "undo"})
        await me.act("draw")
        await me.act("discard Kd")
        assert table.can_undo(0)
        table.act(store, 1, "draw")  # it draws from the stock: it did not want my Kd
        version = table.version
        assert table.state_for(0)["table"]["can_undo"] is False
        with pytest.raises(IllegalActionError, match="the computer has moved since"):
            await me.do({"type": "undo"})
        assert table.version == version and table.options.undo_used is False
        assert stored_actions(store, table) == ["pass", "pass", "draw", "discard Kd", "draw"]
        manager.close()
        store.close()

    asyncio.run(run())


def test_no_undo_after_the_computer_knocked(fixed_deck: None) -> None:
    """The computer (the non-dealer) knocks and shows its melds: my pass before it stays."""

    async def run() -> None:
        manager, store, table, me = await computer_table(dealer=0)
        await computer_knocks(store, table, me)
        hand = table.hand
        assert hand is not None and hand.phase is Phase.LAYOFF and hand.current_player == 0
        with pytest.raises(IllegalActionError, match="the computer has moved since"):
            await me.do({"type": "undo"})
        await me.act("done")
        assert table.hand is not None and table.hand.is_over
        with pytest.raises(IllegalActionError, match="once the hand is over"):
            await me.do({"type": "undo"})
        manager.close()
        store.close()

    asyncio.run(run())


def test_the_knockers_discard_stays_face_down_until_the_hand_ends(fixed_deck: None) -> None:
    async def run() -> None:
        manager, store, table, me = await computer_table(dealer=0)
        await computer_knocks(store, table, me)
        hand = table.hand
        assert hand is not None
        for seat in (0, None):
            state = table.state_for(seat)
            knock = state["view"]["history"][-1]
            assert knock == {"n": 4, "seat": 1, "action": "knock"}, knock
            assert leaks(state, hand, seat) == {}
        # the knocker sees its own card; everyone sees it once the hand is over
        assert table.state_for(1)["view"]["history"][-1]["action"] == "knock Kd"
        await me.act("done")
        for seat in (0, None):
            knock = table.state_for(seat)["view"]["history"][3]
            assert knock["action"] == "knock Kd" and knock["card"] == "Kd"
        manager.close()
        store.close()

    asyncio.run(run())


def test_no_undo_in_a_game_between_people() -> None:
    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        table = (await manager.create(Rules(), Options("friend"), ("Ann", "Bob"))).table
        assert table.hand is not None
        mover = table.hand.current_player
        assert mover is not None
        seat = Seat(manager, table, mover)
        await seat.act("pass")
        with pytest.raises(IllegalActionError, match="no undo in a game between two people"):
            await seat.do({"type": "undo"})
        manager.close()
        store.close()

    asyncio.run(run())


# -- hints -------------------------------------------------------------------------------------


def test_no_hints_between_people_unless_both_have_them() -> None:
    with app_client(seed=2) as client:
        for hints, stake, allowed in ((False, "", False), (True, "", True)):
            created = new_table(client, mode="friend", hints=hints, stake=stake)
            tokens = [created["token"], friend_token(client, created)]
            states = []
            for token in tokens:
                with client.websocket_connect(f"/ws/{created['id']}?token={token}") as ws:
                    states.append(recv(ws))
            # both seats are told the terms before the first move
            assert [s["table"]["fair_play"]["hints"] for s in states] == [allowed, allowed]
            mover = states[0]["view"]["current_player"]
            with client.websocket_connect(f"/ws/{created['id']}?token={tokens[mover]}") as ws:
                before = recv(ws)
                ws.send_json({"type": "hint"})
                reply = recv(ws)
                if allowed:
                    assert reply["type"] == "hints", reply
                else:
                    assert reply["type"] == "error" and "no hints" in reply["message"], reply
                ws.send_json({"type": "state"})
                assert recv(ws)["version"] == before["version"]
        # a game for stakes never has hints: asking for them is refused when the table opens
        refused = client.post("/api/tables", json={"mode": "friend", "hints": True, "stake": "1"})
        assert refused.status_code == 400 and "stakes has no hints" in refused.json()["message"]
        # and against the computer they are always there
        mine = new_table(client, mode="computer", level="beginner")
        with client.websocket_connect(f"/ws/{mine['id']}?token={mine['token']}") as ws:
            assert recv(ws)["table"]["fair_play"] == {
                "hints": True,
                "undo": True,
                "undo_used": False,
                "counts": True,
            }


# -- the move clock ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "meanwhile, clocks",
    [({"type": "action", "action": "pass"}, 0), ({"type": "name", "name": "Stalling"}, 1)],
    ids=["its-own-move", "a-new-name"],
)
def test_the_clock_moves_for_a_seat_out_of_time_unless_it_moved_in_time(
    monkeypatch: pytest.MonkeyPatch, meanwhile: dict[str, Any], clocks: int
) -> None:
    """The clock runs out and the server starts working out a move for the seat; a message
    of the seat's arrives meanwhile. Its own move stands and the clock's is dropped: one
    move, stored as made, and the clock task does not fail. A new name does not put the
    clock's move off (any change of the table's version did, until the next tick: a seat
    out of time renaming itself each second could dodge the clock)."""
    thinking = threading.Event()
    release = threading.Event()
    real = clock_module.timeout_move

    def slow_timeout_move(view: Any) -> Any:
        thinking.set()
        release.wait(10)
        return real(view)

    monkeypatch.setattr(clock_module, "timeout_move", slow_timeout_move)

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=6, limits=UNLIMITED)
        options = Options("friend", clock=30)
        table = (await manager.create(Rules(), options, ("Ann", "Bob"))).table
        hand = table.hand
        assert hand is not None and hand.current_player is not None
        mover = Seat(manager, table, hand.current_player)
        manager.join(mover.client)  # here: its clock runs
        assert table.deadline
        table.deadline -= 60  # the time has run out
        await manager.tick()
        while not thinking.is_set():  # the clock's move is being worked out in a thread
            await asyncio.sleep(0.01)
        await mover.do(meanwhile)
        release.set()
        for task in list(manager._tasks):
            await task  # the clock's task ends without an error
        assert table.hand is not None and len(table.hand.events) == 1
        assert len(table.clock_moves) == clocks
        if not clocks:
            assert [e.action.kind.value for e in table.hand.events] == ["pass"]
            assert stored_actions(store, table) == ["pass"]
        assert len(stored_actions(store, table)) == 1
        manager.close()
        store.close()

    asyncio.run(run())


# -- limits across sockets ---------------------------------------------------------------------


def test_a_player_flooding_from_an_address_does_not_get_the_others_moves_refused() -> None:
    # Two players behind one address (a house, a carrier's NAT) share its message rate: one
    # who spent it, from his seat and a spectator's socket at another table, had the other's
    # moves refused. A seat keeps a small reserve of its own, which a spectator never has.
    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=4)  # the real limits
        lim = manager.limits
        table = (await manager.create(Rules(), Options("friend"), ("A", "B"))).table
        elsewhere = (await manager.create(Rules(), Options("friend"), ("C", "D"))).table
        flooder, other = Seat(manager, table, 0), Seat(manager, table, 1)
        watcher = Seat(manager, elsewhere, None)  # the same address
        spent = sum(manager.allow(c.client) for c in (flooder, watcher) for _ in range(100))
        assert spent == lim.address_burst == 2 * lim.seat_burst
        assert not manager.allow(watcher.client) and not manager.allow(flooder.client)
        kept = sum(manager.allow(other.client) for _ in range(100))
        assert lim.seat_reserve_burst <= kept <= lim.seat_reserve_burst + 1
        manager.close()
        store.close()

    asyncio.run(run())


def test_limits_hold_across_many_sockets_of_one_seat() -> None:
    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=4)  # the real limits
        table = (await manager.create(Rules(), Options("friend", hints=True), ("A", "B"))).table
        hand = table.hand
        assert hand is not None and hand.current_player is not None
        seat = hand.current_player
        sockets = [Seat(manager, table, seat) for _ in range(16)]
        # More sockets than a seat may open are refused.
        opened = 0
        for s in sockets:
            if manager.may_join(table.id, seat, s.client.address) is None:
                manager.join(s.client)
                opened += 1
        assert opened == manager.limits.sockets_per_seat
        # Messages: the seat's rate is shared by its sockets (burst 30), not 30 per socket.
        allowed = sum(manager.allow(s.client) for s in sockets for _ in range(10))
        assert allowed == manager.limits.seat_burst
        # Hints: one at a time for the seat, whichever socket asks.
        first = asyncio.ensure_future(sockets[0].do({"type": "hint"}))
        await asyncio.sleep(0)
        refused = 0
        for s in sockets[1:]:
            try:
                await s.do({"type": "hint"})
            except ProtocolError:
                refused += 1
        await first
        assert refused == len(sockets) - 1
        manager.close()
        store.close()

    asyncio.run(run())


def test_the_computer_keeps_what_the_hands_showed_of_my_knocking(fixed_deck: None) -> None:
    """I knock in my first turn with 8 (3h 4c Ad): the table keeps it for the expert's reading
    of my style, and a table read again from the store has it too."""

    async def run() -> None:
        manager, store, table, me = await computer_table(dealer=1)  # I am the non-dealer
        assert table.seen == []
        await me.act("pass")
        table.act(store, 1, "pass")
        await me.act("draw")
        await me.act("knock Kd")
        assert table.seen == []  # not before the hand is over
        table.act(store, 1, "done")
        assert table.hand is not None and table.hand.is_over
        assert table.seen == [Evidence(1, 8, True)]
        saved = store.load_game(table.id)
        assert saved is not None and tables_module.table_of(saved).seen == table.seen
        # A worker process is sent it with every computer move.
        hand = table.hand
        payload = tables_module.computer_payload(table, hand.view(1), 7)
        assert payload["seen"] == [[1, 8, 1]] and payload["level"] == "beginner"
        assert json.loads(json.dumps(payload)) == payload  # plain data
        manager.close()
        store.close()

    asyncio.run(run())


def test_sockets_opened_together_are_each_counted_before_the_next_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six sockets of one seat opened at once, the database slow to answer while each is set
    up: no more than the seat's limit get in, and each is counted (the limits were checked
    before a wait on the database and counted after it, so sockets opened together all
    passed)."""
    limits = manager_module.Limits(sockets_per_seat=2, sockets_per_address=100)
    with app_client(limits=limits) as client:
        client.get("/")  # the page gives this browser its player cookie
        created = new_table(client, mode="computer")
        store = client.app.state.store  # type: ignore[attr-defined]
        for name in ("seat_owner", "claim_seat", "seat_for_token"):
            real = getattr(store, name)

            def slow(*args: Any, _real: Any = real) -> Any:
                threading.Event().wait(0.2)  # a database that takes its time
                return _real(*args)

            monkeypatch.setattr(store, name, slow)
        url = f"/ws/{created['id']}?token={created['token']}"
        with contextlib.ExitStack() as opened:
            sockets = [opened.enter_context(client.websocket_connect(url)) for _ in range(6)]
            kinds = [recv(ws)["type"] for ws in sockets]
            counted = dict(client.app.state.manager._seat_sockets)  # type: ignore[attr-defined]
        assert kinds.count("state") == 2, kinds
        assert counted == {(created["id"], 0): 2}


def test_a_new_table_gives_its_links_though_the_seat_cannot_be_claimed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The database fails as the new table's seat is claimed for the browser's player: the
    table is stored, so its links are given (a 503 left a table nobody could open)."""
    from ginrummy.storage import DatabaseUnavailable

    with app_client() as client:
        client.get("/")  # the page gives this browser its player cookie
        store = client.app.state.store  # type: ignore[attr-defined]

        def down(*args: Any) -> Any:
            raise DatabaseUnavailable("the database cannot be reached just now")

        monkeypatch.setattr(store, "seat_owner", down)
        answer = client.post("/api/tables", json={"mode": "friend", "name": "Ann"})
        assert answer.status_code == 200, answer.text
        created = answer.json()
        assert created["token"] and created["invite"]
        assert store.get_game(created["id"]) is not None


def test_a_socket_may_say_hello_when_its_addresss_message_rate_is_spent() -> None:
    """A page reloaded while other pages behind its address (its other tabs, a house) had
    spent the address's message rate: its hello was refused as one message too many, and the
    player watched his own table as a spectator. A socket's one hello is part of opening it
    (as a token in the URL is), so it is not counted against the rate; a second one still is."""
    limits = manager_module.Limits(address_rate=0.001, address_burst=5)
    with app_client(limits=limits) as client:
        client.get("/")  # the page gives this browser its player cookie
        created = new_table(client, mode="computer")
        url = f"/ws/{created['id']}"
        with client.websocket_connect(url) as other, client.websocket_connect(url) as page:
            assert recv(other)["table"]["seat"] is None
            assert recv(page)["table"]["seat"] is None
            for _ in range(6):
                other.send_json({"type": "ping"})
            answers: list[str] = []
            while len(answers) < 6:  # the computer's first move may come meanwhile
                answer = recv(other)["type"]
                answers += [] if answer == "state" else [answer]
            assert answers == ["pong"] * 5 + ["error"]
            page.send_json({"type": "hello", "token": created["token"]})
            state = recv(page)
            while state["type"] == "state" and state["table"]["seat"] is None:
                state = recv(page)  # the computer's move, still as a spectator
            assert state["type"] == "state" and state["table"]["seat"] == 0, state
            page.send_json({"type": "hello", "token": created["token"]})
            assert "hello once" in next_error(page)
            # Only a socket's first message passes so: a hello after others is counted.
            other.send_json({"type": "hello", "token": created["token"]})
            assert next_error(other) == TOO_MANY_MESSAGES


def next_error(ws: Any) -> str:
    """The next error a TestClient socket is sent, read past the states (the computer's)."""
    while True:
        msg = recv(ws)
        if msg["type"] != "state":
            assert msg["type"] == "error", msg
            return str(msg["message"])


def test_a_socket_at_its_addresss_limit_may_still_say_hello() -> None:
    """A socket already open and counted, the last its address may have, shows its seat's
    token: it opens no socket more, so the address's limit does not refuse it (it did, though
    the same socket opened with its token in the URL would have been let in)."""
    limits = manager_module.Limits(sockets_per_seat=8, sockets_per_address=2)
    with app_client(limits=limits) as client:
        client.get("/")  # the page gives this browser its player cookie
        created = new_table(client, mode="computer")
        url = f"/ws/{created['id']}"
        with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
            assert recv(first)["table"]["seat"] is None
            assert recv(second)["table"]["seat"] is None
            second.send_json({"type": "hello", "token": created["token"]})
            answer = sync(second)
            assert {m["type"] for m in answer} == {"state"}, answer
            assert answer[-1]["table"]["seat"] == 0
