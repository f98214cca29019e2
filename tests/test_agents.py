"""The computer players: every registered agent plays only legal actions under every rules
preset, ``simple`` and ``greedy`` do what their descriptions say, and the referee times and
polices them."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable

import pytest

from ginrummy.agents import (
    LEVELS,
    Agent,
    BaseAgent,
    agent_names,
    as_agent,
    get_agent,
    register,
    registry,
)
from ginrummy.agents.base import watches
from ginrummy.agents.basic import in_some_meld, used_pairs
from ginrummy.agents.play import AgentError, DecisionTimes, play_game, play_hand, play_match
from ginrummy.engine import (
    Action,
    ActionKind,
    Card,
    Event,
    Hand,
    Phase,
    PlayerView,
    Rules,
    best_arrangements,
    parse_cards,
)
from ginrummy.engine.actions import AUTO, DISCARDS, DONE, DRAW, GINS, KNOCKS, LAYOFFS, PASS, TAKE
from ginrummy.engine.match import Match
from ginrummy.engine.melds import deadwood, discard_deadwoods_mask, parse_melds

# ---------------------------------------------------------------------------------------------
# Every agent plays only legal actions

#: Every preset, and the options that change which actions are legal.
RULE_SETS = {
    **{name: Rules.preset(name) for name in Rules.presets()},
    "must_gin": Rules(must_gin=True),
    "big_gin": Rules(big_gin=True),
    "wall_pickup": Rules(wall_pickup=True),
    "eleven": Rules(deal="eleven"),
    "straight_big_gin_wall": Rules(knock_limit=0, big_gin=True, wall_pickup=True, must_gin=True),
}
HANDS_PER_RULE_SET = 6
#: The expert weighs fewer worlds here, its successive halving still pruning twice: which
#: actions it may choose does not depend on how many worlds it weighs, and at its default 768
#: this test alone took most of the suite's time.
CHEAPER = {"expert": "expert:worlds=96,prune=24/48"}


def _is_legal(hand: Hand, view: PlayerView, action: object, seat: int) -> bool:
    if action in view.legal_actions:
        return True
    return isinstance(action, Action) and action.melds is not None and hand.is_legal(action, seat)


@pytest.mark.parametrize("name", agent_names())
@pytest.mark.parametrize("rules_name", sorted(RULE_SETS))
def test_agent_plays_only_legal_actions(name: str, rules_name: str) -> None:
    """Hands are driven by a mix of random and simple play, so the knocks, layoffs and walls
    come up too; at every decision point the agent under test is asked what it would do."""
    rules = RULE_SETS[rules_name]
    rng = random.Random(f"{name}:{rules_name}")
    driver_random, driver_simple = get_agent("random"), get_agent("simple")
    asked = 0
    for number in range(HANDS_PER_RULE_SET):
        hand = Hand.deal(rules, number % 2, rng.randrange(1 << 30))
        spec = CHEAPER.get(name, name)
        players = (get_agent(spec), get_agent(spec))  # one per seat, each seeing its own seat
        for player in players:
            if callable(new_hand := getattr(player, "new_hand", None)):
                new_hand()
        scores = (rng.randrange(100), rng.randrange(100))
        while (seat := hand.current_player) is not None:
            if callable(observe := getattr(players[1 - seat], "observe", None)):
                observe(hand.view(1 - seat, scores))
            view = hand.view(seat, scores)
            action = players[seat].act(view, random.Random(asked))
            asked += 1
            assert _is_legal(hand, view, action, seat), (
                f"{name} chose {action} in {view.phase} under {rules_name}: {hand}"
            )
            driver = driver_random if rng.random() < 0.35 else driver_simple
            hand.apply(driver.act(view, rng))
    assert asked >= 150, asked


def test_agents_finish_games_under_every_rule_set() -> None:
    for rules in RULE_SETS.values():
        outcome = play_game(rules.replace(game_target=30), ("simple", "greedy"), seed=7)
        assert outcome.winner in (0, 1)
        assert outcome.results


# ---------------------------------------------------------------------------------------------
# Views built directly


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def draw_view(
    hand: str, top: str, *, phase: Phase = Phase.DRAW, knock_limit: int = 10
) -> PlayerView:
    legal = (TAKE, PASS) if phase is Phase.FIRST_UPCARD else (TAKE, DRAW)
    top_card = Card.parse(top)
    return PlayerView(
        seat=0,
        hand=parse_cards(hand),
        phase=phase,
        current_player=0,
        dealer=1,
        discard_pile=(top_card,),
        upcard=top_card,
        knock_limit=knock_limit,
        legal_actions=legal,
    )


def discard_view(
    hand: str,
    *,
    drawn: str | None = None,
    taken: bool = False,
    history: Iterable[Event] = (),
    knock_limit: int = 10,
    rules: Rules | None = None,
) -> PlayerView:
    """Seat 0 holding 11 cards after drawing ``drawn`` (from the pile when ``taken``), with the
    legal actions the engine would give."""
    held = parse_cards(hand)
    events = list(history)
    taken_card = None
    if drawn is not None:
        card = Card.parse(drawn)
        assert card in held
        kind = TAKE if taken else DRAW
        events.append(Event(len(events) + 1, 0, kind, card))
        taken_card = card if taken else None
    table = discard_deadwoods_mask(held.mask)
    legal: list[Action] = []
    for card in held:
        if card is taken_card:
            continue
        legal.append(DISCARDS[card.index])
        if table[card.index] == 0:
            legal.append(GINS[card.index])
        elif table[card.index] <= knock_limit:
            legal.append(KNOCKS[card.index])
    return PlayerView(
        seat=0,
        hand=held,
        phase="discard",
        current_player=0,
        dealer=1,
        taken_card=taken_card,
        knock_limit=knock_limit,
        legal_actions=tuple(legal),
        history=tuple(events),
        rules=rules or Rules(),
        stock_count=20,
    )


def choices(agent_name: str, view: PlayerView, tries: int = 40) -> set[str]:
    """Every action text the agent chooses over ``tries`` random generators."""
    agent = get_agent(agent_name)
    return {str(agent.act(view, random.Random(seed))) for seed in range(tries)}


def kinds(agent_name: str, view: PlayerView, tries: int = 20) -> set[ActionKind]:
    agent = get_agent(agent_name)
    return {agent.act(view, random.Random(seed)).kind for seed in range(tries)}


# ---------------------------------------------------------------------------------------------
# simple


@pytest.mark.parametrize(
    ("hand", "top", "makes_meld"),
    [
        ("7h 8h 2c 4d 6s Jc Qd Ks 3h 9c", "9h", True),  # completes a run at the top
        ("7h 9h 2c 4d 6s Jc Qd Ks 3h 5c", "8h", True),  # fills the gap
        ("9s 9d 2c 4d 6s Jc Qd Ks 3h 5c", "9c", True),  # a set of three
        ("7h 8h 9h 9s 9d 2c 4d Jc Qd Ks", "9c", True),  # a meld outside the best arrangement
        ("7h 8h 2c 4d 6s Jc Qd Ks 3h 5c", "Th", False),  # a near-meld is not a meld
        ("9s 2c 4d 6s Jc Qd Ks 3h 5c Ad", "9c", False),  # a pair is not a meld
        ("Qh Kh 2c 4d 6s Jc Qd Ks 3h 5c", "Ah", False),  # no wrap-around K-A
        ("7h 8h 9h Tc 2c 4d Jc Qd Ks 3s", "5h", False),  # two away from a run
    ],
)
def test_simple_takes_the_upcard_iff_it_makes_a_meld(hand: str, top: str, makes_meld: bool) -> None:
    assert in_some_meld(parse_cards(hand).mask, Card.parse(top)) is makes_meld
    expected = TAKE if makes_meld else DRAW
    assert choices("simple", draw_view(hand, top)) == {str(expected)}
    first = PASS if not makes_meld else TAKE
    assert choices("simple", draw_view(hand, top, phase=Phase.FIRST_UPCARD)) == {str(first)}


def test_simple_never_discards_the_card_just_taken() -> None:
    # Throwing the Kd back would leave 20 deadwood, the least; the 9c (21) goes instead.
    hand = "As 2s 3s 7h 7d 7c 9c 5c 4h 2d Kd"
    assert choices("simple", discard_view(hand, drawn="Kd")) == {"discard Kd"}
    assert choices("simple", discard_view(hand, drawn="Kd", taken=True)) == {"discard 9c"}


def test_simple_discards_the_least_deadwood_card_at_random_among_ties() -> None:
    view = discard_view("As 2s 3s 7h 7d 7c Kd Qc 5c 9h 8d", drawn="8d")
    assert choices("simple", view, tries=60) == {"discard Kd", "discard Qc"}


def test_simple_remembers_the_pairs_it_drew_and_discarded() -> None:
    # Earlier this hand seat 0 drew 2c and threw Kd; now 2c came back from the pile with Kd in
    # hand again, so {2c, Kd} may not be repeated and Qc (next least deadwood) goes instead.
    history = [
        Event(1, 0, DRAW, Card.parse("2c")),
        Event(2, 0, DISCARDS[Card.parse("Kd").index], Card.parse("Kd")),
        Event(3, 1, TAKE, Card.parse("Kd")),
        Event(4, 1, DISCARDS[Card.parse("Jh").index], Card.parse("Jh")),
    ]
    hand = "As 2s 3s 7h 7d 7c Kd 9c 5c 4h 2c"
    fresh = discard_view(hand, drawn="2c", taken=True)
    assert choices("simple", fresh) == {"discard Kd"}
    view = discard_view(hand, drawn="2c", taken=True, history=history)
    assert used_pairs(view) == {Card.parse("2c").bit | Card.parse("Kd").bit}
    assert choices("simple", view) == {"discard 9c"}


def test_simple_knocks_as_soon_as_it_can() -> None:
    view = discard_view("As 2s 3s 7h 7d 7c 9c Tc Jc 4d 5h", drawn="5h")
    chosen = {get_agent("simple").act(view, random.Random(s)) for s in range(20)}
    assert {a.kind for a in chosen} == {ActionKind.KNOCK}
    assert {str(a.card) for a in chosen} == {"5h"}  # leaves the 4d: 4 deadwood
    rest = view.hand.mask & ~Card.parse("5h").bit
    arrangements = {a.melds for a in best_arrangements(rest)}
    for action in chosen:
        assert action.melds is None or action.melds in arrangements


def test_simple_knocks_with_a_random_minimum_deadwood_arrangement() -> None:
    # The 4s goes in the run 3s4s5s or the set 4s4h4d: either leaves 9 deadwood.
    view = discard_view("3s 4s 5s 4h 4d 8c 9c Tc Jc Ad Kd", drawn="Kd")
    rest = view.hand.mask & ~Card.parse("Kd").bit
    arrangements = best_arrangements(rest)
    assert len(arrangements) > 1
    chosen = {get_agent("simple").act(view, random.Random(s)) for s in range(40)}
    assert {a.kind for a in chosen} == {ActionKind.KNOCK}
    assert {a.melds for a in chosen} == {a.melds for a in arrangements}


def test_simple_does_not_wait_for_gin_but_takes_gin() -> None:
    gin = discard_view("As 2s 3s 7h 7d 7c 9c Tc Jc Qc Kd", drawn="Kd")
    assert choices("simple", gin) == {"gin Kd"}
    straight = discard_view("As 2s 3s 7h 7d 7c 9c Tc Jc 4d 5h", drawn="5h", knock_limit=0)
    assert kinds("simple", straight) == {ActionKind.DISCARD}


def test_simple_lays_off_with_auto_and_takes_at_the_wall() -> None:
    layoff = PlayerView(
        seat=1,
        hand=parse_cards("8s 9s Kh Kd Qh 4c 2d Ac 5h 6d"),
        phase="layoff",
        current_player=1,
        dealer=0,
        knocker=0,
        table_melds=tuple(parse_melds("5s6s7s JcJsJh")),
        legal_actions=(LAYOFFS[Card.parse("8s").index], DONE, AUTO),
    )
    assert choices("simple", layoff) == {"auto"}
    wall = PlayerView(
        seat=0,
        hand=parse_cards("As 2s 3s 7h 7d 7c 9c Tc Jc 4d"),
        phase="wall",
        current_player=0,
        dealer=1,
        discard_pile=(Card.parse("2d"),),
        legal_actions=(TAKE, PASS),
    )
    assert choices("simple", wall) == {"take"}


# ---------------------------------------------------------------------------------------------
# greedy


def test_greedy_discards_its_highest_deadwood_card() -> None:
    # Melds As-3s and the 7s; deadwood 9c 5c Kd 2h 4d: the king goes.
    view = discard_view("As 2s 3s 7h 7d 7c 9c 5c Kd 2h 4d", drawn="4d")
    assert choices("greedy", view) == {"discard Kd"}


def test_greedy_never_discards_the_card_just_taken() -> None:
    view = discard_view("As 2s 3s 7h 7d 7c Kh Qc 5c 9h Kd", drawn="Kd", taken=True)
    assert choices("greedy", view) == {"discard Kh", "discard Qc"}


def test_greedy_knocks_whenever_possible_with_the_least_deadwood() -> None:
    view = discard_view("As 2s 3s 7h 7d 7c 9c Tc Jc 4d 5h", drawn="5h")
    assert choices("greedy", view) == {"knock 5h"}
    gin = discard_view("As 2s 3s 7h 7d 7c 9c Tc Jc Qc Kd", drawn="Kd")
    assert choices("greedy", gin) == {"gin Kd"}


@pytest.mark.parametrize(
    ("hand", "top", "takes"),
    [
        ("As 2s 3s 7h 7d 7c 9c Tc 4d 5h", "Jc", True),  # melds and knocks at once
        ("7h 8h 2c 4d 6s Jc Qd Ks 3h 5c", "9h", True),  # melded in the best arrangement
        ("As 2s 3s 7h 7d 9c Tc Kd 4d 5h", "2h", False),  # deadwood, and no knock
        ("As 2s 3s 7h 7d 7c 9c Tc Jc Kd", "3d", True),  # deadwood, but knocks (Kd goes)
    ],
)
def test_greedy_takes_the_upcard_for_a_knock_or_a_meld(hand: str, top: str, takes: bool) -> None:
    assert choices("greedy", draw_view(hand, top)) == {"take" if takes else "draw"}


# ---------------------------------------------------------------------------------------------
# random, beginner and intermediate


def test_random_is_uniform_over_the_legal_actions() -> None:
    view = discard_view("As 2s 3s 7h 7d 7c 9c 5c Kd 2h 4d", drawn="4d")
    agent = get_agent("random")
    counts: dict[Action, int] = {}
    for seed in range(2000):
        action = agent.act(view, random.Random(seed))
        counts[action] = counts.get(action, 0) + 1
    assert set(counts) == set(view.legal_actions)
    assert min(counts.values()) > 2000 / len(view.legal_actions) / 2


def test_beginner_and_intermediate_take_a_meld_and_play_gin() -> None:
    for name in ("beginner", "intermediate"):
        assert choices(name, draw_view("7h 8h 2c 4d 6s Jc Qd Ks 3h 5c", "9h")) == {"take"}
        gin = discard_view("As 2s 3s 7h 7d 7c 9c Tc Jc Qc Kd", drawn="Kd")
        assert choices(name, gin) == {"gin Kd"}


def test_intermediate_is_wary_of_knocking_late_with_high_deadwood() -> None:
    history = [Event(n, 1, DRAW) for n in range(1, 13)]
    late = discard_view("As 2s 3s 7h 7d 7c 9c Tc Jc 8d 5h", drawn="5h", history=history)
    assert deadwood(cards("As 2s 3s 7h 7d 7c 9c Tc Jc 5h")) == 5
    assert kinds("intermediate", late) == {ActionKind.DISCARD}
    assert kinds("simple", late) == {ActionKind.KNOCK}
    early = discard_view("As 2s 3s 7h 7d 7c 9c Tc Jc 8d 5h", drawn="5h")
    assert kinds("intermediate", early) == {ActionKind.KNOCK}


def test_agents_refuse_a_view_with_nothing_to_do() -> None:
    idle = PlayerView(seat=0, hand=parse_cards("As 2s"), phase="draw", current_player=1, dealer=0)
    for name in ("random", "simple", "greedy", "beginner", "intermediate"):
        with pytest.raises(ValueError, match="nothing to do"):
            get_agent(name).act(idle, random.Random(0))


# ---------------------------------------------------------------------------------------------
# The referee


class Recorder(BaseAgent):
    name = "recorder"

    def __init__(self) -> None:
        self.hands = 0
        self.observed = 0

    def new_hand(self) -> None:
        self.hands += 1

    def observe(self, view: PlayerView) -> None:
        self.observed += 1
        assert not view.is_my_turn

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        return rng.choice(view.legal_actions)


class Cheat(BaseAgent):
    name = "cheat"

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        if view.phase == Phase.DISCARD and view.taken_card is not None:
            return DISCARDS[view.taken_card.index]
        return TAKE if TAKE in view.legal_actions else view.legal_actions[0]


def test_play_hand_calls_new_hand_and_observe_and_times_every_decision() -> None:
    recorder = Recorder()
    times = DecisionTimes()
    hand = play_hand(Rules(), 0, 5, (recorder, get_agent("simple")), times=times)
    assert hand.is_over and hand.result is not None
    assert recorder.hands == 1 and recorder.observed > 0
    decisions = [e.seat for e in hand.events]
    assert len(times.seconds[0]) == decisions.count(0)
    assert len(times.seconds[1]) == decisions.count(1)
    assert all(t >= 0 for t in times.seconds[0] + times.seconds[1])


def test_play_hand_is_reproducible_from_its_seed() -> None:
    first = play_hand(Rules(), 1, 42, ("simple", "intermediate"))
    second = play_hand(Rules(), 1, 42, ("simple", "intermediate"))
    assert first.action_texts == second.action_texts
    assert first.deck == Hand.deal(Rules(), 1, 42).deck


def test_an_illegal_action_names_the_agent() -> None:
    with pytest.raises(AgentError, match="'cheat' \\(seat 1\\)"):
        play_hand(Rules(), 0, 1, ("simple", Cheat()))


def test_play_game_follows_the_rules_scoring() -> None:
    outcome = play_game(Rules.preset("eaai"), ("intermediate", "random"), seed=11)
    assert outcome.agents == ("intermediate", "random")
    assert outcome.winner == 0
    assert outcome.totals[0] >= 100  # EAAI: no bonuses, so the total is the hand points
    assert outcome.totals[0] == sum(r.points for r in outcome.results if r.winner == 0)
    assert outcome.record.replay(play=True).final().winner == 0
    assert len(outcome.times[0]) > 0 and len(outcome.times[1]) > 0


def test_play_match_plays_games_to_the_match_target_and_says_it_is_a_match() -> None:
    rules = Rules.preset("eaai").replace(game_target=25, match_target=100)  # no bonuses

    class Noting:
        name = "noting"

        def __init__(self) -> None:
            self.points: list[tuple[int, int] | None] = []

        def act(self, view: PlayerView, rng: random.Random) -> Action:
            self.points.append(view.match_points)
            return get_agent("simple").act(view, rng)

    noting = Noting()
    outcome = play_match(rules, (noting, "simple"), seed=5)
    assert outcome.agents == ("noting", "simple")
    replayed = outcome.record.replay(play=True)
    assert isinstance(replayed, Match) and len(replayed.games) > 1
    final = replayed.final()
    assert outcome.winner == final.winner and outcome.totals == final.totals
    assert outcome.totals[final.winner] >= 100
    assert len(outcome.results) == sum(len(g.hands) for g in replayed.games)
    # Every view says it is a game of a match, with the match points before that game.
    assert noting.points[0] == (0, 0) and None not in noting.points
    told = {p for p in noting.points if p is not None}
    assert told == {_before(replayed, n) for n in range(len(replayed.games))}
    assert play_match(rules, (Noting(), "simple"), seed=5).totals == outcome.totals


def _before(match: Match, number: int) -> tuple[int, int]:
    """The match points before game ``number`` (from 0) of ``match``."""
    points = [0, 0]
    for game in match.games[:number]:
        final = game.final()
        if final.winner is not None:
            points[final.winner] += final.net
    return (points[0], points[1])


# ---------------------------------------------------------------------------------------------
# The protocol, players with only ``act``, and the registry


class FirstLegal:
    """A player written elsewhere: ``act`` only, no name, no hooks."""

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        return view.legal_actions[0]


class Watcher(FirstLegal):
    """``act`` and ``observe``, but no ``new_hand`` and no name."""

    def __init__(self) -> None:
        self.seen = 0

    def observe(self, view: PlayerView) -> None:
        self.seen += 1


def test_every_registered_agent_is_a_whole_agent() -> None:
    for name in agent_names():
        agent = get_agent(name)
        assert isinstance(agent, Agent) and agent.name == name
        agent.new_hand()  # part of the protocol: no agent needs a check first
    # Nobody builds views an agent would not read: the expert reads how each hand ended (his
    # knocking style), unless told not to.
    assert not watches(get_agent("expert:read_style=false"))
    assert not watches(get_agent("simple"))
    assert watches(get_agent("expert"))
    assert watches(Recorder())


def test_a_player_with_only_act_plays_through_an_adapter() -> None:
    player = FirstLegal()
    assert not isinstance(player, Agent)
    agent = as_agent(player)
    assert isinstance(agent, Agent) and agent.name == "FirstLegal" and not watches(agent)
    agent.new_hand()
    hand = play_hand(Rules(), 0, 3, (player, "simple"))
    assert hand.is_over
    outcome = play_game(Rules.preset("eaai"), ("simple", FirstLegal()), seed=2)
    assert outcome.agents == ("simple", "FirstLegal")


def test_the_adapter_passes_on_the_hooks_a_player_has() -> None:
    watcher = Watcher()
    agent = as_agent(watcher)
    assert watches(agent)
    play_hand(Rules(), 0, 3, (watcher, "simple"))
    assert watcher.seen > 0
    recorder = Recorder()
    assert as_agent(recorder) is recorder  # a whole agent is used as it is


def test_register_adds_an_agent_and_may_replace_a_built_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_added", {})
    builtin = agent_names()
    register("first-legal", FirstLegal)
    assert agent_names() == sorted([*builtin, "first-legal"])
    agent = get_agent("first-legal")
    assert isinstance(agent, Agent) and agent.name == "FirstLegal"
    register("simple", Recorder)
    assert isinstance(get_agent("simple"), Recorder)
    assert agent_names() == sorted([*builtin, "first-legal"])
    with pytest.raises(ValueError, match="unknown agent 'nobody'; known agents: beginner"):
        get_agent("nobody")


def test_levels_are_registered_agents_weakest_first() -> None:
    assert LEVELS == ("beginner", "intermediate", "expert")
    assert set(LEVELS) <= set(agent_names())


def test_an_agents_settings_are_changed_after_a_colon() -> None:
    agent = get_agent("expert:worlds=64,discards=3,search=false,take_gain=2")
    settings = agent.settings  # type: ignore[attr-defined]
    assert (settings.worlds, settings.discards, settings.search, settings.take_gain) == (
        64,
        3,
        False,
        2,
    )
    assert get_agent("expert").settings.worlds == 768  # type: ignore[attr-defined]
    pruned = get_agent("expert:prune=64/160,keep=4/2").settings  # type: ignore[attr-defined]
    assert (pruned.prune, pruned.keep) == ((64, 160), (4, 2))
    # The same decisions as an expert made with those settings directly.
    from ginrummy.agents.expert import ExpertAgent, Settings

    direct = ExpertAgent(Settings(worlds=64, discards=3, search=False, take_gain=2))
    view = discard_view("As 2s 3s 7h 7d 7c 9c Tc 4d Kh Qs", drawn="Qs")
    for seed in range(5):
        assert agent.act(view, random.Random(seed)) == direct.act(view, random.Random(seed))


def test_the_settings_that_may_be_negative_take_a_minus() -> None:
    agent = get_agent("expert:knock_bias=-2.5,knock_bias_behind=-3,patient_late=-1")
    settings = agent.settings  # type: ignore[attr-defined]
    assert (settings.knock_bias, settings.knock_bias_behind, settings.patient_late) == (
        -2.5,
        -3,
        -1,
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("expert:wrlds=64", "expert has no setting 'wrlds'"),
        ("expert:worlds", "expert has no setting 'worlds'"),
        ("expert:worlds=abc", "expert's worlds is a whole number, not 'abc'"),
        ("expert:search=maybe", "expert's search is true or false, not 'maybe'"),
        ("expert:worlds=-1", "expert's worlds cannot be '-1'"),
        ("expert:sharpness=nan", "expert's sharpness cannot be 'nan'"),
        ("expert:knock_bias=nan", "expert's knock_bias cannot be 'nan'"),
        ("expert:knock_bias_behind=-inf", "expert's knock_bias_behind cannot be '-inf'"),
        ("expert:prune=64", "expert's prune is 2 whole numbers joined by '/' (now 128/320)"),
        ("expert:keep=3/x", "expert's keep is 2 whole numbers joined by '/' (now 3/2), not '3/x'"),
        ("expert:", "expert: no setting after the colon"),
        ("simple:worlds=3", "simple has no settings to change"),
        ("nobody:worlds=3", "unknown agent 'nobody'"),
    ],
)
def test_a_bad_setting_is_refused_in_one_line(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        get_agent(name)


def test_the_arena_plays_an_agent_with_changed_settings(capsys: pytest.CaptureFixture[str]) -> None:
    from ginrummy.cli.main import main

    argv = ["arena", "expert:worlds=16", "simple", "--games", "1", "--seed", "2", "--json"]
    assert main([*argv, "--jobs", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agents"][0]["name"] == "expert:worlds=16"
    assert main(["arena", "expert:wrlds=16", "simple", "--games", "1"]) == 2
    assert "expert has no setting 'wrlds'" in capsys.readouterr().err
