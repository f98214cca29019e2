"""What would reading the opponent perfectly be worth? The expert, made to cheat, vs a baseline.

The expert samples worlds (the opponent's hidden cards and the stock order) from its reading of
the public history. Here every sampled world is replaced by the truth, taken from the hand being
played, so the search is exactly the same but its guesses are perfect:

* ``--know hand``: his real hand; the stock is still shuffled at random (perfect card reading);
* ``--know all``: his real hand and the real stock order (perfect knowledge of the future).

``--when`` limits the cheating to one kind of decision, the rest sampled fairly: ``knock`` (the
turns where a knock is among the moves weighed), ``draw`` (take or draw), ``discard`` (discards
with no knock among them); ``always`` (the default) cheats at every decision.

The gap between these figures and the fair expert's is what better card reading could gain at
most, with this search. Everything else is ``expert_strength.py``:

    .venv/bin/python benchmarks/expert_ceiling.py --know hand --pairs 40 --seed 500 --workers 2
    .venv/bin/python benchmarks/expert_ceiling.py --know hand --when knock --pairs 40 --seed 500
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import expert_strength
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import Beliefs, Guesser
from ginrummy.engine.hand import Hand
from ginrummy.engine.masks import bits

_current: dict[str, Any] = {"cheat": True}
_view = Hand.view
_monte_carlo = ExpertAgent._monte_carlo
_guesser = Settings.guesser
WHEN: dict[str, Callable[[set[str]], bool]] = {
    "always": lambda kinds: True,
    "knock": lambda kinds: "knock" in kinds,
    "draw": lambda kinds: bool(kinds & {"take", "draw", "pass"}),
    "discard": lambda kinds: "discard" in kinds and "knock" not in kinds,
}


def _watching_view(self: Hand, seat: int, *args: Any, **kwargs: Any) -> Any:
    """``Hand.view`` that remembers which hand and seat the expert is about to decide for."""
    _current["hand"], _current["seat"] = self, seat
    return _view(self, seat, *args, **kwargs)


def _deciding(when: str) -> Any:
    """``ExpertAgent._monte_carlo`` that first notes whether this decision is one to cheat at."""
    chosen = WHEN[when]

    def monte_carlo(
        self: ExpertAgent, view: Any, b: Any, cands: Any, *args: Any, **kwargs: Any
    ) -> Any:
        _current["cheat"] = chosen({c.kind for c in cands if c.searched})
        return _monte_carlo(self, view, b, cands, *args, **kwargs)

    return monte_carlo


class TrueGuesser:
    """The search's :class:`Guesser`, but at a decision to cheat at his real hand, with the
    real stock order when ``_current["know"]`` is ``all`` (shuffled otherwise)."""

    def __init__(self, fair: Guesser, b: Beliefs, rng: random.Random) -> None:
        self.fair = fair
        self.b = b
        self.rng = rng
        self.chains = fair.chains

    def world(
        self, tries: int, sharpness: float, steps: int, fresh: bool = False
    ) -> tuple[int, list[int]]:
        if not _current["cheat"]:
            return self.fair.world(tries, sharpness, steps, fresh)
        hand: Hand = _current["hand"]
        opp = hand.hand_mask(1 - int(_current["seat"]))
        if _current["know"] == "all":
            return opp, [card.index for card in hand.stock]
        stock = bits(self.b.unseen & ~opp)
        self.rng.shuffle(stock)
        return opp, stock


def _true_guesser(self: Settings, b: Beliefs, rng: random.Random) -> Any:
    """``Settings.guesser``, cheating where the decision is one to cheat at."""
    return TrueGuesser(_guesser(self, b, rng), b, rng)


def _option(argv: list[str], name: str, default: str | None) -> tuple[str | None, list[str]]:
    if name not in argv:
        return default, argv
    i = argv.index(name)
    return (argv[i + 1] if i + 1 < len(argv) else None), argv[:i] + argv[i + 2 :]


def main(argv: list[str]) -> int:
    know, argv = _option(argv, "--know", None)
    when, argv = _option(argv, "--when", "always")
    if know not in ("hand", "all") or when not in WHEN:
        print(
            "usage: expert_ceiling.py --know {hand,all} [--when {always,knock,draw,discard}]"
            " [expert_strength.py options]"
        )
        return 2
    rest = argv
    Hand.view = _watching_view  # type: ignore[method-assign]
    ExpertAgent._monte_carlo = _deciding(when)  # type: ignore[method-assign]
    _current["know"] = know
    Settings.guesser = _true_guesser  # type: ignore[method-assign]
    what = "his hand" if know == "hand" else "his hand and the stock"
    print(f"expert knowing {what} ({when}):")
    return expert_strength.main(rest)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
