"""The sparring partners ``gin-hunter`` and ``camper`` do what their descriptions say."""

from __future__ import annotations

import random
from dataclasses import replace

from ginrummy.agents import get_agent
from ginrummy.agents.panel import fewest_layoffs, layoff_spots, own_turns
from ginrummy.engine import Action, ActionKind, Card, Cards, Event, PlayerView, parse_cards
from ginrummy.engine.actions import DISCARDS, DRAW
from ginrummy.engine.melds import Meld
from test_agents import discard_view


def _turns(before: int) -> list[Event]:
    """Seat 0's ``before`` earlier turns (a stock draw and its discard) and seat 1's between
    (a stock draw unseen, a discard), with cards no test's hand holds."""
    ours = iter(parse_cards("Td Jd Qd Kd 3d 4c 5c 6c 2c 8h 4d 5s 3c"))
    theirs = iter(parse_cards("Ks Qs Js Ts 4h 5h 6h 8s Qh 2d 9s Ac 6d"))
    events: list[Event] = []
    for _ in range(before):
        card = next(ours)
        events.append(Event(len(events) + 1, 0, DRAW, card))
        events.append(Event(len(events) + 1, 0, DISCARDS[card.index], card))
        card = next(theirs)
        events.append(Event(len(events) + 1, 1, DRAW))
        events.append(Event(len(events) + 1, 1, DISCARDS[card.index], card))
    return events


def view(hand: str, *, turns_before: int = 0, known: str = "", limit: int = 10) -> PlayerView:
    """Seat 0 to discard from ``hand`` (11 cards, its last card just drawn from the stock)
    after ``turns_before`` turns of its own; the opponent is known to hold ``known``."""
    drawn = str(list(parse_cards(hand))[-1])
    v = discard_view(hand, drawn=drawn, history=_turns(turns_before), knock_limit=limit)
    return replace(v, opponent_known=parse_cards(known) if known else Cards())


def chosen(agent: str, v: PlayerView, tries: int = 20) -> set[str]:
    player = get_agent(agent)
    return {str(player.act(v, random.Random(seed))) for seed in range(tries)}


KNOCKABLE = "As 2s 3s 7h 7d 7c 9c Tc Jc 4d Kh"  # discard Kh: 4 deadwood


def test_gin_hunter_knocks_in_its_first_three_turns_only() -> None:
    for before in (0, 1, 2):
        v = view(KNOCKABLE, turns_before=before)
        assert own_turns(v) == before + 1
        assert {Action.parse(a).kind for a in chosen("gin-hunter", v)} == {ActionKind.KNOCK}
    later = view(KNOCKABLE, turns_before=3)
    assert chosen("gin-hunter", later) == {"discard Kh"}
    assert {Action.parse(a).kind for a in chosen("simple", later)} == {ActionKind.KNOCK}


def test_gin_hunter_goes_gin_whenever_it_can() -> None:
    v = view("As 2s 3s 7h 7d 7c 9c Tc Jc Qc Kh", turns_before=8)
    assert chosen("gin-hunter", v) == {"gin Kh"}


def test_camper_knocks_with_five_or_less() -> None:
    five = view("As 2s 3s 7h 7d 7c 9c Tc Jc 5d Kh")  # discard Kh: 5 deadwood
    six = view("As 2s 3s 7h 7d 7c 9c Tc Jc 6d Kh")  # discard Kh: 6 deadwood
    assert {Action.parse(a).kind for a in chosen("camper", five)} == {ActionKind.KNOCK}
    assert chosen("camper", six) == {"discard Kh"}
    assert {Action.parse(a).kind for a in chosen("simple", six)} == {ActionKind.KNOCK}


def test_layoff_spots_are_the_fourth_of_a_set_and_the_ends_of_a_run() -> None:
    spots = layoff_spots(
        tuple(Meld.parse(w) for w in ["2h2d2c", "Ah2h3h", "5s6s7s8s9s", "7h7d7c7s", "JcQcKc"])
    )
    assert spots == parse_cards("2s 4h 4s Ts Tc").mask


# Ah 2h 3h 2d 2c: the run Ah2h3h (2d 2c dead) or the set 2h2d2c (Ah 3h dead), 4 either way.
AMBIGUOUS = "Ah 2h 3h 2d 2c 5s 6s 7s 8s 9s Kh"


def test_gin_hunter_knocks_with_the_arrangement_that_leaves_fewest_layoffs() -> None:
    # He holds 2s: the set 2h2d2c would take it; the run Ah2h3h only 4h, which may be anywhere.
    melds = _knock_melds(view(AMBIGUOUS, known="2s"))
    assert "Ah2h3h" in melds and "5s6s7s8s9s" in melds
    # He holds 4h: now the run is the exposed one.
    melds = _knock_melds(view(AMBIGUOUS, known="4h"))
    assert "2h2d2c" in melds or "2c2d2h" in melds


def _knock_melds(v: PlayerView) -> set[str]:
    out: set[str] = set()
    for seed in range(10):
        action = get_agent("gin-hunter").act(v, random.Random(seed))
        assert action.kind is ActionKind.KNOCK and action.card == Card.parse("Kh")
        assert action.melds is not None
        out |= {str(m) for m in action.melds}
    rest = v.hand.mask & ~Card.parse("Kh").bit
    assert {str(m) for m in fewest_layoffs(v, rest).melds} == out
    return out


def test_gin_hunter_discards_away_from_the_cards_he_collects() -> None:
    # Deadwood 9h and 8d: the least deadwood sheds 9h, but he holds 9c (taken from the pile).
    hand = "As 2s 3s 7h 7d 7c Jc Qc Kc 8d 9h"
    assert chosen("simple", view(hand, turns_before=4, known="9c", limit=5)) == {"discard 9h"}
    assert chosen("gin-hunter", view(hand, turns_before=4, known="9c", limit=5)) == {"discard 8d"}
    assert chosen("gin-hunter", view(hand, turns_before=4, limit=5)) == {"discard 9h"}
