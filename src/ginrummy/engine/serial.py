"""JSON-safe forms of the engine's values: arrangements, hand results and events.

Cards, melds and actions travel as their canonical text; everything else as plain numbers and
strings, so a dict from here survives ``json.dumps`` / ``json.loads`` unchanged.
"""

from __future__ import annotations

import json
from typing import Any

from .actions import FACE_DOWN_KNOCK, Action, Event
from .cards import Card, parse_cards
from .errors import InvalidArgumentError, InvalidNotationError, check_seat
from .melds import Arrangement, Meld, arrange
from .results import HandResult, ResultKind


def json_object(text: str, what: str) -> dict[str, Any]:
    """The JSON object ``text`` holds (``what`` it is, for the error); InvalidNotationError
    when it is not JSON or not an object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidNotationError(f"bad {what} JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidNotationError(f"a {what} is a JSON object")
    return data


def arrangement_text(arrangement: Arrangement) -> str:
    """``"As2s3s 7h7d7c | Kd 9h"``: melds, a bar, the deadwood cards."""
    return str(arrangement)


def parse_arrangement(text: str) -> Arrangement:
    melds_text, bar, dead_text = text.partition("|")
    if not bar:
        raise InvalidNotationError(f"an arrangement needs a '|' before its deadwood: {text!r}")
    melds_text, dead_text = melds_text.strip(), dead_text.strip()
    melds = [] if melds_text in ("", "-") else [Meld.parse(w) for w in melds_text.split()]
    dead = (
        parse_cards(dead_text, allow_empty=True)
        if dead_text != "-"
        else parse_cards("", allow_empty=True)
    )
    mask = dead.mask
    for meld in melds:
        mask |= meld.mask
    return arrange(mask, melds)


def result_to_dict(result: HandResult) -> dict[str, Any]:
    return {
        "kind": result.kind.value,
        "knocker": result.knocker,
        "winner": result.winner,
        "points": result.points,
        "knocker_deadwood": result.knocker_deadwood,
        "defender_deadwood": result.defender_deadwood,
        "multiplier": result.multiplier,
        "knocker_arrangement": _opt_text(result.knocker_arrangement),
        "defender_arrangement": _opt_text(result.defender_arrangement),
        "layoffs": [[str(card), str(meld)] for card, meld in result.layoffs],
    }


def result_from_dict(data: dict[str, Any]) -> HandResult:
    try:
        result = HandResult(
            kind=ResultKind(data["kind"]),
            knocker=_opt_seat(data.get("knocker"), "the knocker"),
            winner=_opt_seat(data.get("winner"), "the winner"),
            points=int(data["points"]),
            knocker_deadwood=int(data.get("knocker_deadwood", 0)),
            defender_deadwood=int(data.get("defender_deadwood", 0)),
            multiplier=int(data.get("multiplier", 1)),
            knocker_arrangement=_opt_arrangement(data.get("knocker_arrangement")),
            defender_arrangement=_opt_arrangement(data.get("defender_arrangement")),
            layoffs=tuple((Card.parse(c), Meld.parse(m)) for c, m in data.get("layoffs", ())),
        )
    except InvalidArgumentError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidNotationError(f"bad hand result {data!r}: {exc}") from None
    numbers = (result.points, result.knocker_deadwood, result.defender_deadwood)
    if min(numbers) < 0 or result.multiplier < 1:
        raise InvalidNotationError(f"bad number in hand result {data!r}")
    return result


def event_to_dict(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"n": event.number, "seat": event.seat, "action": str(event.action)}
    if event.card is not None:
        out["card"] = str(event.card)
    if event.laid_off:
        out["laid_off"] = [str(c) for c in event.laid_off]
    return out


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event :func:`event_to_dict` wrote: a knock as those who may not yet see its
    discard are told of it (``"knock"`` alone, :data:`~.actions.FACE_DOWN_KNOCK`) too."""
    try:
        card = data.get("card")
        text = data["action"]
        return Event(
            int(data["n"]),
            int(data["seat"]),
            FACE_DOWN_KNOCK if text == str(FACE_DOWN_KNOCK) else Action.parse(text),
            None if card is None else Card.parse(card),
            tuple(Card.parse(c) for c in data.get("laid_off", ())),
        )
    except (KeyError, TypeError) as exc:
        raise InvalidNotationError(f"bad event: {exc}") from None


def _opt_text(arrangement: Arrangement | None) -> str | None:
    return None if arrangement is None else arrangement_text(arrangement)


def _opt_arrangement(text: str | None) -> Arrangement | None:
    return None if text is None else parse_arrangement(text)


def _opt_seat(value: object, what: str) -> int | None:
    return None if value is None else check_seat(value, what)
