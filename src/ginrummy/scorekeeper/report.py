"""What the scorekeeper says about a game, in lines of plain English for any view to print:
the sheet's title, the boxes so far, the rulings, the running totals or the settlement, and the
match's standing. The sheets themselves come from the engine (``Keeper.sheet``)."""

from __future__ import annotations

from decimal import Decimal

from ..engine.scoring import money
from ..engine.sheet import ScoreSheet
from .keeper import Keeper, Ruled


def sheet_title(keeper: Keeper, number: int) -> str:
    """``"Ann v Bob, game to 100"``; in a match ``"Game 2 of the match: Ann v Bob, ..."``."""
    names = keeper.names
    title = f"{names[0]} v {names[1]}"
    if keeper.match is not None:
        title = f"Game {number} of the match: {title}"
    hollywood = " (Hollywood: three games at once)" if keeper.rules.hollywood else ""
    return f"{title}, game to {keeper.rules.game_target}{hollywood}"


def boxes_so_far(sheet: ScoreSheet) -> list[tuple[int, int]]:
    """Hands won so far in each column, per seat."""
    wins = [[0, 0] for _ in range(sheet.column_count)]
    for line in sheet.lines:
        if line.winner is not None:
            for column in line.columns:
                wins[column - 1][line.winner] += 1
    return [(a, b) for a, b in wins]


def upcard_line(keeper: Keeper, number: int) -> str | None:
    """``"Upcards: hand 1 4s, hand 2 Kd"`` for an Oklahoma game's hands; None for others."""
    upcards = keeper.hand_upcards(number)
    if not keeper.rules.oklahoma or not upcards:
        return None
    return "Upcards: " + ", ".join(f"hand {h} {card}" for h, card in sorted(upcards.items()))


def game_rulings(keeper: Keeper, number: int) -> list[Ruled]:
    """The irregularities ruled on in game ``number``."""
    return [r for r in keeper.rulings if r.game == number]


def ruling_lines(keeper: Keeper, number: int) -> list[str]:
    """``"Hand 3: <the ruling, with the players' names>"`` for each ruling in game ``number``."""
    return [
        f"Hand {r.hand}: {keeper.with_names(r.explanation)}" for r in game_rulings(keeper, number)
    ]


def settlement_text(names: tuple[str, str], winner: int | None, net: int, stake: Decimal) -> str:
    """Who is up by how much and, at a stake, who pays whom.

    >>> settlement_text(("Ann", "Bob"), 1, 533, Decimal("0.5"))
    'Net: Bob +533. At 0.5 a point, Ann pays Bob 266.50.'
    """
    if winner is None:
        return "Net: even, nobody pays."
    text = f"Net: {names[winner]} +{net}."
    if stake:
        paid = money(net * stake)
        text += f" At {stake} a point, {names[1 - winner]} pays {names[winner]} {paid}."
    return text


def final_lines(keeper: Keeper, sheet: ScoreSheet) -> list[str]:
    """The net and, for a single game, the settlement; in progress, who needs what."""
    final = sheet.final
    if final is None:
        totals = sheet.lines[-1].totals if sheet.lines else ((0, 0),) * sheet.column_count
        text = ", ".join(f"{keeper.names[s]} {totals[0][s]}" for s in (0, 1))
        if sheet.column_count > 1:
            text = "; ".join(
                f"game {c + 1}: " + ", ".join(f"{keeper.names[s]} {t[s]}" for s in (0, 1))
                for c, t in enumerate(totals)
            )
        return [f"Running totals: {text} (first to {sheet.game_target})."]
    stake = final.stake if sheet.settles else Decimal(0)
    return [settlement_text(keeper.names, final.winner, final.net, stake)]


def match_lines(keeper: Keeper) -> list[str]:
    """Each game of a match and the match points after it, then the standing or the result
    and its settlement; nothing for a single game."""
    sheet = keeper.match_sheet()
    if sheet is None:
        return []
    names = keeper.names
    out = []
    for line in sheet.lines:
        who = "even" if line.winner is None else f"{names[line.winner]} +{line.net}"
        out.append(
            f"Game {line.number}: {who}; match points {names[0]} {line.totals[0]}, "
            f"{names[1]} {line.totals[1]}"
        )
    if sheet.final is None:
        zero, one = keeper.match_totals()
        out.append(
            f"Match to {sheet.match_target}: {names[0]} {zero}, {names[1]} {one} after "
            f"{len(sheet.lines)} game{'s' if len(sheet.lines) != 1 else ''}."
        )
    else:
        final = sheet.final
        out.append(f"{names[final.winner]} wins the match by {final.net}.")
        if final.stake:
            out.append(
                f"At {final.stake} a point, {names[final.loser]} pays {names[final.winner]} "
                f"{final.settlement}."
            )
    return out
