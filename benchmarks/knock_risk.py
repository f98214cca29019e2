"""The expert's own estimate of the undercut risk of its knocks, against what happened.

Plays whole games of the expert against an opponent (every deal from both seats) and, for
every knock the expert makes (gin aside), keeps:

* the knock's risk as the search saw it: the share of its worlds in which he undercut it (what
  ``ExpertAgent.choose`` reads, and ``knock_risk`` caps);
* his real deadwood at that moment (read from the dealt hand, for this measurement only) and
  the deadwood of 200 hands guessed as the search guesses them (``ExpertAgent._world``);
* whether he did undercut it.

It prints the risk seen against the undercuts that came, overall, by bands of risk, by how far
into the hand he was (his turns), and for caps on the risk which knocks a cap would refuse.

    .venv/bin/python benchmarks/knock_risk.py --opponent gin-hunter --pairs 40 --worlds 256
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import beliefs
from ginrummy.agents.play import drive
from ginrummy.agents.style import turns_of
from ginrummy.engine import Action, Hand, PlayerView, ResultKind, Rules
from ginrummy.engine.game import Game, derived_seed
from ginrummy.engine.melds import deadwood_mask, discard_deadwoods_mask

CAPS = (0.1, 0.15, 0.2, 0.25, 0.3)
BANDS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 1.01)
TURNS = ((0, 3), (4, 6), (7, 10), (11, 99))
GUESSES = 200


@dataclass
class Knock:
    risk: float  # the share of the search's worlds that undercut it
    ours: int  # the deadwood it knocked with
    real: int  # his real deadwood then
    guessed: float  # the mean deadwood of hands guessed the search's way
    guessed_low: float  # the share of those at most ours
    turn: int  # his turns begun
    eager: float  # the odds, as read, that he knocks at the first chance
    undercut: bool = False
    gin: bool = False


class Recording(ExpertAgent):
    """The expert, noting each knock it makes with what its search saw and what was so."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.truth: Hand | None = None
        self.knocks: list[Knock] = []

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if len(legal) < 2 or view.phase.value == "layoff":
            return super().act(view, rng)
        evaluation = self.evaluate(view, rng)
        chosen = self.choose(evaluation)
        if chosen.kind == "knock" and chosen.card >= 0 and self.truth is not None:
            risk = evaluation.extra.get("risk", {})
            assert isinstance(risk, dict)
            index = evaluation.candidates.index(chosen)
            ours = discard_deadwoods_mask(view.hand.mask)[chosen.card]
            real = deadwood_mask(self.truth.view(1 - view.seat).hand.mask)
            guessed = self._guesses(view)
            self.knocks.append(
                Knock(
                    float(risk.get(index, 0.0)),
                    ours,
                    real,
                    statistics.mean(guessed),
                    sum(d <= ours for d in guessed) / len(guessed),
                    turns_of(view, 1 - view.seat),
                    self._eager(view),
                )
            )
        return chosen.action

    def _odds(self, view: PlayerView) -> list[float] | None:
        """The styles' odds within this hand, as the search draws them (None: the game's)."""
        s = self.settings
        if not (s.read_style and s.style_turns):
            return None
        turn = turns_of(view, 1 - view.seat) - (1 if s.bar_knocks else 0)
        return self.style.within(turn, view.knock_limit)

    def _eager(self, view: PlayerView) -> float:
        """The odds, as read, that he knocks at the first chance (1 without the reading)."""
        if not self.settings.read_style:
            return 1.0
        odds = self._odds(view) or self.style.weights
        return odds[0] / sum(odds) if sum(odds) > 0 else 1.0

    def _guesses(self, view: PlayerView, count: int = GUESSES) -> list[int]:
        """The deadwood of his hand in ``count`` worlds drawn as the search draws them."""
        return [deadwood_mask(opp) for opp in self._hands(view, count)]

    def _hands(self, view: PlayerView, count: int = GUESSES) -> list[int]:
        """His hand in ``count`` worlds drawn as the search draws them."""
        s = self.settings
        b = beliefs(view)
        tries, sharpness = s.sharpness_for(b)
        style = self.style if s.read_style else None
        rng = random.Random(9)
        his_turn = turns_of(view, 1 - view.seat)
        odds = self._odds(view)
        guesser = s.guesser(b, rng)
        out = []
        for _ in range(count):
            _, opp, _ = self._world(
                guesser, rng, style, his_turn, view.knock_limit, tries, sharpness, odds
            )
            out.append(opp)
        return out


def one_game(task: tuple[int, int, str, str, str]) -> list[Knock]:
    seed, seat, opponent, preset, spec = task
    configured = get_agent(f"expert:{spec}")
    assert isinstance(configured, ExpertAgent)
    expert = Recording(configured.settings)
    agents = [get_agent(opponent), get_agent(opponent)]
    agents[seat] = expert
    rng = random.Random(derived_seed(seed, "agents"))
    game = Game(Rules.preset(preset), seed)
    out: list[Knock] = []
    while not game.is_over:
        hand = game.deal_hand()
        expert.truth = hand
        before = len(expert.knocks)
        drive(hand, (agents[0], agents[1]), rng, game.totals)
        game.finish_hand(hand)
        result = hand.result
        if len(expert.knocks) > before and result is not None and result.knocker == seat:
            knock = expert.knocks[-1]
            knock.undercut = result.kind is ResultKind.UNDERCUT
            knock.gin = result.kind in (ResultKind.GIN, ResultKind.BIG_GIN)
            if not knock.gin:
                out.append(knock)
    return out


def share(xs: list[bool]) -> str:
    return f"{sum(xs)} ({sum(xs) / len(xs):.0%})" if xs else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="gin-hunter")
    parser.add_argument("--rules", default="eaai", choices=Rules.presets())
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=256)
    parser.add_argument("--set", default="", help="more expert settings, name=value,...")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    spec = f"worlds={args.worlds}" + (f",{args.set}" if args.set else "")
    tasks = [
        (args.seed + i, seat, args.opponent, args.rules, spec)
        for i in range(args.pairs)
        for seat in (0, 1)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        knocks = [k for game in pool.map(one_game, tasks) for k in game]
    print(f"expert:{spec} vs {args.opponent}, {args.pairs} pairs from seed {args.seed}")
    if not knocks:
        print("no knocks")
        return
    mean = statistics.mean
    cut = [k.undercut for k in knocks]
    print(f"{len(knocks)} knocks (gin aside), undercut {share(cut)}")
    print(f"risk the search saw: {mean(k.risk for k in knocks):.1%} on average")
    print(
        f"deadwood: ours {mean(k.ours for k in knocks):.1f}, his real "
        f"{mean(k.real for k in knocks):.1f}, his guessed {mean(k.guessed for k in knocks):.1f};"
        f" his at most ours: real {mean(k.real <= k.ours for k in knocks):.0%}, guessed "
        f"{mean(k.guessed_low for k in knocks):.0%}"
    )
    print("\nrisk seen      knocks  undercut")
    for low, high in itertools.pairwise(BANDS):
        band = [k.undercut for k in knocks if low <= k.risk < high]
        if band:
            print(f"{low:4.0%} - {min(high, 1.0):4.0%}  {len(band):7d}  {share(band):>8}")
    print("\nhis turns  knocks  his deadwood real / guessed  at most ours real / guessed  risk")
    for low, high in TURNS:
        part = [k for k in knocks if low <= k.turn <= high]
        if part:
            real, guess = mean(k.real for k in part), mean(k.guessed for k in part)
            low_real = mean(k.real <= k.ours for k in part)
            low_guess = mean(k.guessed_low for k in part)
            risk = mean(k.risk for k in part)
            cuts = share([k.undercut for k in part])
            print(
                f"{low:2d}-{high:<2d}  {len(part):9d}  {real:13.1f} / {guess:<7.1f}"
                f"  {low_real:15.0%} / {low_guess:<7.0%}  {risk:4.0%}, undercut {cuts}"
            )
    print("\ncap   knocks kept  undercut among kept  refused  undercut among refused")
    for cap in CAPS:
        kept = [k.undercut for k in knocks if k.risk <= cap]
        gone = [k.undercut for k in knocks if k.risk > cap]
        print(f"{cap:4.0%}  {len(kept):11d}  {share(kept):>19}  {len(gone):7d}  {share(gone):>22}")
    print("\nhis first-chance odds as read  knocks  risk seen  undercut")
    for low, high in ((0.0, 0.5), (0.5, 1.01)):
        part = [k for k in knocks if low <= k.eager < high]
        if part:
            seen = mean(k.risk for k in part)
            print(f"{low:4.0%} - {min(high, 1.0):4.0%}{'':19}{len(part):6d}  {seen:9.1%}  ", end="")
            print(share([k.undercut for k in part]))


if __name__ == "__main__":
    main()
