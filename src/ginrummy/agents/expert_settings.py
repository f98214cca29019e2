"""The expert's settings: every dial of :class:`~.expert.ExpertAgent` in one dataclass, each
documented with what it does and, where it was measured, what it was worth
(``benchmarks/strength.md``). ``expert:key=value`` sets them by name (:func:`~.registry.get_agent`);
the hints and the benchmarks read them too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from ..engine.views import PlayerView
from .heuristic import DEFAULT_WEIGHTS
from .inference import Beliefs, Guesser, Reading
from .winprob import for_the_game


@dataclass
class Settings:
    """How hard the expert thinks."""

    #: The settings that may be below 0 (every other is a count, a weight or a chance).
    signed: ClassVar[frozenset[str]] = frozenset(
        {"knock_bias", "knock_bias_behind", "patient_late"}
    )

    #: Worlds per decision. The search is counted in worlds, not in time, so the same seed
    #: makes the same decisions on any machine; ``budget_ms`` is only a safety cap (checked
    #: between worlds, after at least ``min_worlds``, counted from the start of the decision)
    #: for a machine far slower than ours. The web server lowers it to fit its computer's
    #: delay (``ginrummy.web.thinking.move``), so that its reply never comes late: there
    #: only, a close decision may be cut short of its worlds.
    worlds: int = 768
    min_worlds: int = 16
    #: Up to this many more worlds when the two best candidates are still within ``close_z``
    #: standard errors of each other (paired over the same worlds) after ``worlds``.
    extra_worlds: int = 0
    close_z: float = 2.0
    budget_ms: float = 800.0
    #: How many of the heuristic's best discards the search weighs (knocks come on top).
    discards: int = 5
    #: Guesses per world, one kept with odds exp(-sharpness * deadwood) (``sample_hidden``):
    #: the longer he has played, the better organised his hand. The sharpness grows by
    #: ``sharpness`` per card he has drawn, up to ``sharpness_cap``.
    tries: int = 8
    sharpness: float = 0.0125
    sharpness_cap: float = 0.075
    #: The discard heuristic's weights (see :class:`~.heuristic.Weights`).
    outs: float = DEFAULT_WEIGHTS.outs
    danger: float = DEFAULT_WEIGHTS.danger
    lookahead: float = DEFAULT_WEIGHTS.lookahead
    #: Take a pile card that joins no meld when it cuts the deadwood by this much.
    take_gain: int = 4
    search: bool = True
    #: The rollout policy's bonus, for the searching player's own later discards, per live card
    #: that still joins a meld (0: the least deadwood, like the opponent's).
    rollout_outs: float = 0.0
    #: The searching player's later discards in the rollouts, when it cannot knock, also
    #: avoid cards by their danger (the chance he can meld them, as read at the decision)
    #: times this (0: the least deadwood alone; the heuristic's own weight is ``danger``).
    rollout_danger: float = 0.0
    #: Whether his takes from the pile in the rollouts follow ``simple``'s rule (a card that
    #: goes into any meld with his cards), which the players of the sparring panel share,
    #: rather than the rollout policy's (a card that goes into a meld of his best
    #: arrangement: about one take in fifteen fewer).
    his_any: bool = False
    #: Whether the search weighs discards (otherwise only take/draw and knocks), and by how
    #: many standard errors (paired over the same worlds) another discard must beat the
    #: heuristic's best to be chosen instead.
    search_discards: bool = True
    gate_z: float = 1.0
    #: Successive halving of the discards: after ``prune[k]`` worlds keep the best ``keep[k]``.
    prune: tuple[int, ...] = (128, 320)
    keep: tuple[int, ...] = (3, 2)
    #: Whether the rollouts play his turns by the knocking style he has shown in this game
    #: (:mod:`.style`; each world draws one style by its odds), rather than knocking at the
    #: first chance. On by default, with ``bar_knocks``, since the expert plays ``patient``:
    #: with both, +6.0% of games against gin-hunter and level against simple, 300 pairs each
    #: at 128 worlds (without ``patient`` it was no stronger; benchmarks/strength.md). Then
    #: the prior odds
    #: of the two patient styles, and how far one piece of evidence against a style lowers
    #: its odds.
    read_style: bool = True
    prior_early: float = 0.05
    prior_low: float = 0.05
    style_slip: float = 0.05
    #: Whether a world whose style and hand would have knocked at his last discard (he did
    #: not) is drawn again, style and hand, up to ``redraws`` times
    #: (:meth:`~.expert_search.MonteCarlo._world`).
    bar_knocks: bool = True
    redraws: int = 4
    #: Whether, within a hand, the styles' odds are also weighed by the chance that a player
    #: of each style would have played the turns he has without knocking
    #: (:meth:`.style.StyleModel.within`; the last of them left to ``bar_knocks``). On by
    #: default with the chain below: against gin-hunter, 11.3% of its knocks undercut
    #: instead of 20.1%, and 76.7% of games instead of 74.8% (300 pairs, 256 worlds); level
    #: against simple (-0.5%, 95% CI -4.0% to +3.0%, 300 pairs; benchmarks/strength.md).
    style_turns: bool = True
    #: Guesses and their sharpness (in place of ``tries`` and the sharpness above) for a world
    #: whose style has him past the turns he knocks in, playing for gin: he keeps a better
    #: organised hand than a player still ready to knock.
    gin_tries: int = 16
    gin_sharpness: float = 2.0
    #: How fast that sharpness is reached: ``gin_ramp * turn ** gin_power`` at his turn
    #: ``turn`` (begun), never below the others' sharpness. Each point less of deadwood takes
    #: more sharpness than the last, so it grows faster than his turns: with the power 3, his
    #: guessed deadwood matches his real one in every band of turns against gin-hunter, where
    #: the straight line (``gin_power=1, gin_ramp=0.1``, the default until 2026-12-03) guessed
    #: it far too good from his fourth turn to his ninth (15.3 against 22.1;
    #: benchmarks/gin_guesses.py). Paired over 300 pairs at 128 worlds: +1.5% of games
    #: against simple, +2.2% against gin-hunter (neither interval clear of zero), and more of
    #: its knocks undercut against gin-hunter (15.3% against 11.3%, 256 worlds). Half that
    #: ramp since his last turns are read (2026-12-03, night): the reading pulls the guesses
    #: down too, and at 0.0004 they were too good from his 10th turn (7.2 against his real
    #: 9.0; 8.3 at 0.0002). ``gin_ramp=0.0004,read_older=0`` plays as before that.
    gin_ramp: float = 0.0002
    gin_power: float = 3.0
    #: When above 0, such a hand is guessed by this many swaps of a Markov chain instead
    #: (:func:`~.inference.sample_hidden_chain`, at that sharpness), not the best of
    #: ``gin_tries`` guesses. ``expert:gin_power=1,gin_ramp=0.1,gin_sharpness=1.5,gin_steps=60``
    #: plays as the expert did on 2026-12-03 before the power, and
    #: ``gin_power=1,gin_steps=0,gin_ramp=0.025,gin_sharpness=0.4,style_turns=false`` as it
    #: did before that day.
    gin_steps: int = 100
    #: How widely that sharpness varies from one world to the next: each world's is the
    #: sharpness above times ``exp(gin_spread * z)``, ``z`` a standard normal draw (0: the
    #: same in every world). One sharpness for all worlds guesses his deadwood's mean right
    #: but spreads it too little, so the search misses his best hands, the ones that undercut.
    #: ``gin_spread=1.5,gin_ramp=0.001`` matches both tails by his turns against gin-hunter
    #: (benchmarks/gin_guesses.py), but was level in games (paired over 300 pairs at 128
    #: worlds: +0.5% against simple, -1.2% against gin-hunter), so it stays off.
    gin_spread: float = 0.0
    #: His last turn, read (since 2026-12-03, later): a guess at his hand is weighed by
    #: ``exp(-read_discard * regret - read_pass * (1 - pass chance))``: the regret is how much
    #: more deadwood it holds than the best hand he could have kept when he threw his last
    #: discard (:func:`~.inference.discard_regret`), the pass chance how likely he would have
    #: passed on the pile card he did not take, had he held it (it melds with two of his cards,
    #: none of them the card he drew instead: :func:`~.inference.pass_chance`). His discards'
    #: values follow his real deadwood (correlation about 0.5 within a turn); with the reading
    #: (and the chain below) the guessed deadwood follows it about 0.3-0.5 against ``simple``
    #: and ``gin-hunter``, without it 0.1-0.3. Single hands, paired (benchmarks/strength.md):
    #: +1.6 points a deal over 4,000 deals (95% CI +0.3 to +2.9), 18.5% of its knocks undercut
    #: by ``gin-hunter`` against 21-25%. 0: not read.
    read_discard: float = 2.0
    read_pass: float = 3.0
    #: His two discards before the last, read roughly (their regret against the guess as if
    #: he had held it then; :meth:`~.inference.Reading.misfit`): the weight before halving for the
    #: second last and quartering for the third. 0: not read. With the gentler ``gin_ramp``
    #: (since 2026-12-03, night): the guessed deadwood follows his real one better (0.25 to
    #: 0.40 and 0.19 to 0.38 correlation from his 7th turn against gin-hunter), and single
    #: hands gain +1.19 points a deal over 3,000 deals (95% CI -0.01 to +2.40) with fewer of
    #: its knocks undercut (benchmarks/strength.md).
    read_older: float = 2.0
    #: Each card he passed on before his last draw, read against the guess (the weight of one
    #: that melds with two cards he held then; :meth:`~.inference.Reading.misfit`), and each
    #: pile card he took (the weight of one that melds with no two cards he can have held
    #: then). 0: not read.
    read_passes: float = 0.0
    read_takes: float = 0.0
    #: Metropolis swaps (:func:`~.inference.sample_hidden_chain`) for his hand in the worlds
    #: where he is not playing for gin (there ``gin_steps``); 0: the best of ``tries`` (as
    #: before 2026-12-03, with ``sharpness=0.025,sharpness_cap=0.15``: a chain at the same
    #: sharpness guesses hands that are too good, so the chain's is half the old one).
    steps: int = 50
    #: With this above 0, the worlds of one decision that guess his hand by the chain at the
    #: same sharpness share one chain: its first guess after ``steps`` (or ``gin_steps``)
    #: swaps, every later one this many swaps on (0: a fresh chain for every world, several
    #: times the cost of the best of ``tries``; the shared chain costs less than that best).
    chain_thin: int = 5
    #: When the searching player itself knocks in the rollouts (a :class:`~.search.KnockRule`:
    #: at most this deadwood, in its first this many turns; by default at the first chance).
    own_most: int = 99
    own_turns: int = 99
    #: Whether a move that plays on is valued by the best of several plans for the searching
    #: player's own knocking in the rollouts, not only "knock at the first chance": also "only
    #: at a deadwood of at most ``patient_most``" and "gin only" (each plan on the same
    #: worlds; a move's value is its best plan's mean), so that the search sees what waiting
    #: for an undercut or a gin is worth. ``patient_most`` at 99 leaves out the middle plan.
    #: Measured in single hands against simple on three sets of 1,000 deals, +1 to +2 points
    #: a deal (benchmarks/strength.md); ``patient=false`` plays the expert as it was before.
    patient: bool = True
    patient_most: int = 4
    #: With ``patient``, also the plan "knock at the first chance in the next this many turns,
    #: then play for gin" (0: not tried), as MARJJ knocks only in its first three turns.
    patient_turns: int = 0
    #: The ``rollout_outs`` of the patient plans (those that do not knock at the first
    #: chance; None: ``rollout_outs``), so that a plan that waits for gin also keeps its outs.
    patient_outs: float | None = None
    #: The plans that wait (with ``patient``) still knock at the first chance once the stock
    #: holds at most this many cards above the floor (-1: they never do, and a hand they
    #: wait in to the end dies).
    patient_late: int = -1
    #: With this above 0, a take from the pile is valued as the best of several ways to go on
    #: (each on the same worlds, each with every plan): the rollout's own discard after the
    #: take (the least deadwood), and the heuristic's best ``take_then`` discards, as the
    #: expert will choose its discard knowing the card it took. 0: the rollout's discard only.
    take_then: int = 0
    #: Whether a draw from the stock is played on with the heuristic's best discard for the
    #: card drawn (as the expert's own discard would be chosen), not the rollout's least
    #: deadwood, unless that discard would let it knock (then the rollout's plans decide).
    draw_then: bool = False
    #: Value a hand's ending only by the chance of winning the game, also under rules whose
    #: bonuses (box, game, shutout) make the final net count, unless the rules set a stake:
    #: then the money is the net, and an ending is worth its points, its box and the game
    #: bonus weighted by the chance of winning (:func:`~.winprob.for_the_game`); so too in a
    #: game of a match (``match_net``). False: that blend whatever the stake (the default
    #: before 2026-12-05); under rules without bonuses (EAAI) a game on its own is only won
    #: or lost either way, and with a stake or in a match its net is its points. Paired
    #: under ``standard``
    #: at 128 worlds against simple over 700 pairs: +1.8% of games (about -0.9% to +4.4%),
    #: 6.6 points of net a game fewer (400 of those pairs; benchmarks/strength.md).
    win_game: bool = True
    #: In a game of a match (the view's ``match_points``), value a hand's ending by the
    #: game's net, which the match adds up, whatever ``win_game`` says (since 2026-12-06).
    #: Paired over 150 pairs of matches to 500 under ``standard`` at 128 worlds against
    #: simple: +5.0% of matches (95% CI +1.1% to +8.9%), +56.5 match points a match
    #: (benchmarks/strength.md). False: as in a game on its own.
    match_net: bool = True
    #: Value a hand's ending by its points alone, as where one hand is all that is played
    #: (OpenSpiel's and RLCard's games, the environments' ``mode="hand"``): nothing of the
    #: boxes or the game the rules would score it in. Above ``win_game``.
    hand_points: bool = False
    #: Under Hollywood scoring, value a hand's ending column by column from the score columns
    #: the view carries (:class:`~.winprob.Utility`: the game bonus of each of the three games
    #: weighted by the chance of winning it, and the points and box in every column the win
    #: counts in), not by its points and box once (as before 2026-12-05).
    by_column: bool = True
    #: Which hands the chance of winning the game from a score is worked out for
    #: (:func:`~.winprob.hand_model`): 0, even ones (each hand a fair coin, the points as
    #: between two ``simple`` players, as before 2026-12-04); 1, its own hands and his as the
    #: expert meets ``simple`` (:data:`~.winprob.AHEAD`: about as many hands won, twice the
    #: points; from 0-0 it gives 84% of games, where even hands give 50%); in between, a mix
    #: of the two. With the edge his small knocks weigh more against its big wins. Paired
    #: over two sets of 400 pairs at 128 worlds against simple: +0.8% (95% CI -2.2% to +3.7%)
    #: and +1.1% (-2.0% to +4.3%) of games; the table measured again from the expert of
    #: 2026-12-07 (it had been the 128-world expert's, 78% from 0-0): +1.6% of games over
    #: 1,000 pairs at 768 worlds (95% CI +0.1% to +3.1%), paired on the kept EAAI run's deals;
    #: under ``standard`` -1.4% (-3.1% to +0.3%, 1,000 pairs, against a kept run every
    #: change has come out below; pooled with the EAAI run +0.3%; benchmarks/strength.md).
    #: Only where the game alone counts (the EAAI rules, or ``win_game`` without a stake):
    #: with the net blended in under ``standard`` it was no better (-1.2%, 95% CI -5.0% to
    #: +2.7%, 300 pairs), so where a stake makes the points count the hands stay even. The
    #: hints weigh even hands: the edge is the expert's, not the player's they advise.
    hand_edge: float = 1.0
    #: The most undercut risk (the share of the search's worlds in which he undercuts it) a
    #: knock may carry to be chosen; a riskier knock gives way to the best move that plays on.
    #: 1: any knock the search values best.
    knock_risk: float = 1.0
    #: Points (at the current score's worth of a point) added to the value of every knock
    #: the search weighs: a probe of whether the rollouts undervalue (above 0) or overvalue
    #: knocking against playing on. Both ways lose: single hands at -1.37 points a deal at
    #: 3, whole games under ``standard`` -0.9% (95% CI -2.3% to +0.6%) at 2 over 584 pairs,
    #: paired against the kept run on the same deals (benchmarks/strength.md). 0: none.
    knock_bias: float = 0.0
    #: The same, added only while its game score is below his (never in a single hand, where
    #: the score is 0-0, nor under Hollywood's summed columns): behind, it knocked too
    #: readily. Single hands against simple, -3 against 0, in % of a game a hand: +0.81,
    #: +1.07 and +0.83 at 60-85 on three sets of 1,000 deals (each interval clear of zero),
    #: +0.31 at 30-60 and +0.31 at 10-35 (each just short of clear); from 0-0 and 80-60
    #: the bias on every knock was level (benchmarks/strength.md). But those hands are
    #: valued by the chance of winning worked out from hands played at 0-0, and whole games
    #: did not show the gain: at -3, 83.7% of games over 1,000 pairs (82.1% to 85.1%), against
    #: 85.0% over 2,000 pairs of the expert without it. So 0: none. The hints leave it out
    #: whatever it is set to: it corrects the expert's own later play, not the player's they
    #: advise.
    knock_bias_behind: float = 0.0
    #: How much of a move's value that plays on comes from the best plan world by world
    #: rather than the best plan over all worlds: ``(1 - plan_blend) * best plan's value +
    #: plan_blend * best value of any plan``, world by world. The best plan over all worlds
    #: undervalues playing on (the expert will choose later, knowing more, where every plan
    #: is fixed now); the best world by world overvalues it (it chooses knowing his cards).
    #: Single hands at 0-0 favoured 0.35 on every set of deals (+1.1 to +1.4 points a deal on
    #: two new sets), but whole games under ``standard`` did not: -1.9% of games (95% CI
    #: -4.7% to +1.0%) over 398 pairs, paired against the kept run on the same deals, with
    #: fewer knocks and the same points a hand (benchmarks/strength.md). 0: the best plan's
    #: mean alone.
    plan_blend: float = 0.0
    #: With this above 0, a move that plays on is valued plan by plan within groups of worlds
    #: alike in what the expert will know when it chooses: each group of worlds takes its own
    #: best plan. The worlds are grouped by where its plans first part in the rollout (one
    #: knocks, another plays on): 1, by its deadwood then; 2, by that and the turns it has
    #: begun (in bands of three). Between the best plan over all worlds (which chooses now,
    #: knowing less than it will) and the best world by world (which chooses knowing his
    #: cards). Single hands at 0-0, 1,000 deals: 1 and 2 both -0.5 points a deal (each
    #: interval about +-1.3). 0: the best plan over all worlds (with ``plan_blend``).
    plan_info: int = 0

    def for_the_game(self, view: PlayerView) -> bool:
        """Whether a hand's ending in ``view`` is valued by the chance of winning the game
        alone (:func:`~.winprob.for_the_game`, with ``win_game`` and ``match_net``)."""
        match = self.match_net and view.match_points is not None
        return for_the_game(view.rules, self.win_game, match=match)

    def guesser(self, b: Beliefs, rng: random.Random) -> Guesser:
        """How a decision guesses his hand with these settings (the search, its hints and
        the benchmarks all draw them so)."""
        reading = Reading(
            self.read_discard, self.read_pass, self.read_older, self.read_passes, self.read_takes
        )
        return Guesser(b, rng, reading, self.chain_thin)

    def sharpness_for(self, b: Beliefs) -> tuple[int, float]:
        """``(tries, sharpness)`` of a decision's guesses at his hand: sharper by the turns he
        has drawn (``sharpness`` a turn, at most ``sharpness_cap``), one try when not sharp."""
        turns = b.observed.stock_draws + len(b.observed.took)
        sharpness = min(self.sharpness_cap, self.sharpness * turns)
        return (self.tries if sharpness > 0 else 1), sharpness


__all__ = ["Settings"]
