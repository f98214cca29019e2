"""``python_ginrummy``: our exact rules as an OpenSpiel game, so OpenSpiel's own algorithms and
bots (ISMCTS, MCCFR, its evaluation tools) run on them unchanged.

Importing this module registers the game with pyspiel::

    import pyspiel
    import ginrummy.rl.openspiel_game  # registers python_ginrummy
    game = pyspiel.load_game("python_ginrummy", {"rules": "oklahoma", "mode": "game"})

Parameters: ``rules``, a preset name (default ``standard``); ``options``, rule options as JSON
that override the preset (``{"big_gin": true}``); ``mode``, ``hand`` (one hand: the winner's
return is the points he scored, the loser's minus that) or ``game`` (a whole game with every
bonus: +1 for the player the game credits, -1 for the other, 0 for neither); ``dealer``, who
deals in ``hand`` mode (default 1, so player 0 acts first as in OpenSpiel's ``gin_rummy``).

Players are our seats. Chance deals the cards one at a time in our order (the non-dealer's
first, alternately, then the upcard; chance outcomes are OpenSpiel card ids), draws each stock
card when a player draws, and in ``game`` mode, when the rules cut for the deal, picks the first
dealer (outcome 0 or 1). Actions are numbered OpenSpiel's way (0-54 mean what they mean in
OpenSpiel's ``gin_rummy``): :func:`.actions.to_openspiel` of the environments' ids, 213 in all,
and :func:`.actions.from_openspiel` back. The observation tensor is
OpenSpiel's 644-wide one (:func:`.openspiel.observation_tensor`, players numbered by seat); the
information state is a string of everything the player has seen, in order, the first upcard
included (like OpenSpiel's ``gin_rummy``, it shows the defender the knock card during the
layoffs, though our rules keep that card face down until the hand ends).

A hand that reaches :data:`.options.MAX_HAND_ACTIONS` decisions (players who keep taking the
discard never end one) ends the state, with returns of 0 each, as the environments truncate such
an episode; so ``max_game_length`` bounds every history. A chance outcome that is not among
``chance_outcomes`` raises ``ValueError`` and changes nothing.

``resample_from_infostate`` (what ISMCTS samples worlds with) deals the cards the player has
not seen anew: the opponent's unseen cards and the stock, keeping every card the opponent has
shown in his hand from before he showed it, so the replayed hand stays legal. The new world's
``history()`` is its own (the hand dealt and played on the new deck), so it tells nothing of
the true deal.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from ..engine import (
    DECK,
    Action,
    ActionKind,
    Card,
    Hand,
    IllegalActionError,
    Phase,
    PlayerView,
    Rules,
)
from ..engine.game import next_dealer
from ..engine.scoring import Tally
from .actions import (
    ACTIONS,
    DRAW,
    OPENSPIEL_NUM_ACTIONS,
    PASS,
    action_id,
    from_openspiel,
    ids_of,
    to_openspiel,
)
from .openspiel import CARD_IDS, TENSOR_LAYOUT, TENSOR_SIZE, card_of, observation_tensor
from .options import MAX_HAND_ACTIONS

SHORT_NAME: Final = "python_ginrummy"
#: The longest hand, counted as OpenSpiel counts a history: the 21 cards dealt, at most
#: :data:`.options.MAX_HAND_ACTIONS` decisions (our rules put no bound on a hand whose players
#: keep taking from the pile, so a hand that reaches it ends the state, as it truncates the
#: environments' episodes) and a chance outcome for each of the 31 stock cards drawn.
MAX_HAND_LENGTH: Final = 21 + MAX_HAND_ACTIONS + 31
#: The most hands a game declares (a game of dead hands never ends under the rules).
MAX_GAME_HANDS: Final = 200
#: Each new game's key (:attr:`_Table.game_key`).
_GAME_KEYS: Final = itertools.count(1)
#: Tries to resample a world before falling back to the true one
#: (see :meth:`GinRummyState.resample_from_infostate`).
RESAMPLE_TRIES: Final = 50

_PARAMS: Final[dict[str, Any]] = {"rules": "standard", "options": "", "mode": "hand", "dealer": 1}

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Gin Rummy (the ginrummy engine's exact rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The rules the game parameters name: a preset and its changes (see :func:`_as_text`)."""
    return Rules.from_changes(
        str(params.get("rules", "standard")), _changes(str(params.get("options") or ""))
    )


def _as_text(changes: list[str]) -> str:
    """The changes as a game string carries them: ``key:value;key:value``.

    The ``options`` parameter is a JSON object (``{"big_gin": true, "gin_bonus": 30}``) or
    already that form (``big_gin:true;gin_bonus:30``). A game string splits its parameters at
    commas, so a JSON object of two options or more could not be read back from
    ``str(game)``: the game keeps the comma-free form.
    """
    return ";".join(change.replace("=", ":", 1) for change in changes)


def _changes(options: str) -> list[str]:
    """``options`` as ``OPTION=VALUE`` changes (:meth:`Rules.from_changes`)."""
    text = options.strip()
    if not text:
        return []
    if text.startswith("{"):
        try:
            overrides = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"options is not a JSON object ({error}): {options!r}") from None
        if not isinstance(overrides, dict):
            raise ValueError(f"options must be a JSON object, not {options!r}")
        return [f"{key}={_word(value)}" for key, value in overrides.items()]
    changes = []
    for item in text.split(";"):
        key, colon, value = item.partition(":")
        if not colon or not key.strip():
            raise ValueError(
                f"options are a JSON object or OPTION:VALUE;OPTION:VALUE, not {options!r}"
            )
        changes.append(f"{key.strip()}={value.strip()}")
    return changes


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class GinRummyGame(pyspiel.Game):
    """The game: its rules and mode, from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMS, **(params or {})}
        changes = _changes(str(params["options"] or ""))  # read once: rules and kept string
        self.rules = Rules.from_changes(str(params["rules"]), changes)
        params["options"] = _as_text(changes)
        self.mode = str(params["mode"])
        if self.mode not in ("hand", "game"):
            raise ValueError(f"mode must be 'hand' or 'game', not {self.mode!r}")
        self.dealer = int(params["dealer"])
        if self.dealer not in (0, 1):
            raise ValueError(f"dealer must be 0 or 1, not {self.dealer}")
        if self.mode == "hand":
            bound = float(_max_points(self.rules))
            length = MAX_HAND_LENGTH
        else:
            bound, length = 1.0, 1 + MAX_HAND_LENGTH * MAX_GAME_HANDS  # 1: the cut
        info = pyspiel.GameInfo(
            num_distinct_actions=OPENSPIEL_NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> GinRummyState:
        return GinRummyState(self, _Table(self.rules, self.mode, self.dealer))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        return Observer(iig_obs_type, params)


def _max_points(rules: Rules) -> int:
    bonus = max(rules.gin_bonus, rules.undercut_bonus, rules.big_gin_bonus * rules.big_gin)
    double = 2 if rules.oklahoma and rules.oklahoma_spade_double else 1
    return (98 + bonus) * double


class _Table:
    """Everything behind a state; cheap to copy (the hand copies in O(1), the rest is
    immutable), since OpenSpiel copies states (``clone``) at every step of a search."""

    def __init__(self, rules: Rules, mode: str, dealer: int) -> None:
        self.rules = rules
        self.mode = mode
        self.cutting = mode == "game" and rules.first_dealer == "cut"
        self.dealer = dealer if mode == "hand" else rules.first_dealer_seat
        self.tally: Tally | None = Tally.start(rules) if mode == "game" else None
        self.dealt: tuple[Card, ...] = ()
        self.hand: Hand | None = None
        self.drawing = False  # a player drew: chance deals the stock card
        self.past: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # finished hands, per seat
        #: The hands dealt so far (the hand being played is the ``number``-th): a hand's
        #: object is replaced when a stock card is dealt out of the deck's order, so its
        #: number, not its identity, tells one hand from the next.
        self.number = 0
        #: Which game this is (copies of its states share it), so that hands are told apart
        #: across games too: :attr:`GinRummyState.hand_key`.
        self.game_key = next(_GAME_KEYS)
        #: The last finished hand of a game, its number and the score before it.
        self.finished: tuple[int, Hand, tuple[int, int]] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        other = copy.copy(self)
        if self.hand is not None:
            other.hand = self.hand.copy()
        return other

    # -- whose turn ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        if self.cut_off:
            return True
        if self.tally is not None:
            return self.tally.is_over or len(self.past[0]) >= MAX_GAME_HANDS
        return self.hand is not None and self.hand.is_over

    @property
    def cut_off(self) -> bool:
        """The hand reached :data:`.options.MAX_HAND_ACTIONS` decisions without ending: the
        state is over, with returns of 0 each (as a dead hand in ``hand`` mode; in ``game``
        mode the game is left unfinished, as the environments truncate the episode)."""
        hand = self.hand
        return hand is not None and not hand.is_over and len(hand.events) >= MAX_HAND_ACTIONS

    @property
    def is_chance(self) -> bool:
        return self.cutting or self.hand is None or self.drawing

    def current_player(self) -> int:
        if self.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.hand is not None and self.hand.current_player is not None
        return self.hand.current_player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.cutting:
            return [(0, 0.5), (1, 0.5)]
        if self.hand is None:
            gone = {card.index for card in self.dealt}
            cards = [card for card in DECK if card.index not in gone]
        else:
            cards = list(self.hand.stock)
        outcomes = sorted(CARD_IDS[card.index] for card in cards)
        return [(o, 1.0 / len(outcomes)) for o in outcomes]

    # -- moves ---------------------------------------------------------------------------------

    def apply_chance(self, outcome: int) -> None:
        """Apply a chance outcome; ``ValueError``, changing nothing, for one that is not among
        :meth:`chance_outcomes` (as OpenSpiel refuses an illegal chance action), since dealing
        or drawing a card that is not left to deal would silently rewrite the deal."""
        if self.cutting:
            if outcome not in (0, 1):
                raise ValueError(f"chance outcome {outcome} is not legal now: the cut is 0 or 1")
            self.cutting = False
            self.dealer = outcome
            return
        card = card_of(outcome)
        if self.hand is None:
            if card in self.dealt:
                raise ValueError(f"chance outcome {outcome} ({card}) is not legal now: dealt")
            self.dealt += (card,)
            if len(self.dealt) == 21:
                dealt = set(self.dealt)
                rest = [c for c in DECK if c not in dealt]
                self.hand = Hand.from_deck(self.rules, self.dealer, [*self.dealt, *rest])
                self.number += 1
            return
        hand = self.hand
        cards = hand.deck
        top = 52 - hand.stock_count
        if card not in cards[top:]:
            raise ValueError(
                f"chance outcome {outcome} ({card}) is not legal now: not in the stock"
            )
        self.drawing = False
        if cards[top] is not card:
            deck = list(cards)
            at = deck.index(card)
            deck[top], deck[at] = deck[at], deck[top]
            hand = _replayed(hand, deck)
        hand.apply("draw")
        self.hand = hand

    def apply_action(self, action_id: int) -> None:
        hand = self.hand
        assert hand is not None
        action = _legal_action(hand, action_id)
        if action.kind is ActionKind.DRAW:
            self.drawing = True
            return
        hand.apply(action)
        if hand.is_over and self.tally is not None:
            self._next_hand(hand)

    def _next_hand(self, hand: Hand) -> None:
        assert self.tally is not None and hand.result is not None
        self.past = (
            (*self.past[0], _seen(hand, 0, self.tally.totals)),
            (*self.past[1], _seen(hand, 1, self.tally.totals)),
        )
        self.finished = (self.number, hand, self.tally.totals)
        self.tally = self.tally.add(hand.result)
        self.dealer = next_dealer(self.rules, self.dealer, hand.result)
        if not self.is_over:
            self.hand, self.dealt = None, ()

    def legal_actions(self) -> list[int]:
        assert self.hand is not None
        return sorted(map(to_openspiel, ids_of(self.hand.legal_actions())))

    def returns(self) -> list[float]:
        if not self.is_over:
            return [0.0, 0.0]
        if self.cut_off:
            return [0.0, 0.0]
        if self.tally is not None:
            winner = self.tally.final().winner if self.tally.is_over else None
        else:
            assert self.hand is not None and self.hand.result is not None
            result = self.hand.result
            if result.winner is not None:
                points = float(result.points)
                return [points, -points] if result.winner == 0 else [-points, points]
            winner = None
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    @property
    def scores(self) -> tuple[int, int]:
        return (0, 0) if self.tally is None else self.tally.totals

    # -- what a player knows -------------------------------------------------------------------

    def info_string(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order: finished hands, then this one."""
        lines = [f"{SHORT_NAME} seat {seat}", *self.past[seat]]
        if self.hand is None:
            mine = [
                str(c)
                for i, c in enumerate(self.dealt)
                if _dealt_to(i, self.dealer, self.rules) == seat
            ]
            lines.append(f"dealer {self.dealer}, dealt {' '.join(mine)}")
        else:
            lines.append(_seen(self.hand, seat, self.scores))
            if self.drawing:
                lines.append("drawing")
        return "\n".join(lines)

    def observation_string(
        self, seat: int, hands: tuple[int, ...] | None = None, *, public: bool = True
    ) -> str:
        """What ``seat`` observes now: the table (``public``) and the hands of ``hands``
        (his own by default)."""
        hands = (seat,) if hands is None else hands
        hand = self.hand
        if hand is None:
            return f"seat {seat}, dealing"
        view = hand.view(seat, self.scores)
        lines = [f"seat {seat}"]
        if public:
            lines[0] += (
                f" scores {view.scores[0]}-{view.scores[1]} dealer {view.dealer} "
                f"phase {view.phase} turn {view.current_player}"
            )
        for other in hands:
            cards = view.hand if other == seat else hand.view(other, self.scores).hand
            lines.append(f"hand {cards}" if other == seat else f"seat {other} hand {cards}")
        if public:
            lines.append(
                f"pile top {view.top_discard or '-'} ({len(view.discard_pile)} cards), "
                f"stock {view.stock_count}"
            )
            if view.opponent_known:
                lines.append(f"opponent took {view.opponent_known}")
            if view.knocker is not None:
                lines.append(f"knock: {' '.join(map(str, view.table_melds))}")
        return "\n".join(lines)


def _legal_action(hand: Hand, openspiel_id: int) -> Action:
    """The legal action of OpenSpiel's id; ``ValueError`` when none has it."""
    action_id = from_openspiel(openspiel_id, laying_off=hand.phase is Phase.LAYOFF)
    if action_id not in ids_of(hand.legal_actions()):
        raise ValueError(f"action id {openspiel_id} is not legal now")
    return ACTIONS[action_id]


def _dealt_to(position: int, dealer: int, rules: Rules) -> int | None:
    """Who gets the card at ``position`` of the deal (None for the upcard)."""
    if position < 20:
        return 1 - dealer if position % 2 == 0 else dealer
    return 1 - dealer if position == 20 and rules.deal == "eleven" else None


def _seen(hand: Hand, seat: int, scores: tuple[int, int]) -> str:
    view = hand.view(seat, scores)
    events = "; ".join(str(e) for e in view.history)
    # Both players see the first upcard, and a pass leaves no card in the history, so it is
    # written out; under Oklahoma it also sets the hand's knock limit, which both then know.
    deal = f"dealer {view.dealer} upcard {view.upcard or '-'}"
    if hand.rules.oklahoma:
        deal += f" knock limit {view.knock_limit}"
    text = f"scores {scores[0]}-{scores[1]} {deal} hand {view.hand} | {events}"
    if view.opponent_hand is not None:
        text += f" | opponent {view.opponent_hand}"
    return text


def _replayed(hand: Hand, deck: list[Card]) -> Hand:
    """``hand``'s actions played again on another deck (raises if one is not legal there)."""
    again = Hand.from_deck(hand.rules, hand.dealer, deck)
    for event in hand.events:
        again.apply(event.action)
    return again


def _resampled_deck(hand: Hand, seat: int, rng: random.Random) -> list[Card]:
    """A deck for ``hand`` that keeps what ``seat`` has seen and deals the rest anew."""
    deck = list(hand.deck)
    other = 1 - seat
    # The opponent's hidden sources: his dealt cards (time -1) and his stock draws (their time).
    slots = [(-1, p) for p in range(21) if _dealt_to(p, hand.dealer, hand.rules) == other]
    position = 21
    for time, event in enumerate(hand.events):
        if event.action.kind is ActionKind.DRAW:
            if event.seat == other:
                slots.append((time, position))
            position += 1
    hidden = {p for _, p in slots}
    where = {card: p for p, card in enumerate(deck)}
    # Cards from those sources he has shown (discarded, knocked with, laid off), and when.
    shown: dict[Card, int] = {}
    for time, event in enumerate(hand.events):
        if event.seat != other:
            continue
        action = event.action
        cards = list(event.laid_off) + ([action.card] if action.card is not None else [])
        if action.kind in (ActionKind.KNOCK, ActionKind.GIN):
            cards += hand.cards(other)  # a knocker's hand is laid down and never changes again
        for card in cards:
            if where[card] in hidden:
                shown.setdefault(card, time)
    free = sorted(slots)
    new = list(deck)
    for card, time in sorted(shown.items(), key=lambda item: item[1]):
        # Any slot he held before showing it; the slots each card may use are nested, so
        # taking any of them leaves every later card a slot.
        options = [slot for slot in free if slot[0] < time]
        slot = options[rng.randrange(len(options))]
        free.remove(slot)
        new[slot[1]] = card
    unseen = [deck[p] for p in (*sorted(hidden), *range(position, 52)) if deck[p] not in shown]
    rng.shuffle(unseen)
    for p, card in zip((*(p for _, p in free), *range(position, 52)), unseen, strict=True):
        new[p] = card
    return new


class GinRummyState(pyspiel.State):
    """A state of ``python_ginrummy``: a thin shell over :class:`_Table`."""

    def __init__(self, game: GinRummyGame, table: _Table) -> None:
        super().__init__(game)
        self._table = table
        #: This state as the current hand's deal began (taken the first time a world is
        #: resampled in the hand, then shared by every clone): a resampled world is that
        #: state with the hand dealt and played again on its new deck.
        self._start = _Start(0 if not table.cutting else None)

    @property
    def hand(self) -> Hand | None:
        """The hand being played (None while it is being dealt)."""
        return self._table.hand

    @property
    def scores(self) -> tuple[int, int]:
        """The game's score before this hand (0-0 in ``hand`` mode)."""
        return self._table.scores

    @property
    def hand_key(self) -> tuple[int, int]:
        """Tells the hand being played (or just over) from every other, in this game or any
        other: the game's key and how many hands it has dealt."""
        return self._table.game_key, self._table.number

    @property
    def finished_hand(self) -> tuple[tuple[int, int], Hand, tuple[int, int]] | None:
        """In ``game`` mode, the last finished hand: its :attr:`hand_key`, the hand and the
        score before it (None before the first ends)."""
        finished = self._table.finished
        if finished is None:
            return None
        number, hand, scores = finished
        return (self._table.game_key, number), hand, scores

    def view(self, player: int) -> PlayerView:
        """What ``player`` sees of the hand being played (raises while it is being dealt)."""
        hand = self._table.hand
        if hand is None:
            raise ValueError("the cards are still being dealt: no hand to see yet")
        return hand.view(player, self._table.scores)

    def current_player(self) -> int:
        return self._table.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._table.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        table = self._table
        if table.is_chance:
            table.apply_chance(int(action))
        else:
            table.apply_action(int(action))
        if table.hand is None and not table.dealt and not table.cutting:
            # A hand's deal begins after this action (the history is one longer by then).
            self._start = _Start(len(self.history()) + 1)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._table.cutting:
                return f"seat {action} deals first"
            return f"deal {card_of(action)}"
        hand = self._table.hand
        if hand is not None:
            with contextlib.suppress(ValueError):
                return str(_legal_action(hand, action))  # as it is played now
        # Named from the id alone (a history's actions are no longer legal): OpenSpiel's pass,
        # 54, is also the defender's "done".
        if action == to_openspiel(PASS):
            return "pass/done"
        if 0 <= action < OPENSPIEL_NUM_ACTIONS:
            return str(ACTIONS[from_openspiel(action)])
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self._table.is_over

    def returns(self) -> list[float]:
        return self._table.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> GinRummyState:
        """A state ``player_id`` cannot tell from this one, the unseen cards dealt anew: its
        ``history()`` deals and plays the hand as the new world has it (so the new world's
        history, replayed, is the new world), and holds nothing of the true deal that
        ``player_id`` has not seen."""
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        hand = self._table.hand
        same: GinRummyState = self.clone()
        if hand is None or hand.is_over:
            return same  # nothing to resample (being dealt, or over)
        # With ``must_gin`` a new world can make one of the opponent's past discards illegal
        # (he could have gone gin); such worlds are drawn again, and after RESAMPLE_TRIES the
        # true one is kept.
        for _ in range(RESAMPLE_TRIES):
            deck = _resampled_deck(hand, player_id, rng)
            try:
                return self._replayed(hand, deck)
            except (ValueError, IllegalActionError):
                continue
        return same

    def _replayed(self, hand: Hand, deck: list[Card]) -> GinRummyState:
        """This state with ``hand`` dealt from ``deck`` and played again (raises if a move is
        not legal there)."""
        state = self._start.at(self)
        for card in deck[:21]:
            state.apply_action(CARD_IDS[card.index])
        # The stock in the new world's order (the deal leaves it in any): each draw below is
        # then its top card, which chance deals without playing the hand again.
        table = state._table
        table.hand = Hand.from_deck(hand.rules, hand.dealer, deck)
        drawn = 21
        for event in hand.events:
            state.apply_action(to_openspiel(action_id(event.action)))
            if event.action.kind is ActionKind.DRAW:
                state.apply_action(CARD_IDS[deck[drawn].index])
                drawn += 1
        if self._table.drawing:
            state.apply_action(to_openspiel(action_id(ACTIONS[DRAW])))
        return state

    def __str__(self) -> str:
        table = self._table
        if table.hand is None:
            return f"dealing: {' '.join(map(str, table.dealt))}"
        return f"{table.hand}\nscores {table.scores[0]}-{table.scores[1]}"


_PER_PLAYER: Final = frozenset({"private_hand", "private_hands", "layed_melds"})


class _Start:
    """Where the current hand's deal begins in a state's history (None: not yet, the cut
    comes first), and the state there once it is needed; shared by the clones of a state,
    which have the same past (it copies as itself)."""

    __slots__ = ("at_length", "state")

    def __init__(self, at_length: int | None) -> None:
        self.at_length = at_length
        self.state: GinRummyState | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Start:
        return self

    def __reduce__(self) -> tuple[type[_Start], tuple[int | None]]:
        return (_Start, (self.at_length,))  # a pickle (serialize()) leaves the state out

    def at(self, now: GinRummyState) -> GinRummyState:
        """A fresh copy of the state where the hand ``now`` plays was about to be dealt."""
        if self.state is None:
            assert self.at_length is not None, "no hand is being played"
            state = now.get_game().new_initial_state()
            for action in now.history()[: self.at_length]:
                state.apply_action(action)
            self.state = state
        fresh: GinRummyState = self.state.clone()
        return fresh


class Observer:
    """OpenSpiel's observer interface, for each observation type OpenSpiel's own game has.

    Without perfect recall: a tensor (and ``dict`` of its parts, laid out as OpenSpiel's) and
    a string. The observing player is always marked; his own hand (``private_hand``) only for
    a single player's private information, both hands (``private_hands``) for all players',
    neither for none; the table (current player, knock card, upcard, pile, stock, melds) only
    with public information. So a public-only observer sees no card in anyone's hand. With
    perfect recall: only the string of everything the player has seen, and only for the
    default type (public information and the player's own), as OpenSpiel's game."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            perfect_recall, public, private = False, True, pyspiel.PrivateInfoType.SINGLE_PLAYER
        else:
            perfect_recall = bool(iig_obs_type.perfect_recall)
            public = bool(iig_obs_type.public_info)
            private = iig_obs_type.private_info
        if perfect_recall and not (public and private == pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(
                "an observer with perfect recall is only the information state: public "
                "information and the player's own private information"
            )
        self.perfect_recall = perfect_recall
        self.private = private
        self.public = public
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if perfect_recall:
            return
        parts: list[tuple[str, int, int]] = [TENSOR_LAYOUT[0]]
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            parts.append(TENSOR_LAYOUT[1])
        elif private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            parts.append(("private_hands", *TENSOR_LAYOUT[1][1:]))
        if public:
            parts.extend(TENSOR_LAYOUT[2:])
        #: Where each part comes from in the full tensor: (offset there, offset here, size).
        self._copies: list[tuple[int, int, int]] = []
        at = 0
        for _, offset, size in parts:
            self._copies.append((offset, at, size))
            at += size
        self.tensor = np.zeros(at, np.float32)
        self._full = np.zeros(TENSOR_SIZE, np.float32)
        for (name, _, size), (_, here, _) in zip(parts, self._copies, strict=True):
            part = self.tensor[here : here + size]
            self.dict[name] = part.reshape(2, -1) if name in _PER_PLAYER else part

    def set_from(self, state: GinRummyState, player: int) -> None:
        if self.tensor is None:
            return
        hand = state.hand
        full = self._full
        if hand is None:
            full.fill(0)
            full[player] = 1
        else:
            scores = state._table.scores
            if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
                other = 1 - player
                observation_tensor(hand.view(other, scores), full, openspiel_players=False)
                row = full[_HAND_OFFSET + other * 52 : _HAND_OFFSET + (other + 1) * 52].copy()
                observation_tensor(hand.view(player, scores), full, openspiel_players=False)
                full[_HAND_OFFSET + other * 52 : _HAND_OFFSET + (other + 1) * 52] = row
            else:
                observation_tensor(hand.view(player, scores), full, openspiel_players=False)
        for there, here, size in self._copies:
            self.tensor[here : here + size] = full[there : there + size]

    def string_from(self, state: GinRummyState, player: int) -> str:
        table = state._table
        if self.perfect_recall:
            return table.info_string(player)
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            seats: tuple[int, ...] = (player, 1 - player)
        elif self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            seats = (player,)
        else:
            seats = ()
        return table.observation_string(player, seats, public=self.public)


_HAND_OFFSET: Final = TENSOR_LAYOUT[1][1]


pyspiel.register_game(GAME_TYPE, GinRummyGame)
