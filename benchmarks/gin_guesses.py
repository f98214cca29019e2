"""How well the expert guesses how far along his hand is, by the turns he has played.

Plays whole games of the expert against an opponent (every deal from both seats) and, at each
of the expert's discards, draws hands for him the way its search does (``ExpertAgent._world``,
through ``knock_risk.Recording``) once for every version of the settings given, on the
same decision, and scores their deadwood against his real deadwood (read from the dealt hand,
for this measurement only):

* the mean real and guessed deadwood, and their correlation over the decisions, beside the
  correlation of his real deadwood with the mean value of his last three discards (what the
  public history alone says of it: a reading worth the name should come near);
* the PIT: the share of guesses below the truth (ties half), 0.5 on average when unbiased,
  above 0.5 when the guesses are too good (too tight), below when too loose;
* the Brier score of the chance, as guessed, that he could knock (deadwood at most the knock
  limit), beside the best constant guess for those decisions;
* how widely the guesses spread: the share of decisions whose truth lies below nearly all
  the guesses (PIT under 0.1; 0.10 when the spread is right, more when the guesses are too
  narrow and miss his best hands) and above nearly all (PIT over 0.9);
* his cards themselves: the share of his hidden cards a guess holds ("cards"), and the Brier
  score of the danger of the expert's cards (the share of guesses in which a card melds with
  two of his), beside the best constant guess, as ``card_reading.py`` scores them.

The expert plays as the first version (at ``--worlds``), so every version is scored on the same
decisions (on busy cores its ``budget_ms`` may cut a search short and change them, so the
same command replays exactly only on an idle core). ``--from-hand K`` scores only a game's
hands from the K-th on (0-based), after the expert has read his knocking style over the hands
before.

    .venv/bin/python benchmarks/gin_guesses.py --games 12 --from-hand 2 \
        --version gin_power=1,gin_ramp=0.1,gin_sharpness=1.5,gin_steps=60 --version ""
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import knock_risk
from ginrummy.agents import get_agent
from ginrummy.agents.basic import in_some_meld
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import beliefs, choices
from ginrummy.agents.play import drive
from ginrummy.agents.style import turns_of
from ginrummy.engine import Action, PlayerView, Rules
from ginrummy.engine.cards import DECK
from ginrummy.engine.game import Game, derived_seed
from ginrummy.engine.masks import VALUES, bits
from ginrummy.engine.melds import deadwood_mask

BANDS = ((0, 3), (4, 6), (7, 9), (10, 99))


@dataclasses.dataclass(frozen=True)
class Score:
    real: int  # his real deadwood
    guessed: float  # the mean deadwood of the guesses
    pit: float  # the share of guesses below the truth, ties half
    could: bool  # whether he could knock
    chance: float  # the share of guesses that could
    thrown: float  # the mean value of his last three discards (0 before his first)
    right: float  # the mean share of his hidden cards a guess holds (-1: none hidden)
    danger: tuple[tuple[float, bool], ...]  # per card of ours: guessed chance it melds, truth


def settings_of(spec: str, worlds: int) -> Settings:
    """The expert's settings with ``name=value,...`` changes, as ``expert:...`` takes them."""
    agent = get_agent(f"expert:worlds={worlds}" + (f",{spec}" if spec else ""))
    assert isinstance(agent, ExpertAgent)
    return agent.settings


#: Per version, per his turn: the scores.
Scores = dict[int, dict[int, list[Score]]]


class Scoring(knock_risk.Recording):
    """The expert, scoring each version's guesses at its discards."""

    def __init__(
        self, versions: list[Settings], from_hand: int, guesses: int, scores: Scores
    ) -> None:
        super().__init__(versions[0])
        self.versions = versions
        self.from_hand = from_hand
        self.guesses = guesses
        self.hand_number = 0
        self.scores = scores

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        if (
            self.truth is not None
            and self.hand_number >= self.from_hand
            and view.phase.value == "discard"
            and len(view.legal_actions) > 1
        ):
            his = self.truth.view(1 - view.seat).hand.mask
            real = deadwood_mask(his)
            hidden = his & ~beliefs(view).known
            mine = [DECK[c] for c in bits(view.hand.mask)]
            truths = [in_some_meld(his, card) for card in mine]
            could = real <= view.knock_limit
            turn = turns_of(view, 1 - view.seat)
            thrown = [VALUES[card] for kind, card in choices(view) if kind == "discard"][-3:]
            played = self.settings
            for i, version in enumerate(self.versions):
                self.settings = version
                hands = self._hands(view, self.guesses)
                guesses = [deadwood_mask(h) for h in hands]
                right = -1.0
                if hidden:
                    right = statistics.mean((h & hidden).bit_count() for h in hands)
                    right /= hidden.bit_count()
                danger = tuple(
                    (sum(in_some_meld(h, card) for h in hands) / len(hands), t)
                    for card, t in zip(mine, truths, strict=True)
                )
                below = sum(d < real for d in guesses) + 0.5 * sum(d == real for d in guesses)
                chance = sum(d <= view.knock_limit for d in guesses) / len(guesses)
                score = Score(
                    real,
                    statistics.mean(guesses),
                    below / len(guesses),
                    could,
                    chance,
                    statistics.mean(thrown) if thrown else 0.0,
                    right,
                    danger,
                )
                self.scores[i][turn].append(score)
            self.settings = played
        return super().act(view, rng)


def play(args: argparse.Namespace, versions: list[Settings]) -> Scores:
    """Every deal from both seats, a fresh expert (and reading of his style) each game."""
    scores: Scores = defaultdict(lambda: defaultdict(list))
    for i in range(args.games):
        seed = args.seed + i
        for seat in (0, 1):
            scorer = Scoring(versions, args.from_hand, args.guesses, scores)
            agents = [get_agent(args.opponent), get_agent(args.opponent)]
            agents[seat] = scorer
            rng = random.Random(derived_seed(seed, "agents"))
            game = Game(Rules.preset(args.rules), seed)
            while not game.is_over:
                hand = game.deal_hand()
                scorer.truth = hand
                scorer.hand_number = len(game.hands)
                drive(hand, (agents[0], agents[1]), rng, game.totals)
                game.finish_hand(hand)
    return scores


def report(scores: list[Score]) -> str:
    mean = statistics.mean
    real = [s.real for s in scores]
    guessed = [s.guessed for s in scores]
    corr = statistics.correlation(real, guessed) if len(scores) > 2 else 0.0
    shown = [s for s in scores if s.thrown > 0]
    thrown = 0.0
    if len(shown) > 2 and len({s.thrown for s in shown}) > 1:
        thrown = statistics.correlation([s.real for s in shown], [s.thrown for s in shown])
    base = mean(s.could for s in scores)
    brier = mean((s.chance - s.could) ** 2 for s in scores)
    rights = [s.right for s in scores if s.right >= 0]
    cards = [pair for s in scores for pair in s.danger]
    melds = mean(t for _, t in cards)
    danger = mean((p - t) ** 2 for p, t in cards)
    return (
        f"{len(scores):5d}  {mean(real):5.1f} / {mean(guessed):<5.1f}  {corr:5.2f} / {thrown:5.2f}"
        f"  {mean(s.pit for s in scores):4.2f}  {brier:.3f} / {base * (1 - base):.3f}"
        f"  {mean(s.pit < 0.1 for s in scores):4.2f} / {mean(s.pit > 0.9 for s in scores):4.2f}"
        f"  {mean(rights) if rights else 0.0:5.1%}  {danger:.4f} / {melds * (1 - melds):.4f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="gin-hunter")
    parser.add_argument("--rules", default="eaai", choices=Rules.presets())
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=64, help="the playing expert's worlds")
    parser.add_argument("--from-hand", type=int, default=0)
    parser.add_argument("--guesses", type=int, default=50)
    parser.add_argument(
        "--each-turn", action="store_true", help="a row for each of his turns up to 15"
    )
    parser.add_argument(
        "--version", action="append", help='expert settings, name=value,... ("": as it is)'
    )
    args = parser.parse_args(argv)
    specs = args.version or [""]
    scores = play(args, [settings_of(spec, args.worlds) for spec in specs])
    print(
        f"expert vs {args.opponent}, {args.games} game(s) from seed {args.seed}, both seats,"
        f" each game's hands from hand {args.from_hand} on (0: the first), {args.guesses} guesses"
        " a decision"
    )
    bands = [(t, t) for t in range(15)] + [(15, 99)] if args.each_turn else BANDS
    for i, spec in enumerate(specs):
        print(f"\n{spec or 'as it is'}")
        print(
            "his turns  decisions  deadwood real / guessed  corr / discards  PIT  Brier / constant"
            "  PIT <0.1 / >0.9  cards  danger / constant"
        )
        by_turn = scores[i]
        for low, high in bands:
            part = [s for t, ss in by_turn.items() if low <= t <= high for s in ss]
            if part:
                print(f"{low:2d}-{high:<2d}      " + report(part))
    return 0


if __name__ == "__main__":
    sys.exit(main())
