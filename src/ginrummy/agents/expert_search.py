"""The expert's Monte Carlo evaluation: its candidates played out over sampled worlds.

For one decision, :meth:`MonteCarlo._monte_carlo` samples worlds (his knocking rule from the
style he has shown, his hidden cards and the stock: :meth:`~MonteCarlo._world`), plays every
candidate out to the end of the hand in each (:meth:`~MonteCarlo._start`,
:meth:`~MonteCarlo._simulate`, with the plans for its own knocking), prunes the discards by
successive halving and reads the values into an :class:`~.expert_values.Evaluation`.
:class:`MonteCarlo` is a base of :class:`~.expert.ExpertAgent`, which lists the candidates and
gives it its ``settings`` and the ``style`` it has read of him.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from time import perf_counter
from typing import TYPE_CHECKING

from ..engine.actions import ActionKind
from ..engine.hand import Phase
from ..engine.masks import STOCK_FLOOR
from ..engine.melds import deadwood_mask, discard_deadwoods_mask
from ..engine.views import PlayerView
from .expert_settings import Settings
from .expert_values import (
    Candidate,
    Evaluation,
    _behind,
    _best_plan,
    _close,
    _derive_values,
    _gate_discards,
    _mean,
    _per_point,
    _plan_key,
)
from .heuristic import Weights, discard_scores
from .inference import Beliefs, Guesser
from .search import (
    FIRST_CHANCE,
    TO_DISCARD,
    TO_DRAW,
    TO_TAKE_OR_PASS,
    KnockRule,
    Rollout,
    Scoring,
    play_out_plans,
    resolve_knock,
)
from .style import StyleModel, turns_of
from .winprob import Utility


def _first_upcard_passes(view: PlayerView) -> int:
    return sum(1 for e in view.history if e.action.kind is ActionKind.PASS)


class MonteCarlo:
    """The search half of the expert: see the module docstring."""

    settings: Settings

    if TYPE_CHECKING:

        @property
        def style(self) -> StyleModel: ...

    def _scored(
        self, hand: int, taken: int, b: Beliefs, table: dict[int, int]
    ) -> list[tuple[float, int, int]]:
        """The heuristic's ``(score, card, deadwood left)`` for each discard, best first."""
        drawable = [0.0 if not b.unseen >> i & 1 else 1.0 - b.prob[i] for i in range(52)]
        st = self.settings
        weights = Weights(st.outs, st.danger, st.lookahead)
        return discard_scores(hand, taken, drawable, b.danger(), weights, table)

    def _take_then(
        self, view: PlayerView, b: Beliefs, c: Candidate, turns: tuple[int, int]
    ) -> list[Rollout]:
        """Where a take followed by each of the heuristic's best ``take_then`` discards leaves
        the hand (his turn next), for :attr:`Settings.take_then`."""
        hand = view.hand.mask | (1 << c.card)
        pile = tuple(card.index for card in view.discard_pile)[:-1]
        scored = self._scored(hand, c.card, b, discard_deadwoods_mask(hand))
        begun = (turns[0] + 1, turns[1])
        return [
            Rollout(hand & ~(1 << card), (*pile, card), 1, TO_DRAW, turns=begun)
            for _, card, _ in scored[: self.settings.take_then]
        ]

    def _then(self, view: PlayerView, b: Beliefs, drawn: int) -> int:
        """The heuristic's discard after drawing ``drawn`` from the stock (``draw_then``), or
        -1 where some discard would let the expert knock."""
        hand = view.hand.mask | (1 << drawn)
        table = discard_deadwoods_mask(hand)
        if min(table.values()) <= view.knock_limit:
            return -1
        return self._scored(hand, -1, b, table)[0][1]

    def _monte_carlo(
        self,
        view: PlayerView,
        b: Beliefs,
        cands: list[Candidate],
        utility: Utility,
        scoring: Scoring,
        rng: random.Random,
        *,
        started: float | None = None,
    ) -> Evaluation:
        """The candidates weighed over sampled worlds, until ``worlds`` are played out or
        ``budget_ms`` has passed since ``started`` (a :func:`time.perf_counter` reading; by
        default, now), whichever comes first (after ``min_worlds`` at least)."""
        s = self.settings
        deadline = (perf_counter() if started is None else started) + s.budget_ms / 1000.0
        cache: dict[tuple[int, int], float] = {}
        tries, sharpness = s.sharpness_for(b)
        active = [i for i, c in enumerate(cands) if c.searched]
        # Successive halving over the discards: after ``prune[k]`` worlds only the best
        # ``keep[k]`` discards go on, so the finalists are judged on many more worlds.
        schedule = list(zip(s.prune, s.keep, strict=True))
        # Per searched candidate, its value in each world it met (the first len() worlds).
        samples: dict[int, list[float]] = {i: [] for i in active}
        begun = (turns_of(view, view.seat), turns_of(view, 1 - view.seat))
        starts = {i: self._start(view, cands[i], begun) for i in active}
        mine = KnockRule(s.own_most, s.own_turns)
        # The plans for its own knocking (and the weight its rollout discards give to live
        # outs) a move that plays on is tried with (``patient``).
        plans = [(mine, s.rollout_outs)]
        if s.patient:
            waiting = s.rollout_outs if s.patient_outs is None else s.patient_outs
            late = s.patient_late
            rules = [
                KnockRule(min(s.patient_most, s.own_most), s.own_turns, late),
                KnockRule(0, late=late),
            ]
            if s.patient_turns > 0:
                window = min(s.own_turns, begun[0] + s.patient_turns)
                rules.append(KnockRule(s.own_most, window, late))
            for rule in rules:
                if all(rule != known for known, _ in plans):
                    plans.append((rule, waiting))
        # The plans in runs that weigh outs alike, each run played out in one pass; and the
        # first plan alone.
        groups: list[tuple[float, list[KnockRule]]] = []
        for rule, outs in plans:
            if groups and groups[-1][0] == outs:
                groups[-1][1].append(rule)
            else:
                groups.append((outs, [rule]))
        first = [(plans[0][1], [plans[0][0]])]
        # Per take with ``take_then``, where it leaves the hand: its own start, then the take
        # followed by each of the heuristic's best discards.
        thens = {
            i: [starts[i], *self._take_then(view, b, cands[i], begun)]
            for i in active
            if cands[i].kind == "take" and s.take_then > 0 and view.phase is not Phase.WALL
        }
        # Per candidate, where it is played from: its start, or a take's starts with
        # ``take_then``.
        wheres = {i: thens.get(i) or [starts[i]] for i in active}
        # Per candidate, one list of values per plan (and start) it is tried with: one
        # (``samples[i]`` itself) for a move that ends the hand or with a single plan and
        # start; otherwise one each, and ``samples[i]`` is set to the best one's when the
        # values are read.
        arms: dict[int, list[list[float]]] = {}
        for i in active:
            count = len(plans) if len(plans) > 1 and cands[i].kind not in ("knock", "dead") else 1
            count *= len(wheres[i])
            arms[i] = [[] for _ in range(count)] if count > 1 else [samples[i]]
        style = self.style if s.read_style else None
        odds = None
        if style is not None and s.style_turns:
            odds = style.within(begun[1] - (1 if s.bar_knocks else 0), view.knock_limit)
        danger = b.danger() if s.rollout_danger else []
        # Per candidate tried with several plans in one pass, the key of each world's group
        # (``plan_info``; -1 where the plans never part).
        keyed: dict[int, list[int]] = (
            {i: [] for i, lists in arms.items() if len(lists) > 1 and i not in thens}
            if s.plan_info > 0 and len(groups) == 1
            else {}
        )
        # With ``draw_then``, per card drawn, the heuristic's discard after it (-1: the
        # rollout's own, where a discard lets it knock).
        draw_then = s.draw_then and view.phase is not Phase.WALL
        after: dict[int, int] = {}
        n = 0
        goal = s.worlds
        guesser = s.guesser(b, rng)
        while n < goal:
            n += 1
            his, opp, stock = self._world(
                guesser, rng, style, begun[1], view.knock_limit, tries, sharpness, odds
            )
            for i in active:
                # A candidate with one list is tried with the first plan only; plans that
                # weigh outs alike are played out together.
                lists = arms[i]
                points: list[tuple[int, int]] = []
                keys = keyed.get(i)
                parted: list[tuple[int, int]] | None = [] if keys is not None else None
                where = wheres[i]
                then = -1
                if draw_then and cands[i].kind == "draw":
                    then = after.get(stock[0], -2)
                    if then == -2:
                        then = after[stock[0]] = self._then(view, b, stock[0])
                for start in where:
                    for outs, group in groups if len(lists) > len(where) else first:
                        points += self._simulate(
                            view,
                            cands[i],
                            start,
                            opp,
                            stock,
                            scoring,
                            group,
                            his,
                            outs,
                            danger,
                            parted,
                            then,
                        )
                if keys is not None:
                    keys.append(_plan_key(parted, s.plan_info))
                for pts, values in zip(points, lists, strict=False):
                    v = cache.get(pts)
                    if v is None:
                        v = cache[pts] = utility(pts[0], pts[1])
                    values.append(v)
            late = n >= s.min_worlds and perf_counter() > deadline
            if (len(plans) > 1 or thens) and (n == goal or late or n in s.prune):
                for i, lists in arms.items():
                    samples[i] = _best_plan(lists, s.plan_blend, keyed.get(i))
            if schedule and n >= schedule[0][0]:
                keep = schedule.pop(0)[1]
                discards = [i for i in active if cands[i].kind == "discard"]
                if len(discards) > keep:
                    discards.sort(key=lambda i: (-_mean(samples[i]), cands[i].prior))
                    dropped = set(discards[keep:])
                    active = [i for i in active if i not in dropped]
            if n == s.worlds and s.extra_worlds and _close(active, samples, s.close_z):
                goal += s.extra_worlds
            if late:
                break
        values = [_mean(samples[i]) if i in samples else 0.0 for i in range(len(cands))]
        finalists = [values[i] for i in active if cands[i].kind == "discard"]
        if finalists:
            # A discard dropped early keeps its (noisier) mean, but never above a finalist.
            floor = min(finalists)
            for i, c in enumerate(cands):
                if c.kind == "discard" and c.searched and i not in active:
                    values[i] = min(values[i], floor - 1e-6 * (1 + c.prior))
        if s.gate_z > 0:
            _gate_discards(cands, values, samples, s.gate_z)
        shift = s.knock_bias + (s.knock_bias_behind if _behind(view) else 0.0)
        if shift:
            bias = shift * _per_point(utility)
            for i, c in enumerate(cands):
                if c.action.kind is ActionKind.KNOCK and i in samples:
                    values[i] += bias
        _derive_values(cands, values, utility)
        base = utility(0, 0)
        # Per knock, the share of worlds in which it loses points (undercut): its risk.
        risk = {
            i: sum(v < base for v in samples[i]) / len(samples[i])
            for i, c in enumerate(cands)
            if c.kind == "knock" and samples.get(i)
        }
        return Evaluation(cands, values, n, base, b, extra={"risk": risk})

    def _world(
        self,
        guesser: Guesser,
        rng: random.Random,
        style: StyleModel | None,
        turn: int,
        limit: int,
        tries: int,
        sharpness: float,
        odds: list[float] | None = None,
    ) -> tuple[KnockRule, int, list[int]]:
        """A world: his knocking rule (drawn from ``style``'s odds; at the first chance without
        one), his hand and the stock. It is his turn ``turn`` (over when it is ours), and he
        did not knock: a rule and hand that would have knocked (by that rule, with his hand as
        it is) are drawn again, up to ``redraws`` times, so that a hand that could have knocked
        long ago speaks for a patient rule. Past the turns his rule knocks in, he plays for gin
        and his hand is guessed sharper (``gin_tries``, ``gin_sharpness``), by ``guesser``."""
        s = self.settings
        gin_sharpness = max(sharpness, min(s.gin_sharpness, s.gin_ramp * turn**s.gin_power))
        for attempt in range(s.redraws + 1):
            his = style.sample(rng, odds) if style is not None else FIRST_CHANCE
            t, sh, steps = tries, sharpness, s.steps
            if turn > his.turns:
                t, sh, steps = s.gin_tries, gin_sharpness, s.gin_steps
                if s.gin_spread > 0:
                    sh *= math.exp(s.gin_spread * rng.gauss(0.0, 1.0))
            # A hand drawn again is drawn afresh: the shared chain, a few swaps on, would mostly
            # still hold the hand that would have knocked.
            opp, stock = guesser.world(t, sh, steps, fresh=attempt > 0)
            if turn == 0 or not s.bar_knocks:
                break
            dw = deadwood_mask(opp)
            if not (dw <= limit and his.allows(dw, turn)):
                break
        return his, opp, stock

    @staticmethod
    def _start(view: PlayerView, c: Candidate, turns: tuple[int, int]) -> Rollout | None:
        """Where candidate ``c`` leaves the hand, the same in every world, so it is made once a
        decision (None for a move that ends the hand); ``turns``: the turns each seat (this one
        first) has begun. A draw starts before the draw: the card drawn is the world's
        (:meth:`_simulate`)."""
        hand = view.hand.mask
        pile = tuple(card.index for card in view.discard_pile)
        kind = c.kind
        if kind == "discard":
            return Rollout(hand & ~(1 << c.card), (*pile, c.card), 1, TO_DRAW, turns=turns)
        begun = (turns[0] + 1, turns[1])
        if kind == "take":
            taken = c.card
            return Rollout(hand | (1 << taken), pile[:-1], 0, TO_DISCARD, taken=taken, turns=begun)
        if kind == "draw":
            return Rollout(hand, pile, turn=0, phase=TO_DRAW, turns=begun)
        if kind == "pass":  # on the first upcard
            if _first_upcard_passes(view) + 1 == 2:
                # Both passed: the non-dealer (the other seat) draws from the stock.
                return Rollout(hand, pile, turn=1, phase=TO_DRAW, passes=2, turns=turns)
            return Rollout(hand, pile, turn=1, phase=TO_TAKE_OR_PASS, passes=1, turns=turns)
        return None

    def _simulate(
        self,
        view: PlayerView,
        c: Candidate,
        start: Rollout | None,
        opp: int,
        stock: list[int],
        scoring: Scoring,
        plans: Sequence[KnockRule] = (FIRST_CHANCE,),
        his: KnockRule = FIRST_CHANCE,
        outs: float = 0.0,
        danger: Sequence[float] = (),
        parted: list[tuple[int, int]] | None = None,
        then: int = -1,
    ) -> list[tuple[int, int]]:
        """Points ``(mine, his)`` when candidate ``c`` is played in the world ``(opp, stock)``
        and the hand is played out from ``start`` (:meth:`_start`), once for each of this
        seat's knocking ``plans`` (:func:`~.search.play_out_plans`, in one pass, which tells
        ``parted`` where they part), his knocking by ``his``, this seat's discards weighing
        live outs by ``outs`` and, with ``rollout_danger``, the ``danger`` of each card; a draw
        discards ``then`` after it (-1: the rollout's own discard)."""
        hand = view.hand.mask
        kind = c.kind
        shun = self.settings.rollout_danger if danger else 0.0
        if kind == "knock":
            rest = hand if c.card < 0 else hand & ~(1 << c.card)
            return [resolve_knock(rest, opp, c.melds, scoring)] * len(plans)
        if kind == "dead":
            return [(0, 0)] * len(plans)
        assert start is not None
        if kind == "discard" and view.stock_count <= STOCK_FLOOR:
            return [(0, 0)] * len(plans)
        if kind == "take" and view.phase is Phase.WALL:
            return [self._wall_knock(hand | (1 << c.card), c.card, opp, scoring)] * len(plans)
        if kind == "draw":
            # The card drawn is this world's first stock card.
            full = hand | (1 << stock[0])
            if then >= 0:
                pile = (*start.pile, then)
                start = Rollout(full & ~(1 << then), pile, 1, TO_DRAW, pos=1, turns=start.turns)
            else:
                start = Rollout(full, start.pile, 0, TO_DISCARD, pos=1, turns=start.turns)
        return play_out_plans(
            start,
            opp,
            stock,
            scoring,
            outs,
            plans=plans,
            his=his,
            danger=danger,
            shun=shun,
            his_any=self.settings.his_any,
            parted=parted,
        )

    @staticmethod
    def _wall_knock(hand: int, taken: int, opp: int, scoring: Scoring) -> tuple[int, int]:
        table = discard_deadwoods_mask(hand)
        card = min((v, c) for c, v in table.items() if c != taken)[1]
        return resolve_knock(hand & ~(1 << card), opp, None, scoring)


__all__ = ["MonteCarlo"]
