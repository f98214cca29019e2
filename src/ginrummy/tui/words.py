"""Sentences about the game, right for any name and for "you": the terminal's move log, its
prompts and its results. A Python twin of the web page's ``words.js`` and ``movelog.js``, so
that the terminal and the browser say the same things ("You take 7♣ from the pile.").

Every function reads the server's ``state`` message (``{"table": ..., "view": ...}``, as
:meth:`ginrummy.web.tables.Table.state_for` makes it), so local play and a joined table are
described by the same code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..engine.cards import Card
from ..engine.scoring import money

State = Mapping[str, Any]

_IRREGULAR = {"go": "goes", "have": "has", "are": "is", "do": "does", "lay": "lays"}
_SIBILANT = re.compile(r"(s|sh|ch|x|z)$")


def pretty(card: str) -> str:
    """``"Th"`` as ``"10♥"``."""
    return Card.parse(card).pretty()


_CODES = re.compile(r"(?<![A-Za-z0-9])((?:[A2-9TJQK][shdc])+)(?![A-Za-z0-9])")


def pretty_text(text: str) -> str:
    """The card codes in a sentence written as cards, a meld's run of codes as its cards:
    ``"breaks up 7c8c9c"`` as ``"breaks up 7♣ 8♣ 9♣"`` (the page's ``prettyText``)."""
    return _CODES.sub(lambda m: pretty_cards(split_cards(m.group(0))), text)


def pretty_cards(cards: Sequence[str]) -> str:
    return " ".join(pretty(c) for c in cards)


def split_cards(text: str | None) -> list[str]:
    """``"As 2s 3s"`` (or a meld ``"As2s3s"``) as ``["As", "2s", "3s"]``."""
    if not text:
        return []
    out: list[str] = []
    for word in text.split():
        out += [word[i : i + 2] for i in range(0, len(word), 2)]
    return out


def sentence(text: str, *, capital: bool = True) -> str:
    """A refusal as the table words it (``"nothing of yours to undo in this hand"``) as a
    sentence: a capital first (unless ``capital`` is false: after "Not done:"), a full stop
    last unless it ends in its own."""
    if capital:
        text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else f"{text}."


def third_person(verb: str) -> str:
    """``"go gin"`` as ``"goes gin"``: the verb for anyone but "you"."""
    head, _, rest = verb.partition(" ")
    out = _IRREGULAR.get(head) or (f"{head}es" if _SIBILANT.search(head) else f"{head}s")
    return f"{out} {rest}" if rest else out


@dataclass(frozen=True)
class Namer:
    """Who is who on this screen: the names by seat, and which seat (if any) is "you"."""

    names: tuple[str, str]
    me: int | None

    @classmethod
    def of(cls, state: State) -> Namer:
        table = state["table"]
        names = table["names"]
        return cls((str(names[0]), str(names[1])), table.get("seat"))

    def you(self, seat: int | None) -> bool:
        return self.me is not None and seat == self.me

    def who(self, seat: int | None) -> str:
        """The subject of a sentence: "You" or the name."""
        if seat is None:
            return "Nobody"
        return "You" if self.you(seat) else self.names[seat]

    def whom(self, seat: int) -> str:
        """The object of a sentence: "you" or the name."""
        return "you" if self.you(seat) else self.names[seat]

    def does(self, seat: int | None, verb: str) -> str:
        return verb if self.you(seat) else third_person(verb)

    def whose(self, seat: int) -> str:
        return "your" if self.you(seat) else f"{self.names[seat]}'s"


def marked_names(table: Mapping[str, Any]) -> list[str]:
    """The two names where both are shown (the sheet, the tally, the headers), the player's
    own marked as the web page marks it: ``["Player 1 (you)", "Computer (simple)"]``."""
    me = table.get("seat")
    names = table["names"]
    return [f"{name} (you)" if seat == me else str(name) for seat, name in enumerate(names)]


def move_line(event: Mapping[str, Any], n: Namer, upcard: str | None = None) -> str:
    """One line of the move log for one event: "You take 7♣ from the pile."."""
    seat = event["seat"]
    who = n.who(seat)

    def does(verb: str) -> str:
        return f"{who} {n.does(seat, verb)}"

    kind, _, rest = str(event["action"]).partition(" ")
    card = event.get("card") or (rest.split()[0] if rest else None)
    if kind == "pass":
        return f"{does('pass')} on the upcard {pretty(upcard)}." if upcard else f"{does('pass')}."
    if kind == "take":
        if card:
            return f"{does('take')} {pretty(card)} from the pile."
        return f"{does('take')} the top discard."
    if kind == "draw":
        if card:
            return f"{does('draw')} {pretty(card)} from the stock."
        return f"{does('draw')} from the stock."
    if kind == "discard" and card:
        return f"{does('discard')} {pretty(card)}."
    if kind == "knock":
        if card:
            return f"{does('knock')}, discarding {pretty(card)} face down."
        return f"{does('knock')}, discarding face down."
    if kind == "gin":
        return f"{does('go')} gin, discarding {pretty(card)}!" if card else f"{does('go')} gin!"
    if kind == "biggin":
        return f"{does('make')} big gin with all eleven cards!"
    if kind == "layoff" and card:
        return f"{does('lay')} off {pretty(card)}."
    if kind == "auto":
        off = event.get("laid_off") or []
        if off:
            return f"{does('lay')} off {pretty_cards(off)}."
        return f"{who} {n.does(seat, 'have')} nothing to lay off."
    if kind == "done":
        return f"{who} {n.does(seat, 'are')} done laying off."
    return f"{who}: {event['action']}."


def deal_line(hand_number: int, dealer: int, upcard: str | None, n: Namer) -> str:
    """The hand's opening line: who deals, and the upcard."""
    up = f"; the upcard is {pretty(upcard)}" if upcard else ""
    return f"Hand {hand_number}: {n.who(dealer)} {n.does(dealer, 'deal')}{up}."


def cut_line(cuts: Sequence[Sequence[str]], first_dealer: int, n: Namer) -> str:
    """How the first dealer was chosen: each cut, seat 0's card first."""
    if not cuts:
        return ""
    parts = [f"{n.who(0)} {n.does(0, 'cut')} {pretty(a)}, {n.whom(1)} {pretty(b)}" for a, b in cuts]
    again = " (equal ranks cut again)" if len(cuts) > 1 else ""
    return (
        f"Cut for the deal: {'; then '.join(parts)}{again}. "
        f"Low card deals: {n.who(first_dealer)} {n.does(first_dealer, 'deal')}."
    )


def result_headline(result: Mapping[str, Any], n: Namer) -> str:
    kind, winner = result["kind"], result.get("winner")
    if kind == "dead":
        return "Dead hand"
    if winner is None:
        return "No score"
    how = {"gin": " with gin", "big_gin": " with big gin", "undercut": " with an undercut"}
    return f"{n.who(winner)} {n.does(winner, 'win')} the hand{how.get(kind, '')}"


def result_words(
    result: Mapping[str, Any],
    n: Namer,
    *,
    layoffs: Sequence[Sequence[str]] = (),
    rules: Mapping[str, Any],
    dealer_next: int,
) -> str:
    """The showdown in a sentence: who knocked with what, the layoffs, who scores what."""
    knocker, winner, kind = result.get("knocker"), result.get("winner"), result["kind"]
    defender = None if knocker is None else 1 - knocker
    kd, dd = result.get("knocker_deadwood", 0), result.get("defender_deadwood", 0)
    off = ""
    if layoffs and defender is not None:
        off = f"{n.does(defender, 'lay')} off {pretty_cards([c for c, *_ in layoffs])} and "
    doubled = " (doubled: the first upcard was a spade)" if result.get("multiplier", 1) > 1 else ""

    def scores(seat: int, points: int) -> str:
        return f"{n.who(seat)} {n.does(seat, 'score')} {points}"

    if kind == "dead" or knocker is None or defender is None:
        return (
            "Dead hand: the stock ran down to two cards with no knock. No score; "
            f"{n.whom(dealer_next)} {n.does(dealer_next, 'deal')} again."
        )
    k, d, points = knocker, defender, int(result["points"])
    w = k if winner is None else int(winner)
    if kind == "gin":
        return (
            f"{n.who(k)} {n.does(k, 'go')} gin! {n.who(d)} {n.does(d, 'have')} {dd} deadwood: "
            f"{scores(w, points)} ({dd} + {rules['gin_bonus']} gin bonus){doubled}."
        )
    if kind == "big_gin":
        return f"{n.who(k)} {n.does(k, 'make')} big gin! {scores(w, points)}{doubled}."
    if kind == "undercut" and kd == dd:
        return (
            f"{n.who(k)} {n.does(k, 'knock')} with {kd}, and {n.whom(d)} {off}"
            f"{n.does(d, 'have')} {dd} too: a tie counts as an undercut! {scores(w, points)} "
            f"(0 + {rules['undercut_bonus']} bonus){doubled}."
        )
    if kind == "undercut":
        return (
            f"{n.who(k)} {n.does(k, 'knock')} with {kd}, but {n.whom(d)} {off}"
            f"{n.does(d, 'have')} only {dd}: undercut! {scores(w, points)} "
            f"({kd - dd} + {rules['undercut_bonus']} bonus){doubled}."
        )
    if winner is None:
        return (
            f"{n.who(k)} {n.does(k, 'knock')} with {kd}; {n.whom(d)} {off}"
            f"{n.does(d, 'tie')} with {dd}: no score."
        )
    return (
        f"{n.who(k)} {n.does(k, 'knock')} with {kd} deadwood; {n.whom(d)} {off}"
        f"{n.does(d, 'have')} {dd}. {scores(w, points)} ({dd} − {kd}){doubled}."
    )


def final_line(final: Mapping[str, Any], n: Namer, what: str, settles: bool = True) -> str:
    """The game's (or match's) end in a sentence: "Ann wins the game by 62", with what the
    loser pays at a stake. A game of a match settles nothing (``settles`` false): the match
    settles the stake once, at its end (as the web page says it)."""
    winner = final.get("winner")
    if winner is None:
        return "The totals are even."
    stake = ""
    if settles and float(final.get("stake") or 0) > 0:
        loser = 1 - winner
        stake = (
            f" At {final['stake']} a point, {n.whom(loser)} {n.does(loser, 'pay')} "
            f"{n.whom(winner)} {money(Decimal(str(final['settlement'])))}."
        )
    return f"{n.who(winner)} {n.does(winner, 'win')} the {what} by {final['net']}.{stake}"


def action_words(text: str) -> str:
    """An action as something one may do: "discard 8♠", "knock, discarding K♦"."""
    kind, _, rest = text.partition(" ")
    card = pretty(rest.split()[0]) if rest else ""
    return {
        "draw": "draw from the stock",
        "take": "take the discard",
        "pass": "pass",
        "discard": f"discard {card}",
        "knock": f"knock, discarding {card}",
        "gin": f"go gin, discarding {card}",
        "biggin": "go big gin",
        "layoff": f"lay off {card}",
        "auto": "make the optimal layoffs",
        "done": "finish laying off",
    }.get(kind, text)


@dataclass(frozen=True)
class LogLine:
    text: str
    #: deal, mine, theirs or result
    kind: str


def log_lines(state: State) -> list[LogLine]:
    """The hand so far in words, newest last (the first hand starts with the cut)."""
    view, table = state.get("view"), state["table"]
    if not view:
        return []
    n = Namer.of(state)
    lines: list[LogLine] = []
    cuts = (table.get("sheet") or {}).get("cuts")
    if table["hand_number"] == 1 and cuts:
        lines.append(LogLine(cut_line(cuts, view["dealer"], n), "deal"))
    lines.append(
        LogLine(deal_line(table["hand_number"], view["dealer"], view["upcard"], n), "deal")
    )
    clocked = set(table.get("clock_moves") or [])
    for i, event in enumerate(view.get("history") or []):
        upcard = view["upcard"] if event["action"] == "pass" and i < 2 else None
        kind = "mine" if n.you(event["seat"]) else "theirs"
        text = move_line(event, n, upcard)
        if event.get("n") in clocked:
            text += f" (Out of time: the clock moved for {n.whom(event['seat'])}.)"
        lines.append(LogLine(text, kind))
    result = view.get("result")
    if result:
        lines.append(LogLine(f"{result_headline(result, n)}.", "result"))
    return lines


def legal(state: State) -> list[str]:
    view = state.get("view") or {}
    return list(view.get("legal_actions") or [])


def _top(view: Mapping[str, Any]) -> str | None:
    pile = split_cards(view.get("discard_pile"))
    return pile[-1] if pile else None


def clock_words(state: State, now: float) -> str:
    """The move clock between people (``now``: ``time.time()``): the seconds the player to
    move has left, or that they wait while that player is away; "" with no clock running.

    >>> table = {"names": ["Ann", "Bob"], "seat": 0, "deadline": 1030.4, "clock_held": None}
    >>> state = {"table": table, "view": {"seat": 0, "current_player": 0, "phase": "draw"}}
    >>> clock_words(state, 1000.0)
    '⏱ 30s to move'
    >>> state["view"]["current_player"] = 1
    >>> table.update(deadline=None, clock_held=25)
    >>> clock_words(state, 1000.0)
    '⏸ 25s: the clock waits while Bob is away'
    """
    view, table = state.get("view") or {}, state["table"]
    turn = view.get("current_player")
    if view.get("phase") == "over" or turn is None:
        return ""
    deadline, held = table.get("deadline"), table.get("clock_held")
    n = Namer.of(state)
    if deadline is not None:
        left = max(0, round(float(deadline) - now))
        return f"⏱ {left}s to move" if n.you(turn) else f"⏱ {n.who(turn)}: {left}s"
    if held is not None:
        return f"⏸ {held}s: the clock waits while {n.whom(turn)} {n.does(turn, 'are')} away"
    return ""


def prompt(state: State) -> str:
    """What the screen asks of you now, or who is to play: the status line of the app and the
    prompt of the plain mode."""
    view, table = state.get("view"), state["table"]
    n = Namer.of(state)
    if table.get("abandoned"):
        return "This game was closed as abandoned."
    if not view:
        return "Waiting for the deal…"
    if view["phase"] == "over":
        if table.get("over"):
            return "The game is over." if not table.get("match_totals") else "The match is over."
        what = "game" if table.get("game_over") else "hand"
        seat = view.get("seat")
        if seat is not None and seat in (table.get("ready") or ()):  # between people
            other = n.who(1 - seat)
            return (
                f"Waiting for {other} to see the result: the next {what} comes when both are ready."
            )
        return "The hand is over: next hand?" if what == "hand" else "Next game?"
    me, turn = view.get("seat"), view.get("current_player")
    if me is None or turn != me:
        if view["phase"] == "layoff":
            return f"{n.who(turn)} {n.does(turn, 'are')} laying off…"
        if table["options"].get("mode") == "computer" and turn == 1:
            return f"{n.who(turn)} is thinking…"
        return f"{n.who(turn)} to play."
    moves = legal(state)
    phase = view["phase"]
    if phase == "first_upcard":
        return f"Take the upcard {pretty(_top(view) or '')} or pass."
    if phase == "draw":
        top = _top(view)
        if "take" in moves and top:
            return f"Draw from the stock or take the top discard {pretty(top)}."
        return "Draw from the stock."
    if phase == "discard":
        text = "Choose a card to discard."
        if any(m.startswith("gin ") or m == "biggin" for m in moves):
            text += " You can go gin!"
        elif any(m.startswith("knock ") for m in moves):
            text += " You can knock."
        return text
    if phase == "layoff":
        if any(m.startswith("layoff ") for m in moves):
            return "Lay off cards onto the knocker's melds, or let the optimal layoffs be made."
        return "Nothing to lay off: you are done."
    if phase == "wall":
        return (
            "The stock is down to two cards: take the last discard only to knock with it, or pass."
        )
    return f"{n.who(turn)} to play."


def deadwood_words(view: Mapping[str, Any], selected: str | None = None) -> str:
    """Your deadwood now, or after the best discard (and after the selected card)."""
    after: dict[str, int] = dict(view.get("discard_deadwood") or {})
    if not after:
        count = (view.get("arrangement") or {}).get("count", 0)
        return f"Deadwood {count}" + (": gin!" if count == 0 else "")
    best = min(after.values())
    cards = " or ".join(pretty(c) for c, d in after.items() if d == best)
    text = f"Deadwood after the best discard ({cards}): {best}"
    if selected is not None and selected in after and after[selected] != best:
        text += f"; after {pretty(selected)}: {after[selected]}"
    return text


def column_scores(table: Mapping[str, Any]) -> list[list[int]] | None:
    """Each score column's totals, seat 0's first, in a game of several columns (Hollywood);
    None in a game of one (its score is the table's ``scores``)."""
    sheet = table.get("sheet") or {}
    games = sheet.get("games")
    if games:
        sheet = games[-1]
    columns = int(sheet.get("columns") or 1)
    if columns < 2:
        return None
    hands = sheet.get("hands") or []
    totals = hands[-1]["totals"] if hands else [[0, 0]] * columns
    return [list(pair) for pair in totals]


def title_line(state: State) -> str:
    """Who plays whom, the score and the rules, in a line."""
    table = state["table"]
    names = marked_names(table)
    scores = table.get("scores") or [0, 0]
    me = table.get("seat")
    order = (0, 1) if me != 1 else (1, 0)
    score = " – ".join(f"{names[s]} {scores[s]}" for s in order)
    columns = column_scores(table)
    if columns is not None:  # Hollywood: each game's column, not their sum
        each = " ".join(f"g{i} {p[order[0]]}–{p[order[1]]}" for i, p in enumerate(columns, 1))
        score = f"{names[order[0]]} – {names[order[1]]}: {each}"
    preset = table.get("preset") or "custom rules"
    parts = [score, f"hand {table['hand_number']}", preset]
    stake = str((table.get("rules") or {}).get("stake") or "0")
    if Decimal(stake):  # the preset is named a stake apart: what a point is worth is said
        parts.append(f"{stake} a point")
    if table.get("match_totals") is not None:
        totals = table["match_totals"]
        parts.append(f"match {totals[order[0]]}–{totals[order[1]]}")
    fair = table.get("fair_play") or {}
    if fair.get("undo_used"):
        parts.append("undo used")
    return " · ".join(parts)


def fit_title(title: str, label: str, width: int) -> str:
    """The title line with the table's label ("game x7Qa9b2C") after it when both fit in
    ``width`` columns; else the title alone (help and the score sheet say the label), cut
    short with "…" when even that is too long."""
    full = f"{title} · {label}"
    if len(full) <= width:
        return full
    return title if len(title) <= width else title[: max(0, width - 1)] + "…"
