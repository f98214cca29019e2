"""Random agents play ``python_ginrummy`` (our exact rules as an OpenSpiel game) in OpenSpiel's
own loop, next to OpenSpiel's ``gin_rummy`` for comparison.

    python examples/openspiel_random.py --games 10 --rules oklahoma
    python examples/openspiel_random.py --games 1 --mode game   # a whole game: many hands

Any OpenSpiel algorithm or bot takes the game the same way: ``pyspiel.load_game`` after
importing :mod:`ginrummy.rl.openspiel_game`, which registers it.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel

import ginrummy.rl.openspiel_game  # noqa: F401  (registers python_ginrummy)


def play(game: pyspiel.Game, rng: random.Random) -> tuple[list[float], int]:
    """One episode with uniformly random moves (and chance); returns and moves made."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        observation = np.asarray(state.observation_tensor(player))
        assert observation.shape == (644,)
        state.apply_action(rng.choice(state.legal_actions(player)))
        moves += 1
    return state.returns(), moves


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rules", default="standard", help="rules preset")
    parser.add_argument("--mode", default="hand", choices=["hand", "game"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    ours = pyspiel.load_game("python_ginrummy", {"rules": args.rules, "mode": args.mode})
    print(
        f"{ours}: {ours.num_distinct_actions()} actions, tensor {ours.observation_tensor_shape()}"
    )
    totals = [0.0, 0.0]
    for number in range(1, args.games + 1):
        returns, moves = play(ours, rng)
        totals = [t + r for t, r in zip(totals, returns, strict=True)]
        print(f"game {number}: returns {returns} after {moves} moves")
    print(f"totals {totals}")

    theirs = pyspiel.load_game("gin_rummy")
    returns, moves = play(theirs, rng)
    print(f"{theirs} for comparison: returns {returns} after {moves} moves")


if __name__ == "__main__":
    main()
