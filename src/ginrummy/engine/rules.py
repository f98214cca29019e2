"""Rules: every option of RULES.md in one frozen dataclass, and the named presets.

>>> Rules.preset("classic").gin_bonus
20
>>> Rules().replace(knock_limit=0).preset_name()
'straight'
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Final, Literal, get_args

from .cards import Card
from .errors import GinRummyError, InvalidRulesError, RulesWordError, check_int

DealKind = Literal["standard", "eleven"]
FirstDealer = Literal["cut", "fixed"]
NextDealer = Literal["winner", "alternate", "loser"]
DeadHandDealer = Literal["same", "alternate"]
Shutout = Literal["bonus", "double", "none"]
OklahomaAce = Literal["gin", "one"]


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option. The defaults are RULES.md's standard game.

    ``match_target`` 0 means games are not played as a match. ``knock_limit`` is ignored in
    Oklahoma, where each hand's first upcard sets the limit (see :meth:`knock_limit_for`).
    ``stake`` is the money per point; it accepts a ``Decimal``, an ``int`` or a decimal string.
    """

    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin: bool = False
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    must_gin: bool = False
    deal: DealKind = "standard"
    wall_pickup: bool = False
    oklahoma: bool = False
    oklahoma_ace: OklahomaAce = "gin"
    oklahoma_spade_double: bool = True
    oklahoma_double_boxes: bool = False
    first_dealer: FirstDealer = "cut"
    first_dealer_seat: int = 0
    next_dealer: NextDealer = "winner"
    dead_hand_dealer: DeadHandDealer = "same"
    box_bonus: int = 25
    game_bonus: int = 100
    shutout: Shutout = "bonus"
    shutout_bonus: int = 100
    game_target: int = 100
    match_target: int = 500
    hollywood: bool = False
    stake: Decimal = Decimal(0)

    def __post_init__(self) -> None:
        for name, check in _CHECKS.items():
            value = check(name, getattr(self, name))
            if value is not getattr(self, name):
                object.__setattr__(self, name, value)
        if self.match_target and self.match_target < self.game_target:
            raise InvalidRulesError(
                f"match_target {self.match_target} is below game_target {self.game_target}: "
                "a match must last at least one game (use 0 for no match)"
            )
        if self.oklahoma and self.deal == "eleven":
            raise InvalidRulesError(
                "oklahoma cannot be played with the eleven-card deal: that deal turns no upcard, "
                "and Oklahoma's knock limit comes from the first upcard"
            )

    # -- presets -------------------------------------------------------------------------------

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The names :meth:`preset` knows, the standard game first."""
        return tuple(_PRESETS)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """A named preset, optionally with some options changed."""
        try:
            changes = _PRESETS[name]
        except (KeyError, TypeError):
            raise InvalidRulesError(
                f"unknown preset {name!r}; the presets are: {', '.join(_PRESETS)}"
            ) from None
        return cls().replace(**{**changes, **overrides})

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, or None."""
        for name, rules in _preset_rules().items():
            if self == rules:
                return name
        return None

    def replace(self, **changes: Any) -> Rules:
        """A validated copy with some options changed."""
        unknown = sorted(set(changes) - set(_CHECKS))
        if unknown:
            raise InvalidRulesError(f"unknown rule option(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **changes)

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-safe values (the stake as a string): a new dict each call."""
        # Made once per Rules object (they never change) and copied: a server sends a
        # table's rules with every state.
        made = _DICTS.get(id(self))
        if made is None or made[0] is not self:
            if len(_DICTS) >= _DICTS_KEPT:
                _DICTS.clear()
            data = {name: getattr(self, name) for name in _CHECKS}
            data["stake"] = str(self.stake)
            made = _DICTS[id(self)] = (self, data)
        return dict(made[1])

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from :meth:`to_dict`'s form; missing options take their defaults."""
        if not isinstance(data, Mapping):
            raise InvalidRulesError(f"rules must be a mapping, not {type(data).__name__}")
        return cls().replace(**{str(key): value for key, value in data.items()})

    # -- from words ----------------------------------------------------------------------------

    @classmethod
    def from_words(cls, text: str) -> Rules:
        """Rules as people type them: a preset (optional, first) and ``OPTION=VALUE`` changes.

        Values are read as the option's type: whole numbers, true/false (also yes/no, on/off,
        1/0), the choices' names, the stake as a decimal. Dashes may stand for underscores and
        case does not matter in names. A bad word raises :class:`RulesWordError` naming it.

        >>> Rules.from_words("classic gin_bonus=25 big-gin=yes").big_gin
        True
        >>> Rules.from_words("") == Rules() and Rules.from_words("Oklahoma").oklahoma
        True
        >>> Rules.from_words("oklahoma knock=8")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
          ...
        ginrummy.engine.errors.RulesWordError: unknown rule option 'knock'; the options are: ...
        >>> Rules.from_words("classic knock_limit=11")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
          ...
        ginrummy.engine.errors.RulesWordError: knock_limit must be between 0 and 10, not 11 ...
        """
        words = text.split()
        preset = "standard"
        if words and "=" not in words[0]:
            preset, words = words[0], words[1:]
        for word in words:
            if "=" not in word:
                raise RulesWordError(
                    f"after the preset, give changes as OPTION=VALUE, not {word!r}", word
                )
        return cls.from_changes(preset, words)

    def to_words(self) -> str:
        """These rules as :meth:`from_words` reads them: the nearest preset (fewest options
        changed, the first among equals) and each option it changes.

        >>> Rules.preset("standard", next_dealer="alternate", big_gin=True).to_words()
        'standard big_gin=true next_dealer=alternate'
        >>> r = Rules.preset("oklahoma", stake="0.25")
        >>> Rules.from_words(r.to_words()) == r and Rules.preset("eaai").to_words() == "eaai"
        True
        """
        mine = self.to_dict()
        best: tuple[str, list[str]] | None = None
        for name, rules in _preset_rules().items():
            theirs = rules.to_dict()
            changes = [
                f"{key}={str(value).lower() if isinstance(value, bool) else value}"
                for key, value in mine.items()
                if value != theirs[key]
            ]
            if best is None or len(changes) < len(best[1]):
                best = (name, changes)
        assert best is not None
        return " ".join([best[0], *best[1]])

    @classmethod
    def from_changes(cls, preset: str, changes: Iterable[str]) -> Rules:
        """A preset by name (any case) with ``OPTION=VALUE`` changes given as text, the way a
        command line's options arrive; a later change of an option wins. Every change is read
        before the preset is looked up, so the first bad word is the one reported.

        >>> Rules.from_changes("Classic", ["gin_bonus = 25", "stake=0.10"]).stake
        Decimal('0.10')
        """
        typed: dict[str, Any] = {}
        written: dict[str, str] = {}
        for change in changes:
            name, value = _typed_change(change)
            typed[name], written[name] = value, change
        name = preset.strip().lower()
        if name not in _PRESETS:
            raise RulesWordError(
                f"unknown preset {name!r}; the presets are: {', '.join(_PRESETS)}", preset
            )
        # Check each change as the dataclass would (in field order), to name the word at fault.
        for option, check in _CHECKS.items():
            if option in typed:
                try:
                    check(option, typed[option])
                except InvalidRulesError as exc:
                    raise RulesWordError(str(exc), written[option]) from None
        return cls.preset(name, **typed)

    def label(self, preset: str, *, most: int = 3) -> str:
        """A short name for these rules, for a list's cell: the preset's name, then what they
        change of it (at most ``most`` changes, then how many more), the stake apart (what a
        point is worth is no rule of play).

        >>> Rules.preset("standard", gin_bonus=20, knock_limit=8).label("standard")
        'standard, knock limit 8, gin bonus 20'
        >>> Rules.preset("classic", big_gin=True, stake="0.5").label("classic")
        'classic, big gin'
        >>> Rules.preset("standard", undercut_on_tie=False, knock_limit=5, game_target=50,
        ...     match_target=300, shutout="none").label("standard")
        'standard, knock limit 5, no undercut on tie, shutout none, 2 more'
        """
        base = Rules.preset(preset).to_dict()
        changes = []
        for key, value in self.to_dict().items():
            if key == "stake" or value == base[key]:
                continue
            words = key.replace("_", " ")
            if isinstance(value, bool):
                changes.append(words if value else f"no {words}")
            else:
                changes.append(f"{words} {value}")
        if len(changes) > most:
            changes[most:] = [f"{len(changes) - most} more"]
        return ", ".join([preset, *changes])

    # -- per-hand rules ------------------------------------------------------------------------

    def knock_limit_for(self, upcard: Card | None) -> int:
        """The knock limit of a hand whose first upcard is ``upcard``.

        In Oklahoma that is the upcard's value (face cards 10); an ace means gin only (0),
        or 1 when ``oklahoma_ace`` is ``"one"``. Otherwise it is ``knock_limit``.
        """
        if not self.oklahoma:
            return self.knock_limit
        card = _need_upcard(upcard)
        if card.rank == 0:
            return 1 if self.oklahoma_ace == "one" else 0
        return card.value

    def hand_multiplier(self, upcard: Card | None) -> int:
        """2 for an Oklahoma hand whose first upcard is a spade (when that doubles), else 1."""
        if not (self.oklahoma and self.oklahoma_spade_double):
            return 1
        return 2 if _need_upcard(upcard).suit == 0 else 1

    # -- words ---------------------------------------------------------------------------------

    def describe(self, *, match: bool = True) -> str:
        """A few lines of English that sum the rules up for people; without the match line
        when ``match`` is false (a single game)."""
        return "\n".join(_describe(self, match))


def _need_upcard(upcard: Card | None) -> Card:
    if not isinstance(upcard, Card):
        raise GinRummyError(f"Oklahoma needs the hand's first upcard, not {upcard!r}")
    return upcard


# -- words ---------------------------------------------------------------------------------------

_TRUE: Final = frozenset({"true", "yes", "on", "1", "y"})
_FALSE: Final = frozenset({"false", "no", "off", "0", "n"})


def _typed_change(change: str) -> tuple[str, Any]:
    """``"gin_bonus=20"``: the option's name and the value typed like the option's default."""
    key, sep, text = change.partition("=")
    if not sep or not key.strip():
        raise RulesWordError(
            f"a rule change is OPTION=VALUE, e.g. gin_bonus=20; not {change!r}", change
        )
    name = key.strip().lower().replace("-", "_")
    if name not in _CHECKS:
        raise RulesWordError(
            f"unknown rule option {key.strip()!r}; the options are: {', '.join(sorted(_CHECKS))}",
            change,
        )
    default = getattr(Rules(), name)
    text = text.strip()
    if isinstance(default, bool):
        if text.lower() in _TRUE:
            return name, True
        if text.lower() in _FALSE:
            return name, False
        raise RulesWordError(f"{name} is true or false, not {text!r}", change)
    if isinstance(default, int):
        try:
            return name, int(text)
        except ValueError:
            raise RulesWordError(f"{name} is a whole number, not {text!r}", change) from None
    return name, text


# -- validation ----------------------------------------------------------------------------------


Check = Callable[[str, object], object]


def _int_check(low: int, high: int | None = None, why: str = "") -> Check:
    def check(name: str, value: object) -> int:
        return check_int(value, name, low, high, why, error=InvalidRulesError)

    return check


def _bool_check(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidRulesError(f"{name} must be true or false, not {value!r}")
    return value


def _choice_check(kind: object) -> Check:
    allowed: tuple[str, ...] = get_args(kind)

    def check(name: str, value: object) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise InvalidRulesError(f"{name} must be one of {', '.join(allowed)}; not {value!r}")
        return value

    return check


def _stake_check(name: str, value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, Decimal | int | str):
        raise InvalidRulesError(
            f"{name} must be a Decimal, a whole number or a decimal string, not {value!r}"
        )
    try:
        stake = Decimal(value.strip() if isinstance(value, str) else value)
    except InvalidOperation:
        raise InvalidRulesError(f"{name} is not a decimal number: {value!r}") from None
    if not stake.is_finite() or stake < 0:
        raise InvalidRulesError(f"{name} must be a finite amount of at least 0, not {value!r}")
    return Decimal(0) if stake.is_zero() and stake.is_signed() else stake


#: Rules.to_dict's dicts, by the id of their Rules (kept with it, so the id is not reused).
_DICTS: Final[dict[int, tuple[Rules, dict[str, Any]]]] = {}
_DICTS_KEPT: Final = 4096

_CHECKS: Final[dict[str, Check]] = {
    "knock_limit": _int_check(
        0, 10, " (0 is gin only; 10 is the standard limit and the highest upcard value)"
    ),
    "gin_bonus": _int_check(0),
    "big_gin": _bool_check,
    "big_gin_bonus": _int_check(0),
    "undercut_bonus": _int_check(0),
    "undercut_on_tie": _bool_check,
    "must_gin": _bool_check,
    "deal": _choice_check(DealKind),
    "wall_pickup": _bool_check,
    "oklahoma": _bool_check,
    "oklahoma_ace": _choice_check(OklahomaAce),
    "oklahoma_spade_double": _bool_check,
    "oklahoma_double_boxes": _bool_check,
    "first_dealer": _choice_check(FirstDealer),
    "first_dealer_seat": _int_check(0, 1, " (the seats are 0 and 1)"),
    "next_dealer": _choice_check(NextDealer),
    "dead_hand_dealer": _choice_check(DeadHandDealer),
    "box_bonus": _int_check(0),
    "game_bonus": _int_check(0),
    "shutout": _choice_check(Shutout),
    "shutout_bonus": _int_check(0),
    "game_target": _int_check(1),
    "match_target": _int_check(0),
    "hollywood": _bool_check,
    "stake": _stake_check,
}

#: Each preset's changes from the standard game.
_PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "modern": {
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "box_bonus": 25,
        "game_bonus": 100,
        "shutout": "double",
    },
    "classic": {
        "gin_bonus": 20,
        "undercut_bonus": 10,
        "box_bonus": 20,
        "game_bonus": 100,
        "shutout": "bonus",
        "shutout_bonus": 100,
    },
    "eaai": {
        "game_target": 100,
        "knock_limit": 10,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "undercut_on_tie": True,
        "box_bonus": 0,
        "game_bonus": 0,
        "shutout": "none",
        "dead_hand_dealer": "same",
        "next_dealer": "alternate",
    },
    "oklahoma": {"oklahoma": True, "game_target": 150},
    "straight": {"knock_limit": 0},
    "hollywood": {"hollywood": True},
}


# -- description ---------------------------------------------------------------------------------


def _describe(r: Rules, match: bool = True) -> list[str]:
    hand = []
    if r.knock_limit == 0 and not r.oklahoma:
        hand.append("Gin only (no knocking)")
    elif not r.oklahoma:  # Oklahoma's limit is described on its own line
        hand.append(f"Knock with {r.knock_limit} or less")
    tie = "ties are undercuts" if r.undercut_on_tie else "ties score nothing"
    hand.append(f"gin +{r.gin_bonus}")
    if r.big_gin:
        hand.append(f"big gin +{r.big_gin_bonus}")
    if r.knock_limit or r.oklahoma:  # with no knocking there is no undercut
        hand.append(f"undercut +{r.undercut_bonus} ({tie})")
    if r.must_gin:
        hand.append("gin is compulsory when possible")
    lines = [_capital("; ".join(hand)) + "."]

    game = [
        f"box {r.box_bonus} per hand won" if r.box_bonus else "no box bonus",
        f"game to {r.game_target}",
        f"+{r.game_bonus} game bonus" if r.game_bonus else "no game bonus",
    ]
    game.append(
        {
            "bonus": f"shutout +{r.shutout_bonus}",
            "double": "shutout doubles the winner's score",
            "none": "no shutout bonus",
        }[r.shutout]
    )
    lines.append(_capital("; ".join(game[:1]) + "; " + ", ".join(game[1:]) + "."))
    if r.match_target and match:
        lines.append(f"Match to {r.match_target}.")

    if r.oklahoma:
        ace = "1" if r.oklahoma_ace == "one" else "gin only"
        okla = f"Oklahoma: the first upcard sets the knock limit; ace: {ace}"
        if r.oklahoma_spade_double:
            boxes = ", boxes too" if r.oklahoma_double_boxes else ""
            okla += f"; spade upcard doubles the hand{boxes}"
        lines.append(okla + ".")
    if r.hollywood:
        lines.append("Hollywood: three games are scored at once.")

    play = []
    if r.deal == "eleven":
        play.append("eleven-card deal (non-dealer discards first, no upcard)")
    if r.wall_pickup:
        play.append("the last discard may be taken to knock")
    first = (
        "cut for first deal"
        if r.first_dealer == "cut"
        else f"seat {r.first_dealer_seat} deals first"
    )
    play.append(first)
    play.append(
        {
            "winner": "winner deals next",
            "alternate": "deal alternates",
            "loser": "loser deals next",
        }[r.next_dealer]
    )
    play.append(
        "same dealer after a dead hand"
        if r.dead_hand_dealer == "same"
        else "deal passes after a dead hand"
    )
    lines.append(_capital("; ".join(play)) + ".")
    if r.stake:
        lines.append(f"Stake {r.stake} per point.")
    return lines


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@functools.cache
def _preset_rules() -> dict[str, Rules]:
    """Every preset, built once (Rules are immutable)."""
    return {name: Rules.preset(name) for name in _PRESETS}
