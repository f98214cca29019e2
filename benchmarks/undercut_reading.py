"""At the expert's knock chances: how often his real hand could undercut, against its guesses.

Plays hands of the expert (16 worlds, the style reading off, so the positions do not depend on
what is measured) against an opponent and, at each of its discards where it could knock and
the opponent has begun at least four turns, compares the opponent's real deadwood with the
expert's knock (the least deadwood it could keep) and with hands guessed as the search guesses
them (``sample_world``), for each kind of guess listed: ``tries`` guesses a world, one kept
with odds ``exp(-sharpness * deadwood)``. A share of real hands at most our deadwood far above
the guesses' means the search thinks its knocks safer than they are.

    .venv/bin/python benchmarks/undercut_reading.py --opponent gin-hunter --hands 120
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import beliefs, sample_world
from ginrummy.agents.style import turns_of
from ginrummy.engine import ActionKind, Hand, Rules
from ginrummy.engine.hand import Phase
from ginrummy.engine.melds import deadwood_mask, discard_deadwoods_mask

GUESSES = ((8, 0.15), (16, 0.4), (32, 0.4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="gin-hunter")
    parser.add_argument("--hands", type=int, default=120)
    parser.add_argument("--samples", type=int, default=60)
    args = parser.parse_args()
    rules = Rules.preset("eaai")
    rows: list[tuple[int, int, list[tuple[float, float]]]] = []
    for seed in range(args.hands):
        rng = random.Random(seed)
        hand = Hand.deal(rules, seed % 2, rng)
        settings = Settings(worlds=16, min_worlds=16, read_style=False, bar_knocks=False)
        agents = (ExpertAgent(settings), get_agent(args.opponent))
        while hand.current_player is not None:
            seat = hand.current_player
            view = hand.view(seat)
            knocks = any(a.kind is ActionKind.KNOCK for a in view.legal_actions)
            if seat == 0 and view.phase is Phase.DISCARD and knocks and turns_of(view, 1) >= 4:
                ours = min(discard_deadwoods_mask(view.hand.mask).values())
                real = deadwood_mask(hand.view(1).hand.mask)
                b = beliefs(view)
                guessed = []
                for tries, sharpness in GUESSES:
                    srng = random.Random(1)
                    dws = [
                        deadwood_mask(sample_world(b, srng, tries, sharpness)[0])
                        for _ in range(args.samples)
                    ]
                    guessed.append((sum(d <= ours for d in dws) / len(dws), statistics.mean(dws)))
                rows.append((ours, real, guessed))
            hand.apply(agents[seat].act(view, rng))
    if not rows:
        print("no knock chances")
        return
    share = sum(real <= ours for ours, real, _ in rows) / len(rows)
    mean = statistics.mean(real for _, real, _ in rows)
    print(f"{args.opponent}: {len(rows)} knock chances in {args.hands} hands")
    print(f"his real hand: at most our deadwood {share:.0%}, mean deadwood {mean:.1f}")
    for i, (tries, sharpness) in enumerate(GUESSES):
        s = statistics.mean(g[i][0] for _, _, g in rows)
        m = statistics.mean(g[i][1] for _, _, g in rows)
        print(f"guesses ({tries} tries, sharpness {sharpness}): at most ours {s:.0%}, mean {m:.1f}")


if __name__ == "__main__":
    main()
