"""Rewrite the golden playthroughs in this folder from the scenario definitions below.

Each ``<name>.txt`` holds a comment line saying what the hand shows, the hand record in its
one-line ``GR1 ...`` text form, then the expected events and result (see
``helpers.describe_hand``). ``tests/test_golden.py`` replays every file and compares exactly,
and checks the files still match these definitions.

Run from the repository root after an intended change, and review the diff::

    .venv/bin/python tests/golden/regenerate.py
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from ginrummy import Hand, Rules  # noqa: E402
from helpers import (  # noqa: E402
    ARRANGE_DEAL,
    BIG_GIN_DEAL,
    DEFENDER_2,
    DEFENDER_8,
    DEFENDER_31,
    GIN_DEAL,
    KNOCKER,
    LAYOFF_DEAL,
    LAYOFF_START,
    WALL_DEALER,
    deck_for,
    describe_hand,
    draw_and_discard,
    knock_deal,
    play,
    wall_deal,
)


@dataclass(frozen=True)
class Scenario:
    """A scripted hand: seat 0 deals ``deal`` (``deck_for``'s arguments) under ``rules``; the
    actions are ``before``, then ``wall_turns`` turns of drawing and discarding the card
    drawn, then ``after``."""

    name: str
    title: str
    deal: dict[str, str]
    before: str
    rules: Rules = field(default_factory=Rules)
    wall_turns: int = 0
    after: str = ""

    def play(self) -> Hand:
        hand = Hand.from_deck(self.rules, 0, deck_for(**self.deal))
        play(hand, self.before)
        draw_and_discard(hand, self.wall_turns)
        play(hand, self.after)
        assert hand.is_over, f"{self.name}: the hand is not over"
        return hand

    def text(self) -> str:
        hand = self.play()
        return f"# {self.title}\n{hand.record().to_text()}\n\n{describe_hand(hand)}"


ELEVEN = Rules(deal="eleven")
OKLAHOMA = Rules.preset("oklahoma")

SCENARIOS = (
    Scenario(
        "knock",
        "Knock: seat 1 draws Ad and knocks with 8 against 31; no layoffs fit.",
        knock_deal(DEFENDER_31),
        "pass, pass, draw, knock Kd, done",
    ),
    Scenario(
        "gin",
        "Gin: seat 1 takes the 2c upcard and goes gin; no layoffs against gin (4s 9s Qs stay).",
        GIN_DEAL,
        "take, gin Kd",
    ),
    Scenario(
        "big_gin",
        "Big gin (rules big_gin): all eleven cards meld after taking the 2c upcard.",
        BIG_GIN_DEAL,
        "take, biggin",
        Rules(big_gin=True),
    ),
    Scenario(
        "undercut",
        "Undercut: the knocker's 8 against the defender's 2 scores 6 + 25 for the defender.",
        knock_deal(DEFENDER_2),
        "pass, pass, draw, knock Kd, done",
    ),
    Scenario(
        "tie_undercut",
        "Tie (8 against 8) with undercut_on_tie on: an undercut worth the bonus alone.",
        knock_deal(DEFENDER_8),
        "pass, pass, draw, knock Kd, done",
    ),
    Scenario(
        "tie_no_score",
        "Tie (8 against 8) with undercut_on_tie off: nobody scores.",
        knock_deal(DEFENDER_8),
        "pass, pass, draw, knock Kd, done",
        Rules(undercut_on_tie=False),
    ),
    Scenario(
        "dead_at_the_wall",
        "The wall: seat 1 draws card 29, leaving two, and discards: a dead hand.",
        wall_deal(DEFENDER_31, "5c"),
        "pass, pass",
        wall_turns=29,
    ),
    Scenario(
        "knock_on_the_wall_turn",
        "The wall: seat 1 draws card 29 (Ad), leaving two, and knocks: scored normally.",
        wall_deal(DEFENDER_31, "Ad"),
        "pass, pass",
        wall_turns=28,
        after="draw, knock Kd, auto",
    ),
    Scenario(
        "wall_pickup",
        "wall_pickup: seat 0 takes seat 1's last discard (6s), which it may only knock with.",
        wall_deal(WALL_DEALER, "6s"),
        "pass, pass",
        Rules(wall_pickup=True),
        wall_turns=29,
        after="take, knock 3d, auto",
    ),
    Scenario(
        "wall_pickup_pass",
        "wall_pickup: seat 0 passes the last discard (6s): a dead hand.",
        wall_deal(WALL_DEALER, "6s"),
        "pass, pass",
        Rules(wall_pickup=True),
        wall_turns=29,
        after="pass",
    ),
    Scenario(
        "oklahoma_spade",
        "Oklahoma: the Ks upcard sets the knock limit to 10 and doubles the score.",
        knock_deal(DEFENDER_31, upcard="Ks"),
        "pass, pass, draw, knock Kd, auto",
        OKLAHOMA,
    ),
    Scenario(
        "oklahoma_ace_one",
        "Oklahoma with ace = 1: the Ah upcard allows a knock with 1.",
        {**LAYOFF_DEAL, "upcard": "Ah"},
        "pass, pass, draw, knock Kd, auto",
        OKLAHOMA.replace(oklahoma_ace="one"),
    ),
    Scenario(
        "eleven_card_deal",
        "Eleven-card deal: seat 1 opens by discarding Qs, which seat 0 takes; seat 1 knocks.",
        {"non_dealer": KNOCKER + " Qs", "dealer": DEFENDER_31, "stock": "9h Ad"},
        "discard Qs, take, discard 9c, draw, discard 9h, draw, discard Ad, take, knock Kd, auto",
        ELEVEN,
    ),
    Scenario(
        "dealer_takes_upcard",
        "The first upcard: seat 1 passes the 4s, seat 0 (the dealer) takes it and discards.",
        LAYOFF_DEAL,
        LAYOFF_START + ", auto",
    ),
    Scenario(
        "chained_layoffs",
        "Layoffs one at a time: 8s, 9s, Ts up 5s6s7s, 4s at its other end, Qs on the queens.",
        LAYOFF_DEAL,
        LAYOFF_START + ", layoff 8s, layoff 9s, layoff Ts, layoff 4s, layoff Qs, done",
    ),
    Scenario(
        "named_arrangement",
        "Seat 1 names 3h3d3c instead of 3h4h5h (10 deadwood, not 7) so 2h and 6h cannot lay off.",
        ARRANGE_DEAL,
        "pass, pass, draw, knock Kd 7s7h7d7c 3h3d3c, auto",
    ),
    Scenario(
        "straight_gin",
        "Straight gin (knock limit 0): only gin ends the hand; seat 1 goes gin on its third draw.",
        {**GIN_DEAL, "upcard": "Jc", "stock": "9h Ah 2c"},
        "pass, pass, draw, discard 9h, draw, discard Ah, draw, gin Kd",
        Rules.preset("straight"),
    ),
)


def main() -> None:
    names = {s.name for s in SCENARIOS}
    assert len(names) == len(SCENARIOS), "scenario names must be unique"
    for scenario in SCENARIOS:
        path = HERE / f"{scenario.name}.txt"
        text = scenario.text()
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.name}")
    for path in sorted(HERE.glob("*.txt")):
        if path.stem not in names:
            print(f"{path.name} has no scenario: remove it or add one")


if __name__ == "__main__":
    main()
