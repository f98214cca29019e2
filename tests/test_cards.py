"""Card notation, the Card singletons and the Cards collection."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginrummy import DECK, Card, Cards, InvalidNotationError, parse_cards
from ginrummy.engine.cards import (
    FULL_DECK_MASK,
    card_from_index,
    iter_indices,
    mask_cards,
    mask_value,
    to_cards,
    to_mask,
)


def test_deck_order_and_index() -> None:
    assert len(DECK) == 52
    assert [str(c) for c in DECK[:14]] == [
        "As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "Ah",
    ]  # fmt: skip
    assert [str(DECK[13 * s]) for s in range(4)] == ["As", "Ah", "Ad", "Ac"]
    for i, card in enumerate(DECK):
        assert card.index == i == card.suit * 13 + card.rank
        assert card.bit == 1 << i
        assert card_from_index(i) is card
        assert Card(card.rank, card.suit) is card
    assert sum(c.bit for c in DECK) == FULL_DECK_MASK


def test_values() -> None:
    assert [c.value for c in DECK[:13]] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert Card.parse("Kc").value == 10
    assert Card.parse("Ad").value == 1


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("As", "As"),
        ("as", "As"),
        ("AS", "As"),
        ("aS", "As"),
        ("10s", "Ts"),
        ("Ts", "Ts"),
        ("ts", "Ts"),
        ("10H", "Th"),
        ("jd", "Jd"),
        ("qC", "Qc"),
        ("Kh", "Kh"),
        ("7d", "7d"),
        ("A♠", "As"),
        ("10♥", "Th"),
        ("K♦", "Kd"),
        ("2♣", "2c"),
        ("q♤", "Qs"),
        ("3♡", "3h"),
        ("4♢", "4d"),
        ("5♧", "5c"),
        (" 9c ", "9c"),
    ],
)
def test_parse_one_card(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert card is Card.parse(canonical)


def test_every_card_round_trips() -> None:
    for card in DECK:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.pretty()) is card
        assert Card.parse(str(card).lower()) is card
        assert Card.parse(str(card).upper()) is card


def test_emoji_suit_symbols() -> None:
    # Phones and web pages often write a suit as the symbol plus U+FE0F (emoji presentation).
    assert parse_cards("A\u2665\ufe0f 10\u2660\ufe0f K\u2666\ufe0e") == parse_cards("Ah Ts Kd")
    assert parse_cards("A\u2665\ufe0f2\u2665\ufe0f3\u2665\ufe0f") == parse_cards("Ah 2h 3h")
    assert Card.parse("Q\u2663\ufe0f") is Card.parse("Qc")


def test_pretty_and_names() -> None:
    assert Card.parse("Th").pretty() == "10♥"
    assert Card.parse("As").pretty() == "A♠"
    assert Card.parse("Kd").pretty() == "K♦"
    assert Card.parse("2c").pretty() == "2♣"
    assert Card.parse("Th").name() == "ten of hearts"
    assert Card.parse("As").name() == "ace of spades"
    assert Card.parse("Qc").rank_char == "Q"
    assert Card.parse("Qc").suit_char == "c"
    assert repr(Card.parse("Qc")) == "Card('Qc')"
    assert parse_cards("As 10h Kd").pretty() == "A♠ 10♥ K♦"


def test_cards_are_singletons_ordered_and_hashable() -> None:
    a, b = Card.parse("Ks"), Card.parse("Ah")
    assert a < b and b > a and a <= a and b >= b
    assert sorted([Card.parse("2c"), Card.parse("Ks"), Card.parse("Ah")]) == [
        Card.parse("Ks"),
        Card.parse("Ah"),
        Card.parse("2c"),
    ]
    assert hash(a) == a.index
    assert {Card.parse("Ks"), Card.parse("ks"), Card.parse("K♠")} == {a}
    assert a != b
    assert a != "Ks"
    assert pickle.loads(pickle.dumps(a)) is a
    assert copy.copy(a) is a
    assert copy.deepcopy(a) is a


def test_card_is_immutable() -> None:
    card = Card.parse("5h")
    with pytest.raises(AttributeError):
        card.rank = 3


@pytest.mark.parametrize(("rank", "suit"), [(13, 0), (-1, 0), (0, 4), (0, -1)])
def test_card_constructor_rejects_bad_indices(rank: int, suit: int) -> None:
    with pytest.raises(InvalidNotationError):
        Card(rank, suit)


def test_parse_cards() -> None:
    cards = parse_cards("As 2s 10h td K♣")
    assert str(cards) == "As 2s Th Td Kc"
    assert repr(cards) == "Cards('As 2s Th Td Kc')"
    assert parse_cards("As,2s, 3s") == parse_cards("As 2s 3s")
    assert parse_cards("As2s3s") == parse_cards("As 2s 3s")
    assert parse_cards("10h10d10c") == parse_cards("Th Td Tc")
    assert parse_cards("A♠2♠10♥") == parse_cards("As 2s Th")
    assert parse_cards("  7c\t8c\n9c ") == parse_cards("7c 8c 9c")
    assert parse_cards("", allow_empty=True) == Cards()


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("Xs", "Xs", 1),
        ("As 2s 1s", "1s", 3),
        ("As Zz", "Zz", 2),
        ("As 2x", "2x", 2),
        ("As 2s 3s 11h", "11h", 4),
        ("As 0s", "0s", 2),
        ("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Ss", "Ss", 11),
        ("K", "K", 1),
        ("As Kh s", "s", 3),
        ("As 2s 3s 4s ♠A", "♠A", 5),
    ],
)
def test_bad_token_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(InvalidNotationError) as info:
        parse_cards(text)
    message = str(info.value)
    assert repr(token) in message
    assert f"position {position}" in message


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("As 2s As", "As", 3),
        ("As 2s as", "as", 3),
        ("Th 10h", "10h", 2),
        ("A♠ As", "As", 2),
        ("7c 8c 9c 7c", "7c", 4),
    ],
)
def test_duplicate_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(InvalidNotationError, match="duplicate") as info:
        parse_cards(text)
    assert repr(token) in str(info.value)
    assert f"position {position}" in str(info.value)


@pytest.mark.parametrize("text", ["", "   ", ",", " , ,"])
def test_empty_text_is_an_error(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="no cards"):
        parse_cards(text)
    assert len(parse_cards(text, allow_empty=True)) == 0


def test_empty_token_for_one_card() -> None:
    with pytest.raises(InvalidNotationError, match="position 1"):
        Card.parse("")
    with pytest.raises(InvalidNotationError, match="position 1"):
        Card.parse("Asx")


def test_non_string_input() -> None:
    with pytest.raises(InvalidNotationError):
        parse_cards(None)  # type: ignore[arg-type]


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_cards("As As")


def test_cards_mask_and_sequence() -> None:
    cards = parse_cards("Kc As 2s Th")
    assert cards.mask == (1 << 51) | (1 << 0) | (1 << 1) | (1 << 22)
    assert len(cards) == 4
    assert cards[0] is Card.parse("Kc")
    assert cards[-1] is Card.parse("Th")
    assert isinstance(cards[1:3], Cards)
    assert cards[1:3].mask == (1 << 0) | (1 << 1)
    assert Card.parse("Th") in cards
    assert Card.parse("Td") not in cards
    assert "Th" not in cards
    assert list(cards) == [Card.parse(t) for t in ("Kc", "As", "2s", "Th")]
    assert str(cards.sorted()) == "As 2s Th Kc"
    assert cards.value == 10 + 1 + 2 + 10
    assert Cards().mask == 0
    assert Cards.from_mask(cards.mask) == cards.sorted()
    assert Cards.from_mask(cards.mask).mask == cards.mask
    assert Cards.from_mask(FULL_DECK_MASK) == Cards(DECK)


def test_cards_equality_is_ordered_and_hashable() -> None:
    a = parse_cards("As 2s")
    assert a == parse_cards("as 2S")
    assert a != parse_cards("2s As")
    assert hash(a) == hash(parse_cards("As 2s"))
    assert a != "As 2s"
    assert len({a, parse_cards("As 2s")}) == 1


def test_cards_constructor_rejects_duplicates_and_non_cards() -> None:
    with pytest.raises(InvalidNotationError, match="duplicate card As at position 2"):
        Cards([Card.parse("As"), Card.parse("As")])
    with pytest.raises(InvalidNotationError, match="position 2"):
        Cards([Card.parse("As"), "2s"])  # type: ignore[list-item]


def test_mask_helpers() -> None:
    cards = parse_cards("Kc As Th")
    assert list(iter_indices(cards.mask)) == [0, 22, 51]
    assert list(mask_cards(cards.mask)) == [Card.parse("As"), Card.parse("Th"), Card.parse("Kc")]
    assert mask_value(cards.mask) == 21
    assert to_mask(cards) == to_mask("Kc As Th") == to_mask(list(cards)) == cards.mask
    assert to_mask(5) == 5
    assert to_cards(cards) is cards
    assert to_cards("As") == parse_cards("As")
    assert to_cards("") == Cards()


@given(st.lists(st.sampled_from(DECK), unique=True, max_size=52))
def test_notation_round_trip(cards: list[Card]) -> None:
    hand = Cards(cards)
    assert hand.mask == sum(c.bit for c in cards)
    assert len(hand) == len(cards) == hand.mask.bit_count()
    if cards:
        assert parse_cards(str(hand)) == hand
        assert parse_cards(hand.pretty()) == hand
        assert parse_cards(str(hand).replace(" ", "")) == hand
        assert parse_cards(hand.pretty().replace(" ", "")) == hand
