"""The review of a finished hand weighs each move as the hints did while it was played: under
Hollywood scoring, by the game's score columns as they stood before the hand; in a match, by
the game's net."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ginrummy.agents import get_agent
from ginrummy.agents import review as review_module
from ginrummy.engine import Hand, HandResult, PlayerView, ResultKind, Rules, parse_cards
from ginrummy.engine.scoring import Tally
from ginrummy.web import thinking
from ginrummy.web.dealing import shuffle

HOLLYWOOD = Rules.preset("hollywood")


def _win(winner: int, points: int) -> HandResult:
    return HandResult(ResultKind.KNOCK, winner, winner, points)


def _played(seed: int, rules: Rules = HOLLYWOOD) -> tuple[str, list[str]]:
    """A hand dealt from a shuffled deck and played out by ``simple`` in both seats."""
    deal = shuffle(random.Random(seed))
    hand = Hand.from_deck(rules, 0, deal.deck)
    simple, rng = get_agent("simple"), random.Random(seed)
    while (seat := hand.current_player) is not None:
        hand.apply(simple.act(hand.view(seat), rng))
    return deal.deck_text, hand.action_texts


def test_a_hollywood_review_weighs_the_hand_by_the_games_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seat 0 has won twice (her wins now count in all three columns), seat 1 never.
    tally = Tally.start(HOLLYWOOD).add(_win(0, 10)).add(_win(0, 10))
    assert tally.targets(0) == (0, 1, 2)
    deck, actions = _played(5)
    seen: list[PlayerView] = []
    real_hint = review_module.hint

    def spy(view: PlayerView, **kwargs: Any) -> Any:
        seen.append(view)
        return real_hint(view, **kwargs)

    def review(**kwargs: Any) -> list[review_module.Mistake]:
        """Seat 1's review of the hand at the tally's score."""
        return review_module.review_hand(
            HOLLYWOOD, 0, parse_cards(deck), actions, seat=1, scores=tally.totals, **kwargs
        )

    monkeypatch.setattr(review_module, "hint", spy)
    found = review(columns=tally.columns, worlds=8)
    assert seen and all(v.columns == tally.columns and v.scores == tally.totals for v in seen)
    assert all(m.unit == "points" for m in found)
    monkeypatch.undo()

    # The worker's job reads the columns as the server sends them; a payload without them
    # (an older server's) reviews with none.
    payload: dict[str, Any] = {
        "rules": HOLLYWOOD.to_dict(),
        "dealer": 0,
        "deck": deck,
        "actions": actions,
        "seat": 1,
        "scores": list(tally.totals),
        "columns": [c.to_dict() for c in tally.columns],
        "seed": 3,
    }
    by_columns = review(columns=tally.columns, seed=3)
    assert thinking.review(payload) == [m.to_dict() for m in by_columns]
    del payload["columns"]
    assert thinking.review(payload) == [m.to_dict() for m in review(seed=3)]


def test_a_review_in_a_match_weighs_the_games_net() -> None:
    standard = Rules.preset("standard")
    deck, actions = _played(11, standard)

    def review(**kwargs: Any) -> list[review_module.Mistake]:
        return review_module.review_hand(
            standard, 0, parse_cards(deck), actions, seat=1, scores=(40, 75), seed=2, **kwargs
        )

    alone, in_match = review(worlds=8), review(match_points=(130, 0), worlds=8)
    assert alone and in_match
    assert {m.unit for m in alone} == {"%"} and {m.unit for m in in_match} == {"points"}
    # The worker's job reads the match points as the server sends them.
    payload: dict[str, Any] = {
        "rules": standard.to_dict(),
        "dealer": 0,
        "deck": deck,
        "actions": actions,
        "seat": 1,
        "scores": [40, 75],
        "columns": [],
        "match_points": [130, 0],
        "seed": 2,
    }
    assert thinking.review(payload) == [m.to_dict() for m in review(match_points=(130, 0))]
    payload["match_points"] = None
    assert thinking.review(payload) == [m.to_dict() for m in review()]
