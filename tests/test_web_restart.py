"""A server killed mid-game (SIGKILL: no shutdown at all) and started again on the same database
(a SQLite file, or PostgreSQL) gives every seat back exactly the table it left, and play goes on
to the end of the hand.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx

from ginrummy.web.dealing import verify
from webutil import LiveServer, SeatSocket, going_on, live_friend_token, pick, post_table


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state message less what may differ after a restart: the version counter, and which
    seats are connected (the seats reconnect one by one)."""
    out = dict(state)
    out.pop("version")
    out["table"] = {k: v for k, v in out["table"].items() if k != "connected"}
    return out


def play_friend(seats: list[SeatSocket], rng: random.Random, moves: int | None) -> dict[str, Any]:
    """``moves`` random moves at a friend table that do not end the hand (None: moves to the
    end of the hand)."""
    last = [s.last or s.recv() for s in seats]
    done = 0
    choose = pick if moves is None else going_on
    while last[0]["view"]["phase"] != "over" and (moves is None or done < moves):
        mover = last[0]["view"]["current_player"]
        seats[mover].act(choose(last[mover]["view"], rng))
        last = [s.recv() for s in seats]
        assert [m["type"] for m in last] == ["state", "state"], last
        done += 1
    return last[0]


def play_computer(seat: SeatSocket, rng: random.Random, moves: int | None) -> dict[str, Any]:
    """``moves`` of the person's moves against the computer that do not end the hand, then on
    to the person's turn (None: moves to the end of the hand)."""
    msg = seat.until_my_turn()
    done = 0
    choose = pick if moves is None else going_on
    while msg["view"]["phase"] != "over" and (moves is None or done < moves):
        seat.act(choose(msg["view"], rng))
        msg = seat.until_my_turn()
        done += 1
    return msg


def test_a_killed_server_gives_every_seat_its_table_back(tmp_path: Path, db_url: str) -> None:
    """On each database: a SQLite file, PostgreSQL."""
    rng = random.Random(17)
    server = LiveServer(tmp_path / "games.db", db_url=db_url)
    server.start()
    sockets: list[SeatSocket] = []
    try:
        vs = post_table(server, mode="computer", level="beginner", name="Ann")
        vs2 = post_table(server, mode="computer", level="beginner", name="Cy")
        friend = post_table(
            server,
            mode="friend",
            name="Ann",
            opponent="Bob",
            stake="0.5",
            options={"game_target": 500},
        )
        tokens = [friend["token"], live_friend_token(server, friend)]

        # against the computer: a few moves in, the person to move
        you = SeatSocket(server, vs["id"], vs["token"])
        sockets.append(you)
        assert you.recv()["table"]["seat"] == 0
        before_vs = play_computer(you, rng, moves=5)
        for _ in range(5):  # the computer may knock early: then on to the next hand
            if before_vs["view"]["phase"] != "over":
                break
            you.send({"type": "next"})
            you.recv()
            before_vs = play_computer(you, rng, moves=5)
        assert before_vs["view"]["phase"] != "over", "the computer ended five hands early"

        # the friend game: one whole hand (scores), the next dealt, a few moves into it
        seats = [SeatSocket(server, friend["id"], t) for t in tokens]
        sockets.extend(seats)
        while True:
            ended = play_friend(seats, rng, moves=None)
            assert "reveal" in ended
            for s in seats:  # both ask for the next hand
                s.send({"type": "next"})
                for each in seats:
                    number = each.recv()["table"]["hand_number"]
            if ended["table"]["scores"] != [0, 0]:
                break
            assert number < 5, "only dead hands"
        play_friend(seats, rng, moves=7)
        before = [s.state() for s in seats]
        assert before[0]["view"]["phase"] != "over"
        before_vs = you.state()

        # a third table: the person moves and the server dies at once, the move maybe stored,
        # the computer's answer maybe made
        racer = SeatSocket(server, vs2["id"], vs2["token"])
        sockets.append(racer)
        acked = racer.until_my_turn()
        racer.act(pick(acked["view"], rng))

        server.kill()  # SIGKILL, with every socket still open
        for s in sockets:
            s.close()
        sockets.clear()
        server.start()

        # the same tokens find the same seats, with exactly the same state
        you = SeatSocket(server, vs["id"], vs["token"])
        seats = [SeatSocket(server, friend["id"], t) for t in tokens]
        sockets.extend([you, *seats])
        after_vs = you.recv()
        after = [s.recv() for s in seats]
        assert comparable(after_vs) == comparable(before_vs)
        for seat in (0, 1):
            assert comparable(after[seat]) == comparable(before[seat])
        table = after[0]["table"]
        assert table["hand_number"] == number and len(table["sheet"]["hands"]) == number - 1
        assert table["scores"] == ended["table"]["scores"] != [0, 0]

        mine = httpx.post(
            f"{server.url}/api/mine",
            json=[{"id": vs["id"], "token": vs["token"]}, {"id": friend["id"], "token": tokens[1]}],
            timeout=30,
        ).json()
        assert {(g["id"], g["status"], g["seat"]) for g in mine} == {
            (vs["id"], "open", 0),
            (friend["id"], "open", 1),
        }

        # and play goes on to the end of both hands, the deals checking out
        commitment = after[0]["table"]["commitment"]
        end = play_friend(seats, rng, moves=None)
        assert verify(end["reveal"]["deck"], end["reveal"]["salt"], commitment)
        end_vs = play_computer(you, rng, moves=None)
        reveal = end_vs["reveal"]
        assert verify(reveal["deck"], reveal["salt"], before_vs["table"]["commitment"])

        # the raced table: what was acknowledged is all there, and the computer plays on
        racer = SeatSocket(server, vs2["id"], vs2["token"])
        sockets.append(racer)
        now = racer.until_my_turn()
        history = acked["view"]["history"]
        assert now["view"]["history"][: len(history)] == history
        end = play_computer(racer, rng, moves=None)
        assert verify(end["reveal"]["deck"], end["reveal"]["salt"], acked["table"]["commitment"])
    finally:
        for s in sockets:
            s.close()
        server.kill()
