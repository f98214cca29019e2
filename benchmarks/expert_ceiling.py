"""What would reading the opponent perfectly be worth? The expert, made to cheat, vs a baseline.

The expert samples worlds (the opponent's hidden cards and the stock order) from its reading of
the public history. Here every sampled world is replaced by the truth, taken from the hand being
played, so the search is exactly the same but its guesses are perfect:

* ``--know hand``: his real hand; the stock is still shuffled at random (perfect card reading);
* ``--know all``: his real hand and the real stock order (perfect knowledge of the future).

The gap between these figures and the fair expert's is what better card reading could gain at
most, with this search. Everything else is ``expert_strength.py``:

    .venv/bin/python benchmarks/expert_ceiling.py --know hand --pairs 40 --seed 500 --workers 2
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import expert_strength
import ginrummy.agents.expert as expert_module
from ginrummy.agents.heuristic import bits
from ginrummy.agents.inference import Beliefs
from ginrummy.engine.hand import Hand

_current: dict[str, Any] = {}
_view = Hand.view


def _watching_view(self: Hand, seat: int, *args: Any, **kwargs: Any) -> Any:
    """``Hand.view`` that remembers which hand and seat the expert is about to decide for."""
    _current["hand"], _current["seat"] = self, seat
    return _view(self, seat, *args, **kwargs)


def _his_hand() -> tuple[Hand, int]:
    hand: Hand = _current["hand"]
    return hand, hand.hand_mask(1 - int(_current["seat"]))


def true_hand(
    b: Beliefs, rng: random.Random, tries: int = 1, sharpness: float = 0.0
) -> tuple[int, list[int]]:
    """His real hand, the stock shuffled."""
    _, opp = _his_hand()
    stock = bits(b.unseen & ~opp)
    rng.shuffle(stock)
    return opp, stock


def true_world(
    b: Beliefs, rng: random.Random, tries: int = 1, sharpness: float = 0.0
) -> tuple[int, list[int]]:
    """His real hand and the real stock order."""
    hand, opp = _his_hand()
    return opp, [card.index for card in hand.stock]


def main(argv: list[str]) -> int:
    if "--know" not in argv:
        print("usage: expert_ceiling.py --know {hand,all} [expert_strength.py options]")
        return 2
    i = argv.index("--know")
    know = argv[i + 1]
    rest = argv[:i] + argv[i + 2 :]
    if know not in ("hand", "all"):
        print(f"--know takes hand or all, not {know!r}")
        return 2
    Hand.view = _watching_view  # type: ignore[method-assign]
    setattr(expert_module, "sample_world", true_hand if know == "hand" else true_world)  # noqa: B010
    print(f"expert knowing {'his hand' if know == 'hand' else 'his hand and the stock'}:")
    return expert_strength.main(rest)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
