"""Cards, card notation and the compact card-set form.

A card has an index 0..51: ``suit * 13 + rank`` with ranks 0 (ace) .. 12 (king) and suits
0..3 in the order spades, hearts, diamonds, clubs. A set of cards is a 52-bit integer with bit
``index`` set for each card; :class:`Cards` carries that mask so the meld solver never rebuilds it.
The masks' constants and helpers live in :mod:`.masks`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final, overload

from .errors import InvalidNotationError
from .masks import FULL_DECK_MASK as FULL_DECK_MASK  # re-exported: the card-set form's names
from .masks import RANK_VALUES as RANK_VALUES
from .masks import SUIT_MASK, bits
from .masks import mask_value as mask_value

RANKS: Final = "A23456789TJQK"
SUITS: Final = "shdc"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES: Final = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)

_SYMBOL_TO_SUIT = {sym: i for i, sym in enumerate(SUIT_SYMBOLS)}
_SYMBOL_TO_SUIT.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})
#: Variation selectors that often follow a suit symbol (``♥️`` is ``♥`` + U+FE0F): ignored.
_DROP_SELECTORS: Final = str.maketrans("", "", "\ufe0e\ufe0f")


class Card:
    """One playing card. Immutable, hashable and ordered (by suit, then rank).

    There are exactly 52 instances: ``Card(rank, suit)`` and :meth:`parse` return them.
    """

    __slots__ = ("bit", "index", "rank", "suit", "value")
    index: int
    rank: int
    suit: int
    value: int
    bit: int

    def __new__(cls, rank: int, suit: int) -> Card:
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise InvalidNotationError(f"no card with rank index {rank} and suit index {suit}")
        return _DECK[suit * 13 + rank]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        for name, value in (
            ("index", index),
            ("rank", index % 13),
            ("suit", index // 13),
            ("value", RANK_VALUES[index % 13]),
            ("bit", 1 << index),
        ):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_from_index, (self.index,))

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card: ``As``, ``Td``, ``10d``, ``td``, ``A♠``, ``10♥``."""
        return _parse_token(text, 1)

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank]

    @property
    def suit_char(self) -> str:
        return SUITS[self.suit]

    def pretty(self) -> str:
        """The card with a suit symbol and ``10`` for ten: ``10♥``."""
        rank = "10" if self.rank == 9 else RANKS[self.rank]
        return rank + SUIT_SYMBOLS[self.suit]

    def name(self) -> str:
        """Words for screen readers: ``ten of hearts``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


_DECK: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(52))
#: All 52 cards in index order (As 2s .. Ks Ah .. Kc).
DECK: Final = _DECK


def card_from_index(index: int) -> Card:
    return _DECK[index]


def _parse_token(token: str, position: int) -> Card:
    raw = token
    token = token.translate(_DROP_SELECTORS).strip()
    if len(token) < 2:
        raise InvalidNotationError(f"bad card {raw!r} at position {position}")
    rank_text, suit_text = token[:-1], token[-1]
    if rank_text == "10":
        rank = 9
    elif len(rank_text) == 1 and rank_text.upper() in RANKS:
        rank = RANKS.index(rank_text.upper())
    else:
        raise InvalidNotationError(f"bad rank in card {raw!r} at position {position}")
    if suit_text.lower() in SUITS:
        suit = SUITS.index(suit_text.lower())
    elif suit_text in _SYMBOL_TO_SUIT:
        suit = _SYMBOL_TO_SUIT[suit_text]
    else:
        raise InvalidNotationError(f"bad suit in card {raw!r} at position {position}")
    return _DECK[suit * 13 + rank]


def _tokens(text: str) -> list[str]:
    """Split card text into card tokens; spaces and commas separate, and runs of cards
    written without spaces (``As2s3s``, ``10h10d10c``) are split too."""
    out: list[str] = []
    for word in text.translate(_DROP_SELECTORS).replace(",", " ").split():
        i = 0
        while i < len(word):
            j = i + (2 if word[i] != "1" else 3)
            out.append(word[i:j])
            i = j
    return out


class Cards(Sequence[Card]):
    """An immutable collection of distinct cards, in the order given, with its 52-bit mask."""

    __slots__ = ("_cards", "mask")
    _cards: tuple[Card, ...]
    mask: int

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        tup = tuple(cards)
        mask = 0
        for position, card in enumerate(tup, 1):
            if not isinstance(card, Card):
                raise InvalidNotationError(f"not a card at position {position}: {card!r}")
            if mask & card.bit:
                raise InvalidNotationError(f"duplicate card {card} at position {position}")
            mask |= card.bit
        self._cards = tup
        self.mask = mask

    @classmethod
    def _trusted(cls, cards: tuple[Card, ...], mask: int) -> Cards:
        """No checks: for callers that already hold distinct cards and their mask."""
        obj = object.__new__(cls)
        obj._cards = cards
        obj.mask = mask
        return obj

    @classmethod
    def from_mask(cls, mask: int) -> Cards:
        """The cards of a mask, in index order."""
        obj = object.__new__(cls)
        obj._cards = mask_cards(mask)
        obj.mask = mask
        return obj

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> Cards: ...
    def __getitem__(self, index: int | slice) -> Card | Cards:
        if isinstance(index, slice):
            return Cards(self._cards[index])
        return self._cards[index]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.bit)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cards):
            return self._cards == other._cards
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self._cards)

    def __repr__(self) -> str:
        return f"Cards('{self}')"

    def pretty(self) -> str:
        return " ".join(c.pretty() for c in self._cards)

    def sorted(self) -> Cards:
        return Cards.from_mask(self.mask)

    @property
    def value(self) -> int:
        """The sum of the cards' deadwood values."""
        return sum(c.value for c in self._cards)


def parse_cards(text: str, *, allow_empty: bool = False) -> Cards:
    """Parse card notation into :class:`Cards`.

    >>> parse_cards("As 2s 10h td K♣")
    Cards('As 2s Th Td Kc')

    A bad token, a duplicate card or (unless ``allow_empty``) empty text raises
    :class:`InvalidNotationError` naming the token and its position (1-based).
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"card text must be a string, not {type(text).__name__}")
    tokens = _tokens(text)
    if not tokens and not allow_empty:
        raise InvalidNotationError("no cards given")
    cards: list[Card] = []
    mask = 0
    for position, token in enumerate(tokens, 1):
        card = _parse_token(token, position)
        if mask & card.bit:
            raise InvalidNotationError(f"duplicate card {token!r} at position {position}")
        mask |= card.bit
        cards.append(card)
    return Cards(cards)


CardsLike = Cards | Iterable[Card] | str


def to_cards(cards: CardsLike) -> Cards:
    """Accept :class:`Cards`, card text, or any iterable of cards."""
    if isinstance(cards, Cards):
        return cards
    if isinstance(cards, str):
        return parse_cards(cards, allow_empty=True)
    return Cards(cards)


def to_mask(cards: CardsLike | int) -> int:
    if isinstance(cards, int):
        return cards
    if isinstance(cards, Cards):
        return cards.mask
    return to_cards(cards).mask


def iter_indices(mask: int) -> Iterator[int]:
    """The card indices in a mask, lowest first (:func:`~.masks.bits` as an iterator)."""
    return iter(bits(mask))


def _suit_tables() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    return tuple(
        tuple(tuple(_DECK[s * 13 + r] for r in range(13) if p >> r & 1) for p in range(8192))
        for s in range(4)
    )


#: SUIT_CARDS[suit][pattern]: the cards of a 13-bit rank pattern in one suit, low rank first.
SUIT_CARDS: Final = _suit_tables()


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in index order (four table lookups)."""
    t = SUIT_CARDS
    return (
        t[0][mask & SUIT_MASK]
        + t[1][(mask >> 13) & SUIT_MASK]
        + t[2][(mask >> 26) & SUIT_MASK]
        + t[3][mask >> 39]
    )
