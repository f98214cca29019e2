"""The meld solver against a brute-force oracle, plus hand-checked scenarios."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from ginrummy import (
    Cards,
    InvalidNotationError,
    Meld,
    best_arrangement,
    best_arrangements,
    best_discards,
    deadwood,
    layoff,
    parse_cards,
    parse_melds,
)
from ginrummy.engine.cards import iter_indices
from ginrummy.engine.melds import (
    deadwood_mask,
    discard_deadwoods_mask,
    meld_kind,
    min_discard_deadwood_mask,
)

# --------------------------------------------------------------------------------------------
# Helpers and strategies


def indices(text: str) -> frozenset[int]:
    return frozenset(c.index for c in parse_cards(text))


def to_cards(hand: frozenset[int]) -> Cards:
    return Cards.from_mask(sum(1 << c for c in hand))


def mask_set(mask: int) -> frozenset[int]:
    return frozenset(iter_indices(mask))


def arrangement_set(cards: Cards) -> set[frozenset[frozenset[int]]]:
    return {frozenset(mask_set(m.mask) for m in a.melds) for a in best_arrangements(cards)}


ALL_MELDS_BY_SIZE: dict[int, list[frozenset[int]]] = {}
for _m in oracle.all_melds(range(52)):
    ALL_MELDS_BY_SIZE.setdefault(len(_m), []).append(_m)


def _partitions(n: int, smallest: int = 3) -> list[tuple[int, ...]]:
    """Ways to write n as a sum of parts >= 3 (non-decreasing)."""
    if n == 0:
        return [()]
    return [
        (part, *rest) for part in range(smallest, n + 1) for rest in _partitions(n - part, part)
    ]


def pick(draw: st.DrawFn, pool: list[int], k: int) -> set[int]:
    """k distinct cards drawn from pool."""
    if k == 0:
        return set()
    return set(draw(st.lists(st.sampled_from(pool), min_size=k, max_size=k, unique=True)))


def random_hands(n: int) -> st.SearchStrategy[frozenset[int]]:
    return st.frozensets(st.integers(0, 51), min_size=n, max_size=n)


@st.composite
def narrow_hands(draw: st.DrawFn, n: int) -> frozenset[int]:
    """Cards from 4-5 consecutive ranks: sets and runs overlap everywhere."""
    width = draw(st.integers(4, 5))
    low = draw(st.integers(0, 13 - width))
    pool = [s * 13 + r for s in range(4) for r in range(low, low + width)]
    return frozenset(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True)))


@st.composite
def meld_built_hands(draw: st.DrawFn, n: int) -> frozenset[int]:
    """Disjoint melds filling all of the hand (gin) or all but one or two cards."""
    extra = draw(st.sampled_from([0, 0, 0, 1, 2]))
    parts = draw(st.sampled_from(_partitions(n - extra)))
    used: set[int] = set()
    for size in draw(st.permutations(parts)):
        candidates = [m for m in ALL_MELDS_BY_SIZE.get(size, []) if not m & used]
        if candidates:
            used |= draw(st.sampled_from(candidates))
    rest = sorted(set(range(52)) - used)
    return frozenset(used | pick(draw, rest, n - len(used)))


def hands(n: int) -> st.SearchStrategy[frozenset[int]]:
    return st.one_of(random_hands(n), narrow_hands(n), meld_built_hands(n))


@st.composite
def layoff_cases(draw: st.DrawFn) -> tuple[frozenset[int], list[frozenset[int]]]:
    """Knocker melds inside a band of ranks and a 10-card defender hand mostly from that band."""
    width = draw(st.integers(5, 7))
    low = draw(st.integers(0, 13 - width))
    band = {s * 13 + r for s in range(4) for r in range(low, low + width)}
    melds: list[frozenset[int]] = []
    used: set[int] = set()
    for _ in range(draw(st.integers(1, 3))):
        size = draw(st.integers(3, 5))
        candidates = [m for m in ALL_MELDS_BY_SIZE[size] if m <= band and not m & used]
        if candidates:
            meld = draw(st.sampled_from(candidates))
            melds.append(meld)
            used |= meld
    if not melds:
        melds.append(draw(st.sampled_from([m for m in ALL_MELDS_BY_SIZE[3] if m <= band])))
        used |= melds[0]
    # Cards that extend the knocker's melds (chains included) or sit next to them.
    touching: set[int] = set()
    for meld in melds:
        if oracle.is_set(meld):
            r = oracle.rank(next(iter(meld)))
            touching |= {s * 13 + r for s in range(4)}
        else:
            s = oracle.suit(next(iter(meld)))
            ranks = [oracle.rank(c) for c in meld]
            lo, hi = max(0, min(ranks) - 3), min(12, max(ranks) + 3)
            touching |= {s * 13 + r for r in range(lo, hi + 1)}
    touching = sorted(touching - used)
    k = draw(st.integers(min(2, len(touching)), min(7, len(touching))))
    defender = pick(draw, touching, k)
    near = sorted(band - used - defender)
    j = draw(st.integers(0, min(10 - k, len(near))))
    defender |= pick(draw, near, j)
    far = sorted(set(range(52)) - used - defender)
    defender |= pick(draw, far, 10 - len(defender))
    return frozenset(defender), melds


FAST = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------------------------
# Property tests against the oracle


def check_deadwood(hand: frozenset[int]) -> None:
    cards = to_cards(hand)
    expected = oracle.deadwood(hand)
    assert deadwood(cards) == expected
    assert deadwood_mask(cards.mask) == expected


def check_arrangements(hand: frozenset[int]) -> None:
    cards = to_cards(hand)
    best = oracle.deadwood(hand)
    arrangements = best_arrangements(cards)
    assert arrangements, "at least one arrangement"
    for a in arrangements:
        melds = [mask_set(m.mask) for m in a.melds]
        for meld, m in zip(melds, a.melds, strict=True):
            assert oracle.is_meld(meld), f"{m} is not a meld"
            assert (m.kind == "set") == oracle.is_set(meld)
        covered = frozenset().union(*melds)
        assert sum(len(m) for m in melds) == len(covered), "melds overlap"
        assert covered | mask_set(a.deadwood_mask) == hand
        assert not covered & mask_set(a.deadwood_mask)
        assert a.deadwood == oracle.total(mask_set(a.deadwood_mask)) == best
        assert a.mask == cards.mask
    found = [frozenset(mask_set(m.mask) for m in a.melds) for a in arrangements]
    assert len(found) == len(set(found)), "an arrangement is listed twice"
    assert set(found) == oracle.best_arrangements(hand)
    assert best_arrangement(cards) == arrangements[0]


def check_discards(hand: frozenset[int]) -> None:
    cards = to_cards(hand)
    expected = oracle.discard_deadwoods(hand)
    got = best_discards(cards)
    assert {c.index: v for c, v in got} == expected
    assert len(got) == len(hand)
    keys = [(v, -c.value, c.index) for c, v in got]
    assert keys == sorted(keys)
    assert discard_deadwoods_mask(cards.mask) == expected
    assert min_discard_deadwood_mask(cards.mask) == min(expected.values())


@FAST
@given(hands(10))
def test_deadwood_10(hand: frozenset[int]) -> None:
    check_deadwood(hand)


@FAST
@given(hands(11))
def test_deadwood_11(hand: frozenset[int]) -> None:
    check_deadwood(hand)


@FAST
@given(st.integers(0, 12).flatmap(random_hands))
def test_deadwood_any_size(hand: frozenset[int]) -> None:
    check_deadwood(hand)


@FAST
@given(hands(10))
def test_arrangements_10(hand: frozenset[int]) -> None:
    check_arrangements(hand)


@SLOW
@given(hands(11))
def test_arrangements_11(hand: frozenset[int]) -> None:
    check_arrangements(hand)


@SLOW
@given(hands(11))
def test_best_discards_11(hand: frozenset[int]) -> None:
    check_discards(hand)


@FAST
@given(meld_built_hands(10))
def test_gin_hands(hand: frozenset[int]) -> None:
    # Meld-built hands are mostly gin; the oracle decides which.
    check_deadwood(hand)
    check_arrangements(hand)


@SLOW
@given(meld_built_hands(11))
def test_big_gin_and_near_gin_discards(hand: frozenset[int]) -> None:
    check_discards(hand)


@SLOW
@given(layoff_cases())
def test_layoff_against_oracle(case: tuple[frozenset[int], list[frozenset[int]]]) -> None:
    defender, knocker = case
    melds = [Meld("set" if oracle.is_set(m) else "run", sum(1 << c for c in m)) for m in knocker]
    result = layoff(to_cards(defender), melds)
    outcomes = oracle.layoff_outcomes(defender, knocker)
    best = min(outcomes.values())
    assert result.deadwood == best
    fewest = min(len(laid) for laid, dw in outcomes.items() if dw == best)
    assert len(result.layoffs) == fewest
    # The layoffs replay legally one card at a time, and the extended melds match.
    state = list(knocker)
    for card, i in result.layoffs:
        assert card.index in defender
        assert oracle.can_lay_off(card.index, state[i])
        state[i] = state[i] | {card.index}
    assert [mask_set(m.mask) for m in result.extended_melds] == state
    # The defender's arrangement covers exactly the cards he kept, at their minimum deadwood.
    kept = defender - {c.index for c, _ in result.layoffs}
    assert mask_set(result.arrangement.mask) == kept
    assert result.deadwood == oracle.deadwood(kept)
    for m in result.melds:
        assert oracle.is_meld(mask_set(m.mask))


# --------------------------------------------------------------------------------------------
# Scenarios


def test_set_and_run_sharing_a_card_count_one_meld() -> None:
    # 7s is in the run 7s8s9s and in the set 7s7h7d: only one of them can be used.
    assert deadwood("7s 8s 9s 7h 7d") == 14
    assert [str(a) for a in best_arrangements("7s 8s 9s 7h 7d")] == ["7s8s9s | 7h 7d"]
    # A tie: the set of kings or the run J-Q-K, 20 deadwood either way.
    assert deadwood("Ks Qs Js Kh Kd") == 20
    assert arrangement_set(parse_cards("Ks Qs Js Kh Kd")) == {
        frozenset({indices("Ks Kh Kd")}),
        frozenset({indices("Js Qs Ks")}),
    }


def test_four_set_against_a_run_through_one_of_its_cards() -> None:
    # The 4-set gives up the 5s to the run: 5h5d5c + 4s5s6s is gin.
    cards = parse_cards("5s 5h 5d 5c 4s 6s")
    assert deadwood(cards) == 0
    assert arrangement_set(cards) == {frozenset({indices("5h 5d 5c"), indices("4s 5s 6s")})}
    # Two runs through the fives: three ways to reach 10.
    cards = parse_cards("5s 5h 5d 5c 4s 6s 4h 6h")
    assert deadwood(cards) == 10
    assert arrangement_set(cards) == {
        frozenset({indices("4s 5s 6s"), indices("4h 5h 6h")}),
        frozenset({indices("5s 5d 5c"), indices("4h 5h 6h")}),
        frozenset({indices("5h 5d 5c"), indices("4s 5s 6s")}),
    }
    # With nothing else to use the fives, the 4-set is the meld.
    assert deadwood("5s 5h 5d 5c 9s") == 9


def test_ace_is_low_only() -> None:
    assert deadwood("As 2s 3s") == 0
    assert deadwood("Qs Ks As") == 21
    assert deadwood("Ks As 2s") == 13
    assert meld_kind(parse_cards("As 2s 3s").mask) == "run"
    assert meld_kind(parse_cards("Qs Ks As").mask) is None
    assert meld_kind(parse_cards("Ks As 2s").mask) is None
    # Not a run across suits either (Kh is next to As in card index order).
    assert meld_kind(parse_cards("Qs Ks Ah").mask) is None
    assert deadwood("Js Qs Ks") == 0


def test_touching_runs_are_one_run() -> None:
    arrangements = best_arrangements("As 2s 3s 4s 5s 6s 9h 9d 9c Kd")
    assert [str(a) for a in arrangements] == ["9h9d9c As2s3s4s5s6s | Kd"]
    assert arrangements[0].deadwood == 10


def test_doc_example() -> None:
    arrangement = best_arrangement("As 2s 3s 7h 7d 7c Kd Qd 5c 9h")
    assert str(arrangement) == "7h7d7c As2s3s | 9h Qd Kd 5c"
    assert arrangement.deadwood == deadwood("As 2s 3s 7h 7d 7c Kd Qd 5c 9h") == 34


def test_openspiel_discard_bug_one() -> None:
    # OpenSpiel's MinDeadwood discards the highest deadwood card of one best arrangement of
    # all 11 cards and reports 12; discarding the 6d and keeping 4c5c6c... leaves 10.
    hand = parse_cards("4s 5s 6s 3h 2d 5d 6d 3c 4c 5c 6c")
    discards = best_discards(hand)
    assert discards[0][1] == 10
    assert str(discards[0][0]) == "6d"
    assert min_discard_deadwood_mask(hand.mask) == 10
    assert min(oracle.discard_deadwoods(indices(str(hand))).values()) == 10


def test_openspiel_discard_bug_two() -> None:
    # Discarding the 5c breaks no meld: 2s3s4s 2h3h4h5h 3d4d5d is gin (OpenSpiel says 2).
    hand = parse_cards("2s 3s 4s 2h 3h 4h 5h 3d 4d 5d 5c")
    discards = best_discards(hand)
    assert discards[0] == (parse_cards("5c")[0], 0)
    assert [c for c, v in discards if v == 0] == [parse_cards("5c")[0]]
    assert min_discard_deadwood_mask(hand.mask) == 0


def test_best_discards_ties_prefer_higher_card_then_index() -> None:
    # Nothing melds: the discard leaving the least is the highest card; equal values by index.
    discards = best_discards("As 3h Ks Kh Qd 5c 7d 9s 2c Jh 6s")
    values = [(str(c), v) for c, v in discards]
    assert values[:4] == [("Ks", 63), ("Jh", 63), ("Kh", 63), ("Qd", 63)]
    assert values[-1] == ("As", 72)


def test_empty_and_small_hands() -> None:
    assert deadwood(Cards()) == 0
    assert best_discards(Cards()) == []
    assert best_discards("Ks") == [(parse_cards("Ks")[0], 0)]
    assert str(best_arrangement(Cards())) == "- | -"


def test_chained_layoffs_onto_one_end() -> None:
    result = layoff("8s 9s 2h 4d 6c Jh Qd Kc 3c", "5s6s7s")
    assert [(str(c), i) for c, i in result.layoffs] == [("8s", 0), ("9s", 0)]
    assert str(result.extended_melds[0]) == "5s6s7s8s9s"
    assert result.deadwood == 2 + 4 + 6 + 10 + 10 + 10 + 3


def test_chain_of_three_that_is_also_the_defenders_own_run() -> None:
    # Knocker shows 5-6-7 of spades, defender holds 8s 9s Ts: all three can go, one at a
    # time, and none of them counts. They are also his own run, and among equal outcomes the
    # engine lays off the fewest cards, so it keeps them as a meld.
    defender = "8s 9s Ts 2h 4d 6c Jh Qd Kc 3c"
    result = layoff(defender, "5s6s7s")
    assert result.deadwood == 2 + 4 + 6 + 10 + 10 + 10 + 3
    assert result.layoffs == ()
    assert [str(m) for m in result.melds] == ["8s9sTs"]
    outcomes = oracle.layoff_outcomes(indices(defender), [indices("5s 6s 7s")])
    assert outcomes[indices("8s 9s Ts")] == result.deadwood
    meld = parse_melds("5s6s7s")[0]
    for card in parse_cards("8s 9s Ts"):
        assert meld.accepts(card)
        meld = meld.with_card(card)
    assert str(meld) == "5s6s7s8s9sTs"


def test_chained_layoffs_onto_both_ends() -> None:
    result = layoff("3s 4s 8s 9s Kh", "5s6s7s")
    assert {str(c) for c in result.laid_off} == {"3s", "4s", "8s", "9s"}
    assert str(result.extended_melds[0]) == "3s4s5s6s7s8s9s"
    assert result.deadwood == 10
    # The order given can be played one card at a time.
    meld = parse_melds("5s6s7s")[0]
    for card, i in result.layoffs:
        assert i == 0
        assert meld.accepts(card)
        meld = meld.with_card(card)
    # With the Ts too, 8s9sTs is his own run: the 3s and 4s are laid off, the rest kept.
    result = layoff("3s 4s 8s 9s Ts Kh", "5s6s7s")
    assert {str(c) for c in result.laid_off} == {"3s", "4s"}
    assert result.deadwood == 10


def test_layoff_onto_three_set() -> None:
    result = layoff("Ks 2h 4d", "KhKdKc")
    assert [(str(c), i) for c, i in result.layoffs] == [("Ks", 0)]
    assert str(result.extended_melds[0]) == "KsKhKdKc"
    assert result.deadwood == 6
    # Nothing goes onto a 4-set.
    result = layoff("2h 4d", "KsKhKdKc")
    assert result.layoffs == ()
    assert result.deadwood == 6


def test_layoff_between_two_runs_of_one_suit() -> None:
    # 6s and 7s fill the gap between 3s4s5s and 8s9sTs: both are laid off, whichever way.
    result = layoff("6s 7s Kd", "3s4s5s 8s9sTs")
    assert result.deadwood == 10
    assert {str(c) for c in result.laid_off} == {"6s", "7s"}
    # Two runs of one suit cannot both take the same card.
    result = layoff("6s Kd", "3s4s5s 7s8s9s")
    assert len(result.layoffs) == 1


def test_defender_breaks_his_run_to_lay_off() -> None:
    # Keeping TsJsQs leaves Qh Qd (20); laying off Ts Js onto 7s8s9s leaves the set of queens.
    result = layoff("Ts Js Qs Qh Qd", "7s8s9s")
    assert result.deadwood == 0
    assert [str(c) for c, _ in result.layoffs] == ["Ts", "Js"]
    assert [str(m) for m in result.melds] == ["QsQhQd"]


def test_layoff_prefers_fewest_cards_among_equal_outcomes() -> None:
    # Laying off the 4s leaves the 4h4d4c set: also 0, but one card more than keeping the 4-set.
    result = layoff("4s 4h 4d 4c", "5s6s7s")
    assert result.layoffs == ()
    assert result.deadwood == 0


def test_worked_example_from_the_rules() -> None:
    # Knocker: J-Q-K of spades, three nines and 8 deadwood. Defender: K-K-K, Ts, and
    # 10+8+6+5+2+1 = 32 in cards that neither meld nor lay off.
    knocker = parse_cards("Js Qs Ks 9h 9d 9c Ah 2c 2h 3s")
    assert len(knocker) == 10
    assert deadwood(knocker) == 8
    knocker_melds = best_arrangement(knocker).melds
    assert {str(m) for m in knocker_melds} == {"JsQsKs", "9h9d9c"}
    defender = parse_cards("Kh Kd Kc Ts Qh 8d 6c 5h 2d Ac")
    assert deadwood(defender) == 42
    result = layoff(defender, knocker_melds)
    assert [str(c) for c in result.laid_off] == ["Ts"]
    assert "TsJsQsKs" in {str(m) for m in result.extended_melds}
    assert [str(m) for m in result.melds] == ["KhKdKc"]
    assert result.deadwood == 32
    assert result.deadwood - deadwood(knocker) == 24


def test_layoff_accepts_meld_text_and_cards() -> None:
    a = layoff("8s 9s Ts", "5s6s7s")
    b = layoff(parse_cards("8s 9s Ts"), parse_melds("5s6s7s"))
    assert a == b
    assert a.deadwood == 0


def test_layoff_all_cards_laid_off() -> None:
    result = layoff("8s", "5s6s7s")
    assert result.deadwood == 0
    assert result.arrangement.melds == ()
    assert result.arrangement.deadwood_mask == 0


# --------------------------------------------------------------------------------------------
# Meld notation


def test_meld_parse() -> None:
    meld = Meld.parse("As2s3s")
    assert meld.kind == "run"
    assert str(meld) == "As2s3s"
    assert meld.pretty() == "A♠ 2♠ 3♠"
    assert len(meld) == 3
    assert meld.value == 6
    assert Meld.parse("7h 7d 7c").kind == "set"
    assert Meld.parse("10h Jh Qh") == Meld.parse("ThJhQh")
    assert str(Meld.parse("Qh Jh 10h")) == "ThJhQh"
    assert Meld.parse("7c7h7d7s").cards == parse_cards("7s 7h 7d 7c")
    assert parse_melds("5s6s7s KhKdKc") == [Meld.parse("5s6s7s"), Meld.parse("KhKdKc")]
    assert parse_melds("5s6s7s, KhKdKc") == parse_melds("5s6s7s KhKdKc")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As2s", "not a meld"),
        ("QsKsAs", "not a meld"),
        ("KsAs2s", "not a meld"),
        ("As2s4s", "not a meld"),
        ("7h7d7c7s7h", "duplicate"),
        ("As2h3d", "not a meld"),
        ("Xs2s3s", "position 1"),
        ("As2s3x", "position 3"),
        ("", "not a meld"),
    ],
)
def test_meld_parse_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        Meld.parse(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no melds"),
        ("   ", "no melds"),
        ("5s6s7s Kh", "not a meld"),
        ("5s 6s 7s", "not a meld"),
        ("5s6s7s 5s5h5d", "shares a card"),
        ("5s6s7s Zz", "position 1"),
    ],
)
def test_parse_melds_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        parse_melds(text)


def test_meld_accepts() -> None:
    run = Meld.parse("5s6s7s")
    assert run.accepts(parse_cards("4s")[0])
    assert run.accepts(parse_cards("8s")[0])
    assert not run.accepts(parse_cards("9s")[0])
    assert not run.accepts(parse_cards("8h")[0])
    assert not run.accepts(parse_cards("6s")[0])
    three = Meld.parse("KhKdKc")
    assert three.accepts(parse_cards("Ks")[0])
    assert not three.accepts(parse_cards("Qs")[0])
    assert not Meld.parse("KsKhKdKc").accepts(parse_cards("Ks")[0])
    assert not Meld.parse("JsQsKs").accepts(parse_cards("Ah")[0])
    assert not Meld.parse("As2s3s").accepts(parse_cards("Kc")[0])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 8), st.sampled_from([3, 4, 5]), st.integers(10, 12), st.randoms())
def test_fast_paths_agree_with_the_full_enumeration(low, width, n, rnd):
    """The pruned set choices (deadwood) and the one-card discard minimum match the full
    enumeration on dense hands, where sets and runs overlap most."""
    from ginrummy.engine import melds as m

    pool = [s * 13 + r for s in range(4) for r in range(low, min(13, low + width))]
    if len(pool) < n:
        return
    mask = sum(1 << i for i in rnd.sample(pool, n))
    full = min(
        sum(m.RUN_DW[((mask & ~s) >> (13 * k)) & 0x1FFF] for k in range(4))
        for s in m._set_choices(mask, False)
    )
    assert m.deadwood_mask(mask) == full
    assert m.min_discard_deadwood_mask(mask) == min(m.discard_deadwoods_mask(mask).values())
