"""Hints: the expert's ranking of every legal action, with a reason a person understands.

>>> from ginrummy.engine import Hand, Rules
>>> hand = Hand.deal(Rules.preset("eaai"), dealer=0, seed=3)
>>> hints = hint(hand.view(hand.current_player), budget_ms=20)
>>> {h.action for h in hints} == set(hand.legal_actions())
True

Each :class:`Hint` carries the action, the expert's estimate of it (``score``: under rules where
only winning the game counts, the change in the chance of winning the game in percentage points
against a hand that scores nothing; otherwise the expected points, bonuses included) and a
short reason such as ``"discard Kd: leaves 23 deadwood; your highest deadwood card; he threw
Kh"``. The best hint comes first.

The estimate is the expert's own: the same opponent reading and the same sampled worlds, with
every legal action played out in each world (so a larger ``budget_ms`` gives steadier scores).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from statistics import mean

from ..engine.actions import AUTO, Action, ActionKind
from ..engine.cards import DECK, Card, Cards
from ..engine.hand import Phase
from ..engine.masks import VALUES, bits
from ..engine.melds import (
    Meld,
    best_arrangement,
    best_arrangements,
    deadwood_mask,
    discard_deadwoods_mask,
    layoff,
)
from ..engine.views import PlayerView
from .expert import Candidate, Evaluation, ExpertAgent, Settings
from .heuristic import NEIGHBOURS, meld_outs
from .inference import Beliefs
from .winprob import Utility


@dataclass(frozen=True, slots=True)
class Hint:
    """One legal action, the expert's estimate of it, and why."""

    action: Action
    #: Higher is better (see the module docstring for the unit).
    score: float
    reason: str
    #: ``"%"`` (change in the chance of winning the game), ``"points"``, or ``"deadwood"``
    #: when defending (minus the deadwood left: laying off is scored by deadwood alone).
    unit: str = "%"

    def __str__(self) -> str:
        sign = "+" if self.score >= 0 else ""
        unit = "%" if self.unit == "%" else " pts"
        return f"{self.action}  ({sign}{self.score:.1f}{unit})  {self.reason}"


def hint(
    view: PlayerView,
    *,
    rng: random.Random | None = None,
    budget_ms: float = 300.0,
    settings: Settings | None = None,
    worlds: int | None = None,
) -> list[Hint]:
    """Rank ``view.legal_actions`` (best first) with the expert's estimate and a reason.

    Knocks come with the arrangement the expert would lay down (the one leaving the fewest
    layoffs), so a knock hint's action may name its melds. Empty when it is not this seat's
    turn. The search weighs as many sampled deals as ``budget_ms`` allows (400 at most); with
    ``worlds``, exactly that many whatever the time, so a seeded ``rng`` gives the same hints
    on any machine.
    """
    if not view.legal_actions:
        return []
    rng = rng if rng is not None else random.Random()
    base = settings if settings is not None else Settings()
    if worlds is not None and worlds < 1:
        raise ValueError(f"worlds must be at least 1, not {worlds}")
    # The hints weigh a score by even hands (hand_edge 0) and every knock as the search
    # values it (no knock_bias_behind): the expert's own edge over a baseline player, and its
    # own later play, are not those of the player they advise.
    neutral = replace(base, hand_edge=0.0, knock_bias_behind=0.0)
    agent = ExpertAgent(
        replace(neutral, budget_ms=float("inf"), worlds=worlds, min_worlds=worlds)
        if worlds is not None
        else replace(neutral, budget_ms=budget_ms, worlds=max(base.worlds, 400), min_worlds=4)
    )
    if view.phase is Phase.LAYOFF:
        return _layoff_hints(view)
    evaluation = agent.evaluate(view, rng, every=True)
    utility = Utility(
        view.rules,
        view.scores,
        view.seat,
        win_only=agent.settings.for_the_game(view),
        hand_only=agent.settings.hand_points,
        columns=view.columns,
    )
    unit = "%" if utility.win_only else "points"
    scale = 100.0 / (2.0 * utility.target) if utility.win_only else 1.0
    b = evaluation.beliefs
    assert b is not None
    his_deadwood = _his_deadwood(b, rng)
    explain = _Explainer(view, b, evaluation, his_deadwood)
    hints: list[Hint] = []
    covered: set[tuple[ActionKind, int]] = set()
    ranked = sorted(
        zip(evaluation.candidates, evaluation.values, strict=True),
        key=lambda cv: (-cv[1], cv[0].prior),
    )
    for cand, value in ranked:
        key = action_key(cand.action)
        if key in covered:
            continue
        covered.add(key)
        score = (value - evaluation.baseline) * scale
        hints.append(Hint(cand.action, round(score, 2), explain.reason(cand, ranked), unit))
    # Anything the search did not weigh (it weighs every legal action; this is a safety net).
    for action in view.legal_actions:
        if action_key(action) not in covered:
            covered.add(action_key(action))
            hints.append(Hint(action, -999.0, "not weighed", unit))
    return hints


def action_key(action: Action) -> tuple[ActionKind, int]:
    """What an action does, without the melds a knock may name: equal for the same move."""
    return action.kind, action.card.index if action.card is not None else -1


def _his_deadwood(b: Beliefs, rng: random.Random, n: int = 24) -> float:
    """The opponent's expected deadwood over sampled hands (as the search samples them)."""
    s = Settings()
    tries, sharpness = s.sharpness_for(b)
    guesser = s.guesser(b, rng)
    return mean(deadwood_mask(guesser.world(tries, sharpness, s.steps)[0]) for _ in range(n))


def _cards(mask: int) -> str:
    return " ".join(str(DECK[i]) for i in bits(mask))


def _rank_name(card: Card) -> str:
    return _RANK_NAMES[card.rank]


_RANK_NAMES = (
    *("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines"),
    "tens",
    *("jacks", "queens", "kings"),
)


class _Explainer:
    """Words for each candidate, from the same facts the expert weighed."""

    def __init__(
        self, view: PlayerView, b: Beliefs, evaluation: Evaluation, his_deadwood: float
    ) -> None:
        self.view = view
        self.b = b
        self.evaluation = evaluation
        self.his = his_deadwood
        self.hand = view.hand.mask
        self.danger = b.danger()

    def reason(self, cand: Candidate, ranked: list[tuple[Candidate, float]]) -> str:
        kind = cand.kind
        if kind == "knock":
            return self._knock(cand, ranked)
        if kind == "discard":
            return self._discard(cand, ranked)
        if kind == "take":
            return self._take(cand)
        if kind == "dead":
            return "pass: the hand ends dead, nobody scores"
        return self._no_take(cand, ranked)

    # -- ending the hand ---------------------------------------------------------------------

    def _knock(self, cand: Candidate, ranked: list[tuple[Candidate, float]]) -> str:
        action = cand.action
        if action.kind is ActionKind.BIG_GIN:
            return "big gin: all eleven cards melded, the biggest bonus"
        rest = self.hand if cand.card < 0 else self.hand & ~(1 << cand.card)
        dw = deadwood_mask(rest)
        his = round(self.his)
        if action.kind is ActionKind.GIN:
            return f"gin: the bonus plus all his deadwood (he holds about {his}); no layoffs"
        words = f"knock now with {dw} deadwood; he holds about {his}"
        best_discard = next((v for c, v in ranked if c.kind == "discard"), None)
        value = dict((id(c), v) for c, v in ranked)[id(cand)]
        if best_discard is not None and value >= best_discard:
            if self.view.stock_count <= 10:
                words += ", and the stock is running out"
            elif self.his <= 20:
                words += ", and he is close to knocking himself"
            else:
                words += "; waiting gains less than it risks"
        risk = self._risk(cand)
        if risk is not None:
            if risk >= 0.005:
                words += f"; he could undercut it in about {risk:.0%} of the hands he may hold"
        elif dw >= 7:
            words += f"; {dw} is a big undercut risk"
        melds = cand.melds if cand.melds is not None else best_arrangement(rest).melds
        options = best_arrangements(rest)
        if len(options) > 1:
            shown = " ".join(str(m) for m in melds)
            words += f"; lay down {shown} to leave him the fewest layoffs"
        return words

    def _risk(self, cand: Candidate) -> float | None:
        """The share of the search's worlds in which he undercuts the knock ``cand``."""
        risk = self.evaluation.extra.get("risk")
        if not isinstance(risk, dict):
            return None
        index = next((i for i, c in enumerate(self.evaluation.candidates) if c is cand), -1)
        value = risk.get(index)
        return float(value) if isinstance(value, float) else None

    # -- discarding --------------------------------------------------------------------------

    def _discard(self, cand: Candidate, ranked: list[tuple[Candidate, float]]) -> str:
        card = DECK[cand.card]
        table = discard_deadwoods_mask(self.hand)
        dw = table[cand.card]
        parts = [f"leaves {dw} deadwood"]
        arrangement = best_arrangement(self.hand)
        dead = arrangement.deadwood_mask
        taken = self.view.taken_card
        if not dead >> cand.card & 1:
            meld = next((m for m in arrangement.melds if m.mask >> cand.card & 1), None)
            if meld is not None:
                parts.append(f"breaks up {meld}")
        else:
            highest = max(VALUES[i] for i in bits(dead) if taken is None or i != taken.index)
            if VALUES[cand.card] == highest and highest >= 8:
                parts.append("your highest deadwood card")
            kept = self._kept_draw(self.hand & ~card.bit)
            if kept:
                parts.append(kept)
        parts.append(self._safety(card))
        knocks = [(c, v) for c, v in ranked if c.kind == "knock"]
        value = dict((id(c), v) for c, v in ranked)[id(cand)]
        if knocks and value > knocks[0][1]:
            parts.append("better than knocking now: he is likely far from knocking, so play on")
        return f"discard {card}: " + "; ".join(p for p in parts if p)

    def _kept_draw(self, rest: int) -> str:
        """The two-card draw the hand keeps with the most live cards to complete it."""
        live = self.b.unseen
        arrangement = best_arrangement(rest)
        loose = arrangement.deadwood_mask
        best = ""
        best_outs = 0
        for i in bits(loose):
            partners = NEIGHBOURS[i] & loose & ~((1 << (i + 1)) - 1)
            for j in bits(partners):
                outs = meld_outs((1 << i) | (1 << j)) & live
                n = outs.bit_count()
                if n > best_outs:
                    best_outs = n
                    best = f"keeps {DECK[i]} {DECK[j]} open ({_cards(outs)} still live)"
        return best

    def _safety(self, card: Card) -> str:
        obs = self.b.observed
        p = self.danger[card.index]
        held = [DECK[t] for t in bits(self.b.known & NEIGHBOURS[card.index])]
        if held and p >= 0.2:
            return f"risky: he took {' '.join(map(str, held))} and may meld it"
        if p >= 0.5:
            return "risky: he may well meld it"
        for seen, verb in ((obs.discarded, "threw"), (obs.passed, "passed on")):
            near = [DECK[t] for t in seen if NEIGHBOURS[t] >> card.index & 1]
            if near:
                same = [c for c in near if c.rank == card.rank]
                if same:
                    return f"he {verb} {_rank_name(card)}"
                return f"he {verb} {' '.join(map(str, near[:2]))}"
        if p < 0.05:
            return "safe: he can hardly use it"
        return ""

    # -- drawing -----------------------------------------------------------------------------

    def _take(self, cand: Candidate) -> str:
        card = DECK[cand.card]
        with_card = self.hand | card.bit
        if self.view.phase is Phase.WALL:
            return f"take {card} to knock with it rather than let the hand die"
        table = discard_deadwoods_mask(with_card)
        after = min(v for i, v in table.items() if i != cand.card)
        before = deadwood_mask(self.hand)
        arrangement = best_arrangement(with_card)
        meld = next((m for m in arrangement.melds if m.mask & card.bit), None)
        if after == 0:
            return f"take {card}: it gives you gin"
        words = f"take {card}"
        if meld is not None:
            words += f": it makes {_meld_words(meld)}"
        elif after < before:
            words += f": it cuts your deadwood from {before} to {after}"
        else:
            words += ": it does not help your hand"
        if after <= self.view.knock_limit:
            words += f", and you can knock with {after}"
        return words

    def _no_take(self, cand: Candidate, ranked: list[tuple[Candidate, float]]) -> str:
        top = self.view.top_discard
        verb = "draw from the stock" if cand.action.kind is ActionKind.DRAW else "pass"
        if top is None:
            return verb
        if not meld_outs(self.hand) >> top.index & 1:
            return f"{verb}: {top} does not fit your hand"
        return f"{verb}: a stock card is worth more on average than {top}, and he learns less"


def _meld_words(meld: Meld) -> str:
    cards = " ".join(str(c) for c in meld.cards)
    return f"a set ({cards})" if meld.kind == "set" else f"a run ({cards})"


def _layoff_hints(view: PlayerView) -> list[Hint]:
    """Defending: ``auto`` is the optimum; each single layoff and ``done`` are scored by the
    deadwood they leave (negative: fewer is better)."""
    hand = view.hand.mask
    melds = list(view.table_melds)
    best = layoff(hand, melds)
    hints: list[Hint] = []
    for action in view.legal_actions:
        if action.kind is ActionKind.AUTO:
            laid = Cards(c for c, _ in best.layoffs)
            what = f"lays off {laid}" if len(laid) else "nothing can be laid off"
            reason = f"auto: {what}, leaving {best.deadwood} deadwood (the least possible)"
            hints.append(Hint(AUTO, -float(best.deadwood), reason, "deadwood"))
        elif action.kind is ActionKind.DONE:
            dw = deadwood_mask(hand)
            hints.append(Hint(action, -float(dw), f"stop: keeps {dw} deadwood", "deadwood"))
        else:
            assert action.card is not None
            card = action.card
            meld = next(m for m in melds if m.accepts(card))
            after = layoff(hand & ~card.bit, [m.with_card(card) if m is meld else m for m in melds])
            reason = f"lay {card} off onto {meld}; the best play from there leaves {after.deadwood}"
            hints.append(Hint(action, -float(after.deadwood), reason, "deadwood"))
    hints.sort(key=lambda h: (-h.score, h.action.kind is not ActionKind.AUTO))
    return hints


__all__ = ["Hint", "hint"]
