"""``ginrummy analyze``: the best arrangements, deadwood, discards and layoffs of a hand."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from ..engine.cards import Card, Cards, parse_cards
from ..engine.errors import InvalidNotationError
from ..engine.melds import (
    Arrangement,
    Meld,
    best_arrangements,
    best_discards,
    deadwood,
    layoff,
    parse_melds,
)
from . import CommandError

if TYPE_CHECKING:
    from .main import Subparsers

HAND_SIZE = 10
MAX_CARDS = 11
STANDARD_KNOCK_LIMIT = 10
#: Knock limits the rules allow (0 is straight gin; 10 is the standard limit).
KNOCK_LIMITS = range(0, 11)

EXAMPLES = """\
examples:
  ginrummy analyze "As 2s 3s 7h 7d 7c Kd Qd 5c 9h"
  ginrummy analyze As 2s 3s 7h 7d 7c Kd Qd 5c 9h 8h --knock-limit 5
  ginrummy analyze "8s 9s Kh Kd Qh 4c 2d Ac 5h 6d" --layoff "5s6s7s QsQdQc"

Cards: rank A 2-9 T (or 10) J Q K, then suit s h d c or a symbol (A♠ 10♥), any case.
Melds for --layoff are written without spaces inside a meld and spaces between melds."""


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="best arrangements, deadwood, discards and layoffs of a hand",
        description=(
            "Show a hand's best arrangements and deadwood and whether it may knock; for 11 "
            "cards the discards ranked by the deadwood they leave; with --layoff, the "
            "defender's best layoffs onto the knocker's melds."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "hand",
        nargs="+",
        metavar="CARDS",
        help="1 to 11 cards, in one quoted argument or several",
    )
    parser.add_argument(
        "--knock-limit",
        type=int,
        default=STANDARD_KNOCK_LIMIT,
        metavar="N",
        help="the most deadwood a knock may have, 0 to 10 (default 10; 0 = straight gin)",
    )
    parser.add_argument(
        "--layoff",
        metavar="MELDS",
        help="the knocker's melds, e.g. \"5s6s7s KhKdKc\": the hand is the defender's",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="write cards as As Th instead of A♠ 10♥",
    )


def run(args: argparse.Namespace) -> int:
    hand = parse_cards(" ".join(args.hand))
    if not 1 <= len(hand) <= MAX_CARDS:
        raise CommandError(f"a hand has 1 to {MAX_CARDS} cards, not {len(hand)}")
    if args.knock_limit not in KNOCK_LIMITS:
        raise CommandError(f"--knock-limit must be 0 to 10, not {args.knock_limit}")
    knocker: list[Meld] | None = None
    if args.layoff is not None:
        try:
            knocker = parse_melds(args.layoff)
        except InvalidNotationError as exc:
            raise CommandError(f"--layoff: {exc}") from None
        shared = hand.mask & sum(m.mask for m in knocker)
        if shared:
            raise CommandError(
                f"--layoff: the knocker's melds hold cards of the hand: {Cards.from_mask(shared)}"
            )
    out = sys.stdout
    fmt = _Formatter(plain=args.plain or not _can_write_symbols(out))
    lines = analyze(hand, knock_limit=args.knock_limit, knocker=knocker, fmt=fmt)
    out.write("\n".join(lines) + "\n")
    out.flush()
    return 0


class _Formatter:
    def __init__(self, plain: bool) -> None:
        self.plain = plain

    def card(self, card: Card) -> str:
        return str(card) if self.plain else card.pretty()

    def cards(self, cards: Cards) -> str:
        return " ".join(self.card(c) for c in cards) if len(cards) else "-"

    def meld(self, meld: Meld) -> str:
        return f"[{self.cards(meld.cards)}]"

    def arrangement(self, arrangement: Arrangement) -> str:
        melds = " ".join(self.meld(m) for m in arrangement.melds) or "(no melds)"
        dead = arrangement.deadwood_cards
        if not len(dead):
            return f"{melds}  no deadwood"
        return f"{melds}  deadwood {self.cards(dead)} = {arrangement.deadwood}"


def _can_write_symbols(stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _knock_verdict(dw: int, knock_limit: int) -> str:
    if dw == 0:
        return "gin"
    if dw <= knock_limit:
        return "knock"
    return ""


def _arrangement_lines(cards: Cards, fmt: _Formatter) -> list[str]:
    return [f"  {fmt.arrangement(a)}" for a in best_arrangements(cards)]


def analyze(
    hand: Cards,
    *,
    knock_limit: int = STANDARD_KNOCK_LIMIT,
    knocker: list[Meld] | None = None,
    fmt: _Formatter | None = None,
) -> list[str]:
    """The report ``ginrummy analyze`` prints, as lines."""
    fmt = fmt or _Formatter(plain=False)
    n = len(hand)
    lines = [f"Hand ({n} card{'s' if n != 1 else ''}): {fmt.cards(hand.sorted())}"]
    dw = deadwood(hand)
    arrangements = best_arrangements(hand)
    title = "Best arrangement" if len(arrangements) == 1 else "Best arrangements"
    if n == MAX_CARDS:
        title += " of all 11 cards"
    lines.append(f"{title} ({len(arrangements)}), deadwood {dw}:")
    lines += [f"  {fmt.arrangement(a)}" for a in arrangements]
    kept = hand
    if n == MAX_CARDS:
        lines += _discard_lines(hand, knock_limit, fmt)
        kept = Cards.from_mask(hand.mask & ~best_discards(hand)[0][0].bit)
    else:
        lines.append(f"Deadwood: {dw}")
        if n == HAND_SIZE:
            lines.append(_knock_line(dw, knock_limit))
        else:
            lines.append(f"(Knocking is judged on {HAND_SIZE} cards; this hand has {n}.)")
    if knocker is not None:
        lines.append("")
        lines += _layoff_lines(kept, knocker, fmt, discarded=n == MAX_CARDS)
    return lines


def _knock_line(dw: int, knock_limit: int) -> str:
    if dw == 0:
        return "Gin: no deadwood."
    if dw <= knock_limit:
        return f"May knock: deadwood {dw} is at most the knock limit {knock_limit}."
    if knock_limit == 0:
        return f"May not knock: straight gin (knock limit 0) needs gin; deadwood is {dw}."
    return f"May not knock: deadwood {dw} is over the knock limit {knock_limit}."


def _discard_lines(hand: Cards, knock_limit: int, fmt: _Formatter) -> list[str]:
    discards = best_discards(hand)
    lines: list[str] = []
    if deadwood(hand) == 0:
        lines.append("All 11 cards meld: big gin, where the rules allow it.")
    lines.append(f"Discards, best first (knock limit {knock_limit}):")
    width = max(len(fmt.card(c)) for c, _ in discards)
    for rank, (card, left) in enumerate(discards, 1):
        verdict = _knock_verdict(left, knock_limit)
        text = f"  {rank:2d}. {fmt.card(card):<{width}}  leaves {left:3d}"
        lines.append(f"{text}  {verdict}" if verdict else text)
    best_card, best_left = discards[0]
    gins = [c for c, v in discards if v == 0]
    knocks = [c for c, v in discards if 0 < v <= knock_limit]
    if gins:
        lines.append(f"Gin: discard {' or '.join(fmt.card(c) for c in gins)}.")
    if knocks:
        lines.append(f"May knock, discarding any of {' '.join(fmt.card(c) for c in knocks)}.")
    if not gins and not knocks:
        lines.append(
            f"May not knock: the best discard leaves {best_left}, over the knock limit "
            f"{knock_limit}."
        )
    kept = Cards.from_mask(hand.mask & ~best_card.bit)
    lines.append(f"After discarding {fmt.card(best_card)}:")
    lines += _arrangement_lines(kept, fmt)
    return lines


def _layoff_lines(
    defender: Cards, knocker: list[Meld], fmt: _Formatter, *, discarded: bool
) -> list[str]:
    result = layoff(defender, knocker)
    lines = [f"Knocker's melds: {' '.join(fmt.meld(m) for m in knocker)}"]
    if discarded:
        lines.append(f"Defender (after the best discard): {fmt.cards(defender.sorted())}")
    if result.layoffs:
        lines.append("Defender's layoffs, in order:")
        melds = list(knocker)
        for card, i in result.layoffs:
            lines.append(f"  {fmt.card(card)} onto {fmt.meld(melds[i])}")
            melds[i] = melds[i].with_card(card)
        lines.append(
            f"Knocker's melds after layoffs: {' '.join(fmt.meld(m) for m in result.extended_melds)}"
        )
    else:
        lines.append("Defender's layoffs: none.")
    own = " ".join(fmt.meld(m) for m in result.melds) or "none"
    lines.append(f"Defender's melds: {own}")
    lines.append(f"Defender's deadwood: {fmt.cards(result.arrangement.deadwood_cards)}")
    before = deadwood(defender)
    note = f" (without layoffs {before})" if before != result.deadwood else ""
    lines.append(f"Defender's deadwood count: {result.deadwood}{note}")
    return lines
