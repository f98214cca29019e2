"""Whole-hand readers of the opponent, tried against the kept card reading and not kept.

The expert reads his hand card by card (``ginrummy.agents.inference``). These readers instead
score a whole guessed hand by how well it explains everything he did, under one model of his
play (``Model``): a card he passed on rarely melds with the hand he held, a card he took usually
does, his discard is a softmax over the deadwood each card would have left, and he seldom passes
up a gin. Three ways to draw hands from that:

* ``particles``: a particle filter over time, each particle a dealt hand and the cards drawn
  since (a discard it does not hold must have been the card just drawn, which costs it the odds
  of that draw), reweighed at each choice and resampled when the weights thin out;
* ``chain``: a Markov chain over his hidden cards now and the turn at which each of his cards
  arrived (swap a card for an unseen one, or two arrival turns), Metropolis on the likelihood;
* ``reweighted``: 128 hands of the kept reading, resampled by likelihood (every hidden card
  taken as dealt, each thrown card drawn just in time).

Each is scored as ``card_reading.py`` scores the kept reading, on the same decisions: the share
of his hidden cards a sampled hand holds, and the Brier score of the danger of the expert's own
cards at its discards:

    .venv/bin/python benchmarks/readers_tried.py --games 3 --seed 0
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from card_reading import melds_with
from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import Beliefs, beliefs, choices, sample_hidden, sample_world
from ginrummy.agents.play import play_game
from ginrummy.engine import Rules
from ginrummy.engine.hand import Hand, Phase
from ginrummy.engine.masks import bits
from ginrummy.engine.melds import discard_deadwoods_mask
from ginrummy.engine.views import PlayerView

SAMPLES = 32


@dataclass(frozen=True)
class Model:
    """How likely each of his choices is, given the hand he held."""

    pass_melds: float = 0.1
    take_loose: float = 0.3
    beta: float = 0.5
    pass_gin: float = 0.05


class Likelihood:
    """Log-likelihoods of his choices under ``model`` (discards cached by hand)."""

    def __init__(self, model: Model, limit: int) -> None:
        self.model, self.limit = model, limit
        self.cache: dict[tuple[int, int, int], float] = {}

    def pass_or_take(self, kind: str, hand: int, card: int) -> float:
        if kind == "take":
            return 0.0 if melds_with(hand, card) else math.log(self.model.take_loose)
        return math.log(self.model.pass_melds) if melds_with(hand, card) else 0.0

    def discard(self, hand: int, card: int, taken: int) -> float:
        key = (hand, card, taken)
        value = self.cache.get(key)
        if value is None:
            beta = self.model.beta
            table = {c: v for c, v in discard_deadwoods_mask(hand).items() if c != taken}
            best = min(table.values())
            z = sum(math.exp(-beta * (v - best)) for v in table.values())
            value = -beta * (table[card] - best) - math.log(z)
            if best == 0:
                value += math.log(self.model.pass_gin)
            self.cache[key] = value
        return value


def _stock_discards(events: list[tuple[str, int]]) -> list[tuple[int, int]]:
    """(card, event index) of each card he threw that he had not taken from the pile."""
    held, out = 0, []
    for i, (kind, card) in enumerate(events):
        if kind == "take":
            held |= 1 << card
        elif kind == "discard":
            if held >> card & 1:
                held &= ~(1 << card)
            else:
                out.append((card, i))
    return out


def history_loglik(
    events: list[tuple[str, int]], start: int, arrivals: dict[int, int], like: Likelihood
) -> float:
    """His whole history from the dealt hand ``start``; ``arrivals[event index]`` is the card
    each stock draw brought (a thrown card he does not hold counts as drawn just then)."""
    hand, taken, total = start, -1, 0.0
    for i, (kind, card) in enumerate(events):
        if kind == "pass" or (kind == "draw" and card >= 0):
            total += like.pass_or_take("pass", hand, card)
        if kind == "take":
            total += like.pass_or_take("take", hand, card)
            hand |= 1 << card
            taken = card
        elif kind == "draw":
            hand |= 1 << arrivals[i] if i in arrivals else 0
            taken = -1
        elif kind == "discard":
            hand |= 1 << card
            if hand.bit_count() > 3:
                total += like.discard(hand, card, taken)
            hand &= ~(1 << card)
            taken = -1
    return total


def reweighted(view: PlayerView, b: Beliefs, rng: random.Random, model: Model) -> list[int]:
    events = choices(view)
    like = Likelihood(model, view.knock_limit)
    thrown = _stock_discards(events)
    draws = [i for i, (kind, _) in enumerate(events) if kind == "draw"]
    arrivals: dict[int, int] = {}
    for card, when in thrown:
        before = [d for d in draws if d < when and d not in arrivals]
        if before:
            arrivals[before[-1]] = card
    early = sum(1 << c for c, _ in thrown) & ~sum(1 << c for c in arrivals.values())
    hands = [sample_hidden(b, rng) for _ in range(128)]
    logs = [history_loglik(events, h | early, arrivals, like) for h in hands]
    top = max(logs)
    return rng.choices(hands, weights=[math.exp(x - top) for x in logs], k=SAMPLES)


def markov_chain(
    view: PlayerView, b: Beliefs, rng: random.Random, model: Model, burn: int = 100, thin: int = 4
) -> list[int]:
    events = choices(view)
    like = Likelihood(model, view.knock_limit)
    thrown = _stock_discards(events)
    deadline = dict(thrown)
    thrown_mask = sum(1 << c for c, _ in thrown)
    draws = [i for i, (kind, _) in enumerate(events) if kind == "draw"]
    hidden = sample_hidden(b, rng)
    # Arrivals: the cards thrown latest come by the draws just before them if the deal cannot
    # hold them all; the other draws bring hidden cards.
    cards = bits(hidden | thrown_mask)
    arrival = [-1] * len(draws)
    extra = max(0, len(thrown) - (len(cards) - len(draws)))
    for card, when in sorted(thrown, key=lambda t: -t[1])[:extra]:
        slot = max((j for j, d in enumerate(draws) if d < when and arrival[j] < 0), default=-1)
        if slot < 0:
            return []
        arrival[slot] = card
    spare = bits(hidden)
    rng.shuffle(spare)
    for j in range(len(draws)):
        if arrival[j] < 0:
            if not spare:
                return []
            arrival[j] = spare.pop()

    def loglik(h: int, arr: list[int]) -> float:
        came = sum(1 << c for c in arr)
        start = (h | thrown_mask) & ~came
        return history_loglik(events, start, dict(zip(draws, arr, strict=True)), like)

    current = loglik(hidden, arrival)
    unseen = bits(b.unseen)
    out: list[int] = []
    for step in range(burn + SAMPLES * thin):
        if draws and rng.random() < 0.3:
            j = rng.randrange(len(draws))
            pool = bits(hidden | thrown_mask)
            card = pool[rng.randrange(len(pool))]
            new = arrival[:]
            if card in new:
                k = new.index(card)
                new[j], new[k] = new[k], new[j]
            else:
                new[j] = card
            if all(c not in deadline or draws[i] < deadline[c] for i, c in enumerate(new)):
                value = loglik(hidden, new)
                if value >= current or rng.random() < math.exp(value - current):
                    arrival, current = new, value
        else:
            mine = bits(hidden)
            old = mine[rng.randrange(len(mine))]
            others = [c for c in unseen if not hidden >> c & 1]
            if others:
                card = others[rng.randrange(len(others))]
                h = hidden & ~(1 << old) | 1 << card
                new = [card if c == old else c for c in arrival]
                value = loglik(h, new)
                if value >= current or rng.random() < math.exp(value - current):
                    hidden, arrival, current = h, new, value
        if step >= burn and (step - burn) % thin == 0:
            out.append(hidden)
    return out


def particle_filter(
    view: PlayerView, b: Beliefs, rng: random.Random, model: Model, n: int = 128
) -> list[int]:
    events = choices(view)
    like = Likelihood(model, view.knock_limit)
    thrown = bits(sum(1 << c for c, _ in _stock_discards(events)))
    pool = b.unseen | sum(1 << c for c in thrown)
    cards = bits(pool)
    takes = sum(kind == "take" for kind, _ in events)
    draws = sum(kind == "draw" for kind, _ in events)
    dealt = view.opponent_count + sum(kind == "discard" for kind, _ in events) - takes - draws
    if not 0 <= dealt <= len(cards):
        return []
    hands = [sum(1 << c for c in rng.sample(cards, dealt)) for _ in range(n)]
    used = hands[:]
    logw = [0.0] * n
    taken, drew = -1, False
    for kind, card in events:
        if kind == "pass" or (kind == "draw" and card >= 0):
            logw = [
                w + like.pass_or_take("pass", h, card) for w, h in zip(logw, hands, strict=True)
            ]
        if kind == "take":
            logw = [
                w + like.pass_or_take("take", h, card) for w, h in zip(logw, hands, strict=True)
            ]
            hands = [h | 1 << card for h in hands]
            used = [u | 1 << card for u in used]
            taken = card
        elif kind == "draw":
            drew, taken = True, -1
        elif kind == "discard":
            for i in range(n):
                h = hands[i]
                if not h >> card & 1:
                    if not drew:
                        logw[i] = -math.inf
                        continue
                    logw[i] -= math.log(max(1, (pool & ~used[i]).bit_count()))
                    h |= 1 << card
                    used[i] |= 1 << card
                elif drew:
                    free = [c for c in cards if not used[i] >> c & 1]
                    if free:
                        x = free[rng.randrange(len(free))]
                        h |= 1 << x
                        used[i] |= 1 << x
                logw[i] += like.discard(h, card, taken)
                hands[i] = h & ~(1 << card)
            drew, taken = False, -1
            top = max(logw)
            if top == -math.inf:
                return []
            weights = [math.exp(w - top) for w in logw]
            if sum(weights) ** 2 < 0.5 * n * sum(w * w for w in weights):
                picks = rng.choices(range(n), weights=weights, k=n)
                hands = [hands[i] for i in picks]
                used = [used[i] for i in picks]
                logw = [0.0] * n
    top = max(logw)
    picks = rng.choices(range(n), weights=[math.exp(w - top) for w in logw], k=SAMPLES)
    return [hands[i] & ~b.known for i in picks]


Reader = Callable[[PlayerView, Beliefs, random.Random], list[int]]

SHARP = Model(pass_melds=0.02, take_loose=0.02, beta=1.0)
READERS: dict[str, Reader] = {
    "particles": lambda v, b, r: particle_filter(v, b, r, Model()),
    "chain": lambda v, b, r: markov_chain(v, b, r, Model()),
    "chain, sharp model": lambda v, b, r: markov_chain(v, b, r, SHARP),
    "reweighted": lambda v, b, r: reweighted(v, b, r, Model()),
    "reweighted, sharp model": lambda v, b, r: reweighted(v, b, r, SHARP),
}


def kept(view: PlayerView, b: Beliefs, rng: random.Random) -> list[int]:
    s = Settings()
    tries, sharpness = s.sharpness_for(b)
    return [sample_world(b, rng, tries, sharpness)[0] & ~b.known for _ in range(SAMPLES)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    readers: dict[str, Reader] = {"kept reading": kept, **READERS}
    share: dict[str, list[float]] = {name: [] for name in readers}
    brier: dict[str, list[float]] = {name: [] for name in readers}
    failed: dict[str, int] = dict.fromkeys(readers, 0)
    current: dict[str, Any] = {}
    view_of, evaluate = Hand.view, ExpertAgent.evaluate

    def watching_view(self: Hand, seat: int, *a: Any, **k: Any) -> Any:
        current["hand"], current["seat"] = self, seat
        return view_of(self, seat, *a, **k)

    def recording(self: ExpertAgent, view: PlayerView, r: Any, **k: Any) -> Any:
        b = beliefs(view)
        if view.phase in (Phase.DRAW, Phase.DISCARD) and b.hidden >= 3:
            truth = current["hand"].hand_mask(1 - int(current["seat"]))
            hidden = truth & ~b.known
            rng = random.Random(5)
            for name, read in readers.items():
                hands = read(view, b, rng)
                if not hands:
                    failed[name] += 1
                    hands = kept(view, b, rng)
                share[name].append(
                    statistics.mean((h & hidden).bit_count() / b.hidden for h in hands)
                )
                if view.phase is Phase.DISCARD:
                    for card in bits(view.hand.mask):
                        p = sum(melds_with(h | b.known, card) for h in hands) / len(hands)
                        brier[name].append((p - melds_with(truth, card)) ** 2)
        return evaluate(self, view, r, **k)

    Hand.view = watching_view  # type: ignore[method-assign]
    ExpertAgent.evaluate = recording  # type: ignore[method-assign,assignment]
    rules = Rules.preset("eaai")
    for seed in range(args.seed, args.seed + args.games):
        agents = [get_agent("expert"), get_agent("simple")]
        play_game(rules, agents if seed % 2 == 0 else agents[::-1], seed)
    n = len(share["kept reading"])
    print(f"expert vs simple, {args.games} games from seed {args.seed}: {n} decisions")
    print(f"  {'reader':<26} {'his cards':>9} {'danger Brier':>13} {'fell back':>9}")
    for name in readers:
        print(
            f"  {name:<26} {statistics.mean(share[name]):>9.1%} "
            f"{statistics.mean(brier[name]):>13.4f} {failed[name]:>9}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
