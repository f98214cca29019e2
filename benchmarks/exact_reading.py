"""How much better could the expert read a ``simple`` player's hand? An (almost) exact posterior.

``simple`` plays by fixed rules (it takes a pile card only into a meld, throws a card leaving
the least deadwood, never the card it took, and knocks at the first chance). Given those rules,
his whole public history (every pass, take and discard, each stock draw and whether he knocked)
says which hands he can hold now far more sharply than the expert's cheap reading, which scores
a guess against his last few turns only. This script draws his hand from that posterior by a
Metropolis chain over his whole hidden history: his current hidden cards, and which of his
hidden cards (those now held and those he has thrown) he was dealt and which he drew at each
stock draw. A history is weighed by replaying his turns by ``simple``'s rules (a turn they
forbid counts ``EPS``). At each of the expert's discards, against ``simple``, both the expert's
guesses (as its search draws them) and the posterior's are scored against his real hand, as
``gin_guesses.py`` scores them: the share of his hidden cards a guess holds, and the Brier score
of the danger of the expert's cards (the share of guesses in which a card melds with two of his).

The gap between the two is the most that reading a ``simple`` player better could give.

    .venv/bin/python benchmarks/exact_reading.py --games 6 --seed 0
"""

from __future__ import annotations

import argparse
import math
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
from ginrummy.agents.expert import ExpertAgent
from ginrummy.agents.heuristic import meld_outs
from ginrummy.agents.inference import beliefs, choices
from ginrummy.agents.play import drive
from ginrummy.agents.style import turns_of
from ginrummy.engine import Action, PlayerView, Rules
from ginrummy.engine.cards import DECK
from ginrummy.engine.game import Game, derived_seed
from ginrummy.engine.masks import bits
from ginrummy.engine.melds import discard_deadwoods_mask

EPS = 0.02
LOG_EPS = math.log(EPS)
BANDS = ((0, 3), (4, 6), (7, 9), (10, 99))


class History:
    """His public turns and the hidden cards they involve."""

    def __init__(self, view: PlayerView, dealt: int = 10) -> None:
        self.events = choices(view)
        self.limit = view.knock_limit
        b = beliefs(view)
        self.pool = bits(b.unseen)
        self.hidden = b.hidden
        took_then_threw: set[int] = set()
        taken: set[int] = set()
        # D: the cards he threw that he had not taken from the pile: dealt to him or drawn.
        self.thrown: list[tuple[int, int]] = []  # (card, event index)
        for i, (kind, card) in enumerate(self.events):
            if kind == "take":
                taken.add(card)
            elif kind == "discard":
                if card in taken:
                    took_then_threw.add(card)
                else:
                    self.thrown.append((card, i))
        self.draws = [i for i, (kind, _) in enumerate(self.events) if kind == "draw"]
        self.dealt = dealt
        assert len(self.thrown) + self.hidden == dealt + len(self.draws), (
            len(self.thrown),
            self.hidden,
            len(self.draws),
        )

    def replay(self, dealt: int, drawn: list[int]) -> tuple[int, float] | None:
        """His turns replayed from the hand ``dealt`` him and the cards ``drawn`` at his stock
        draws, by ``simple``'s rules: how many turns they forbid, and the log chance of the
        discards they allow (a least-deadwood card, one of several equals by chance). None:
        he threw a card he did not hold."""
        hand = dealt
        taken = -1
        j = 0
        broken = 0
        ties = 0.0
        for kind, card in self.events:
            if kind == "pass":
                if meld_outs(hand) >> card & 1:
                    broken += 1
            elif kind == "take":
                if not in_some_meld(hand, DECK[card]):
                    broken += 1
                hand |= 1 << card
                taken = card
            elif kind == "draw":
                if card >= 0 and in_some_meld(hand, DECK[card]):
                    broken += 1
                hand |= 1 << drawn[j]
                j += 1
                taken = -1
            elif kind == "discard":
                if not hand >> card & 1 or card == taken:
                    return None
                table = discard_deadwoods_mask(hand)
                allowed = [v for c, v in table.items() if c != taken]
                least = min(allowed)
                if table[card] == least:
                    ties -= math.log(allowed.count(least))
                else:
                    broken += 1
                if least <= self.limit:
                    broken += 1  # he would have knocked
                hand &= ~(1 << card)
                taken = -1
        return broken, ties

    def loglik(self, dealt: int, drawn: list[int]) -> float:
        """The log chance that ``simple`` dealt ``dealt`` and drawing ``drawn`` plays his turns
        (each turn his rules forbid counted at ``EPS``)."""
        out = self.replay(dealt, drawn)
        if out is None:
            return -math.inf
        return LOG_EPS * out[0] + out[1]

    def chain(self, start: int, rng: random.Random, burn: int, thin: int, count: int) -> list[int]:
        """``count`` hidden hands (masks) from the posterior, a chain started at ``start``."""
        x = bits(start)
        m = len(self.draws)
        # Slots: 0..dealt-1 the dealt cards, dealt.. the draws in order. Thrown cards first,
        # each in the earliest slot it can have come from (dealt, or a draw before the throw).
        slots = [-1] * (self.dealt + m)
        free_dealt = list(range(self.dealt))
        for card, at in sorted(self.thrown, key=lambda t: t[1]):
            if free_dealt:
                slots[free_dealt.pop(0)] = card
                continue
            for j, e in enumerate(self.draws):
                if e < at and slots[self.dealt + j] < 0:
                    slots[self.dealt + j] = card
                    break
        rest = [i for i, c in enumerate(slots) if c < 0]
        rng.shuffle(rest)
        for i, card in zip(rest, x, strict=True):
            slots[i] = card
        held = set(x)
        pool = [c for c in self.pool if c not in held]

        def ll(s: list[int]) -> float:
            dealt = 0
            for c in s[: self.dealt]:
                dealt |= 1 << c
            return self.loglik(dealt, s[self.dealt :])

        cur = ll(slots)
        out: list[int] = []
        n = len(slots)
        steps = burn + thin * count
        for step in range(steps):
            trial = slots.copy()
            if rng.random() < 0.5 and pool:
                # Another unseen card for one of his held hidden cards.
                heldl = [i for i, c in enumerate(trial) if c in held]
                i = rng.choice(heldl)
                k = rng.randrange(len(pool))
                old, new = trial[i], pool[k]
                trial[i] = new
                t = ll(trial)
                if t >= cur or rng.random() < math.exp(t - cur):
                    slots, cur = trial, t
                    held.discard(old)
                    held.add(new)
                    pool[k] = old
            elif m:
                i = self.dealt + rng.randrange(m)
                k = rng.randrange(n)
                trial[i], trial[k] = trial[k], trial[i]
                t = ll(trial)
                if t >= cur or rng.random() < math.exp(t - cur):
                    slots, cur = trial, t
            if step >= burn and (step - burn) % thin == thin - 1:
                mask = 0
                for c in held:
                    mask |= 1 << c
                out.append(mask)
        return out


Row = tuple[float, float, list[tuple[float, bool]], list[tuple[float, bool]]]


class Scoring(knock_risk.Recording):
    def __init__(self, args: argparse.Namespace, rows: dict[int, list[Row]]) -> None:
        agent = get_agent(f"expert:worlds={args.worlds}")
        assert isinstance(agent, ExpertAgent)
        super().__init__(agent.settings)
        self.args = args
        self.rows = rows

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        if (
            self.truth is not None
            and view.phase.value == "discard"
            and len(view.legal_actions) > 1
            and turns_of(view, 1 - view.seat) >= 1
        ):
            his = self.truth.view(1 - view.seat).hand.mask
            b = beliefs(view)
            hidden = his & ~b.known
            if hidden:
                guesses = self._hands(view, self.args.guesses)
                history = History(view)
                start = guesses[0] & ~b.known
                r = random.Random(self.args.seed * 1000 + len(view.history))
                exact = [
                    h | b.known
                    for h in history.chain(
                        start, r, self.args.burn, self.args.thin, self.args.guesses
                    )
                ]
                mine = [DECK[c] for c in bits(view.hand.mask)]
                truths = [in_some_meld(his, card) for card in mine]
                row = []
                for hands in (guesses, exact):
                    right = statistics.mean((h & hidden).bit_count() for h in hands)
                    danger = [
                        (sum(in_some_meld(h, card) for h in hands) / len(hands), t)
                        for card, t in zip(mine, truths, strict=True)
                    ]
                    row.append((right / hidden.bit_count(), danger))
                turn = turns_of(view, 1 - view.seat)
                self.rows[turn].append((row[0][0], row[1][0], row[0][1], row[1][1]))
        return super().act(view, rng)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=64, help="the playing expert's worlds")
    parser.add_argument("--guesses", type=int, default=100)
    parser.add_argument("--burn", type=int, default=2000)
    parser.add_argument("--thin", type=int, default=20)
    args = parser.parse_args(argv)
    rows: dict[int, list[Row]] = defaultdict(list)
    for i in range(args.games):
        seed = args.seed + i
        for seat in (0, 1):
            scorer = Scoring(args, rows)
            agents = [get_agent("simple"), get_agent("simple")]
            agents[seat] = scorer
            rng = random.Random(derived_seed(seed, "agents"))
            game = Game(Rules.preset("eaai"), seed)
            while not game.is_over:
                hand = game.deal_hand()
                scorer.truth = hand
                drive(hand, (agents[0], agents[1]), rng, game.totals)
                game.finish_hand(hand)
    print(
        f"expert vs simple, {args.games} game(s) from seed {args.seed}, both seats;"
        f" {args.guesses} guesses a decision; chain burn {args.burn}, thin {args.thin}"
    )
    print("his turns  decisions  cards: expert / exact  danger Brier: expert / exact / constant")
    for low, high in BANDS:
        part = [r for t, rs in rows.items() if low <= t <= high for r in rs]
        if not part:
            continue
        ours = [p for r in part for p in r[2]]
        exact = [p for r in part for p in r[3]]
        base = statistics.mean(t for _, t in ours)
        held = statistics.mean(r[0] for r in part), statistics.mean(r[1] for r in part)
        print(
            f"{low:2d}-{high:<2d}      {len(part):5d}      {held[0]:5.1%} / {held[1]:5.1%}"
            f"        {statistics.mean((p - t) ** 2 for p, t in ours):.4f}"
            f" / {statistics.mean((p - t) ** 2 for p, t in exact):.4f} / {base * (1 - base):.4f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
