"""No seat is ever told a card it may not know.

Random games are played by random legal moves, and EVERY message to every seat, spectator and
bad-token watcher is searched, as JSON, for card names: before the hand is over no message to a
seat names a card of the opponent's hidden hand (his cards less the public ones: taken from the
pile, laid down after a knock, laid off) or of the stock, and a spectator is told neither seat's
hidden cards. The deck and salt are revealed only when the hand is over, and they check out
against the commitment published at the deal.

Most games go through the table manager with recording ``send`` functions (fast, and the check
runs at the very moment each message is sent); a few go through real sockets of the app.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from ginrummy.engine import DECK, Hand, Rules
from ginrummy.engine.views import PlayerView
from ginrummy.storage import Store
from ginrummy.web import computer as computer_module
from ginrummy.web.dealing import verify
from ginrummy.web.manager import UNLIMITED, Client, Manager
from ginrummy.web.protocol import ProtocolError
from ginrummy.web.tables import Options, Table
from webutil import (
    app_client,
    card_tokens,
    friend_token,
    hidden_cards,
    leaks,
    new_table,
    pick,
    recv,
    unlimited_rate,
)

ALL = [str(c) for c in DECK]
HINT_VIEWS: list[PlayerView] = []  # what the hints were worked out from, latest last


@pytest.fixture(autouse=True)
def _quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints weigh 8 sampled deals instead of thinking for 300 ms, and say what they were given."""
    from ginrummy.agents import hints

    original = hints.hint
    HINT_VIEWS.clear()

    def quick(view: PlayerView, **kwargs: Any) -> Any:
        HINT_VIEWS.append(view)
        return original(view, **{**kwargs, "worlds": 8})

    monkeypatch.setattr(hints, "hint", quick)
    monkeypatch.setattr(computer_module, "hint", quick, raising=False)  # imported by name there


@dataclass
class Watcher:
    """A recording connection: checks each message when it is sent, keeps what went wrong."""

    table: Table
    seat: int | None
    name: str
    problems: list[str]
    last: dict[str, Any] | None = None
    count: int = 0
    reveals: int = 0
    commitments: dict[int, str] = field(default_factory=dict)

    async def send(self, msg: dict[str, Any]) -> None:
        self.count += 1
        data = json.loads(json.dumps(msg))  # what goes over the wire
        hand = self.table.hand
        kind = data.get("type")
        if kind == "state":
            self.last = data
        if hand is None:
            return
        number = self.table.hand_number
        if kind == "state":
            commitment = data["table"]["commitment"]
            self.commitments.setdefault(number, commitment)
            if commitment != self.commitments[number]:
                self.problems.append(f"{self.name}: the commitment changed during hand {number}")
        if hand.is_over:
            if kind == "state":
                self.check_reveal(data, hand)
            return
        if "reveal" in data:
            self.problems.append(f"{self.name}: a reveal before the hand is over")
        if kind == "hints":
            self.check_hints(data, hand)
            return
        found = leaks(data, hand, self.seat)
        if found:
            self.problems.append(f"{self.name}: hidden cards {found} in a {kind} message")

    def check_hints(self, data: dict[str, Any], hand: Hand) -> None:
        """Hints name unseen cards ("keeps Td Jd open (9d Qd still live)"), and every unseen
        card is hidden, so the card search says nothing here. What matters is that the hints
        are worked out from this seat's own view and nothing else: check what they were given.
        """
        assert self.seat is not None
        # The seat's own view as the table gives it to whatever weighs it (the other's knock
        # card face down until the hand is over, as at the table).
        own = self.table.player_view(hand, self.seat)
        if not HINT_VIEWS or HINT_VIEWS[-1] != own:
            self.problems.append(f"{self.name}: hints worked out from something else")

        def move(action: str) -> str:  # a knock's melds left out: hints may name their own
            return " ".join(action.split()[:2])

        legal = {move(str(a)) for a in hand.legal_actions()}
        if not {move(h["action"]) for h in data["hints"]} <= legal:
            self.problems.append(f"{self.name}: hints for moves that are not legal")

    def check_reveal(self, data: dict[str, Any], hand: Hand) -> None:
        reveal = data.get("reveal")
        if reveal is None:
            self.problems.append(f"{self.name}: no reveal when the hand is over")
            return
        self.reveals += 1
        number = self.table.hand_number
        if not verify(reveal["deck"], reveal["salt"], self.commitments[number]):
            self.problems.append(f"{self.name}: the reveal does not verify")
        if reveal["deck"] != "".join(str(c) for c in hand.deck):
            self.problems.append(f"{self.name}: the revealed deck is not the deck played")


async def _connect(
    manager: Manager, table: Table, seat: int | None, name: str, problems: list[str]
) -> tuple[Watcher, Client]:
    watcher = Watcher(table, seat, name, problems)
    client = Client(table.id, seat, watcher.send)
    manager.join(client)
    await client.send(table.state_for(seat))  # what the app sends on connecting
    return watcher, client


async def _bad_action(manager: Manager, client: Client, table: Table, rng: random.Random) -> None:
    """A seat names some card in an illegal move: the error tells it no other hidden card."""
    hand = table.hand
    assert hand is not None and client.seat is not None
    card = rng.choice(ALL)
    text = rng.choice(["discard", "layoff", "knock", "gin", "take", "draw"]) + f" {card}"
    secret = hidden_cards(hand, client.seat) - {card}
    version = table.version
    try:
        await manager.handle(client, {"type": "action", "action": text})
    except (ProtocolError, ValueError) as exc:
        named = set(card_tokens(str(exc))) & secret
        assert not named, f"the error for {text!r} names hidden cards {named}: {exc}"
        assert table.version == version
    # else it was a legal move, and was played


async def play_friend_games(seed: int, rules: Rules, hands: int) -> tuple[int, int]:
    """Random friend hands at one table; returns (messages checked, hands played)."""
    rng = random.Random(seed)
    store = Store("sqlite://")
    manager = Manager(store, computer_delay=0, seed=seed, limits=UNLIMITED)
    created = await manager.create(rules, Options("friend"), ("Ann", "Bob"))
    table = created.table
    problems: list[str] = []
    seats = [await _connect(manager, table, s, f"seat {s}", problems) for s in (0, 1)]
    spectator = await _connect(manager, table, None, "spectator", problems)
    played = 0
    phases: set[str] = set()
    try:
        while played < hands:
            hand = table.hand
            assert hand is not None
            if hand.is_over:
                played += 1
                if table.finished or played == hands:
                    break
                first = rng.randrange(2)  # between people, both ask for the next hand
                for seat in (first, 1 - first):
                    await manager.handle(seats[seat][1], {"type": "next"})
                continue
            mover = hand.current_player
            assert mover is not None
            phases.add(hand.phase.value)
            watcher, client = seats[mover]
            assert watcher.last is not None
            view = watcher.last["view"]
            assert view["seat"] == mover and view["current_player"] == mover
            roll = rng.random()
            if roll < 0.05:
                await _bad_action(manager, client, table, rng)
                continue
            if roll < 0.08:
                await manager.handle(client, {"type": "hint"})
            if roll > 0.97:
                await manager.handle(seats[1 - mover][1], {"type": "state"})
            action = pick(view, rng, knock_bias=0.5)
            await manager.handle(client, {"type": "action", "action": action})
        assert not problems, "\n".join(problems[:10])
        for watcher, client in [*seats, spectator]:
            assert client in manager.clients[table.id], f"{watcher.name} was dropped"
            assert watcher.reveals >= played, watcher.name
        print(f"seed {seed}: {played} hands, phases {sorted(phases)}")
        return sum(w.count for w, _ in [*seats, spectator]), played
    finally:
        store.close()


GAMES = [
    (1, Rules.preset("standard"), 5),
    (2, Rules.preset("oklahoma"), 4),
    (3, Rules.preset("hollywood"), 4),
    (4, Rules.preset("straight", big_gin=True), 3),
    (5, Rules.preset("standard", wall_pickup=True, knock_limit=3), 4),
    (6, Rules.preset("standard", deal="eleven"), 4),
    (7, Rules.preset("eaai", game_target=30), 4),
    (8, Rules.preset("modern", knock_limit=1), 3),
]


@pytest.mark.parametrize(("seed", "rules", "hands"), GAMES, ids=[str(g[0]) for g in GAMES])
def test_friend_games_tell_no_seat_a_hidden_card(seed: int, rules: Rules, hands: int) -> None:
    checked, played = asyncio.run(play_friend_games(seed, rules, hands))
    assert played >= 1 and checked > 40 * played


def test_computer_games_tell_the_person_no_hidden_card() -> None:
    async def run() -> None:
        rng = random.Random(21)
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=21, limits=UNLIMITED)
        problems: list[str] = []
        for level in ("beginner", "intermediate"):
            created = await manager.create(Rules(), Options("computer", level), ("Ann", "Computer"))
            table = created.table
            person, client = await _connect(manager, table, 0, f"{level}: you", problems)
            watching = await _connect(manager, table, None, f"{level}: spectator", problems)
            for _hand in range(2):
                deadline = asyncio.get_running_loop().time() + 60
                while True:
                    assert asyncio.get_running_loop().time() < deadline, "the computer is stuck"
                    hand = table.hand
                    assert hand is not None
                    if hand.is_over:
                        break
                    if hand.current_player != 0:  # the computer is thinking
                        await asyncio.sleep(0.002)
                        continue
                    assert person.last is not None
                    view = person.last["view"]
                    if view["current_player"] != 0:  # its last move is on the way
                        await asyncio.sleep(0.002)
                        continue
                    action = pick(view, rng)
                    await manager.handle(client, {"type": "action", "action": action})
                assert person.reveals and watching[0].reveals
                if not table.finished:
                    await manager.handle(client, {"type": "next"})
        assert not problems, "\n".join(problems[:10])
        store.close()

    asyncio.run(run())


def test_sockets_tell_no_seat_a_hidden_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two friend hands through the app's sockets, the text of every message searched."""
    unlimited_rate(monkeypatch)
    rng = random.Random(31)
    with app_client(seed=31) as client:
        created = new_table(client, mode="friend")
        tid = created["id"]
        client.cookies.clear()
        table = client.app.state.manager.tables[tid]  # type: ignore[attr-defined]
        tokens = [created["token"], friend_token(client, created)]
        with (
            client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as ws0,
            client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as ws1,
            client.websocket_connect(f"/ws/{tid}") as spec,
            client.websocket_connect(f"/ws/{tid}?token=wrong") as stranger,
        ):
            assert recv(stranger)["type"] == "error"  # "watching as a spectator"
            sockets = [(ws0, 0), (ws1, 1), (spec, None), (stranger, None)]
            last: list[dict[str, Any]] = []
            commitment = ""
            hands = 0

            def receive_all() -> None:
                nonlocal commitment
                last.clear()
                messages = [recv(ws) for ws, _ in sockets]
                hand = table.hand  # the server has acted: it is waiting for the next move
                for msg, (_ws, seat) in zip(messages, sockets, strict=True):
                    assert msg["type"] == "state"
                    commitment = msg["table"]["commitment"]
                    if hand.is_over:
                        assert verify(msg["reveal"]["deck"], msg["reveal"]["salt"], commitment)
                    else:
                        assert "reveal" not in msg
                        assert leaks(msg, hand, seat) == {}, (seat, msg)
                    last.append(msg)

            receive_all()
            while hands < 2:
                if last[0]["view"]["phase"] == "over":
                    hands += 1
                    for ws in (ws0, ws1):  # between people, both ask for the next hand
                        ws.send_json({"type": "next"})
                        receive_all()
                    continue
                mover = last[0]["view"]["current_player"]
                action = pick(last[mover]["view"], rng, knock_bias=0.4)
                sockets[mover][0].send_json({"type": "action", "action": action})
                receive_all()


def test_the_search_finds_planted_cards() -> None:
    """The check itself: a hidden card is found wherever it is put, and only hidden cards."""
    store = Store("sqlite://")
    manager = Manager(store, computer_delay=0, seed=5, limits=UNLIMITED)
    table = asyncio.run(manager.create(Rules(), Options("friend"), ("Ann", "Bob"))).table
    store.close()
    assert table.hand is not None
    hand = table.hand
    message = table.state_for(1)
    assert leaks(message, hand, 1) == {}
    opponent = [str(c) for c in hand.cards(0)]  # seat 1's opponent
    stock = [str(c) for c in hand.stock]
    upcard = str(hand.discard_pile[-1])
    for planted, where in [
        ({**message, "extra": opponent[3]}, "extra"),
        ({**message, "extra": {"deep": [f"knock {stock[-1]}"]}}, "extra/deep/0"),
        ({**message, "extra": f"A{stock[0]}B"}, None),  # inside a word: not a card name
        ({**message, f"key {stock[5]}": 1}, f"key {stock[5]}"),
    ]:
        found = leaks(planted, hand, 1)
        if where is None:
            assert found == {}
        else:
            assert list(found.values()) == [where], found
    run = opponent[0] + opponent[1]  # cards written together, as in meld text
    assert set(leaks({"m": [run]}, hand, 1)) == {opponent[0], opponent[1]}
    assert leaks({"m": upcard}, hand, 1) == {}  # the upcard is public
    assert leaks({"m": " ".join(opponent)}, hand, 0) == {}  # seat 0's own cards
    assert set(leaks({"m": " ".join(opponent)}, hand, None)) == set(opponent)  # spectators
