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
from ..engine.melds import deadwood_mask
from ..engine.views import PlayerView

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
    return Observed(took, passed, discarded, draws)


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


def sample_hidden(b: Beliefs, rng: random.Random, tries: int = 1, sharpness: float = 0.0) -> int:
    """One guess at the opponent's hidden cards, a mask of ``b.hidden`` unseen cards.

    Weighted sampling without replacement: each card in turn with odds proportional to its
    weight among the cards not yet chosen. With ``tries`` > 1, that many guesses are drawn and
    one is kept with odds ``exp(-sharpness * deadwood)``: a player who has been improving his
    hand for a while holds better-organised cards than a random draw.
    """
    k = b.hidden
    if k == 0:
        return 0
    cards = bits(b.unseen)
    weights = [b.weights[c] for c in cards]
    start = sum(weights)
    n = len(cards)
    random = rng.random
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
        dw = deadwood_mask(mask | b.known)
        # Gumbel-max style choice: random key weighted by exp(-sharpness * dw).
        key = random() ** (2.718281828 ** (sharpness * dw))
        if key > best_key:
            best_key = key
            best = mask
    return best


def sample_hidden_chain(b: Beliefs, rng: random.Random, steps: int, sharpness: float) -> int:
    """One guess at the opponent's hidden cards, for a player who has long been building his
    hand: a guess drawn as :func:`sample_hidden` draws one, then ``steps`` Metropolis swaps (one
    of the guessed cards for another unseen card), each kept with odds
    ``weight(new) / weight(old) * exp(-sharpness * change of deadwood)``. In the long run a
    hand comes up with odds proportional to the product of its cards' weights times
    ``exp(-sharpness * deadwood)``; a few dozen swaps already reach the well-organised hands
    that the best of a few independent guesses seldom is (a gin player's, late in a hand)."""
    mask = sample_hidden(b, rng)
    k = b.hidden
    if k == 0 or steps <= 0:
        return mask
    cards = bits(b.unseen)
    n = len(cards)
    if n <= k:
        return mask
    weights = b.weights
    known = b.known
    random = rng.random
    held = [c for c in cards if mask >> c & 1]
    dw = deadwood_mask(mask | known)
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
        # (capped: a very sharp chain would overflow; any odds that high are kept anyway)
        odds = w_new / w_old * 2.718281828 ** min(300.0, -sharpness * (trial_dw - dw))
        if odds >= 1.0 or random() < odds:
            mask = trial
            held[i] = new
            dw = trial_dw
    return mask


def sample_world(
    b: Beliefs, rng: random.Random, tries: int = 1, sharpness: float = 0.0, steps: int = 0
) -> tuple[int, list[int]]:
    """``(opponent's hand mask, stock in draw order)`` consistent with the view: his hidden
    cards by :func:`sample_hidden_chain` with ``steps`` (when above 0), else by
    :func:`sample_hidden`."""
    if steps > 0:
        hidden = sample_hidden_chain(b, rng, steps, sharpness)
    else:
        hidden = sample_hidden(b, rng, tries, sharpness)
    stock = bits(b.unseen & ~hidden)
    # Fisher-Yates on rng.random(): compiled, far cheaper than rng.shuffle's integer draws.
    random = rng.random
    for i in range(len(stock) - 1, 0, -1):
        j = int(random() * (i + 1))
        stock[i], stock[j] = stock[j], stock[i]
    return hidden | b.known, stock
