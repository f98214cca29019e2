"""``ginrummy play --plain`` driven through pexpect as a person at a terminal would: a whole
hand against the seeded ``simple`` computer by typed commands, hints, the knock question, the
score sheet, quitting and resuming; and the same commands piped in, played in order.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

from ginrummy.storage import Store
from tuiutil import SEEDS
from webutil import ROOT

PROMPT = r"\(([a-z, A-Z]+)\)\r\n> "


def env(tmp: Path) -> dict[str, str]:
    out = dict(os.environ, PYTHONPATH=str(ROOT / "src"), XDG_DATA_HOME=str(tmp / "data"))
    out.pop("GINRUMMY_DATABASE_URL", None)
    return out


def spawn(tmp: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "ginrummy.cli.main", "play", "--plain", "--computer-delay", "0", *args],
        env=env(tmp),
        encoding="utf-8",
        timeout=90,
        # Ctrl-C as at a terminal, however the tests were started: a command run in the
        # background (``make test &``) starts with SIGINT ignored, and its children too.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def answer(choices: str, before: str) -> str:
    """The person's command for a prompt: pass the upcard, draw, go gin or knock when possible,
    else discard a card that leaves the least deadwood, and make the optimal layoffs."""
    if "next" in choices or "rematch" in choices:
        return ""
    if "layoff CARD" in choices or choices.startswith("auto"):
        return "auto"
    if "discard CARD" in choices:
        if "gin" in choices:
            return "gin"
        if "knock" in choices:
            return "knock"
        best = before.rsplit("Deadwood after the best discard (", 1)[1].split(")")[0]
        return "discard " + min(best.split(" or "))
    return "pass" if "pass" in choices else "draw"


def play_out(child: pexpect.spawn) -> str:
    """Answer every prompt until the hand is over; returns what was printed meanwhile."""
    seen = []
    while True:
        found = child.expect([PROMPT, r"Type its number \(Enter: 1\), or cancel\.\r\n> "])
        seen.append((child.before or "") + str(child.after))
        if found == 1:
            child.sendline("")
            continue
        command = answer(child.match.group(1), child.before or "")
        if not command:
            return "".join(seen)
        child.sendline(command)


def test_a_hand_typed_line_by_line_then_resumed(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    child = spawn(tmp_path, "--level", "simple", "--seed", str(SEEDS["knock"]), "--db", str(db))
    try:
        child.expect("Gin rummy: Player 1 \\(you\\) against Computer \\(simple\\)")
        child.expect("Type help for the commands.")
        child.expect(PROMPT)
        child.sendline("hint")
        child.expect("Hints \\(best first\\):")
        child.expect("  1\\. ")
        child.sendline("help")
        child.expect("discard Kh \\(x Kh, or just Kh\\)")
        child.sendline("discard 2c")
        child.expect("you cannot discard 2♣ now|2♣ cannot|is not")
        child.sendline("pass")
        transcript = play_out(child)
        assert "Score: You " in transcript and "The hand is over: next hand?" in transcript
        assert "✓ Deal verified" in transcript
        child.sendline("sheet")
        child.expect("Won by")
        child.sendline("next")
        child.expect("Hand 2: ")
        child.expect(PROMPT)
        child.sendline("quit")
        child.expect("is saved: ginrummy play --resume ([A-Za-z0-9_-]+)")
        game_id = child.match.group(1)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    with Store(f"sqlite:///{db}") as store:
        stored = store.load_game(game_id)
        assert stored is not None and len(stored.hands) == 2
        assert stored.hands[0].result is not None
    child = spawn(tmp_path, "--resume", "--db", str(db))
    try:
        child.expect("Hand 2: ")
        child.expect(PROMPT)
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_the_last_game_of_a_match_is_said_then_the_match(tmp_path: Path) -> None:
    """The match's end said only who won the match: the last game's own tally and winner,
    said at the end of every other game of the match, come first."""
    child = spawn(
        tmp_path,
        *("--match", "--level", "simple", "--seed", str(SEEDS["knock"])),
        *("--set", "game_target=10", "--set", "match_target=20", "--db", str(tmp_path / "g.db")),
    )
    try:
        for _ in range(10):  # a hand at a time, until the match is over
            transcript = play_out(child)
            if "The match is over." in transcript:
                break
            child.sendline("next")
        else:
            raise AssertionError("the match never ended")
        end = transcript.rsplit("✓ Deal verified", 1)[1]
        game = end.index("Computer (simple) wins the game by 269.")
        assert "Total " in end[:game]  # the game's tally, then its winner
        assert end.index("Computer (simple) wins the match by 269.") > game
        child.sendline("sheet")
        child.expect(r"Match over\r\nComputer \(simple\) wins the match by 269\.")
        assert "Game over" in (child.before or "")
        assert "wins the game by 269" in (child.before or "")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_ctrl_c_says_the_game_is_saved_and_how_to_resume_it(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    child = spawn(tmp_path, "--level", "simple", "--seed", str(SEEDS["knock"]), "--db", str(db))
    try:
        child.expect(PROMPT)
        child.sendline("pass")
        child.expect(PROMPT)
        child.sendintr()
        child.expect("is saved: ginrummy play --resume ([A-Za-z0-9_-]+)")
        game_id = child.match.group(1)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    with Store(f"sqlite:///{db}") as store:
        stored = store.load_game(game_id)
        assert stored is not None and stored.hands[0].actions  # the pass was kept


def test_commands_piped_in_are_played_in_order(tmp_path: Path) -> None:
    """A pipe sends every line at once: each waits for its turn (the computer's move first)."""
    db = tmp_path / "games.db"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ginrummy.cli.main",
            "play",
            "--level",
            "simple",
            "--seed",
            str(SEEDS["undo"]),
            "--computer-delay",
            "0",
            "--db",
            str(db),
        ],  # no --plain: not a terminal, so plain by itself
        # undo takes back the take: the computer has not moved since
        input="take\nundo\npass\ndraw\nlog\nquit\n",
        capture_output=True,
        text=True,
        env=env(tmp_path),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "You take " in out and out.count("You pass on the upcard") >= 2  # played, then logged
    assert "Not done" not in out
    assert "You draw " in out and "from the stock." in out
    assert "is saved: ginrummy play --resume" in out


def test_the_tables_refusal_is_a_sentence(tmp_path: Path) -> None:
    """The table's refusals ("nothing of yours to undo in this hand") were printed after
    "Not done:" without the full stop every other line ends with."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ginrummy.cli.main",
            "play",
            "--plain",
            "--level",
            "simple",
            "--seed",
            str(SEEDS["undo"]),
            "--computer-delay",
            "0",
            "--db",
            str(tmp_path / "games.db"),
        ],
        input="undo\nquit\n",
        capture_output=True,
        text=True,
        env=env(tmp_path),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Not done: nothing of yours to undo in this hand.\n" in done.stdout, done.stdout


def test_a_queen_typed_apart_is_refused_not_taken_for_quit(tmp_path: Path) -> None:
    """ "q h" (the queen of hearts, typed apart) quit the game at once: it is refused, saying
    how a card is typed, and the game goes on to the next line."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ginrummy.cli.main",
            "play",
            "--plain",
            "--level",
            "simple",
            "--seed",
            str(SEEDS["undo"]),
            "--computer-delay",
            "0",
            "--db",
            str(tmp_path / "games.db"),
        ],
        input="q h\npass\nquit\n",
        capture_output=True,
        text=True,
        env=env(tmp_path),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "'q h' is not a command: a card is one word, Qh for Q♥.\n" in out, out
    assert "You pass on the upcard" in out, out


def test_the_plain_mode_never_says_a_hidden_card() -> None:
    """Every line printed during a whole hand (the first dealer fixed: no cut cards) names
    only cards the person may know at that point."""
    import asyncio
    import io
    import re

    from ginrummy.engine import Rules
    from ginrummy.tui.plain import PlainPlayer
    from ginrummy.tui.words import pretty
    from tuiutil import new_game, policy
    from webutil import hidden_cards

    game = new_game(11, rules=Rules.preset("standard", first_dealer="fixed"))
    out = io.StringIO()
    checked = 0

    async def run() -> None:
        nonlocal checked
        await game.start()
        player = PlainPlayer(game, out=out)
        said = 0
        while True:
            message = await game.receive()
            player.waiting = False
            player.take(message)
            hand = game.table.hand
            assert hand is not None
            text = out.getvalue()[said:]
            said = len(out.getvalue())
            if not hand.is_over:
                secret = hidden_cards(hand, 0)
                shown = {c for c in secret if re.search(re.escape(pretty(c)), text)}
                assert not shown, f"{sorted(shown)} in:\n{text}"
                checked += 1
            if message["type"] == "state" and message["view"]["phase"] == "over":
                break
            if message["type"] == "state" and player.ready():
                await player.command(policy(message))
        await game.close()

    asyncio.run(run())
    assert checked > 5 and "Hand 1:" in out.getvalue()


def test_a_line_typed_while_the_connection_is_lost_is_sent_once_it_is_back() -> None:
    """A joined table's socket is lost: a move typed meanwhile is not sent into nothing (and
    so lost), but kept, and made once the table is back and has sent its state."""
    import asyncio
    import io
    from typing import Any

    from ginrummy.tui.plain import PlainPlayer
    from ginrummy.tui.words import legal
    from tuiutil import new_game

    game = new_game(SEEDS["undo"])  # the person decides on the upcard first

    class Recorder:
        label = "table T on example.org"
        skew = 0.0

        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []

        async def send(self, message: dict[str, Any]) -> None:
            self.sent.append(message)

    async def run() -> None:
        await game.start()
        state = await game.receive()
        assert "pass" in legal(state)
        session = Recorder()
        out = io.StringIO()
        player = PlainPlayer(session, out=out)  # type: ignore[arg-type]
        player.take(state)
        player.take({"type": "connection", "connected": False})
        player.type("pass")
        await player.drain()
        assert session.sent == []
        assert "Connection lost: reconnecting" in out.getvalue()
        player.take({"type": "connection", "connected": True})
        await player.drain()
        assert session.sent == []  # the table's state first
        player.waiting = False  # (as the loop does for a state)
        player.take(state)
        await player.drain()
        assert session.sent == [{"type": "action", "action": "pass"}]

    asyncio.run(run())


def test_the_move_clock_between_people_is_said_with_the_question() -> None:
    """Between people with a move clock, the line mode says the seconds left to move each
    time it asks for a move."""
    import io
    import time

    from ginrummy.tui.plain import PlainPlayer
    from tuiutil import new_game

    state = new_game(SEEDS["undo"]).table.state_for(0)
    state["table"]["deadline"] = time.time() + 30.4

    class Session:
        label = "table T on example.org"
        skew = 0.0

    out = io.StringIO()
    PlainPlayer(Session(), out=out).take(state)  # type: ignore[arg-type]
    assert "⏱ 30s to move · Take the upcard" in out.getvalue(), out.getvalue()


def test_help_says_the_rules_in_play_again(tmp_path: Path) -> None:
    """The rules were said once, at the start, and scrolled away: 'help' says them again under
    the commands, as the terminal app's help does."""
    done = subprocess.run(
        [
            *(sys.executable, "-m", "ginrummy.cli.main", "play", "--plain", "--level", "simple"),
            *("--rules", "oklahoma", "--set", "gin_bonus=20", "--seed", str(SEEDS["knock"])),
            *("--computer-delay", "0", "--db", str(tmp_path / "games.db")),
        ],
        input="help\nquit\n",
        capture_output=True,
        text=True,
        env=env(tmp_path),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    helped = done.stdout.split("Commands (short forms in brackets):", 1)[1]
    assert "Rules: Gin +20; undercut +25" in helped, done.stdout
    assert "the first upcard sets the knock limit" in helped, done.stdout
