"""The table as text, for ``render_mode="ansi"`` (returned) and ``"human"`` (printed).

Rendering is for people watching or debugging, so it shows the whole table: both hands face
up, the stock's size and the discard pile. Observations never do.
"""

from __future__ import annotations

from ..engine import Cards, best_arrangement
from .session import Session

AGENTS = ("player_0", "player_1")


def render_text(session: Session, name: str) -> str:
    """A few lines: the episode, both hands with their deadwood, the pile, whose turn, the
    last action and, at the end, the result."""
    hand = session.hand
    options = session.options
    head = f"{name} · {options.name} rules · {options.mode} mode · hand {session.hands}"
    if options.mode != "hand":
        head += f" · score {session.game_scores[0]}-{session.game_scores[1]}"
    if options.mode == "match":
        head += f" · match {session.match_scores[0]}-{session.match_scores[1]}"
    lines = [head, f"{AGENTS[hand.dealer]} deals; knock limit {hand.knock_limit}"]
    for seat in (0, 1):
        mask = hand.hand_mask(seat)
        arrangement = best_arrangement(mask)
        cards = Cards.from_mask(mask)
        lines.append(f"{AGENTS[seat]}: {cards}  (deadwood {arrangement.deadwood})")
    pile = " ".join(str(card) for card in hand.discard_pile) or "-"
    lines.append(f"pile: {pile}  ·  stock: {hand.stock_count}")
    if hand.table_melds:
        melds = " ".join(str(meld) for meld in hand.table_melds)
        lines.append(f"on the table: {melds}")
    if hand.events:
        last = hand.events[-1]
        lines.append(f"last: {AGENTS[last.seat]} {last.action}")
    if session.done:
        state = "terminated" if session.terminated else "truncated"
        lines.append(
            f"episode {state}; last rewards {session.rewards[0]:g}, {session.rewards[1]:g}"
        )
    elif hand.current_player is not None:
        lines.append(f"to act: {AGENTS[hand.current_player]} ({hand.phase.value})")
    result = hand.result
    if result is not None:
        winner = "nobody" if result.winner is None else AGENTS[result.winner]
        lines.append(f"result: {result.kind.value}, {winner} scores {result.points}")
    return "\n".join(lines)


def render(session: Session, name: str, mode: str | None) -> str | None:
    """What ``render()`` gives in ``mode``: the text for "ansi", nothing for None, and for
    "human" the text printed (and nothing returned); ``ValueError`` before the first reset."""
    if mode is None:
        return None
    if not session.hands:
        raise ValueError("no episode has begun: reset the environment first")
    text = render_text(session, name)
    if mode == "human":
        print(text)
        return None
    return text
