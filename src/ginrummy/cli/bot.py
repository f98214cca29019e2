"""``ginrummy bot``: a computer player for the EAAI Gin Rummy framework, over JSON lines."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TYPE_CHECKING, TextIO

from . import check_players, players_help

if TYPE_CHECKING:
    from .main import Subparsers

EXAMPLES = """\
examples:
  ginrummy bot expert --seed 1
  ginrummy bot intermediate < callbacks.jsonl

Each line on stdin is one of the framework's player callbacks, {"call": NAME, "args": [...]}:
startGame(playerNum, startingPlayerNum, cards), willDrawFaceUpCard(card),
reportDraw(playerNum, card or null), getDiscard(), reportDiscard(playerNum, card),
getFinalMelds(), reportFinalMelds(playerNum, melds), reportScores(scores),
reportLayoff(playerNum, card, meld), reportFinalHand(playerNum, cards).
Cards are written as the framework writes them ("TD", "AC"); melds are lists of cards.
Each answer is one line: {"result": VALUE} (null for the reports; getFinalMelds answers null to
play on, or the melds), or {"error": MESSAGE}, after which the player is as it was."""


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="play a computer player through the EAAI framework's callbacks (JSON lines)",
        description=(
            "Answer the EAAI Gin Rummy framework's player callbacks, one JSON object per "
            "line on stdin, with one of ginrummy's computer players, so that it can play "
            "the framework's bots in the framework's own game loop."
        ),
        epilog=f"{players_help()}\n\n{EXAMPLES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "agent", nargs="?", default="expert", help="the player (default expert; players below)"
    )
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed for its random choices"
    )


def serve_lines(agent_name: str, seed: int | None, lines: TextIO, out: TextIO) -> int:
    from ..agents import get_agent
    from ..agents.eaai import EaaiPlayer, answer

    player = EaaiPlayer(get_agent(agent_name), random.Random(seed))
    for line in lines:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            reply: dict[str, object] = {"error": f"not JSON: {exc}"}
        else:
            reply = answer(player, message)
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    check_players(args.agent)
    return serve_lines(args.agent, args.seed, sys.stdin, sys.stdout)
