"""How long a hand goes on without a chance to knock: the evidence of a knock not yet made.

A player who knocks at the first chance (limit 10) and has not knocked by his twelfth turn is
rare: 7% of players who take the upcard only into a meld and discard for the least deadwood
get that far without a discard leaving 10 or less. So each turn he plays on is evidence against
a style that would have knocked (:mod:`.style`), within the hand, before his cards are shown.

:data:`SURVIVAL` holds, for each limit ``L`` (0 to 10), among such players still in the hand
at their turn ``t`` (0 to :data:`TURNS`; beyond it, the last figure), the share with no discard
leaving at most ``L`` in those ``t`` turns. :func:`measure` made it from :data:`HANDS` simulated
hands from :data:`SEED`, both seats playing so and never knocking (a gin ends the hand);
``python -m ginrummy.agents.survival`` prints it again, and a test checks that it is the same.
"""

from __future__ import annotations

import random
from typing import Final

from .heuristic import least_discard, takes_into_meld

#: The turns the table covers, the hands it was measured on, and their seed.
TURNS: Final = 16
HANDS: Final = 4000
SEED: Final = 2026
#: Cards left in the stock when a simulated hand stops (the EAAI rules' floor).
FLOOR: Final = 2


def _first_turns(rng: random.Random) -> list[tuple[list[int], int]]:
    """One simulated hand, both seats playing for the least deadwood and never knocking: for
    each seat, for each limit 0 to 10, the first turn whose discard left at most that much
    (0: none in the hand), and the turns it played."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0, 0]
    for i in range(10):
        hands[0] |= 1 << deck[2 * i]
        hands[1] |= 1 << deck[2 * i + 1]
    pile = [deck[20]]
    stock = deck[21:]
    first = [[0] * 11 for _ in range(2)]
    turns = [0, 0]
    seat = 0
    while len(stock) > FLOOR:
        hand = hands[seat]
        top = pile[-1] if pile else -1
        taken = -1
        if top >= 0 and takes_into_meld(hand, top):
            taken = pile.pop()
            hand |= 1 << taken
        else:
            hand |= 1 << stock.pop()
        card, left = least_discard(hand, taken)
        hands[seat] = hand & ~(1 << card)
        pile.append(card)
        turns[seat] += 1
        marks = first[seat]
        for limit in range(left, 11):
            if not marks[limit]:
                marks[limit] = turns[seat]
        if left == 0:
            break  # gin ends the hand
        seat = 1 - seat
    return [(first[0], turns[0]), (first[1], turns[1])]


def measure(hands: int = HANDS, seed: int = SEED) -> tuple[tuple[float, ...], ...]:
    """The survival table from ``hands`` simulated hands: ``[limit][t]``, rounded to 4
    places."""
    rng = random.Random(seed)
    # Per turn t, the players who played at least t turns (or knocked before), and per limit
    # those of them with no discard within it by turn t.
    reached = [0] * (TURNS + 1)
    alive = [[0] * (TURNS + 1) for _ in range(11)]
    for _ in range(hands):
        for marks, played in _first_turns(rng):
            for t in range(TURNS + 1):
                if t > played and not (marks[10] and marks[10] <= played):
                    break  # the hand ended before his turn t, with no knock to count
                reached[t] += 1
                for limit in range(11):
                    if not marks[limit] or marks[limit] > t:
                        alive[limit][t] += 1
    return tuple(
        tuple(round(alive[limit][t] / max(reached[t], 1), 4) for t in range(TURNS + 1))
        for limit in range(11)
    )


#: ``SURVIVAL[limit][t]``: the share of players (playing for the least deadwood) with no
#: discard leaving at most ``limit`` in their first ``t`` turns; :func:`measure`'s figures.
# fmt: off
SURVIVAL: Final[tuple[tuple[float, ...], ...]] = (
    (1.0, 0.9999, 0.9992, 0.9971, 0.9935, 0.9832, 0.9665, 0.9413, 0.9024,
     0.8526, 0.7971, 0.7451, 0.6877, 0.6329, 0.5862, 0.551, 0.525),
    (1.0, 0.9998, 0.9982, 0.9942, 0.9866, 0.9685, 0.9402, 0.8955, 0.8413,
     0.7745, 0.703, 0.6344, 0.5646, 0.5022, 0.4479, 0.408, 0.3832),
    (1.0, 0.9994, 0.9974, 0.992, 0.9795, 0.9537, 0.9185, 0.861, 0.7938,
     0.7148, 0.6316, 0.5524, 0.4738, 0.407, 0.3555, 0.3166, 0.2911),
    (1.0, 0.9992, 0.9965, 0.9887, 0.9718, 0.9408, 0.8956, 0.8282, 0.7523,
     0.6656, 0.5767, 0.4935, 0.4118, 0.3426, 0.2932, 0.2582, 0.2337),
    (1.0, 0.9988, 0.9954, 0.9852, 0.9623, 0.927, 0.873, 0.7917, 0.703,
     0.6035, 0.5085, 0.4141, 0.3313, 0.2658, 0.2172, 0.1863, 0.1665),
    (1.0, 0.9982, 0.9942, 0.9817, 0.9522, 0.9097, 0.8457, 0.7538, 0.6545,
     0.547, 0.4435, 0.349, 0.2703, 0.2111, 0.1679, 0.1392, 0.1231),
    (1.0, 0.998, 0.9922, 0.9766, 0.9419, 0.8908, 0.8156, 0.7122, 0.6057,
     0.4923, 0.3835, 0.292, 0.2162, 0.1637, 0.1246, 0.1009, 0.0891),
    (1.0, 0.9978, 0.9905, 0.9707, 0.9304, 0.8681, 0.7808, 0.6689, 0.5525,
     0.4356, 0.3254, 0.2386, 0.1692, 0.1235, 0.09, 0.0699, 0.0601),
    (1.0, 0.9972, 0.9869, 0.9626, 0.9112, 0.8361, 0.7368, 0.6161, 0.4944,
     0.3744, 0.271, 0.1887, 0.1257, 0.0829, 0.0549, 0.0412, 0.0327),
    (1.0, 0.9955, 0.983, 0.9528, 0.8927, 0.8079, 0.694, 0.5671, 0.4445,
     0.3281, 0.2307, 0.1519, 0.0955, 0.0596, 0.0356, 0.0235, 0.0165),
    (1.0, 0.9941, 0.9771, 0.9415, 0.8724, 0.7746, 0.651, 0.5215, 0.3959,
     0.2849, 0.1944, 0.122, 0.0721, 0.0388, 0.0191, 0.0081, 0.0014),
)
# fmt: on


def survival(limit: int, turns: int, t: int) -> float:
    """The chance that a player who knocks with at most ``limit`` in his first ``turns`` turns
    (gin always) has not knocked after ``t`` turns. Past ``turns`` only a gin ends his hand:
    his chance of no gin from there is taken as it is for any player (``SURVIVAL[0]``'s
    ratio), so the figure is ``S[limit][turns] * S[0][t] / S[0][turns]``. Never below 0.001:
    a player is not a rule."""
    table = SURVIVAL
    last = len(table[0]) - 1
    limit = max(0, min(limit, 10))
    t = max(0, min(t, last))
    if turns >= t:
        s = table[limit][t]
    else:
        k = max(0, turns)
        s = table[limit][k] * table[0][t] / max(table[0][k], 1e-9)
    return max(s, 0.001)


def table_source(table: tuple[tuple[float, ...], ...]) -> str:
    """``table`` as this module writes :data:`SURVIVAL`: one limit a row, 9 figures a line."""
    lines = []
    for row in table:
        cells = [f"{x}" for x in row]
        chunks = [", ".join(cells[i : i + 9]) for i in range(0, len(cells), 9)]
        lines.append("    (" + ",\n     ".join(chunks) + "),")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(table_source(measure()))
