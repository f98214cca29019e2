"""A slow, obviously-correct meld oracle, written without the engine's solver.

Cards are plain integers ``suit * 13 + rank`` (rank 0 = ace .. 12 = king); hands are
collections of those integers. Everything here is brute force: list every meld contained in
the hand, then every collection of pairwise disjoint melds, and take the minimum. The tests
compare the engine's fast solver against these functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

Hand = frozenset[int]
Meld = frozenset[int]


def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13


def value(card: int) -> int:
    return min(rank(card) + 1, 10)


def total(cards: Iterable[int]) -> int:
    return sum(value(c) for c in cards)


def is_set(cards: Iterable[int]) -> bool:
    cs = set(cards)
    return len(cs) in (3, 4) and len({rank(c) for c in cs}) == 1


def is_run(cards: Iterable[int]) -> bool:
    cs = set(cards)
    if len(cs) < 3 or len({suit(c) for c in cs}) != 1:
        return False
    ranks = sorted(rank(c) for c in cs)
    # Consecutive ranks, ace low only: no wrap-around from king to ace.
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(cards: Iterable[int]) -> bool:
    cs = set(cards)
    return is_set(cs) or is_run(cs)


def all_melds(hand: Iterable[int]) -> list[Meld]:
    """Every set (all 3- and 4-card choices) and every run (length >= 3) inside ``hand``."""
    h = set(hand)
    melds: list[Meld] = []
    for r in range(13):
        same = [s * 13 + r for s in range(4) if s * 13 + r in h]
        for size in (3, 4):
            melds.extend(frozenset(c) for c in combinations(same, size))
    for s in range(4):
        for start in range(13):
            length = 0
            while start + length < 13 and s * 13 + start + length in h:
                length += 1
                if length >= 3:
                    melds.append(frozenset(s * 13 + start + i for i in range(length)))
    return melds


def meld_collections(hand: Iterable[int]) -> Iterator[tuple[Meld, ...]]:
    """Every collection of pairwise disjoint melds in ``hand`` (the empty one included)."""
    melds = all_melds(hand)

    def extend(
        start: int, used: frozenset[int], chosen: tuple[Meld, ...]
    ) -> Iterator[tuple[Meld, ...]]:
        yield chosen
        for i in range(start, len(melds)):
            if not melds[i] & used:
                yield from extend(i + 1, used | melds[i], (*chosen, melds[i]))

    yield from extend(0, frozenset(), ())


def deadwood(hand: Iterable[int]) -> int:
    h = frozenset(hand)
    return min(total(h - frozenset().union(*coll)) for coll in meld_collections(h))


def canonical(collection: Iterable[Meld]) -> frozenset[Meld]:
    """Merge runs of one suit that touch (A23 + 456 -> A23456); sets are kept as they are."""
    sets = [m for m in collection if is_set(m)]
    run_cards = set().union(*(m for m in collection if not is_set(m)))
    merged: list[Meld] = []
    for c in sorted(run_cards):
        if merged and c - 1 in merged[-1] and suit(c - 1) == suit(c):
            merged[-1] = merged[-1] | {c}
        else:
            merged.append(frozenset({c}))
    return frozenset(sets) | frozenset(merged)


def best_arrangements(hand: Iterable[int]) -> set[frozenset[Meld]]:
    """The canonical meld collections reaching the minimum deadwood."""
    h = frozenset(hand)
    scored = [(total(h - frozenset().union(*coll)), coll) for coll in meld_collections(h)]
    best = min(dw for dw, _ in scored)
    return {canonical(coll) for dw, coll in scored if dw == best}


def discard_deadwoods(hand: Iterable[int]) -> dict[int, int]:
    """For each card of the hand: the minimum deadwood of the others."""
    h = frozenset(hand)
    return {c: deadwood(h - {c}) for c in h}


def can_lay_off(card: int, meld: Meld) -> bool:
    return card not in meld and is_meld(meld | {card})


def layoff_outcomes(defender: Iterable[int], knocker_melds: Iterable[Meld]) -> dict[Hand, int]:
    """Every set of defender cards that can be laid off, one card at a time onto the knocker's
    melds as they grow, mapped to the defender's minimum deadwood of the cards he keeps."""
    d = frozenset(defender)
    start = tuple(frozenset(m) for m in knocker_melds)
    seen = {start}
    frontier = [start]
    reachable: set[Hand] = {frozenset()}
    while frontier:
        state = frontier.pop()
        laid = frozenset().union(*state) - frozenset().union(*start)
        for card in d - laid:
            for i, meld in enumerate(state):
                if can_lay_off(card, meld):
                    nxt = (*state[:i], meld | {card}, *state[i + 1 :])
                    if nxt not in seen:
                        seen.add(nxt)
                        frontier.append(nxt)
                        reachable.add(laid | {card})
    return {laid: deadwood(d - laid) for laid in reachable}


def layoff_deadwood(defender: Iterable[int], knocker_melds: Iterable[Meld]) -> int:
    return min(layoff_outcomes(defender, knocker_melds).values())
