"""How well does the expert read the opponent's hand? Cheap proxies for card-reading changes.

Plays whole games of the expert against an opponent (``simple`` by default) under the EAAI
rules and, at every expert decision where the opponent holds at least three hidden cards,
compares what the expert believes with the truth taken from the hand being played:

* **cards right**: the share of his hidden cards that a sampled hand holds, for the worlds the
  expert samples and for hands drawn uniformly from the unseen cards;
* **danger** (at discards): for each card in the expert's hand, the chance that the opponent
  can put it into a meld (he holds two cards it melds with), as the expert's heuristic
  estimates it and as the share of sampled worlds where it is so, scored against the truth
  with the Brier score (lower is better); "always the base rate" is the score of the best
  constant guess.

A change to the card reading should move these figures before it is worth a long arena run:

    .venv/bin/python benchmarks/card_reading.py --games 20 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.agents import get_agent
from ginrummy.agents.basic import in_some_meld
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import Beliefs, beliefs
from ginrummy.agents.play import play_game
from ginrummy.engine import Rules
from ginrummy.engine.cards import DECK
from ginrummy.engine.hand import Hand, Phase
from ginrummy.engine.masks import bits
from ginrummy.engine.views import PlayerView

SAMPLES = 32


def melds_with(hand: int, card: int) -> bool:
    """Whether ``card`` makes a meld with two cards of ``hand`` (a set or a run of three)."""
    return in_some_meld(hand, DECK[card])


class Recorder:
    """Wraps the expert's ``evaluate`` to score its beliefs against the true hand."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.current: dict[str, Any] = {}
        self.right: dict[str, list[float]] = {"expert's worlds": [], "uniform": []}
        self.brier: dict[str, list[float]] = {
            "expert's heuristic": [],
            "expert's worlds": [],
            "uniform": [],
        }
        self.truths: list[bool] = []

    def expert_worlds(self, b: Beliefs) -> list[int]:
        s = Settings()
        tries, sharpness = s.sharpness_for(b)
        guesser = s.guesser(b, self.rng)
        return [guesser.world(tries, sharpness, s.steps)[0] for _ in range(SAMPLES)]

    def uniform_worlds(self, b: Beliefs) -> list[int]:
        unseen = bits(b.unseen)
        return [
            b.known | sum(1 << c for c in self.rng.sample(unseen, b.hidden)) for _ in range(SAMPLES)
        ]

    def record(self, view: PlayerView) -> None:
        if view.phase not in (Phase.DRAW, Phase.DISCARD):
            return
        hand: Hand = self.current["hand"]
        truth = hand.hand_mask(1 - int(self.current["seat"]))
        b = beliefs(view)
        if b.hidden < 3:
            return
        hidden = truth & ~b.known
        worlds = {"expert's worlds": self.expert_worlds(b), "uniform": self.uniform_worlds(b)}
        for name, hands in worlds.items():
            self.right[name].append(
                statistics.mean((h & hidden).bit_count() / b.hidden for h in hands)
            )
        if view.phase is not Phase.DISCARD:
            return
        mine = bits(view.hand.mask)
        truths = [melds_with(truth, c) for c in mine]
        self.truths.extend(truths)
        danger = b.danger()
        self.brier["expert's heuristic"].extend(
            (danger[c] - t) ** 2 for c, t in zip(mine, truths, strict=True)
        )
        for name, hands in worlds.items():
            for c, t in zip(mine, truths, strict=True):
                p = sum(melds_with(h, c) for h in hands) / len(hands)
                self.brier[name].append((p - t) ** 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    args = parser.parse_args(argv)
    recorder = Recorder(args.seed)
    view_of = Hand.view
    evaluate = ExpertAgent.evaluate

    def watching_view(self: Hand, seat: int, *a: Any, **k: Any) -> Any:
        recorder.current["hand"], recorder.current["seat"] = self, seat
        return view_of(self, seat, *a, **k)

    def recording_evaluate(self: ExpertAgent, view: PlayerView, rng: Any, **k: Any) -> Any:
        recorder.record(view)
        return evaluate(self, view, rng, **k)

    Hand.view = watching_view  # type: ignore[method-assign]
    ExpertAgent.evaluate = recording_evaluate  # type: ignore[method-assign]
    rules = Rules.preset("eaai")
    for i in range(args.games):
        seat = i % 2
        agents = [get_agent("expert"), get_agent(args.opponent)]
        play_game(rules, agents if seat == 0 else agents[::-1], args.seed + i)
    print(f"expert vs {args.opponent}, {args.games} games from seed {args.seed}")
    n = len(recorder.right["uniform"])
    print(f"  his hidden cards a sampled hand holds ({n} decisions):")
    for name, xs in recorder.right.items():
        print(f"    {name:<22} {statistics.mean(xs):.1%}")
    base = statistics.mean(recorder.truths)
    print(
        f"  danger of the expert's cards at discards ({len(recorder.truths)} cards, "
        f"{base:.1%} of them meld with his hand), Brier score:"
    )
    for name, xs in recorder.brier.items():
        print(f"    {name:<22} {statistics.mean(xs):.4f}")
    print(f"    {'always the base rate':<22} {base * (1 - base):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
