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

This module is the player and its candidates; its dials are in :mod:`.expert_settings`, the
Monte Carlo evaluation over sampled worlds in :mod:`.expert_search`, and the candidates' and the
verdict's types with the statistics over worlds in :mod:`.expert_values`.
"""

from __future__ import annotations

import random
from time import perf_counter

from ..engine.actions import AUTO, BIG_GIN, DRAW, KNOCKS, PASS, TAKE, Action, ActionKind
from ..engine.cards import DECK
from ..engine.hand import Phase
from ..engine.masks import FULL_DECK_MASK, VALUES
from ..engine.melds import Meld, best_arrangements, deadwood_mask, discard_deadwoods_mask
from ..engine.views import PlayerView
from .base import BaseAgent
from .expert_search import MonteCarlo
from .expert_settings import Settings
from .expert_values import Candidate, Evaluation

# Read from here by the tests, as before the search moved.
from .expert_values import _best_plan as _best_plan
from .expert_values import _plan_key as _plan_key
from .heuristic import takes_into_meld
from .inference import Beliefs, beliefs
from .search import Scoring, layoff_options
from .style import Evidence, StyleModel, default_styles, evidence
from .winprob import Utility, hand_model


def _legal_index(view: PlayerView) -> dict[tuple[ActionKind, int], Action]:
    out: dict[tuple[ActionKind, int], Action] = {}
    for action in view.legal_actions:
        out[(action.kind, action.card.index if action.card is not None else -1)] = action
    return out


def _pile(view: PlayerView) -> list[int]:
    return [c.index for c in view.discard_pile]


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


class ExpertAgent(MonteCarlo, BaseAgent):
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
        (for hints) instead of the heuristic's shortlist. ``budget_ms`` counts from here, so
        a cap on the time (the server's, see :attr:`Settings.budget_ms`) holds for the whole
        decision, its reading of the hand included."""
        started = perf_counter()
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
        return self._monte_carlo(view, b, cands, utility, scoring, rng, started=started)

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


class IntermediateExpert(ExpertAgent):
    """The expert's heuristic without the search."""

    name = "intermediate-expert"

    def __init__(self) -> None:
        super().__init__(Settings(search=False))


__all__ = ["Candidate", "Evaluation", "ExpertAgent", "IntermediateExpert", "Settings"]
