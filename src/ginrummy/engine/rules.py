"""Rules: every option of RULES.md in one frozen dataclass, and the named presets."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

DealKind = Literal["standard", "eleven"]
FirstDealer = Literal["cut", "fixed"]
NextDealer = Literal["winner", "alternate", "loser"]
DeadHandDealer = Literal["same", "alternate"]
Shutout = Literal["bonus", "double", "none"]
OklahomaAce = Literal["gin", "one"]


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option. The defaults are RULES.md's standard game."""

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
