"""Our players inside OpenSpiel's own ``gin_rummy``, against OpenSpiel's simple bot.

Single hands, OpenSpiel's game loop, legality and scoring (knock card 10, gin 25, undercut 25,
a tied knock no undercut, the last discard takeable at the wall): the measure the strength
issue quotes from outside the project (+7.7 points a hand for the expert, +10 asked). Every
deal is played twice, the agent once as OpenSpiel's player 0 and once as player 1, against
``pyspiel.make_simple_gin_rummy_bot``; a deal counts its two hands' points for the agent.

The agent sees the hand through a mirror: our engine's hand under the same rules, dealt the
same cards (each stock draw is OpenSpiel's chance move dealing the mirror's next card), the
bot's moves read back into it (:func:`~ginrummy.rl.openspiel.engine_action`) and the agent's
played in OpenSpiel (:func:`~ginrummy.rl.openspiel.openspiel_moves`). Where the two rule books
part (``ginrummy.rl.openspiel``'s docstring), OpenSpiel's holds and the run counts it:

* a knock (or gin) OpenSpiel refuses is played as the discard of the same card;
* a layoff it refuses (the third card on one end of a run) is left in the agent's hand;
* a bot move our engine refuses (it may throw the card it just took from the pile) ends the
  mirror: the deal is replaced by another (the same one for every agent), and the run prints
  how many were.

    .venv/bin/python benchmarks/openspiel_match.py --agent simple --agent expert:worlds=128 \\
        --deals 500 --seed 1

The same command prints the same figures on any machine (the expert's search is counted in
worlds, not time).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import pyspiel

from ginrummy.agents import Agent, get_agent
from ginrummy.agents.play import watches
from ginrummy.engine import Action, ActionKind, Hand, Phase, ResultKind, Rules
from ginrummy.engine.actions import discard
from ginrummy.engine.game import derived_seed
from ginrummy.rl.openspiel import (
    CHANCE,
    DRAW_STOCK,
    KNOCK_ACTION,
    MELD_BASE,
    PASS_ACTION,
    card_id,
    engine_action,
    meld_ids,
    openspiel_deal,
    openspiel_moves,
    openspiel_params,
    openspiel_player,
)

#: The rules OpenSpiel's gin_rummy plays, in ours (its hand scores as ours then).
RULES = Rules(wall_pickup=True, undercut_on_tie=False)
DEALER = 1


class Diverged(Exception):
    """The bot made a move our engine refuses: the mirror cannot follow."""


@dataclass
class Tally:
    points: int = 0
    knocks: int = 0
    undercut: int = 0
    gins: int = 0
    refused_knocks: int = 0
    refused_layoffs: int = 0
    #: Hands OpenSpiel scored otherwise than the mirror: a refused knock or layoff, a hand it
    #: ended at its 50th pile draw, or a gin against its bot, which passes before laying its
    #: melds after a gin (its plan for a knock, laid-off cards first), so all its cards count.
    disagree: int = 0
    times: list[float] = field(default_factory=list)


def _apply(state: pyspiel.State, move: int) -> bool:
    if move not in state.legal_actions():
        return False
    state.apply_action(move)
    return True


def play_hand(agent: Agent, seed: int, me: int, tally: Tally) -> tuple[Hand, pyspiel.State]:
    """One hand, the agent as OpenSpiel's player ``me``; adds to ``tally`` and returns the
    mirror and OpenSpiel's final state. Raises
    :class:`Diverged` when the mirror cannot follow the bot."""
    hand = Hand.deal(RULES, DEALER, seed)
    game = pyspiel.load_game("gin_rummy", openspiel_params(RULES))
    state = game.new_initial_state()
    for outcome in openspiel_deal(hand.deck):
        state.apply_action(outcome)
    bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - me)
    seat = next(s for s in (0, 1) if openspiel_player(s, DEALER) == me)
    rng = random.Random(derived_seed(seed, f"agent:{me}"))
    agent.new_hand()
    watching = watches(agent)
    pending: list[int] = []  # the bot's knock so far (knock, card, melds), not yet mirrored
    while not state.is_terminal():
        player = state.current_player()
        if player == 1 - me:
            if watching and not hand.is_over:
                agent.observe(hand.view(seat, (0, 0)))
            move = bot.step(state)
            if hand.is_over:
                state.apply_action(move)  # laying his melds after the hand is decided
                continue
            if hand.phase is Phase.DISCARD and (
                pending
                or move == KNOCK_ACTION
                or (hand.stock_count == 2 and hand.events[-1].action.kind is ActionKind.TAKE)
            ):
                pending.append(move)
                state.apply_action(move)
                if move == PASS_ACTION:
                    _mirror(hand, engine_action(hand, pending))
                    pending.clear()
                continue
            action = engine_action(hand, [move])
            if move == DRAW_STOCK:
                drawn = hand.stock[0]
                state.apply_action(move)
                state.apply_action(card_id(drawn))
            else:
                state.apply_action(move)
            _mirror(hand, action)
            continue
        assert player == me, (player, str(state))
        if hand.is_over:
            # He went gin: the agent lays its melds and passes.
            result = hand.result
            assert result is not None and result.defender_arrangement is not None
            for i in meld_ids(result.defender_arrangement.melds):
                _apply(state, MELD_BASE + i)
            state.apply_action(PASS_ACTION)
            continue
        view = hand.view(seat, (0, 0))
        start = time.perf_counter()
        action = agent.act(view, rng)
        tally.times.append(time.perf_counter() - start)
        kind = action.kind
        moves = openspiel_moves(hand, action)
        if (
            kind in (ActionKind.KNOCK, ActionKind.GIN)
            and moves[0][1] == KNOCK_ACTION
            and KNOCK_ACTION not in state.legal_actions()
        ):
            tally.refused_knocks += 1
            assert action.card is not None
            action = discard(action.card)
            moves = openspiel_moves(hand, action)
        for who, move in moves:
            if who not in (me, CHANCE):
                break  # his part (laying his melds after a gin) is the bot's to play
            if who == CHANCE:
                state.apply_action(move)
            elif not _apply(state, move):
                if hand.phase is Phase.LAYOFF and move < 52:
                    tally.refused_layoffs += 1
                    continue
                raise AssertionError(f"OpenSpiel refused {move} for {action}:\n{state}")
        if kind is ActionKind.KNOCK or kind is ActionKind.GIN:
            tally.knocks += kind is ActionKind.KNOCK
            tally.gins += kind is ActionKind.GIN
        hand.apply(action)
    returns = state.returns()
    points = int(returns[me])
    tally.points += points
    result = hand.result
    if result is not None and result.knocker == seat and result.kind is ResultKind.UNDERCUT:
        tally.undercut += 1
    if result is not None:
        ours = 0 if result.winner is None else result.points * (1 if result.winner == seat else -1)
        tally.disagree += ours != points
    else:
        tally.disagree += 1
    return hand, state


def _mirror(hand: Hand, action: Action) -> None:
    try:
        hand.apply(action)
    except Exception as exc:
        raise Diverged(f"{action}: {exc}") from exc


def play_deal(job: tuple[list[str], int]) -> tuple[list[Tally], int]:
    """Each agent's tally over the deal's two hands, and how many deals were replaced
    before one every agent could play (the same deals for all, so they compare deal by
    deal)."""
    names, seed = job
    skipped = 0
    while True:
        tallies = [Tally() for _ in names]
        try:
            for name, tally in zip(names, tallies, strict=True):
                for me in (0, 1):
                    play_hand(get_agent(name), seed, me, tally)
        except Diverged:
            skipped += 1
            seed += 1_000_003
            continue
        return tallies, skipped


def _interval(xs: list[float]) -> str:
    mean = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf")
    return f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})"


def _ms(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME",
        help='an agent, with settings as the arena takes them ("expert:worlds=128"); '
        "repeatable, the others compared with the first deal by deal (default: expert)",
    )
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    names = args.agent or ["expert"]
    for name in names:
        get_agent(name)  # an unknown name fails here, before the workers start
    jobs = [(names, args.seed + i) for i in range(args.deals)]
    start = time.perf_counter()
    with mp.get_context("fork").Pool(args.workers) as pool:
        rows = pool.map(play_deal, jobs, chunksize=1)
    elapsed = time.perf_counter() - start
    skipped = sum(s for _, s in rows)
    print(
        f"against OpenSpiel's simple bot in OpenSpiel's gin_rummy: {args.deals} deals from "
        f"seed {args.seed}, each from both seats ({elapsed / 60:.1f} min); deals replaced "
        f"where the bot made a move our rules refuse: {skipped}"
    )
    disagree = sum(t.disagree for ts, _ in rows for t in ts)
    print(f"hands OpenSpiel scored otherwise than our engine would: {disagree}")
    print(
        "agent | points a hand (95% CI) | difference from the first, paired | knocks, "
        "undercut | gins | OpenSpiel refused: knocks, layoffs | decision ms median / p99"
    )
    first = [t[0].points / 2 for t, _ in rows]
    for k, name in enumerate(names):
        tallies = [t[k] for t, _ in rows]
        points = [t.points / 2 for t in tallies]
        diff = _interval([p - q for p, q in zip(points, first, strict=True)]) if k else ""
        times = [x for t in tallies for x in t.times]
        print(
            f"{name} | {_interval(points)} | {diff} | "
            f"{sum(t.knocks for t in tallies)}, {sum(t.undercut for t in tallies)} | "
            f"{sum(t.gins for t in tallies)} | "
            f"{sum(t.refused_knocks for t in tallies)}, "
            f"{sum(t.refused_layoffs for t in tallies)} | "
            f"{_ms(times, 0.5):.1f} / {_ms(times, 0.99):.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
