"""The exact meld solver: melds, minimum deadwood, best arrangements, discards and layoffs.

Every part of the project (the hand, the agents, the interfaces) uses this one solver.

How it works: once the choice of sets is fixed, the runs of each suit are independent, so the run
part of a suit is answered by one lookup in tables over the 8,192 patterns of 13 ranks. Sets are
only possible for ranks held in three or four suits; most hands have none, and then the deadwood
is four lookups. With sets, each candidate rank adds "no set", each 3-card subset, or the 4-set.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Final, Literal

from .cards import DECK, Card, Cards, CardsLike, _parse_token, _tokens, to_mask
from .errors import InvalidNotationError
from .masks import RANK_MASKS, RANK_VALUES, SUIT_MASK, bits, mask_value

MeldKind = Literal["set", "run"]


# ---------------------------------------------------------------------------------------------
# Tables over one suit's 13-bit rank pattern


def _pattern_value(p: int) -> int:
    return sum(RANK_VALUES[r] for r in range(13) if p >> r & 1)


def _build_run_tables() -> tuple[list[int], list[int]]:
    """RUN_DW[p]: least deadwood of pattern p using runs; DISC_DW[p]: least after discarding one."""
    run_dw = [0] * 8192
    # Process patterns in increasing order; best(p) from its lowest present rank.
    for p in range(1, 8192):
        i = (p & -p).bit_length() - 1
        rest = p & ~(1 << i)
        best = RANK_VALUES[i] + run_dw[rest]
        length = 0
        while i + length < 13 and p >> (i + length) & 1:
            length += 1
        for run_len in range(3, length + 1):
            seg = ((1 << run_len) - 1) << i
            cand = run_dw[p & ~seg]
            if cand < best:
                best = cand
        run_dw[p] = best
    disc_dw = [99] * 8192
    for p in range(1, 8192):
        best = 99
        q = p
        while q:
            low = q & -q
            v = run_dw[p ^ low]
            if v < best:
                best = v
            q ^= low
        disc_dw[p] = best
    return run_dw, disc_dw


RUN_DW, DISC_DW = _build_run_tables()


def _build_set_options() -> list[list[list[int]]]:
    """SET_OPTIONS[rank][suits-present 4-bit]: the 52-bit masks a set of that rank may take
    (0 for no set), for ranks held in at least three suits."""
    table: list[list[list[int]]] = []
    for r in range(13):
        row: list[list[int]] = []
        for present in range(16):
            suits = [s for s in range(4) if present >> s & 1]
            opts = [0]
            if len(suits) >= 3:
                bits = [1 << (s * 13 + r) for s in suits]
                if len(suits) == 4:
                    full = sum(bits)
                    opts += [full ^ b for b in bits] + [full]
                else:
                    opts.append(sum(bits))
            row.append(opts)
        table.append(row)
    return table


SET_OPTIONS: Final = _build_set_options()


def _runnable(p: int) -> int:
    """The ranks of pattern p that lie in some three consecutive ranks all present."""
    w = p & (p >> 1) & (p >> 2)
    return (w | w << 1 | w << 2) & SUIT_MASK


#: RUNNABLE[p]: the cards of a suit pattern that could be part of a run at all.
RUNNABLE: Final = [_runnable(p) for p in range(8192)]


def _build_pruned_options() -> list[list[list[list[int]]]]:
    """PRUNED[rank][present][runnable]: the set choices worth trying when only the cards in
    ``runnable`` could ever join a run. A card that can join no run is deadwood unless it is in
    a set, so a set keeping it dominates leaving it out: with no runnable card the full set is
    the only choice; with one, the full set or the set without that card."""
    table: list[list[list[list[int]]]] = []
    for r in range(13):
        by_present: list[list[list[int]]] = []
        for present in range(16):
            by_runnable: list[list[int]] = []
            for runnable in range(16):
                suits = [s for s in range(4) if present >> s & 1]
                runs = [s for s in suits if runnable >> s & 1]
                bits = {s: 1 << (s * 13 + r) for s in suits}
                full = sum(bits.values())
                if len(suits) < 3:
                    opts = [0]
                elif len(suits) == 3:
                    opts = [full] if not runs else [0, full]
                elif not runs:
                    opts = [full]
                elif len(runs) == 1:
                    opts = [full, full ^ bits[runs[0]]]
                else:
                    opts = [0, full] + [full ^ bits[s] for s in runs]
                by_runnable.append(opts)
            by_present.append(by_runnable)
        table.append(by_present)
    return table


PRUNED_OPTIONS: Final = _build_pruned_options()


def _set_choices(m: int, prune: bool = False) -> list[int]:
    """Choices of set cards (52-bit masks, 0 = no sets) for hand mask m: every choice, or with
    ``prune`` only those not dominated for the hand's minimum deadwood."""
    a = m & SUIT_MASK
    b = (m >> 13) & SUIT_MASK
    c = (m >> 26) & SUIT_MASK
    d = m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    if not trip:
        return [0]
    if prune:
        ra, rb, rc, rd = RUNNABLE[a], RUNNABLE[b], RUNNABLE[c], RUNNABLE[d]
    groups: list[list[int]] = []
    while trip:
        low = trip & -trip
        r = low.bit_length() - 1
        present = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3
        if prune:
            runnable = (ra >> r & 1) | (rb >> r & 1) << 1 | (rc >> r & 1) << 2 | (rd >> r & 1) << 3
            groups.append(PRUNED_OPTIONS[r][present][runnable & present])
        else:
            groups.append(SET_OPTIONS[r][present])
        trip ^= low
    if len(groups) == 1:
        return groups[0]
    if len(groups) == 2:
        g0, g1 = groups
        return [x + y for x in g0 for y in g1]
    if len(groups) == 3:
        g0, g1, g2 = groups
        return [x + y + z for x in g0 for y in g1 for z in g2]
    return [sum(combo) for combo in product(*groups)]


def deadwood_mask(m: int) -> int:
    """Minimum deadwood of the cards in mask ``m`` (any number of cards)."""
    a = m & SUIT_MASK
    b = (m >> 13) & SUIT_MASK
    c = (m >> 26) & SUIT_MASK
    d = m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    rd = RUN_DW
    if not trip:
        return rd[a] + rd[b] + rd[c] + rd[d]
    if trip & (trip - 1):
        choices = _set_choices(m, True)
    else:  # one rank held three or four times: the common case, without the general loop
        r = trip.bit_length() - 1
        rn = RUNNABLE
        present = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3
        runnable = (
            (rn[a] >> r & 1) | (rn[b] >> r & 1) << 1 | (rn[c] >> r & 1) << 2 | (rn[d] >> r & 1) << 3
        )
        choices = PRUNED_OPTIONS[r][present][runnable & present]
    best = 999
    for s in choices:
        r = m & ~s
        v = rd[r & SUIT_MASK] + rd[(r >> 13) & SUIT_MASK] + rd[(r >> 26) & SUIT_MASK] + rd[r >> 39]
        if v < best:
            best = v
    return best


def min_discard_deadwood_mask(m: int) -> int:
    """Least deadwood left after discarding one card from mask ``m`` (at least one card)."""
    rd = RUN_DW
    dd = DISC_DW
    a = m & SUIT_MASK
    b = (m >> 13) & SUIT_MASK
    c = (m >> 26) & SUIT_MASK
    d = m >> 39
    if not (a & b & (c | d)) | (c & d & (a | b)):  # no set possible
        ra, rb, rc, rdd = rd[a], rd[b], rd[c], rd[d]
        return ra + rb + rc + rdd + min(dd[a] - ra, dd[b] - rb, dd[c] - rc, dd[d] - rdd)
    best = 999
    # No pruning here: a dominated set choice may be the one that leaves a card to discard.
    for s in _set_choices(m):
        r = m & ~s
        pa = r & SUIT_MASK
        pb = (r >> 13) & SUIT_MASK
        pc = (r >> 26) & SUIT_MASK
        pd = r >> 39
        ra, rb, rc, rdd = rd[pa], rd[pb], rd[pc], rd[pd]
        total = ra + rb + rc + rdd
        # DISC_DW[0] is 99, so an empty suit never wins.
        v = total + min(dd[pa] - ra, dd[pb] - rb, dd[pc] - rc, dd[pd] - rdd)
        if v < best:
            best = v
    return best


def discard_deadwoods_mask(m: int) -> dict[int, int]:
    """For each card index in ``m``: the least deadwood of the others."""
    rd = RUN_DW
    out: dict[int, int] = {}
    for s in _set_choices(m):
        r = m & ~s
        pats = (r & SUIT_MASK, (r >> 13) & SUIT_MASK, (r >> 26) & SUIT_MASK, r >> 39)
        vals = (rd[pats[0]], rd[pats[1]], rd[pats[2]], rd[pats[3]])
        total = vals[0] + vals[1] + vals[2] + vals[3]
        for suit in range(4):
            p = pats[suit]
            base = total - vals[suit]
            q = p
            while q:
                low = q & -q
                v = base + rd[p ^ low]
                idx = low.bit_length() - 1 + 13 * suit
                if v < out.get(idx, 999):
                    out[idx] = v
                q ^= low
    return out


# ---------------------------------------------------------------------------------------------
# Melds and arrangements


@dataclass(frozen=True, slots=True)
class Meld:
    """A set (3-4 cards of one rank) or a run (3+ consecutive cards of one suit)."""

    kind: MeldKind
    mask: int

    def __reduce__(self) -> tuple[object, tuple[MeldKind, int]]:
        # Explicit, so that a compiled build (whose frozen classes refuse the field-by-field
        # restore pickle and copy would otherwise use) pickles and copies as the pure one.
        return (Meld, (self.kind, self.mask))

    @property
    def cards(self) -> Cards:
        return Cards.from_mask(self.mask) if self.kind == "run" else Cards(_set_order(self.mask))

    @property
    def value(self) -> int:
        return mask_value(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __str__(self) -> str:
        return "".join(str(c) for c in self.cards)

    def pretty(self) -> str:
        return " ".join(c.pretty() for c in self.cards)

    def __repr__(self) -> str:
        return f"Meld('{self}')"

    def sort_key(self) -> tuple[int, int]:
        low = (self.mask & -self.mask).bit_length() - 1
        return (0 if self.kind == "set" else 1, low % 13 * 4 + low // 13)

    @staticmethod
    def parse(text: str) -> Meld:
        """Parse a meld such as ``As2s3s``, ``7h 7d 7c`` or ``10h Jh Qh``."""
        cards = [_parse_token(t, i) for i, t in enumerate(_tokens(text), 1)]
        mask = 0
        for c in cards:
            if mask & c.bit:
                raise InvalidNotationError(f"duplicate card {c} in meld {text!r}")
            mask |= c.bit
        kind = meld_kind(mask)
        if kind is None:
            raise InvalidNotationError(f"{text!r} is not a meld (a set of 3-4 or a run of 3+)")
        return Meld(kind, mask)

    def accepts(self, card: Card) -> bool:
        """Whether ``card`` can be laid off onto this meld."""
        return meld_kind(self.mask | card.bit) == self.kind and not self.mask & card.bit

    def with_card(self, card: Card) -> Meld:
        return Meld(self.kind, self.mask | card.bit)


def _set_order(mask: int) -> list[Card]:
    return [DECK[i] for i in bits(mask)]


def meld_kind(mask: int) -> MeldKind | None:
    """``"set"``, ``"run"`` or ``None`` for the cards of a mask."""
    n = mask.bit_count()
    if n < 3:
        return None
    low = (mask & -mask).bit_length() - 1
    rank, suit = low % 13, low // 13
    if n <= 4 and mask & ~RANK_MASKS[rank] == 0:
        return "set"
    if n <= 13:
        run = ((1 << n) - 1) << (suit * 13 + rank)
        if run == mask and rank + n <= 13:
            return "run"
    return None


def run_melds(cover: int, suit: int) -> Iterator[Meld]:
    """Split a suit's covered rank pattern (one of :func:`best_covers`) into its runs: maximal
    stretches of consecutive ranks."""
    while cover:
        low = cover & -cover
        start = low.bit_length() - 1
        length = 0
        while cover >> (start + length) & 1:
            length += 1
        seg = ((1 << length) - 1) << start
        yield Meld("run", seg << (13 * suit))
        cover &= ~seg


@lru_cache(maxsize=8192)
def _all_covers(p: int) -> frozenset[int]:
    """Every rank pattern inside p that is a union of runs (3+ consecutive ranks)."""
    if p == 0:
        return frozenset({0})
    i = (p & -p).bit_length() - 1
    rest = p & ~(1 << i)
    out = set(_all_covers(rest))
    length = 0
    while i + length < 13 and p >> (i + length) & 1:
        length += 1
    for run_len in range(3, length + 1):
        seg = ((1 << run_len) - 1) << i
        for c in _all_covers(p & ~seg):
            out.add(c | seg)
    return frozenset(out)


@lru_cache(maxsize=8192)
def best_covers(p: int) -> tuple[int, ...]:
    """The run covers of pattern p that leave RUN_DW[p] deadwood, in a fixed order."""
    target = RUN_DW[p]
    return tuple(sorted(c for c in _all_covers(p) if _pattern_value(p & ~c) == target))


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Disjoint melds and the deadwood cards left over."""

    melds: tuple[Meld, ...]
    deadwood_mask: int

    def __reduce__(self) -> tuple[object, tuple[tuple[Meld, ...], int]]:
        return (Arrangement, (self.melds, self.deadwood_mask))  # as Meld's

    @property
    def deadwood_cards(self) -> Cards:
        return Cards.from_mask(self.deadwood_mask)

    @property
    def deadwood(self) -> int:
        return mask_value(self.deadwood_mask)

    @property
    def mask(self) -> int:
        m = self.deadwood_mask
        for meld in self.melds:
            m |= meld.mask
        return m

    def __str__(self) -> str:
        melds = " ".join(str(m) for m in self.melds)
        dead = " ".join(str(c) for c in self.deadwood_cards)
        return f"{melds or '-'} | {dead or '-'}"

    def pretty(self) -> str:
        melds = "  ".join(f"[{m.pretty()}]" for m in self.melds)
        dead = " ".join(c.pretty() for c in self.deadwood_cards)
        return f"{melds or '(no melds)'}  deadwood: {dead or '-'} = {self.deadwood}"


def arrange(cards_mask: int, melds: Iterable[Meld]) -> Arrangement:
    """An arrangement from chosen melds; raises if they are not disjoint or not all held."""
    used = 0
    ordered = sorted(melds, key=Meld.sort_key)
    for meld in ordered:
        if meld.mask & used:
            raise InvalidNotationError(f"meld {meld} shares a card with another meld")
        if meld.mask & ~cards_mask:
            missing = Cards.from_mask(meld.mask & ~cards_mask)
            raise InvalidNotationError(f"meld {meld} uses cards not held: {missing}")
        used |= meld.mask
    return Arrangement(tuple(ordered), cards_mask & ~used)


def _arrangements_mask(m: int) -> list[Arrangement]:
    target = deadwood_mask(m)
    out: list[Arrangement] = []
    for s in _set_choices(m):
        r = m & ~s
        pats = [(r >> (13 * suit)) & SUIT_MASK for suit in range(4)]
        if sum(RUN_DW[p] for p in pats) != target:
            continue
        set_melds = []
        q = s
        while q:
            low = q & -q
            rank = (low.bit_length() - 1) % 13
            rank_mask = q & RANK_MASKS[rank]
            set_melds.append(Meld("set", rank_mask))
            q &= ~rank_mask
        for covers in product(*(best_covers(p) for p in pats)):
            melds = list(set_melds)
            used = s
            for suit, cover in enumerate(covers):
                melds.extend(run_melds(cover, suit))
                used |= cover << (13 * suit)
            out.append(Arrangement(tuple(sorted(melds, key=Meld.sort_key)), m & ~used))
    out.sort(key=lambda a: (a.deadwood_mask.bit_count(), [m.sort_key() for m in a.melds]))
    return out


def deadwood(cards: CardsLike | int) -> int:
    """The minimum deadwood count of a collection of cards.

    >>> from ginrummy import parse_cards
    >>> deadwood(parse_cards("As 2s 3s 7h 7d 7c Kd Qd 5c 9h"))
    34
    """
    return deadwood_mask(to_mask(cards))


def best_arrangements(cards: CardsLike | int) -> list[Arrangement]:
    """Every arrangement reaching the minimum deadwood, in a deterministic order.

    Runs of one suit that touch are written as one run (As-6s, not As2s3s + 4s5s6s): the two
    are the same arrangement for every purpose of the game.
    """
    return _arrangements_mask(to_mask(cards))


def best_arrangement(cards: CardsLike | int) -> Arrangement:
    """The first of :func:`best_arrangements`."""
    return _arrangements_mask(to_mask(cards))[0]


def best_discards(cards: CardsLike | int) -> list[tuple[Card, int]]:
    """Every discard with the minimum deadwood of the cards left, best first.

    Ties are broken by discarding the higher-valued card first, then by card order.
    """
    m = to_mask(cards)
    if m == 0:
        return []
    table = discard_deadwoods_mask(m)
    pairs = [(DECK[i], v) for i, v in table.items()]
    pairs.sort(key=lambda cv: (cv[1], -cv[0].value, cv[0].index))
    return pairs


# ---------------------------------------------------------------------------------------------
# Layoffs


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """The defender's best outcome against a knock."""

    #: (card, index of the knocker's meld) in the order they can be laid off one at a time.
    layoffs: tuple[tuple[Card, int], ...]
    #: The defender's arrangement of the cards he kept.
    arrangement: Arrangement
    #: The knocker's melds after the layoffs.
    extended_melds: tuple[Meld, ...]

    def __reduce__(
        self,
    ) -> tuple[object, tuple[tuple[tuple[Card, int], ...], Arrangement, tuple[Meld, ...]]]:
        return (LayoffResult, (self.layoffs, self.arrangement, self.extended_melds))  # as Meld's

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood

    @property
    def melds(self) -> tuple[Meld, ...]:
        return self.arrangement.melds

    @property
    def laid_off(self) -> Cards:
        return Cards(c for c, _ in self.layoffs)


def _meld_options(defender: int, meld: Meld) -> list[list[Card]]:
    """Each way one meld can take the defender's cards, as the cards in lay-off order."""
    opts: list[list[Card]] = [[]]
    if meld.kind == "set":
        if len(meld) == 3:
            low = (meld.mask & -meld.mask).bit_length() - 1
            rank = low % 13
            for s in range(4):
                bit = 1 << (s * 13 + rank)
                if not meld.mask & bit and defender & bit:
                    opts.append([DECK[s * 13 + rank]])
        return opts
    low = (meld.mask & -meld.mask).bit_length() - 1
    lo_rank, suit = low % 13, low // 13
    hi_rank = lo_rank + len(meld) - 1
    down: list[Card] = []
    r = lo_rank - 1
    while r >= 0 and defender >> (suit * 13 + r) & 1:
        down.append(DECK[suit * 13 + r])
        r -= 1
    up: list[Card] = []
    r = hi_rank + 1
    while r < 13 and defender >> (suit * 13 + r) & 1:
        up.append(DECK[suit * 13 + r])
        r += 1
    return [
        down[:i] + up[:j] for i in range(len(down) + 1) for j in range(len(up) + 1) if i or j
    ] + [[]]


def layoff(defender_cards: CardsLike | int, knocker_melds: Sequence[Meld] | str) -> LayoffResult:
    """The defender's optimal layoffs onto the knocker's melds (chains included).

    Every combination of extensions is tried and the defender's remaining cards are arranged
    to minimum deadwood, so breaking up one of his own would-be melds to lay off is considered.
    Among equal outcomes the one laying off the fewest cards is chosen.
    """
    defender = to_mask(defender_cards)
    melds = parse_melds(knocker_melds) if isinstance(knocker_melds, str) else list(knocker_melds)
    options = [_meld_options(defender, meld) for meld in melds]
    best: tuple[int, int, list[tuple[Card, int]]] | None = None
    for combo in product(*options):
        used = 0
        clash = False
        chosen: list[tuple[Card, int]] = []
        for meld_index, cards in enumerate(combo):
            for card in cards:
                if used & card.bit:
                    clash = True
                    break
                used |= card.bit
                chosen.append((card, meld_index))
            if clash:
                break
        if clash:
            continue
        dw = deadwood_mask(defender & ~used)
        key = (dw, len(chosen))
        if best is None or key < best[:2]:
            best = (dw, len(chosen), chosen)
    assert best is not None
    chosen = best[2]
    used = sum(c.bit for c, _ in chosen)
    extended = list(melds)
    for card, i in chosen:
        extended[i] = extended[i].with_card(card)
    arrangement = _arrangements_mask(defender & ~used)[0]
    return LayoffResult(tuple(chosen), arrangement, tuple(extended))


def parse_melds(text: str) -> list[Meld]:
    """Parse melds separated by spaces: ``"5s6s7s KhKdKc"``."""
    melds = [Meld.parse(word) for word in text.replace(",", " ").split()]
    if not melds:
        raise InvalidNotationError("no melds given")
    used = 0
    for meld in melds:
        if meld.mask & used:
            raise InvalidNotationError(f"meld {meld} shares a card with another meld")
        used |= meld.mask
    return melds
