"""Play any ginrummy agent through the EAAI Gin Rummy framework's player callbacks.

The EAAI-2021 Gin Rummy challenge framework (and the published bots written for it) drives each
player through callbacks: ``startGame`` with the dealt cards at each hand, ``willDrawFaceUpCard``,
``reportDraw``, ``getDiscard``, ``reportDiscard``, ``getFinalMelds`` (after each own discard:
melds to knock, or none; and for the defender after a knock), ``reportFinalMelds``,
``reportScores``, ``reportLayoff`` and ``reportFinalHand``. Its game: the starting player may
take the first face-up card, then the other (when both pass, the starting player draws from the
stock without being offered the card again); a discard may not be the face-up card just taken;
a hand ends with a knock (deadwood 10 or less, declared after the discard) or, cancelled, when
two cards are left in the stock; the defender declares melds and the framework lays off for him;
gin 25, undercut 25 (ties go to the defender); game to 100.

:class:`EaaiPlayer` answers those callbacks with a ginrummy agent. It keeps the hand as the
player sees it, builds a :class:`~ginrummy.engine.views.PlayerView` (EAAI rules, the same
history events as the engine writes) at each decision, asks the agent, and turns the action
into the framework's answer. At each deal it tells the agent a hand begins (``new_hand``) and
shows an agent that watches the hand just finished, as the engine's referee does (the result,
worked out from the melds declared and the change of the scores, and his final hand from
``reportFinalHand``): the expert reads the opponent's knocking style from it. ``ginrummy bot``
speaks the callbacks as JSON lines, so a thin player class on the framework's side can forward
each call to it.

:func:`play_eaai_game` is that framework's game loop, written from its rules above, for tests
and benchmarks: it checks every answer as the framework does (a bad one forfeits the game).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..engine.actions import (
    DISCARDS,
    DRAW,
    GINS,
    KNOCKS,
    PASS,
    TAKE,
    Action,
    ActionKind,
    Event,
)
from ..engine.cards import DECK, Card, Cards
from ..engine.errors import GinRummyError
from ..engine.hand import Phase
from ..engine.masks import mask_value
from ..engine.melds import (
    Meld,
    arrange,
    best_arrangement,
    discard_deadwoods_mask,
    layoff,
    meld_kind,
)
from ..engine.results import HandResult, ResultKind
from ..engine.rules import Rules
from ..engine.views import PlayerView
from .base import Agent, watches

HAND_SIZE = 10
#: The stock holds 31 cards after the deal and the face-up card.
STOCK_AFTER_DEAL = 31


class EaaiError(ValueError):
    """A callback that does not fit the hand as this player has seen it (nothing changes)."""


def eaai_text(card: Card) -> str:
    """The framework's name of a card: rank then suit letter, ``"TD"``, ``"AC"``."""
    return str(card).upper()


class EaaiPlayer:
    """One player's side of the framework's callbacks, answered by ``agent``."""

    def __init__(self, agent: Agent, rng: random.Random, rules: Rules | None = None) -> None:
        self.agent = agent
        self.rng = rng
        self.rules = rules if rules is not None else Rules.preset("eaai")
        self.scores = (0, 0)
        self.dealt = False  # no startGame yet: nothing but startGame fits
        self._reset(0, 0, 0)

    def _reset(self, seat: int, starting: int, hand: int) -> None:
        self.seat = seat
        self.starting = starting
        self.hand = hand
        self.pile: list[int] = []
        self.upcard = -1
        self.events: list[Event] = []
        self.his_known = 0
        self.his_count = HAND_SIZE
        self.stock_count = STOCK_AFTER_DEAL
        self.passes = 0
        self.opening = True  # nobody has drawn yet: the first face-up card is on offer
        self.taking = False
        self.taken = -1
        self.my_knock: tuple[Meld, ...] | None = None
        self.his_knock: tuple[Meld, ...] | None = None
        self.his_final: int | None = None  # his hand as the framework shows it at the end
        self.his_layoffs: list[tuple[Card, Meld]] = []
        self.scores_at_deal = self.scores

    # -- the callbacks ---------------------------------------------------------------------

    def start_game(self, player_num: int, starting_player_num: int, cards: Sequence[Card]) -> None:
        """A new hand (the framework calls it ``startGame``): this player's seat and cards."""
        if player_num not in (0, 1) or starting_player_num not in (0, 1):
            raise EaaiError("player numbers are 0 or 1")
        mask = Cards(cards).mask
        if len(cards) != HAND_SIZE or mask.bit_count() != HAND_SIZE:
            raise EaaiError(f"a hand is dealt {HAND_SIZE} different cards, not {len(cards)}")
        if self.dealt:
            self._show_end()
        if max(self.scores) >= self.rules.game_target:
            # The framework never says a game has begun: a score that reached the target ended
            # the last one, so this deal starts the next at 0-0 (the same player object plays
            # every game of a match).
            self.scores = (0, 0)
        self._reset(player_num, starting_player_num, mask)
        self.dealt = True
        self.agent.new_hand()

    def _dealt(self, what: str) -> None:
        """Refuse ``what`` (a callback) before the first ``startGame``."""
        if not self.dealt:
            raise EaaiError(f"{what} before any hand was dealt: startGame comes first")

    def _holding(self, count: int, what: str) -> None:
        """Refuse ``what`` (a callback) unless the hand holds ``count`` cards, saying why."""
        self._dealt(what)
        held = self.hand.bit_count()
        if held != count:
            raise EaaiError(f"{what} while holding {held} cards, not {count}")

    def will_draw_face_up_card(self, card: Card) -> bool:
        """Whether to take ``card`` from the pile (also how the first face-up card is shown)."""
        self._holding(HAND_SIZE, "asked to draw")
        if not self.pile:
            self.upcard = card.index
            self.pile.append(card.index)
        elif self.pile[-1] != card.index:
            raise EaaiError(f"the face-up card is {DECK[self.pile[-1]]}, not {card}")
        phase = Phase.DRAW
        if self.opening:
            if self.seat != self.starting and self.passes == 0:
                self._event(1 - self.seat, PASS)  # he was offered it first and passed
            elif self.seat == self.starting and self.passes == 1:
                self._event(1 - self.seat, PASS)
            if self.passes >= 2:
                # Both passed: the first player draws from the stock. The framework does not
                # offer the card a third time (see report_draw); a caller that does is told no.
                self.taking = False
                return False
            phase = Phase.FIRST_UPCARD
        legal = (TAKE, PASS) if phase is Phase.FIRST_UPCARD else (TAKE, DRAW)
        action = self._ask(phase, legal)
        self.taking = action == TAKE
        if phase is Phase.FIRST_UPCARD and not self.taking:
            self._event(self.seat, PASS)
        return self.taking

    def report_draw(self, player_num: int, drawn_card: Card | None) -> None:
        """``player_num`` drew ``drawn_card`` (``None``: his card from the stock, unseen)."""
        self._dealt("a draw reported")
        if player_num == self.seat:
            self._holding(HAND_SIZE, "its own draw reported")
            if drawn_card is None:
                raise EaaiError("this player's own draw must name the card")
            if self.hand >> drawn_card.index & 1:
                raise EaaiError(f"{drawn_card} is already in this player's hand")
            if self.opening and self.seat == self.starting and self.passes == 1:
                # The first player passed the first face-up card, and now draws from the stock
                # without being offered it again (the framework's third turn): the other
                # player was offered it and passed too.
                self._event(1 - self.seat, PASS)
            if self.taking:
                self._take(self.seat, drawn_card)
                self.taken = drawn_card.index
            else:
                self._event(self.seat, DRAW, drawn_card)
                self.stock_count -= 1
                self.taken = -1
            self.hand |= drawn_card.bit
        elif drawn_card is None:
            self._event(player_num, DRAW)
            self.stock_count -= 1
            self.his_count += 1
        else:
            if not self.pile:  # he took the first face-up card before this player saw it
                self.upcard = drawn_card.index
                self.pile.append(drawn_card.index)
            self._take(player_num, drawn_card)
            self.his_known |= drawn_card.bit
            self.his_count += 1
        self.opening = False
        self.taking = False

    def get_discard(self) -> Card:
        """The card to discard; a knock, if the agent chose one, is declared afterwards."""
        self._holding(HAND_SIZE + 1, "asked to discard")
        table = discard_deadwoods_mask(self.hand)
        legal: list[Action] = []
        for card, dw in sorted(table.items()):
            if card == self.taken:
                continue
            legal.append(DISCARDS[card])
            if dw == 0:
                legal.append(GINS[card])
            elif dw <= self.rules.knock_limit:
                legal.append(KNOCKS[card])
        action = self._ask(Phase.DISCARD, tuple(legal))
        assert action.card is not None
        card = action.card.index
        rest = self.hand & ~(1 << card)
        if action.kind is ActionKind.DISCARD:
            self.my_knock = None
        elif action.melds:
            self.my_knock = tuple(action.melds)
        else:
            self.my_knock = best_arrangement(rest).melds
        return DECK[card]

    def report_discard(self, player_num: int, discarded_card: Card) -> None:
        self._dealt("a discard reported")
        bit = discarded_card.bit
        if player_num == self.seat:
            if not self.hand & bit:
                raise EaaiError(f"{discarded_card} is not in this player's hand")
            self.hand &= ~bit
        else:
            self.his_known &= ~bit
            self.his_count -= 1
        self.pile.append(discarded_card.index)
        self._event(player_num, DISCARDS[discarded_card.index], discarded_card)
        self.taken = -1

    def get_final_melds(self) -> list[list[Card]] | None:
        """After this player's discard: the melds it knocks with, or ``None`` to play on. After
        his knock: the melds to declare, keeping out the cards the framework will lay off."""
        if self.his_knock is not None:
            gin = sum(m.mask.bit_count() for m in self.his_knock) >= self.his_count
            if gin:
                melds = best_arrangement(self.hand).melds
            else:
                melds = layoff(self.hand, self.his_knock).melds
        elif self.my_knock is not None:
            melds = self.my_knock
        else:
            return None
        return [list(m.cards) for m in melds]

    def report_final_melds(self, player_num: int, melds: Sequence[Sequence[Card]]) -> None:
        if player_num != self.seat and self.my_knock is None:
            parsed: list[Meld] = []
            for cards in melds:
                mask = Cards(cards).mask
                kind = meld_kind(mask)
                if kind is None:
                    raise EaaiError(f"not a meld: {' '.join(map(str, cards))}")
                parsed.append(Meld(kind, mask))
            self.his_knock = tuple(parsed)

    def report_scores(self, scores: Sequence[int]) -> None:
        if len(scores) != 2:
            raise EaaiError("scores are two numbers")
        self.scores = (int(scores[0]), int(scores[1]))

    def report_layoff(self, player_num: int, card: Card, meld: Sequence[Card]) -> None:
        """His layoffs are kept for the end of the hand (see :meth:`_show_end`)."""
        if player_num != self.seat:
            mask = Cards(meld).mask
            kind = meld_kind(mask)
            if kind is not None:
                self.his_layoffs.append((card, Meld(kind, mask)))

    def report_final_hand(self, player_num: int, hand: Sequence[Card]) -> None:
        """His hand as the hand ended, kept for :meth:`_show_end`."""
        if player_num != self.seat:
            self.his_final = Cards(hand).mask

    def _show_end(self) -> None:
        """Show the agent the hand just finished, as the engine shows a finished hand (the
        result, his hand): an agent that watches (the expert reads his knocking style from
        it) learns between hands here as it does in the project's own games. Called at the
        next deal, when the framework has reported everything of the hand (the final hands
        and the scores, in whichever order)."""
        his = self.his_final
        if not watches(self.agent) or his is None:
            return
        result = self._result(his)
        if result is None:
            return
        view = replace(
            self.view(Phase.OVER, ()),
            current_player=None,
            knocker=result.knocker,
            layoffs=tuple(self.his_layoffs),
            opponent_hand=Cards.from_mask(his),
            result=result,
        )
        self.agent.observe(view)

    def _result(self, his: int) -> HandResult | None:
        """How the hand ended, from the melds declared, his final hand ``his`` and the change
        of the scores (None when what was reported does not fit together)."""
        him = 1 - self.seat
        gained = [
            after - before for after, before in zip(self.scores, self.scores_at_deal, strict=True)
        ]
        winner = next((p for p in (0, 1) if gained[p] > 0), None)
        points = gained[winner] if winner is not None else 0
        if self.my_knock is not None:
            knocker, held, melds = self.seat, self.hand, self.my_knock
        elif self.his_knock is not None:
            knocker, held, melds = him, his, self.his_knock
        else:
            return HandResult(ResultKind.DEAD, None, None, 0)
        if winner is None:
            return None
        try:
            knocker_dw = arrange(held, melds).deadwood
        except GinRummyError:
            return None
        if knocker_dw == 0:
            kind = ResultKind.GIN
        else:
            kind = ResultKind.KNOCK if winner == knocker else ResultKind.UNDERCUT
        return HandResult(kind, knocker, winner, points, knocker_deadwood=knocker_dw)

    # -- the view --------------------------------------------------------------------------

    def _event(self, seat: int, action: Action, card: Card | None = None) -> None:
        self.events.append(Event(len(self.events) + 1, seat, action, card))
        if action == PASS:
            self.passes += 1

    def _take(self, seat: int, card: Card) -> None:
        if not self.pile or self.pile[-1] != card.index:
            raise EaaiError(f"{card} is not the face-up card")
        self.pile.pop()
        self._event(seat, TAKE, card)

    def view(self, phase: Phase, legal: tuple[Action, ...]) -> PlayerView:
        """This player's view of the hand, as the engine would give it."""
        return PlayerView(
            seat=self.seat,
            hand=Cards.from_mask(self.hand),
            phase=phase,
            current_player=self.seat,
            dealer=1 - self.starting,
            discard_pile=tuple(DECK[i] for i in self.pile),
            opponent_known=Cards.from_mask(self.his_known),
            opponent_count=self.his_count,
            stock_count=self.stock_count,
            knock_limit=self.rules.knock_limit,
            upcard=DECK[self.upcard] if self.upcard >= 0 else None,
            taken_card=DECK[self.taken] if self.taken >= 0 else None,
            legal_actions=legal,
            history=tuple(self.events),
            rules=self.rules,
            scores=self.scores,
        )

    def _ask(self, phase: Phase, legal: tuple[Action, ...]) -> Action:
        action = self.agent.act(self.view(phase, legal), self.rng)
        if action in legal:
            return action
        card = action.card
        if action.kind is ActionKind.KNOCK and card is not None and KNOCKS[card.index] in legal:
            # A knock naming its own arrangement: its melds must be held, its deadwood legal.
            kept = arrange(self.hand & ~card.bit, action.melds or ())
            if kept.deadwood <= self.rules.knock_limit:
                return action
        raise EaaiError(f"the agent chose {action}, not one of {', '.join(map(str, legal))}")


# -- the callbacks as JSON messages ---------------------------------------------------------------

#: Callback name -> (method, how many arguments).
CALLS: dict[str, tuple[str, int]] = {
    "startGame": ("start_game", 3),
    "willDrawFaceUpCard": ("will_draw_face_up_card", 1),
    "reportDraw": ("report_draw", 2),
    "getDiscard": ("get_discard", 0),
    "reportDiscard": ("report_discard", 2),
    "getFinalMelds": ("get_final_melds", 0),
    "reportFinalMelds": ("report_final_melds", 2),
    "reportScores": ("report_scores", 1),
    "reportLayoff": ("report_layoff", 3),
    "reportFinalHand": ("report_final_hand", 2),
}


def _card(value: object) -> Card:
    if not isinstance(value, str):
        raise EaaiError(f'a card is text such as "TD", not {value!r}')
    return Card.parse(value)


def _cards(value: object) -> list[Card]:
    if not isinstance(value, list):
        raise EaaiError(f"cards come as a list, not {value!r}")
    return [_card(v) for v in value]


def _seat(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        raise EaaiError(f"a player number is 0 or 1, not {value!r}")
    return value


def _arguments(call: str, args: list[object]) -> list[object]:
    """The callback's arguments, read from JSON (cards as text)."""
    if call == "startGame":
        return [_seat(args[0]), _seat(args[1]), _cards(args[2])]
    if call == "willDrawFaceUpCard":
        return [_card(args[0])]
    if call == "reportDraw":
        return [_seat(args[0]), None if args[1] is None else _card(args[1])]
    if call == "reportDiscard":
        return [_seat(args[0]), _card(args[1])]
    if call == "reportFinalMelds":
        if not isinstance(args[1], list):
            raise EaaiError("melds come as a list of lists of cards")
        return [_seat(args[0]), [_cards(m) for m in args[1]]]
    if call == "reportScores":
        if not isinstance(args[0], list) or not all(isinstance(x, int) for x in args[0]):
            raise EaaiError("scores come as a list of two numbers")
        return [args[0]]
    if call == "reportLayoff":
        return [_seat(args[0]), _card(args[1]), _cards(args[2])]
    if call == "reportFinalHand":
        return [_seat(args[0]), _cards(args[1])]
    return []


def _json_result(value: object) -> object:
    if isinstance(value, Card):
        return eaai_text(value)
    if isinstance(value, list):
        return [_json_result(v) for v in value]
    return value


def answer(player: EaaiPlayer, message: object) -> dict[str, object]:
    """Answer one callback, ``{"call": "getDiscard", "args": []}``, with ``{"result": ...}``
    (cards as the framework names them, ``"TD"``), or ``{"error": "..."}`` for a message that
    is malformed or does not fit the hand so far; then the player is exactly as it was."""
    if not isinstance(message, dict):
        return {"error": 'each message is a JSON object with a "call" and its "args"'}
    call = message.get("call")
    args = message.get("args", [])
    if not isinstance(call, str) or call not in CALLS:
        return {"error": f"unknown call {call!r}; calls are: {', '.join(CALLS)}"}
    method, count = CALLS[call]
    if not isinstance(args, list) or len(args) != count:
        return {"error": f'{call} takes {count} argument(s) in "args"'}
    saved = {k: (list(v) if isinstance(v, list) else v) for k, v in vars(player).items()}
    try:
        result = getattr(player, method)(*_arguments(call, args))
    except (GinRummyError, EaaiError) as exc:
        player.__dict__.update(saved)
        return {"error": str(exc)}
    return {"result": _json_result(result)}


# -- the framework's game loop -------------------------------------------------------------------


@dataclass(frozen=True)
class EaaiGame:
    """How a game under the framework's loop ended."""

    winner: int
    scores: tuple[int, int]
    hands: int
    #: Why the loser lost by forfeit ("" when the game was played out).
    forfeit: str = ""


GOAL = 100
BONUS = 25
LIMIT = 10


def _is_meld(cards: Sequence[Card]) -> bool:
    mask = Cards(cards).mask
    return mask.bit_count() == len(cards) and meld_kind(mask) is not None


def _melded(hand: int, melds: Sequence[Sequence[Card]]) -> int | None:
    """The mask of cards the melds cover, or ``None`` if one is no meld or not in ``hand``."""
    used = 0
    for meld in melds:
        mask = Cards(meld).mask
        if not _is_meld(meld) or mask & ~hand or mask & used:
            return None
        used |= mask
    return used


def _lay_off(cards: list[int], melds: list[int]) -> tuple[list[int], list[tuple[int, int]]]:
    """The framework's layoffs: again and again, the first card that extends a meld. The
    cards left, and each layoff as (card, the meld it joined, as it was)."""
    done: list[tuple[int, int]] = []
    again = True
    while again:
        again = False
        for card in cards:
            for i, meld in enumerate(melds):
                if meld_kind(meld | 1 << card) is not None:
                    done.append((card, meld))
                    melds[i] |= 1 << card
                    cards = [c for c in cards if c != card]
                    again = True
                    break
            if again:
                break
    return cards, done


def _report_end(
    players: Sequence[EaaiPlayer], hands: Sequence[set[int]], scores: Sequence[int]
) -> None:
    """The end of a hand as the framework reports it: both final hands, then the scores."""
    for p in (0, 1):
        for q in (0, 1):
            players[p].report_final_hand(q, [DECK[c] for c in sorted(hands[q])])
    for p in (0, 1):
        players[p].report_scores(list(scores))


def play_eaai_game(players: Sequence[EaaiPlayer], rng: random.Random) -> EaaiGame:
    """A whole game between two players, dealt from ``rng``, as the framework runs one."""
    scores = [0, 0]
    starting = rng.randrange(2)
    hands_played = 0
    while max(scores) < GOAL:
        hands_played += 1
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [set(deck[:10]), set(deck[10:20])]
        del deck[:20]
        for p in (0, 1):
            players[p].start_game(p, starting, [DECK[c] for c in sorted(hands[p])])
        pile = [deck.pop()]
        first = pile[0]
        current = starting
        turns = 0
        knock: list[list[Card]] | None = None
        while len(deck) > 2:
            face_up = pile[-1]
            take = False
            # The third turn with the first face-up card still there: both passed it, and the
            # first player draws from the stock without being offered it again.
            if not (turns == 2 and face_up == first):
                take = players[current].will_draw_face_up_card(DECK[face_up])
            if take or turns >= 2 or face_up != first:
                drawn = pile.pop() if take else deck.pop()
                for p in (0, 1):
                    seen = p == current or take
                    players[p].report_draw(current, DECK[drawn] if seen else None)
                hands[current].add(drawn)
                card = players[current].get_discard()
                if card.index not in hands[current] or card.index == face_up:
                    return EaaiGame(1 - current, (scores[0], scores[1]), hands_played, "discard")
                hands[current].discard(card.index)
                for p in (0, 1):
                    players[p].report_discard(current, card)
                pile.append(card.index)
                knock = players[current].get_final_melds()
                if knock is not None:
                    break
            turns += 1
            current = 1 - current
        if knock is None:
            _report_end(players, hands, scores)
            continue
        other = 1 - current
        mine = sum(1 << c for c in hands[current])
        used = _melded(mine, knock)
        dw = LIMIT + 1 if used is None else mask_value(mine & ~used)
        if dw > LIMIT:
            return EaaiGame(other, (scores[0], scores[1]), hands_played, "knock")
        for p in (0, 1):
            players[p].report_final_melds(current, knock)
        defence = players[other].get_final_melds() or []
        for p in (0, 1):
            players[p].report_final_melds(other, defence)
        theirs = sum(1 << c for c in hands[other])
        his_used = _melded(theirs, defence)
        if his_used is None:
            return EaaiGame(current, (scores[0], scores[1]), hands_played, "melds")
        loose = [c for c in range(52) if (theirs & ~his_used) >> c & 1]
        if dw > 0:
            loose, laid = _lay_off(loose, [Cards(m).mask for m in knock])
            for index, meld in laid:
                for p in (0, 1):
                    players[p].report_layoff(other, DECK[index], list(Cards.from_mask(meld)))
        his_dw = mask_value(sum(1 << c for c in loose))
        if dw == 0:
            scores[current] += BONUS + his_dw
        elif dw < his_dw:
            scores[current] += his_dw - dw
        else:
            scores[other] += BONUS + dw - his_dw
        starting = 1 - starting
        _report_end(players, hands, scores)
    winner = 0 if scores[0] >= GOAL else 1
    return EaaiGame(winner, (scores[0], scores[1]), hands_played)


__all__ = ["CALLS", "EaaiError", "EaaiGame", "EaaiPlayer", "answer", "eaai_text", "play_eaai_game"]
