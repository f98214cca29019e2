"""What the opponent holds: card-location beliefs from the public history, and sampled worlds.

The opponent's hand is the cards he took from the pile and still holds (public) plus hidden
cards drawn from the stock. Each card this seat has not seen is either one of those hidden cards
or in the stock. The history moves the odds:

* a card he **took** makes the cards that meld with it (same rank, same suit one or two ranks
  away) more likely in his hand;
* a card he **passed on** (the first upcard, or the pile's top card when he drew from the
  stock) makes its meld partners less likely: with two of them he would have taken it;
* a card he **discarded** makes its meld partners less likely too.

The factors are odds ratios fitted (logistic regression, one factor per relation and kind of
event) to simulated hands against two kinds of opponent, the ``simple`` baseline and the expert
itself, and rounded between the two fits.

A world is one guess at the hidden cards and the stock order, drawn with these weights; the
search judges every candidate move on the same worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ..engine.actions import ActionKind
from ..engine.masks import FULL_DECK_MASK, RANK_MASKS, bits
from ..engine.melds import deadwood_mask, discard_deadwoods_mask, min_discard_deadwood_mask
from ..engine.views import PlayerView
from .heuristic import meld_outs

#: Odds factors for a card in the given relation to an observed card, by relation:
#: same rank, same suit one rank away, same suit two ranks away.
TOOK: Final = (4.5, 3.3, 2.5)
PASSED: Final = (0.6, 0.7, 0.95)
DISCARDED: Final = (0.4, 0.55, 0.9)


def _relations(card: int) -> tuple[int, int, int]:
    """Masks of the cards in each relation to ``card``: same rank, one away, two away."""
    rank, suit = card % 13, card // 13
    same = RANK_MASKS[rank] & ~(1 << card)
    one = 0
    two = 0
    for d in (-1, 1):
        r = rank + d
        if 0 <= r < 13:
            one |= 1 << (suit * 13 + r)
        r = rank + 2 * d
        if 0 <= r < 13:
            two |= 1 << (suit * 13 + r)
    return same, one, two


RELATIONS: Final = tuple(_relations(i) for i in range(52))


@dataclass(frozen=True, slots=True)
class Observed:
    """The opponent's public choices this hand, as card indices."""

    took: tuple[int, ...]
    passed: tuple[int, ...]
    discarded: tuple[int, ...]
    #: How many cards he has drawn from the stock (his hidden draws).
    stock_draws: int
    #: His last discard (-1: none yet) and the card he took from the pile that turn, which he
    #: could not throw back (-1: he drew from the stock).
    last_discard: int = -1
    last_taken: int = -1
    #: The pile card he passed on at the draw before his last discard (-1: he took it).
    last_passed: int = -1
    #: Each card he passed on before that: ``(card, his stock draws since, the cards he has
    #: taken from the pile since)``; the draw at which he passed on it counts as one since.
    earlier_passes: tuple[tuple[int, int, int], ...] = ()
    #: Each card he took from the pile: ``(card, the cards he has discarded since, the cards he
    #: has taken from the pile since)``.
    takes: tuple[tuple[int, int, int], ...] = ()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Explicit, as the engine's melds: a compiled build's frozen classes refuse the
        # field-by-field restore that pickle and copy would otherwise use.
        return (
            Observed,
            (
                self.took,
                self.passed,
                self.discarded,
                self.stock_draws,
                self.last_discard,
                self.last_taken,
                self.last_passed,
                self.earlier_passes,
                self.takes,
            ),
        )


def choices(view: PlayerView) -> list[tuple[str, int]]:
    """The opponent's public choices in order, replayed from the history: ``("pass", card)``
    for the first upcard passed on, ``("take", card)``, ``("draw", card)`` with the pile card
    he drew instead of (-1 for the forced draw after both passed) and ``("discard", card)``."""
    me = view.seat
    pile: list[int] = []
    if view.rules.deal != "eleven" and view.upcard is not None:
        pile.append(view.upcard.index)
    out: list[tuple[str, int]] = []
    passes = 0
    for event in view.history:
        kind = event.action.kind
        theirs = event.seat != me
        if kind is ActionKind.PASS:
            passes += 1
            if theirs and pile:
                out.append(("pass", pile[-1]))
        elif kind is ActionKind.TAKE:
            card = pile.pop() if pile else (event.card.index if event.card else -1)
            if theirs and card >= 0:
                out.append(("take", card))
        elif kind is ActionKind.DRAW:
            if theirs:
                # After both passed the upcard, the first draw is forced.
                out.append(("draw", pile[-1] if pile and passes != 2 else -1))
            passes = 0
        elif kind is ActionKind.DISCARD:
            assert event.card is not None
            pile.append(event.card.index)
            if theirs:
                out.append(("discard", event.card.index))
    return out


def observe(view: PlayerView) -> Observed:
    """What the opponent took, passed on and discarded, and how often he drew from the stock."""
    events = choices(view)
    took = tuple(card for kind, card in events if kind == "take")
    passed = tuple(
        card for kind, card in events if kind == "pass" or (kind == "draw" and card >= 0)
    )
    discarded = tuple(card for kind, card in events if kind == "discard")
    draws = sum(kind == "draw" for kind, _ in events)
    last, taken, passed_on = -1, -1, -1
    for i, (kind, card) in enumerate(events):
        if kind == "discard":
            last, taken, passed_on = card, -1, -1
            before = events[i - 1] if i > 0 else ("", -1)
            if before[0] == "take":
                taken = before[1]
            elif before[0] == "draw":
                passed_on = before[1]
                if passed_on < 0 and i > 1 and events[i - 2][0] == "pass":
                    passed_on = events[i - 2][1]  # the first upcard, then the forced draw
    # Walked backwards: what he did after each choice.
    earlier: list[tuple[int, int, int]] = []
    takes: list[tuple[int, int, int]] = []
    since_draws, since_thrown, since_taken = 0, 0, 0
    skip = passed_on  # the last pass is read exactly (``last_passed``)
    for kind, card in reversed(events):
        if kind == "draw":
            since_draws += 1
        if kind in ("draw", "pass") and card >= 0:
            if card == skip:
                skip = -1
            else:
                earlier.append((card, since_draws, since_taken))
        elif kind == "take":
            takes.append((card, since_thrown, since_taken))
            since_taken |= 1 << card
        elif kind == "discard":
            since_thrown |= 1 << card
    return Observed(
        took,
        passed,
        discarded,
        draws,
        last,
        taken,
        passed_on,
        tuple(reversed(earlier)),
        tuple(reversed(takes)),
    )


def discard_regret(hand: int, discard: int, taken: int = -1, dw: int = -1) -> int:
    """How much more deadwood ``hand`` holds than the best hand he could have kept at his last
    discard: he held ``hand`` and ``discard`` and threw ``discard`` (never ``taken``, the card
    he had just taken from the pile). 0 when it was a least-deadwood discard (or there was
    none, ``discard`` -1). A player who keeps his deadwood low seldom leaves much: a guess at
    his hand that would have made his discard a blunder is an unlikely guess. ``dw``: the
    hand's deadwood, when the caller knows it."""
    if discard < 0:
        return 0
    full = hand | 1 << discard
    if taken >= 0 and full >> taken & 1:
        left = discard_deadwoods_mask(full)
        best = min(v for card, v in left.items() if card != taken)
    else:
        best = min_discard_deadwood_mask(full)
    return (deadwood_mask(hand) if dw < 0 else dw) - best


def pass_chance(hand: int, discard: int, passed: int, known: int) -> float:
    """The chance that a player who takes a pile card only when it melds with two of his
    cards would have passed on ``passed`` at his last draw, had he held ``hand`` after throwing
    ``discard``: 1 when it melds with none of ``hand`` and ``discard``; else the share of the
    cards he might have drawn from the stock that turn (``discard`` or one of his cards not
    in ``known``, the cards he took from the pile) whose absence leaves it no meld."""
    if passed < 0:
        return 1.0
    full = hand | (1 << discard if discard >= 0 else 0)
    if not meld_outs(full) >> passed & 1:
        return 1.0
    drawable = full & ~known
    n = drawable.bit_count()
    if n == 0:
        return 0.0
    fits = 0
    for card in bits(drawable):
        if not meld_outs(full & ~(1 << card)) >> passed & 1:
            fits += 1
    return fits / n


@dataclass(frozen=True, slots=True)
class Reading:
    """How much his last turn and his discards before it weigh on a guess at his hand: a
    guess is kept with odds ``exp(-misfit)`` (:meth:`misfit`). All weights 0: not read."""

    #: The weight of each point of his last discard's :func:`discard_regret`.
    regret: float = 0.0
    #: The weight of the chance that he would have taken the card he passed on at his last
    #: draw (1 - :func:`pass_chance`).
    passing: float = 0.0
    #: The weight of his two discards before the last, their regret taken against the guess
    #: as if he had held it then (he has drawn since, so only a rough reading: half of this
    #: for the second last, a quarter for the third).
    older: float = 0.0
    #: The weight of each card he passed on before his last draw that would meld with two
    #: cards of the guess he already held then (the guess less the pile cards he took since),
    #: times ``0.8 ** (his stock draws since)``: either of the two may have come since.
    passes: float = 0.0
    #: The weight of each pile card he took that melds with no two cards he can have held
    #: then (those of the guess and those he has discarded since, less the pile cards he took
    #: since): a player who takes a pile card only into a meld never does that.
    takes: float = 0.0

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Explicit, as the engine's melds: a compiled build's frozen classes refuse the
        # field-by-field restore that pickle and copy would otherwise use.
        return (Reading, (self.regret, self.passing, self.older, self.passes, self.takes))

    @property
    def on(self) -> bool:
        """Whether anything is read."""
        return (
            self.regret > 0.0
            or self.passing > 0.0
            or self.older > 0.0
            or self.passes > 0.0
            or self.takes > 0.0
        )

    def misfit(self, hand: int, b: Beliefs, dw: int = -1) -> float:
        """How badly a guess at his whole hand fits his last turns, as an exponent (0: fits).
        ``dw``: the hand's deadwood, when the caller knows it."""
        obs = b.observed
        out = 0.0
        if self.regret > 0.0 and obs.last_discard >= 0:
            out += self.regret * discard_regret(hand, obs.last_discard, obs.last_taken, dw)
        if self.passing > 0.0 and obs.last_passed >= 0:
            chance = pass_chance(hand, obs.last_discard, obs.last_passed, b.known)
            out += self.passing * (1.0 - chance)
        if self.older > 0.0:
            discarded = obs.discarded
            weight = self.older
            for k in range(len(discarded) - 2, max(-1, len(discarded) - 4), -1):
                card = discarded[k]
                weight *= 0.5
                if not hand >> card & 1:
                    out += weight * discard_regret(hand, card, -1, dw)
        if self.passes > 0.0:
            for card, draws, taken in obs.earlier_passes:
                if meld_outs(hand & ~taken & ~(1 << card)) >> card & 1:
                    out += self.passes * 0.8**draws
        if self.takes > 0.0:
            for card, thrown, taken in obs.takes:
                if not meld_outs((hand | thrown) & ~taken & ~(1 << card)) >> card & 1:
                    out += self.takes
        return out


#: No reading: every guess weighed by the card odds (and sharpness) alone.
NO_READING: Final = Reading()


@dataclass(frozen=True, slots=True)
class Beliefs:
    """Per card: the chance the opponent holds it, and how to sample his hidden cards."""

    #: Cards he is known to hold (taken from the pile, not yet discarded).
    known: int
    #: Cards this seat has not seen: his hidden cards and the stock.
    unseen: int
    #: How many of his cards are hidden.
    hidden: int
    #: Relative weight of each card index being one of his hidden cards (0 if seen).
    weights: tuple[float, ...]
    #: The chance he holds each card (1 for known cards, 0 for cards seen elsewhere).
    prob: tuple[float, ...]
    observed: Observed

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Explicit, as the engine's melds: a compiled build's frozen classes refuse the
        # field-by-field restore that pickle and copy would otherwise use.
        return (
            Beliefs,
            (self.known, self.unseen, self.hidden, self.weights, self.prob, self.observed),
        )

    def danger(self) -> list[float]:
        """Per card: the chance he can put it into a meld (he has two of its meld partners)."""
        p = self.prob
        out = [0.0] * 52
        for card in range(52):
            rank, suit = card % 13, card // 13
            mates = [p[s * 13 + rank] for s in range(4) if s != suit]
            a, b, c = mates
            # At least two of the three other cards of the rank.
            p_set = a * b + a * c + b * c - 2 * a * b * c
            base = suit * 13
            lo1 = p[base + rank - 1] if rank >= 1 else 0.0
            lo2 = p[base + rank - 2] if rank >= 2 else 0.0
            hi1 = p[base + rank + 1] if rank <= 11 else 0.0
            hi2 = p[base + rank + 2] if rank <= 10 else 0.0
            p_run = 1.0 - (1.0 - lo1 * lo2) * (1.0 - hi1 * hi2) * (1.0 - lo1 * hi1)
            out[card] = 1.0 - (1.0 - p_set) * (1.0 - p_run)
        return out


def beliefs(view: PlayerView) -> Beliefs:
    """The opponent model for ``view``."""
    seen = view.hand.mask | view.opponent_known.mask | view.knocker_deadwood.mask
    for pile_card in view.discard_pile:
        seen |= pile_card.bit
    for meld in view.table_melds:
        seen |= meld.mask
    known = view.opponent_known.mask
    unseen = FULL_DECK_MASK & ~seen
    hidden = max(0, view.opponent_count - known.bit_count())
    obs = observe(view)
    w = [0.0] * 52
    for card in bits(unseen):
        w[card] = 1.0
    for table, cards in ((TOOK, obs.took), (PASSED, obs.passed), (DISCARDED, obs.discarded)):
        for card in cards:
            for factor, rel in zip(table, RELATIONS[card], strict=True):
                for other in bits(rel & unseen):
                    w[other] *= factor
    total = sum(w)
    prob = [0.0] * 52
    if total > 0 and hidden:
        scale = hidden / total
        for card in bits(unseen):
            prob[card] = min(0.97, w[card] * scale)
    for card in bits(known):
        prob[card] = 1.0
    return Beliefs(known, unseen, hidden, tuple(w), tuple(prob), obs)


def sample_hidden(
    b: Beliefs,
    rng: random.Random,
    tries: int = 1,
    sharpness: float = 0.0,
    reading: Reading = NO_READING,
) -> int:
    """One guess at the opponent's hidden cards, a mask of ``b.hidden`` unseen cards.

    Weighted sampling without replacement: each card in turn with odds proportional to its
    weight among the cards not yet chosen. With ``tries`` > 1, that many guesses are drawn and
    one is kept with odds ``exp(-sharpness * deadwood - misfit)``: a player who has been
    improving his hand for a while holds better-organised cards than a random draw, and seldom
    a hand that his last turns speak against (``reading``'s :meth:`Reading.misfit`).
    """
    k = b.hidden
    if k == 0:
        return 0
    cards = bits(b.unseen)
    weights = [b.weights[c] for c in cards]
    start = sum(weights)
    n = len(cards)
    random = rng.random
    read = reading.on
    best = 0
    best_key = -1.0
    for _ in range(tries):
        left = weights.copy()
        total = start
        mask = 0
        for _card in range(k):
            x = random() * total
            chosen = -1
            for i in range(n):
                w = left[i]
                if w > 0.0:
                    # The last card with weight left, should rounding carry x past the end.
                    chosen = i
                    x -= w
                    if x < 0.0:
                        break
            if chosen < 0:
                break
            mask |= 1 << cards[chosen]
            total -= left[chosen]
            left[chosen] = 0.0
        if tries == 1:
            return mask
        hand = mask | b.known
        dw = deadwood_mask(hand)
        exponent = sharpness * dw
        if read:
            exponent += reading.misfit(hand, b, dw)
        # Gumbel-max style choice: random key weighted by exp(-exponent) (capped: past the
        # cap every key is 0, and the first guess with the least is kept).
        key = random() ** (2.718281828 ** min(300.0, exponent))
        if key > best_key:
            best_key = key
            best = mask
    return best


class HandChain:
    """A Metropolis chain over guesses at the opponent's hidden cards (see
    :func:`sample_hidden_chain`): each :meth:`walk` goes on from where the last one stopped,
    so a search can draw one long chain's guesses every few swaps instead of a fresh chain
    for every world."""

    def __init__(
        self,
        b: Beliefs,
        rng: random.Random,
        sharpness: float,
        reading: Reading = NO_READING,
    ) -> None:
        self.b = b
        self.rng = rng
        self.sharpness = sharpness
        self.reading = reading
        self.mask = sample_hidden(b, rng)
        self.cards = bits(b.unseen)
        self.held = [c for c in self.cards if self.mask >> c & 1]
        self.dw = 0
        self.bad = 0.0
        self.live = b.hidden > 0 and len(self.cards) > b.hidden
        if self.live:
            hand = self.mask | b.known
            self.dw = deadwood_mask(hand)
            if reading.on:
                self.bad = reading.misfit(hand, b, self.dw)

    def walk(self, steps: int) -> int:
        """``steps`` more swaps; the guess (a mask of hidden cards) where they end."""
        if not self.live:
            return self.mask
        b = self.b
        k = b.hidden
        cards = self.cards
        n = len(cards)
        weights = b.weights
        known = b.known
        held = self.held
        random = self.rng.random
        sharpness = self.sharpness
        reading = self.reading
        read = reading.on
        mask = self.mask
        dw = self.dw
        bad = self.bad
        for _ in range(steps):
            i = int(random() * k)
            new = cards[int(random() * n)]
            if mask >> new & 1:
                continue
            old = held[i]
            w_old = weights[old]
            w_new = weights[new]
            if w_new <= 0.0:
                continue
            trial = (mask & ~(1 << old)) | (1 << new)
            trial_dw = deadwood_mask(trial | known)
            exponent = -sharpness * (trial_dw - dw)
            trial_bad = 0.0
            if read:
                trial_bad = reading.misfit(trial | known, b, trial_dw)
                exponent -= trial_bad - bad
            # (capped: a very sharp chain would overflow; any odds that high are kept anyway)
            odds = w_new / w_old * 2.718281828 ** min(300.0, exponent)
            if odds >= 1.0 or random() < odds:
                mask = trial
                held[i] = new
                dw = trial_dw
                bad = trial_bad
        self.mask = mask
        self.dw = dw
        self.bad = bad
        return mask


def sample_hidden_chain(
    b: Beliefs,
    rng: random.Random,
    steps: int,
    sharpness: float,
    reading: Reading = NO_READING,
) -> int:
    """One guess at the opponent's hidden cards, for a player who has long been building his
    hand: a guess drawn as :func:`sample_hidden` draws one, then ``steps`` Metropolis swaps (one
    of the guessed cards for another unseen card), each kept with odds
    ``weight(new) / weight(old) * exp(-sharpness * change of deadwood - change of misfit)``.
    In the long run a hand comes up with odds proportional to the product of its cards'
    weights times ``exp(-sharpness * deadwood - misfit)`` (``reading``'s
    :meth:`Reading.misfit`); a few dozen swaps already reach the well-organised hands
    that the best of a few independent guesses seldom is (a gin player's, late in a hand)."""
    return HandChain(b, rng, sharpness, reading).walk(steps)


def sample_world(
    b: Beliefs,
    rng: random.Random,
    tries: int = 1,
    sharpness: float = 0.0,
    steps: int = 0,
    reading: Reading = NO_READING,
) -> tuple[int, list[int]]:
    """``(opponent's hand mask, stock in draw order)`` consistent with the view: his hidden
    cards by :func:`sample_hidden_chain` with ``steps`` (when above 0), else by
    :func:`sample_hidden`."""
    if steps > 0:
        hidden = sample_hidden_chain(b, rng, steps, sharpness, reading)
    else:
        hidden = sample_hidden(b, rng, tries, sharpness, reading)
    return deal_world(b, rng, hidden)


class Guesser:
    """One decision's guesses at the opponent's hand, as the expert and its hints draw them:
    with ``thin`` above 0, the guesses at one sharpness come from one shared
    :class:`HandChain` (the first after ``steps`` swaps, each later one ``thin`` swaps on);
    otherwise, or when asked for a ``fresh`` one, from :func:`sample_world`. With no sharpness
    and no discard of his to read yet, a chain has nothing to lean on, so the plain guess is
    drawn."""

    def __init__(
        self,
        b: Beliefs,
        rng: random.Random,
        reading: Reading = NO_READING,
        thin: int = 0,
    ) -> None:
        self.b = b
        self.rng = rng
        self.reading = reading
        self.thin = thin
        self.chains: dict[float, HandChain] = {}

    def world(
        self, tries: int, sharpness: float, steps: int, fresh: bool = False
    ) -> tuple[int, list[int]]:
        """``(opponent's hand mask, stock in draw order)``, as :func:`sample_world` gives."""
        b = self.b
        if sharpness <= 0.0 and b.observed.last_discard < 0:
            steps = 0
        if steps > 0 and self.thin > 0 and not fresh:
            chain = self.chains.get(sharpness)
            if chain is None:
                chain = HandChain(b, self.rng, sharpness, self.reading)
                self.chains[sharpness] = chain
                hidden = chain.walk(steps)
            else:
                hidden = chain.walk(self.thin)
            return deal_world(b, self.rng, hidden)
        return sample_world(b, self.rng, tries, sharpness, steps, self.reading)


def deal_world(b: Beliefs, rng: random.Random, hidden: int) -> tuple[int, list[int]]:
    """``(opponent's hand mask, stock in draw order)`` with ``hidden`` his hidden cards: the
    rest of the unseen cards shuffled into the stock."""
    stock = bits(b.unseen & ~hidden)
    # Fisher-Yates on rng.random(): compiled, far cheaper than rng.shuffle's integer draws.
    random = rng.random
    for i in range(len(stock) - 1, 0, -1):
        j = int(random() * (i + 1))
        stock[i], stock[j] = stock[j], stock[i]
    return hidden | b.known, stock
