"""``expert``: opponent inference plus determinized Monte Carlo over sampled worlds.

Every decision with a real choice is made the same way:

1. **Read the opponent** (:mod:`.inference`): per unseen card, the odds that he holds it, from
   what he took, passed on and discarded.
2. **List the candidates**: take or draw; the few best discards by the heuristic of
   :mod:`.heuristic` (deadwood left, live cards that still join a meld, the chance he can use
   the card); every knock, each with the arrangement that leaves him the fewest layoffs.
3. **Sample worlds** (his hidden cards and the stock order, his hand better organised the
   longer he has played, and his knocking rule drawn from the style he has shown in this
   game, :mod:`.style`; a world in which he would already have knocked is drawn again) and
   play each candidate out to the end of the hand in each world with a fast policy for both
   seats (:mod:`.search`), each knocking by its rule. Every candidate meets the same worlds;
   the discards go through successive halving, so the two finalists are compared on many
   worlds; another discard replaces the heuristic's best only when it is clearly better.
4. **Score** each ending by what it does to the chance of winning the game at the current
   score (:mod:`.winprob`; under the EAAI rules worked out for the hands it really plays, its
   big wins and his small knocks, ``hand_edge``), and keep the candidate with the best
   average.

A move that plays on is tried with several plans for the expert's own later knocking (at the
first chance, only at a low deadwood, gin only: ``patient``) and valued by its best plan, so
the search sees what waiting for an undercut or a gin is worth. Under rules with bonuses it
plays to win the game (``win_game``) unless the rules set a stake, where the money is the final
net and an ending is worth its points and boxes too, or the game is one of a match (the view's
``match_points``), whose match points add up the games' nets (``benchmarks/strength.md`` has
what each was measured to be worth).

Defending, it lays off optimally (``auto``); it always goes gin (or big gin) when it can.

``intermediate-expert`` is the same player without the search: the heuristic alone, knocking
as soon as it may.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from time import perf_counter

from ..engine.actions import AUTO, BIG_GIN, DRAW, KNOCKS, PASS, TAKE, Action, ActionKind
from ..engine.cards import DECK
from ..engine.hand import Phase
from ..engine.masks import FULL_DECK_MASK, STOCK_FLOOR, VALUES
from ..engine.melds import Meld, best_arrangements, deadwood_mask, discard_deadwoods_mask
from ..engine.views import PlayerView
from .base import BaseAgent
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
from .heuristic import Weights, discard_scores, takes_into_meld
from .inference import Beliefs, Guesser, beliefs
from .search import (
    FIRST_CHANCE,
    TO_DISCARD,
    TO_DRAW,
    TO_TAKE_OR_PASS,
    KnockRule,
    Rollout,
    Scoring,
    layoff_options,
    play_out_plans,
    resolve_knock,
)
from .style import Evidence, StyleModel, default_styles, evidence, turns_of
from .winprob import Utility, hand_model


def _legal_index(view: PlayerView) -> dict[tuple[ActionKind, int], Action]:
    out: dict[tuple[ActionKind, int], Action] = {}
    for action in view.legal_actions:
        out[(action.kind, action.card.index if action.card is not None else -1)] = action
    return out


def _pile(view: PlayerView) -> list[int]:
    return [c.index for c in view.discard_pile]


def _first_upcard_passes(view: PlayerView) -> int:
    return sum(1 for e in view.history if e.action.kind is ActionKind.PASS)


def _exposure(melds: tuple[Meld, ...], b: Beliefs | None) -> float:
    """Expected deadwood points the defender can lay off onto ``melds`` (one card deep)."""
    reach = 0
    for opts in layoff_options(b.unseen | b.known if b is not None else FULL_DECK_MASK, melds):
        for m in opts:
            reach |= m
    total = 0.0
    m = reach
    while m:
        low = m & -m
        card = low.bit_length() - 1
        p = b.prob[card] if b is not None else 0.3
        total += p * VALUES[card]
        m ^= low
    return total


class ExpertAgent(BaseAgent):
    """The strongest player: see the module docstring."""

    name = "expert"

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self._style: StyleModel | None = None
        self._read = False

    @property
    def style(self) -> StyleModel:
        """The odds of his knocking styles, from the hands of this game seen so far."""
        if self._style is None:
            s = self.settings
            self._style = StyleModel(default_styles(s.prior_early, s.prior_low), s.style_slip)
        return self._style

    @property
    def watching(self) -> bool:
        """Whether :meth:`observe` reads anything: only when it reads his style (the referee
        builds no views for it otherwise, see :func:`~.base.watches`)."""
        return self.settings.read_style

    def new_hand(self) -> None:
        self._read = False

    def observe(self, view: PlayerView) -> None:
        """At the end of a hand, read what it showed of his knocking (once a hand)."""
        if view.result is None or self._read:
            return
        self._read = True
        ev = evidence(view)
        if ev is not None:
            self.learn(ev)

    def learn(self, ev: Evidence) -> None:
        """Take one piece of evidence of his knocking (what :meth:`observe` reads from a
        finished hand), for a player that keeps it between moves itself: the web server's
        workers make a fresh expert for every move and hand it the evidence of the game."""
        self.style.update(ev)

    # -- the protocol ----------------------------------------------------------------------

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do in phase {view.phase.value!r}")
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.LAYOFF:
            return AUTO if AUTO in legal else legal[-1]
        evaluation = self.evaluate(view, rng)
        return self.choose(evaluation).action

    def choose(self, evaluation: Evaluation) -> Candidate:
        """The move to make: the best valued, unless it is a knock riskier than
        ``knock_risk`` and a move that plays on is there to make instead."""
        cap = self.settings.knock_risk
        risk = evaluation.extra.get("risk")
        if cap >= 1.0 or not isinstance(risk, dict):
            return evaluation.best()
        cands, values = evaluation.candidates, evaluation.values
        allowed = [i for i, c in enumerate(cands) if c.kind != "knock" or risk.get(i, 0.0) <= cap]
        if not allowed:
            return evaluation.best()
        best = max(allowed, key=lambda i: (values[i], -cands[i].prior))
        return cands[best]

    # -- the search ------------------------------------------------------------------------

    def evaluate(self, view: PlayerView, rng: random.Random, *, every: bool = False) -> Evaluation:
        """Weigh the candidate moves of ``view``. With ``every``, weigh every legal ending
        (for hints) instead of the heuristic's shortlist."""
        phase = view.phase
        b = beliefs(view)
        s = self.settings
        # The measured hands are the EAAI game's: a blend of points and game (under a stake)
        # keeps even hands (hand_edge).
        game_only = s.for_the_game(view)
        edge = s.hand_edge if game_only else 0.0
        utility = Utility(
            view.rules,
            view.scores,
            view.seat,
            win_only=game_only,
            hand_only=s.hand_points,
            model=hand_model(edge),
            columns=view.columns if s.by_column else (),
        )
        scoring = Scoring.of(view.rules, view.knock_limit, view.multiplier)
        if phase in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.WALL):
            cands = self._draw_candidates(view, b, every)
        else:
            cands = self._discard_candidates(view, b, every)
        searched = sum(c.searched for c in cands)
        if not self.settings.search or searched == 0 or (searched == 1 and not every):
            values = [-c.prior for c in cands]
            return Evaluation(cands, values, 0, utility(0, 0), b)
        return self._monte_carlo(view, b, cands, utility, scoring, rng)

    def _draw_candidates(self, view: PlayerView, b: Beliefs, every: bool) -> list[Candidate]:
        legal = view.legal_actions
        hand = view.hand.mask
        top = view.top_discard
        no_take = DRAW if DRAW in legal else PASS
        no_kind = "draw" if no_take is DRAW else "pass"
        if view.phase is Phase.WALL:
            no_kind = "dead"
        if TAKE not in legal or top is None:
            return [Candidate(no_take, no_kind)]
        card = top.index
        useful = (
            every
            or view.phase is Phase.WALL
            or takes_into_meld(hand, card)
            or self._low_swap(view, card)
        )
        if not useful:
            return [Candidate(no_take, no_kind, prior=0.0)]
        if every and not takes_into_meld(hand, card) and not self._low_swap(view, card):
            # Weighed for hints only: the expert never takes such a card.
            return [
                Candidate(no_take, no_kind, prior=0.0),
                Candidate(TAKE, "take", card, prior=3.0, searched=False),
            ]
        return [
            Candidate(TAKE, "take", card, prior=0.0),
            Candidate(no_take, no_kind, prior=0.5),
        ]

    def _low_swap(self, view: PlayerView, card: int) -> bool:
        """Whether the pile card, though it joins no meld, cuts the deadwood by
        ``take_gain`` (a low card replacing a high one)."""
        hand = view.hand.mask
        table = discard_deadwoods_mask(hand | (1 << card))
        after = min(v for i, v in table.items() if i != card)
        return after <= deadwood_mask(hand) - self.settings.take_gain

    def _discard_candidates(self, view: PlayerView, b: Beliefs, every: bool) -> list[Candidate]:
        legal = _legal_index(view)
        hand = view.hand.mask
        enders: list[Candidate] = []
        if (ActionKind.BIG_GIN, -1) in legal:
            enders.append(Candidate(BIG_GIN, "knock", prior=-100.0))
        for (kind, card), action in legal.items():
            if kind is ActionKind.GIN:
                enders.append(Candidate(action, "knock", card, prior=-50.0 - 0.01 * VALUES[card]))
        if enders and not every:
            # Always end the hand with (big) gin: nothing can beat it.
            return enders[:1]
        taken = view.taken_card.index if view.taken_card is not None else -1
        table = discard_deadwoods_mask(hand)
        scored = self._scored(hand, taken, b, table)
        st = self.settings
        cands: list[Candidate] = []
        limit = st.discards if st.search_discards else 1
        least = min(dw for _, _, dw in scored) if scored else 99
        for score, card, dw in scored:
            discard = legal.get((ActionKind.DISCARD, card))
            if discard is None:
                continue
            searched = len(cands) < limit or (
                dw == least and limit > 1 and not any(c.card == card for c in cands)
            )
            if searched or every:
                cands.append(Candidate(discard, "discard", card, prior=score, searched=searched))
        cands.extend(self._knock_candidates(view, b, table, taken, legal, every))
        return enders + cands

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

    def _knock_candidates(
        self,
        view: PlayerView,
        b: Beliefs,
        table: dict[int, int],
        taken: int,
        legal: dict[tuple[ActionKind, int], Action],
        every: bool = False,
    ) -> list[Candidate]:
        hand = view.hand.mask
        out: list[Candidate] = []
        options = sorted(
            (dw, card)
            for card, dw in table.items()
            if (ActionKind.KNOCK, card) in legal and card != taken
        )
        if not options:
            return out
        least = options[0][0]
        for dw, card in options:
            if not every and (dw > least + 2 or len(out) >= 6):
                break
            arrangements = best_arrangements(hand & ~(1 << card))
            ranked = sorted(
                range(len(arrangements)), key=lambda i: _exposure(arrangements[i].melds, b)
            )
            for i in ranked[: 1 if every else 2]:
                melds = arrangements[i].melds
                action = KNOCKS[card] if i == 0 else Action(ActionKind.KNOCK, DECK[card], melds)
                prior = dw - 20 + _exposure(melds, b) * 0.5
                out.append(Candidate(action, "knock", card, melds, prior=prior))
        # Without search: the best knock first.
        out.sort(key=lambda c: c.prior)
        return out

    def _monte_carlo(
        self,
        view: PlayerView,
        b: Beliefs,
        cands: list[Candidate],
        utility: Utility,
        scoring: Scoring,
        rng: random.Random,
    ) -> Evaluation:
        s = self.settings
        deadline = perf_counter() + s.budget_ms / 1000.0
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


class IntermediateExpert(ExpertAgent):
    """The expert's heuristic without the search."""

    name = "intermediate-expert"

    def __init__(self) -> None:
        super().__init__(Settings(search=False))


__all__ = ["Candidate", "Evaluation", "ExpertAgent", "IntermediateExpert", "Settings"]
