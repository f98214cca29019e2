"""The table's parts, each drawn from the state message alone: the opponent's cards, the stock
and the pile, the melds on the table or the showdown, and your hand. Nothing here knows the
game; it draws what the seat was told, so the computer's hidden cards and the stock's order
cannot be shown (they are not in the message).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from ..engine import Card
from .cards import EDGE, Drawing, Joined, draw_groups
from .sheet import final_sentences
from .words import (
    Namer,
    State,
    pretty,
    pretty_cards,
    result_headline,
    result_words,
    split_cards,
)

Groups = list[list[str | None]]


def _arranged(arrangement: Mapping[str, Any] | None) -> Groups:
    if not arrangement:
        return []
    groups: Groups = [list(m) for m in arrangement.get("melds") or []]
    dead = list(arrangement.get("deadwood") or [])
    if dead:
        groups.append(list(dead))
    return groups


def showdown_side(view: Mapping[str, Any], seat: int) -> Mapping[str, Any] | None:
    """``seat``'s arrangement as laid down at the showdown (None when the hand was dead)."""
    result = view.get("result")
    shown = view.get("showdown") or []
    if not result or result.get("knocker") is None or len(shown) < 2:
        return None
    side: Mapping[str, Any] | None = shown[0] if seat == result["knocker"] else shown[1]
    return side


def knocker_melds(
    view: Mapping[str, Any], melds: Sequence[Sequence[str]] = ()
) -> list[tuple[list[str], list[str]]]:
    """The knocker's melds, each with the cards the defender laid off on it (the table's
    melds have them inside, the knocker's arrangement not at all): ``(meld, laid off)``."""
    off = {str(c) for c, *_ in view.get("layoffs") or []}
    found = [split_cards(m) for m in view.get("table_melds") or []] or [list(m) for m in melds]
    return [([c for c in m if c not in off], [c for c in m if c in off]) for m in found]


def knocker_groups(view: Mapping[str, Any], melds: Sequence[Sequence[str]] = ()) -> Groups:
    """The knocker's melds as groups of cards, the cards laid off on each after a "+"."""
    groups: Groups = []
    for meld, laid in knocker_melds(view, melds):
        groups.append(list(meld))
        if laid:
            groups.append(Joined(laid))
    return groups


def showdown_groups(view: Mapping[str, Any], seat: int) -> Groups | None:
    """``seat``'s cards as laid down at the showdown: the knocker's with the cards laid off
    on its melds (as the page shows them), deadwood last; None when the hand was dead."""
    side = showdown_side(view, seat)
    if side is None:
        return None
    if seat != (view.get("result") or {}).get("knocker"):
        return _arranged(side)
    groups = knocker_groups(view, side.get("melds") or [])
    dead = list(side.get("deadwood") or [])
    return [*groups, dead] if dead else groups


def laid_off_note(state: State, seat: int) -> str:
    """After the knocker's label at the showdown: whose cards its melds' "+" marks."""
    view = state.get("view") or {}
    result = view.get("result") or {}
    if view.get("phase") != "over" or result.get("knocker") != seat or not view.get("layoffs"):
        return ""
    return f" · + laid off by {Namer.of(state).whom(1 - seat)}"


def laid_out(view: Mapping[str, Any], seat: int | None) -> bool:
    """Whether ``seat`` knocked and its cards lie face up on the table while the other lays
    off: drawn there (:func:`knock_area`), and not also as a hand (as the page does)."""
    return seat is not None and view.get("phase") == "layoff" and view.get("knocker") == seat


def hand_groups(view: Mapping[str, Any]) -> Groups:
    """Your cards as the screen shows them: in melds, deadwood last (at the showdown, as you
    laid them down)."""
    me = view.get("seat")
    if view.get("phase") == "over" and me is not None:
        shown = showdown_groups(view, me)
        if shown is not None:
            return shown
    groups = _arranged(view.get("arrangement"))
    if groups:
        return groups
    cards = split_cards(view.get("hand"))
    return [list(cards)] if cards else []


def hand_order(view: Mapping[str, Any]) -> list[str]:
    """Your cards in the order shown (not the other's laid off on your melds)."""
    groups = (g for g in hand_groups(view) if not isinstance(g, Joined))
    return [c for group in groups for c in group if c is not None]


def just_drawn(view: Mapping[str, Any]) -> str | None:
    """The card you just drew or took: marked until you discard."""
    history = view.get("history") or []
    if not history or view.get("phase") != "discard":
        return None
    last = history[-1]
    if last["seat"] != view.get("seat") or last["action"] not in ("draw", "take"):
        return None
    card = last.get("card")
    return str(card) if card else None


def drawn_words(view: Mapping[str, Any]) -> str | None:
    """The card you just drew or took, in words, until you discard: "just drew 7♣" from the
    stock (your own view: nobody else is shown it), "took 7♣ from the pile: it cannot be
    discarded this turn" from the pile."""
    card = just_drawn(view)
    if card is None:
        return None
    if view["history"][-1]["action"] == "draw":
        return f"just drew {pretty(card)}"
    if card == view.get("taken_card"):
        return f"took {pretty(card)} from the pile: it cannot be discarded this turn"
    return f"took {pretty(card)} from the pile"


def opponent_groups(view: Mapping[str, Any]) -> Groups:
    """The other seat's cards: face down but for those it took from the pile (public), and
    all of them, as laid down, once the hand is over."""
    me = view.get("seat")
    other = 1 - me if me is not None else 1
    if view.get("phase") == "over":
        shown = showdown_groups(view, other)
        if shown is not None:
            return shown
        cards = split_cards(view.get("opponent_hand"))
        if cards:
            return [list(cards)]
    if laid_out(view, other):
        return []
    known = split_cards(view.get("opponent_known"))
    count = int(view.get("opponent_count") or 0)
    backs: list[str | None] = [None] * max(0, count - len(known))
    face_up: list[str | None] = list(known)
    return [backs, face_up]


def opponent_label(state: State) -> Text:
    table, view = state["table"], state.get("view") or {}
    me = table.get("seat")
    other = 1 - me if me is not None else 1
    name = str(table["names"][other])
    text = Text(name, style="bold")
    if view:
        count = int(view.get("opponent_count") or 0)
        if view.get("phase") == "over":
            text.append(" · cards shown" + laid_off_note(state, other))
        elif laid_out(view, other):
            text.append(" · cards on the table")
        else:
            text.append(f" · {count} cards")
            known = split_cards(view.get("opponent_known"))
            if known:
                text.append(f" · took {pretty_cards(known)}")
        if view.get("dealer") == other:
            text.append(" · dealer")
    connected = table.get("connected") or [True, True]
    if not connected[other]:
        text.append(" · not connected", style="bold yellow")
    return text


def my_label(state: State, selected: str | None) -> Text:
    table, view = state["table"], state.get("view") or {}
    me = table.get("seat")
    text = Text(f"You ({table['names'][me]})" if me is not None else "", style="bold")
    if view and view.get("dealer") == me:
        text.append(" · dealer")
    if me is not None:
        text.append(laid_off_note(state, me))
        if view and laid_out(view, me):
            text.append(" · cards on the table")
    drawn = drawn_words(view) if view else None
    if drawn:
        text.append(f" · {drawn}")
    taken = view.get("taken_card") if view else None
    if taken and view.get("phase") == "discard" and taken != just_drawn(view):
        text.append(f" · {pretty(taken)} cannot be discarded this turn")
    if selected:
        text.append(f" · chosen {pretty(selected)}", style="bold")
    return text


def piles(view: Mapping[str, Any], width: int) -> Drawing:
    """The stock (face down, with its count) and the pile's top card, the discards beside."""
    pile = split_cards(view.get("discard_pile"))
    drawing = draw_groups([[None]])
    stock_end = drawing.width
    drawing.spans.append((0, stock_end, "stock", 0))
    drawing.gap()
    if pile:
        start = drawing.width
        draw_groups([[pile[-1]]], drawing=drawing)
        drawing.spans = [s for s in drawing.spans if s[2] != pile[-1]]
        drawing.spans.append((start, drawing.width, "pile", 0))
    else:
        for line, part in zip(drawing.lines, ("╭┄┄┄╮", "┆   ┆", "╰┄┄┄╯"), strict=True):
            line.append(part, EDGE)
    room = max(0, width - drawing.width - 2)
    limit = view.get("knock_limit")
    notes = [
        f"Stock {view.get('stock_count', 0)}",
        "Discards " + _fit(pile[:-1], max(0, room - 9)) if len(pile) > 1 else "Pile",
        "Gin only" if limit == 0 else f"Knock limit {limit}",
    ]
    if int(view.get("multiplier") or 1) > 1:
        notes[2] += " · doubled"
    for line, note in zip(drawing.lines, notes, strict=True):
        line.append("  " + note[:room], "")
    return drawing


def _fit(cards: Sequence[str], room: int) -> str:
    """The newest discards that fit in ``room`` columns (older ones as "…")."""
    shown: list[str] = []
    used = 0
    for card in reversed(cards):
        text = pretty(card)
        if used + len(text) + 1 > room - 2:
            return "… " + " ".join(reversed(shown))
        shown.append(text)
        used += len(text) + 1
    return " ".join(reversed(shown))


def knock_area(state: State, width: int | None = None) -> tuple[Text, Drawing] | None:
    """While the defender lays off: the knocker's melds, deadwood and the cards laid off (in
    rows that fit ``width`` columns, if given)."""
    view = state.get("view") or {}
    knocker = view.get("knocker")
    if knocker is None or view.get("phase") == "over" or not view.get("table_melds"):
        return None
    n = Namer.of(state)
    dead = split_cards(view.get("knocker_deadwood"))
    # the knock's deadwood counted, as the page does: the defender needs it to lay off and to
    # see an undercut coming ("knocks with 8": short, to fit the felt at 80 columns)
    what = f" with {sum(Card.parse(c).value for c in dead)}" if dead else ""
    title = Text(
        f"{n.who(knocker)} {n.does(knocker, 'knock')}{what or ': melds on the table'}", "bold"
    )
    groups = knocker_groups(view)  # the cards laid off so far after a "+" on their melds
    groups.append(list(dead))
    laid = [c for c, *_ in view.get("layoffs") or []]
    if laid:
        title.append(f" · laid off {pretty_cards(laid)}", style="")
    return title, draw_groups(groups, width=width)


def result_text(state: State) -> Text | None:
    """At the showdown: the headline, the result in words and, once the game is over, who won."""
    view, table = state.get("view") or {}, state["table"]
    result = view.get("result")
    if not result:
        return None
    n = Namer.of(state)
    text = Text()
    text.append(result_headline(result, n), style="bold")
    words = result_words(
        result,
        n,
        layoffs=view.get("layoffs") or [],
        rules=table["rules"],
        dealer_next=table["dealer_next"],
    )
    text.append("\n" + words)
    for line in final_sentences(table, n):  # the game's, then the match's once it is over
        text.append("\n" + line, style="bold")
    return text
