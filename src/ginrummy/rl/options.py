"""The options every environment here takes, checked once and held in one frozen value.

The rules come from a preset (``preset="oklahoma"``), a :class:`~ginrummy.engine.Rules`
(``rules=...``) or the standard game, with any rule option overridden by keyword
(``knock_limit=5``). The rest say what an episode is and how it is rewarded.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final, Literal, get_args

from ..engine import Rules
from ..engine.errors import InvalidRulesError

Mode = Literal["hand", "game", "match"]
Illegal = Literal["raise", "lose", "retry"]

#: A hand that reaches this many actions without ending is truncated (the episode with it):
#: random play never comes near it (the longest of 21,000 random hands had 190 actions), while
#: two policies that only ever take the discard would otherwise play one hand forever.
MAX_HAND_ACTIONS: Final = 256
#: The most deadwood a defender can hold (used to size the default illegal-move penalty).
_MAX_DEADWOOD: Final = 98
_RULE_NAMES: Final = frozenset(f.name for f in fields(Rules))
_MODES: Final[dict[str, Mode]] = {name: name for name in get_args(Mode)}
_ILLEGAL: Final[dict[str, Illegal]] = {name: name for name in get_args(Illegal)}


@dataclass(frozen=True)
class EnvOptions:
    """Everything that decides an episode, its observations and its rewards.

    * ``mode``: ``"hand"`` plays one hand and rewards each seat with the points it scored
      (the loser gets minus the winner's points); ``"game"`` plays one game to
      ``rules.game_target`` with every end-of-game bonus and rewards the winner +1, the loser
      -1 (0 each for a game whose totals are even); ``"match"`` plays games to
      ``rules.match_target`` and rewards the match the same way.
    * ``shaping``: in game and match modes, each hand also pays its winner
      ``shaping * points / game_target`` and its loser the negative (0 turns it off).
    * ``encoding``: the observation encoding's name (see :mod:`ginrummy.rl.encodings`).
    * ``max_cycles``: the episode is truncated after this many steps (None: no limit).
    * ``max_hand_actions``: a hand truncates the episode when it reaches this many actions.
    * ``illegal``: what an action outside the mask does: ``"raise"`` a ``ValueError``
      (nothing changes), ``"lose"`` (the episode ends: the mover gets ``illegal_reward``, the
      other seat its negative) or ``"retry"`` (nothing changes but the mover gets
      ``illegal_reward`` and must act again).
    * ``illegal_reward``: -1 in game and match modes; in hand mode minus the most points one
      hand can score under the rules, so that no illegal move is cheaper than losing the hand.
    """

    rules: Rules
    mode: Mode = "hand"
    encoding: str = "default"
    shaping: float = 0.0
    max_cycles: int | None = None
    max_hand_actions: int = MAX_HAND_ACTIONS
    illegal: Illegal = "raise"
    illegal_reward: float = -1.0

    @property
    def name(self) -> str:
        """The preset's name, or ``custom``."""
        return self.rules.preset_name() or "custom"


def make_options(
    *,
    preset: str | None = None,
    rules: Rules | None = None,
    mode: str = "hand",
    encoding: str = "default",
    shaping: float = 0.0,
    max_cycles: int | None = None,
    max_hand_actions: int = MAX_HAND_ACTIONS,
    illegal: str = "raise",
    illegal_reward: float | None = None,
    **rule_options: Any,
) -> EnvOptions:
    """Check the keyword options of an environment and build its :class:`EnvOptions`.

    Raises ``ValueError`` (``InvalidRulesError`` for the rules) naming what is wrong.
    """
    if preset is not None and rules is not None:
        raise ValueError("give a preset or rules, not both")
    unknown = sorted(set(rule_options) - _RULE_NAMES)
    if unknown:
        raise ValueError(f"unknown option(s): {', '.join(unknown)}")
    base = rules if rules is not None else Rules.preset(preset or "standard")
    if not isinstance(base, Rules):
        raise ValueError(f"rules must be a Rules, not {type(base).__name__}")
    chosen = base.replace(**rule_options) if rule_options else base
    chosen_mode = _MODES.get(mode)
    if chosen_mode is None:
        raise ValueError(f"mode must be one of {', '.join(_MODES)}; not {mode!r}")
    if mode == "match" and not chosen.match_target:
        raise InvalidRulesError("mode 'match' needs rules with a match_target above 0")
    chosen_illegal = _ILLEGAL.get(illegal)
    if chosen_illegal is None:
        raise ValueError(f"illegal must be one of {', '.join(_ILLEGAL)}; not {illegal!r}")
    if shaping and mode == "hand":
        raise ValueError("shaping applies to the game and match modes (a hand's reward is points)")
    if max_cycles is not None and max_cycles < 1:
        raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
    if max_hand_actions < 1:
        raise ValueError(f"max_hand_actions must be at least 1, not {max_hand_actions}")
    from .encoding_registry import encoding_names

    if encoding not in encoding_names():
        raise ValueError(
            f"unknown encoding {encoding!r}; the encodings are: {', '.join(encoding_names())}"
        )
    if illegal_reward is None:
        illegal_reward = -1.0 if mode != "hand" else -float(max_hand_points(chosen))
    return EnvOptions(
        rules=chosen,
        mode=chosen_mode,
        encoding=encoding,
        shaping=float(shaping),
        max_cycles=max_cycles,
        max_hand_actions=max_hand_actions,
        illegal=chosen_illegal,
        illegal_reward=float(illegal_reward),
    )


def max_hand_points(rules: Rules) -> int:
    """The most points one hand can score under ``rules`` (a bound, not always reachable)."""
    bonus = max(rules.gin_bonus, rules.undercut_bonus, rules.big_gin_bonus if rules.big_gin else 0)
    double = 2 if rules.oklahoma and rules.oklahoma_spade_double else 1
    return (_MAX_DEADWOOD + bonus) * double
