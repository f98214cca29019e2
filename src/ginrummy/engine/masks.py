"""The 52-bit card-set form: its constants, its helpers, and the rule numbers used on it.

A card's index is ``suit * 13 + rank`` (ranks 0 = ace .. 12 = king; suits spades, hearts,
diamonds, clubs), and a set of cards is an int with the bit of each card's index set. The meld
solver, the hand and the computer players' searches all work on such masks; this module is the
one place where what they share is written down: each card's deadwood value, the cards of a
suit and of a rank, the cards of a mask, the stock floor and the score of a knock.

It imports nothing of the package (everything else in the engine may import it), and it is one
of the modules mypyc compiles (:data:`ginrummy.speedups.MODULES`), so the compiled meld solver
and rollouts call it natively. The int constants are written as literals because mypyc puts a
``Final`` literal straight into the code that uses it, in any module.

>>> bits(0b1011)
[0, 1, 3]
>>> mask_value(RANK_MASKS[12] | 1)  # the four kings and the ace of spades
41
>>> knock_score(4, 9, 25, 25, True, 1)  # knocker 4 against 9: the knocker scores 5
(0, 5)
>>> knock_score(9, 9, 25, 25, True, 1)  # a tie is an undercut here: the defender scores 25
(1, 25)
"""

from __future__ import annotations

from typing import Final

#: Deadwood value of each rank index: ace 1, 2-10 face value, J/Q/K 10.
RANK_VALUES: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
#: Deadwood value of each card index.
VALUES: Final = tuple(RANK_VALUES[i % 13] for i in range(52))
#: Every card: 52 bits set.
FULL_DECK_MASK: Final = 0xFFFFFFFFFFFFF
#: One suit's 13 ranks, in the low bits: ``(mask >> 13 * suit) & SUIT_MASK`` is its pattern.
SUIT_MASK: Final = 0x1FFF
#: The four aces; shifted left by a rank, that rank's four cards.
ACES: Final = 0x8004002001
#: Each rank's four cards.
RANK_MASKS: Final = tuple(ACES << rank for rank in range(13))
#: The last two cards of the stock are never drawn (RULES.md, "The wall").
STOCK_FLOOR: Final = 2

#: Who wins a knock (:func:`knock_score`).
KNOCKER: Final = 0
DEFENDER: Final = 1
NOBODY: Final = -1


def bits(mask: int) -> list[int]:
    """The card indices of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_value(mask: int) -> int:
    """The deadwood value of every card in a mask, added up."""
    total = 0
    while mask:
        low = mask & -mask
        total += VALUES[low.bit_length() - 1]
        mask ^= low
    return total


def knock_score(
    knocker_deadwood: int,
    defender_deadwood: int,
    gin_bonus: int,
    undercut_bonus: int,
    undercut_on_tie: bool,
    multiplier: int,
) -> tuple[int, int]:
    """``(winner, points)`` of a knock (RULES.md, "Scoring a hand"): ``winner`` is
    :data:`KNOCKER`, :data:`DEFENDER` or :data:`NOBODY` (a tie when ties are not undercuts,
    0 points); ``defender_deadwood`` is after the layoffs, or all of it against gin.

    Knocker deadwood 0 is gin: the defender's deadwood plus the gin bonus. Otherwise the lower
    deadwood scores the difference, and the defender's win (an undercut, ties included when
    ``undercut_on_tie``) adds the undercut bonus. The hand's multiplier (2 for an Oklahoma
    spade upcard) multiplies it all. :meth:`~ginrummy.engine.results.HandResult.knock` and the
    computer players' rollouts both score with this.
    """
    k = knocker_deadwood
    d = defender_deadwood
    if k == 0:
        return KNOCKER, (d + gin_bonus) * multiplier
    if k < d:
        return KNOCKER, (d - k) * multiplier
    if d < k or undercut_on_tie:
        return DEFENDER, (k - d + undercut_bonus) * multiplier
    return NOBODY, 0
