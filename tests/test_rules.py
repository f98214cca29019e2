"""Rules options: presets, validation, serialisation, description and Oklahoma's per-hand rules."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginrummy.engine.cards import Card
from ginrummy.engine.errors import GinRummyError, InvalidRulesError, RulesWordError
from ginrummy.engine.rules import Rules

FIELDS = (
    "knock_limit",
    "gin_bonus",
    "big_gin",
    "big_gin_bonus",
    "undercut_bonus",
    "undercut_on_tie",
    "must_gin",
    "deal",
    "wall_pickup",
    "oklahoma",
    "oklahoma_ace",
    "oklahoma_spade_double",
    "oklahoma_double_boxes",
    "first_dealer",
    "first_dealer_seat",
    "next_dealer",
    "dead_hand_dealer",
    "box_bonus",
    "game_bonus",
    "shutout",
    "shutout_bonus",
    "game_target",
    "match_target",
    "hollywood",
    "stake",
)


def test_defaults_are_the_standard_game() -> None:
    r = Rules()
    assert tuple(r.to_dict()) == tuple(FIELDS)
    assert (r.knock_limit, r.gin_bonus, r.big_gin, r.big_gin_bonus) == (10, 25, False, 31)
    assert (r.undercut_bonus, r.undercut_on_tie, r.must_gin) == (25, True, False)
    assert (r.deal, r.wall_pickup, r.oklahoma, r.oklahoma_ace) == ("standard", False, False, "gin")
    assert (r.oklahoma_spade_double, r.oklahoma_double_boxes) == (True, False)
    assert (r.first_dealer, r.first_dealer_seat, r.next_dealer) == ("cut", 0, "winner")
    assert (r.dead_hand_dealer, r.box_bonus, r.game_bonus) == ("same", 25, 100)
    assert (r.shutout, r.shutout_bonus, r.game_target, r.match_target) == ("bonus", 100, 100, 500)
    assert (r.hollywood, r.stake) == (False, Decimal(0))


# -- presets -------------------------------------------------------------------------------------

PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "standard": {},
    "modern": {"shutout": "double"},
    "classic": {"gin_bonus": 20, "undercut_bonus": 10, "box_bonus": 20},
    "eaai": {"box_bonus": 0, "game_bonus": 0, "shutout": "none", "next_dealer": "alternate"},
    "oklahoma": {"oklahoma": True, "game_target": 150},
    "straight": {"knock_limit": 0},
    "hollywood": {"hollywood": True},
}


def test_preset_names() -> None:
    assert Rules.presets() == tuple(PRESET_CHANGES)


@pytest.mark.parametrize("name", PRESET_CHANGES)
def test_preset_values(name: str) -> None:
    rules = Rules.preset(name)
    standard = Rules().to_dict()
    assert rules.to_dict() == {**standard, **PRESET_CHANGES[name]}
    assert rules.preset_name() == name


def test_preset_school_values_spelled_out() -> None:
    modern = Rules.preset("modern")
    assert (modern.gin_bonus, modern.undercut_bonus, modern.box_bonus) == (25, 25, 25)
    assert (modern.game_bonus, modern.shutout) == (100, "double")
    classic = Rules.preset("classic")
    assert (classic.gin_bonus, classic.undercut_bonus, classic.box_bonus) == (20, 10, 20)
    assert classic.game_bonus + classic.shutout_bonus == 200
    eaai = Rules.preset("eaai")
    assert (eaai.game_target, eaai.knock_limit, eaai.gin_bonus, eaai.undercut_bonus) == (
        100, 10, 25, 25,
    )  # fmt: skip
    assert eaai.undercut_on_tie and eaai.dead_hand_dealer == "same"
    assert (eaai.box_bonus, eaai.game_bonus, eaai.shutout) == (0, 0, "none")


def test_preset_with_overrides() -> None:
    rules = Rules.preset("oklahoma", oklahoma_ace="one", stake="0.10")
    assert rules.oklahoma and rules.oklahoma_ace == "one" and rules.stake == Decimal("0.10")
    assert rules.preset_name() is None


def test_unknown_preset_lists_the_known_ones() -> None:
    with pytest.raises(InvalidRulesError, match="standard, modern, classic, eaai"):
        Rules.preset("texas")


def test_bad_override_is_rejected() -> None:
    with pytest.raises(InvalidRulesError, match="unknown rule option"):
        Rules.preset("modern", gin=30)
    with pytest.raises(InvalidRulesError, match="knock_limit"):
        Rules.preset("straight", knock_limit=-1)


def test_preset_name_none_for_custom_rules() -> None:
    assert Rules(gin_bonus=30).preset_name() is None
    assert Rules(knock_limit=0).preset_name() == "straight"


# -- replace -------------------------------------------------------------------------------------


def test_replace_returns_a_validated_copy() -> None:
    base = Rules()
    changed = base.replace(gin_bonus=20, stake=2)
    assert changed.gin_bonus == 20 and changed.stake == Decimal(2)
    assert base.gin_bonus == 25
    with pytest.raises(InvalidRulesError, match="gin_bonus"):
        base.replace(gin_bonus=-5)


def test_replace_rejects_unknown_options() -> None:
    with pytest.raises(InvalidRulesError, match=r"unknown rule option.*colour, knocklimit"):
        Rules().replace(knocklimit=5, colour="red")


def test_rules_are_frozen_and_hashable() -> None:
    with pytest.raises(AttributeError):
        Rules().gin_bonus = 3  # type: ignore[misc]
    assert len({Rules(), Rules(), Rules(stake=Decimal("0.0")), Rules.preset("modern")}) == 2


# -- validation ----------------------------------------------------------------------------------

BAD_VALUES: list[tuple[dict[str, Any], str]] = [
    ({"knock_limit": -1}, "between 0 and 10"),
    ({"knock_limit": 11}, "between 0 and 10.*gin only"),
    ({"knock_limit": 10.0}, "whole number"),
    ({"knock_limit": "10"}, "whole number"),
    ({"knock_limit": True}, "whole number"),
    ({"gin_bonus": -1}, "gin_bonus must be at least 0"),
    ({"big_gin_bonus": -31}, "big_gin_bonus"),
    ({"undercut_bonus": -25}, "undercut_bonus"),
    ({"box_bonus": -1}, "box_bonus"),
    ({"game_bonus": -100}, "game_bonus"),
    ({"shutout_bonus": -1}, "shutout_bonus"),
    ({"game_target": 0}, "game_target must be at least 1"),
    ({"game_target": -100}, "game_target"),
    ({"match_target": -1}, "match_target must be at least 0"),
    ({"match_target": 99}, "below game_target"),
    ({"game_target": 600}, "below game_target"),
    ({"first_dealer_seat": 2}, "seats are 0 and 1"),
    ({"first_dealer_seat": -1}, "first_dealer_seat"),
    ({"first_dealer_seat": False}, "whole number"),
    ({"deal": "ten"}, "deal must be one of standard, eleven"),
    ({"deal": None}, "deal must be one of"),
    ({"first_dealer": "random"}, "cut, fixed"),
    ({"next_dealer": "dealer"}, "winner, alternate, loser"),
    ({"dead_hand_dealer": "winner"}, "same, alternate"),
    ({"shutout": "triple"}, "bonus, double, none"),
    ({"oklahoma_ace": 1}, "gin, one"),
    ({"big_gin": 1}, "true or false"),
    ({"undercut_on_tie": "yes"}, "true or false"),
    ({"must_gin": None}, "true or false"),
    ({"wall_pickup": 0}, "true or false"),
    ({"oklahoma": "true"}, "true or false"),
    ({"oklahoma_spade_double": 1}, "true or false"),
    ({"oklahoma_double_boxes": 0}, "true or false"),
    ({"hollywood": "no"}, "true or false"),
    ({"stake": -1}, "at least 0"),
    ({"stake": "-0.01"}, "at least 0"),
    ({"stake": "NaN"}, "finite"),
    ({"stake": "Infinity"}, "finite"),
    ({"stake": "ten"}, "not a decimal number"),
    ({"stake": 0.1}, "decimal string"),
    ({"stake": True}, "decimal string"),
    ({"stake": None}, "decimal string"),
    ({"oklahoma": True, "deal": "eleven"}, "eleven-card deal.*no upcard"),
]


@pytest.mark.parametrize(("changes", "message"), BAD_VALUES)
def test_invalid_values_are_rejected(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Rules(**changes)
    with pytest.raises(InvalidRulesError, match=message):
        Rules().replace(**changes)
    with pytest.raises(InvalidRulesError, match=message):
        Rules.from_dict(changes)


def test_invalid_rules_error_is_a_value_error() -> None:
    assert issubclass(InvalidRulesError, ValueError)
    assert issubclass(InvalidRulesError, GinRummyError)


GOOD_VALUES: list[dict[str, Any]] = [
    {"knock_limit": 0},
    {"knock_limit": 0, "must_gin": True},
    {"knock_limit": 10, "must_gin": True},
    {"undercut_bonus": 0, "gin_bonus": 0, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0},
    {"match_target": 0, "game_target": 1000},
    {"match_target": 100, "game_target": 100},
    {"big_gin": False, "big_gin_bonus": 0},
    {"hollywood": True, "match_target": 0},
    {"hollywood": True, "oklahoma": True},
    {"deal": "eleven"},
    {"first_dealer": "fixed", "first_dealer_seat": 1},
    {"oklahoma": True, "knock_limit": 0},
]


@pytest.mark.parametrize("changes", GOOD_VALUES)
def test_unusual_but_possible_values_are_accepted(changes: dict[str, Any]) -> None:
    assert Rules(**changes).to_dict() == {**Rules().to_dict(), **changes}


@pytest.mark.parametrize(
    ("value", "expected"),
    [(2, Decimal(2)), ("0.05", Decimal("0.05")), (" 1.5 ", Decimal("1.5")),
     (Decimal("0.10"), Decimal("0.1")), ("-0", Decimal(0)), ("1e2", Decimal(100))],
)  # fmt: skip
def test_stake_is_normalised_to_decimal(value: object, expected: Decimal) -> None:
    stake = Rules(stake=value).stake  # type: ignore[arg-type]
    assert isinstance(stake, Decimal) and stake == expected and not stake.is_signed()


def test_int_subclasses_are_stored_as_int() -> None:
    class Points(int):
        pass

    rules = Rules(gin_bonus=Points(20))
    assert type(rules.gin_bonus) is int and rules.gin_bonus == 20


# -- to_dict / from_dict -------------------------------------------------------------------------


def valid_rules() -> st.SearchStrategy[Rules]:
    def build(d: dict[str, Any]) -> Rules:
        if d["match_target"] and d["match_target"] < d["game_target"]:
            d["match_target"] = 0
        if d["oklahoma"]:
            d["deal"] = "standard"
        return Rules(**d)

    points = st.integers(0, 1000)
    flag = st.booleans()
    fields: dict[str, st.SearchStrategy[Any]] = {
        "knock_limit": st.integers(0, 10),
        "gin_bonus": points,
        "big_gin": flag,
        "big_gin_bonus": points,
        "undercut_bonus": points,
        "undercut_on_tie": flag,
        "must_gin": flag,
        "deal": st.sampled_from(["standard", "eleven"]),
        "wall_pickup": flag,
        "oklahoma": flag,
        "oklahoma_ace": st.sampled_from(["gin", "one"]),
        "oklahoma_spade_double": flag,
        "oklahoma_double_boxes": flag,
        "first_dealer": st.sampled_from(["cut", "fixed"]),
        "first_dealer_seat": st.integers(0, 1),
        "next_dealer": st.sampled_from(["winner", "alternate", "loser"]),
        "dead_hand_dealer": st.sampled_from(["same", "alternate"]),
        "box_bonus": points,
        "game_bonus": points,
        "shutout": st.sampled_from(["bonus", "double", "none"]),
        "shutout_bonus": points,
        "game_target": st.integers(1, 1000),
        "match_target": st.integers(0, 5000),
        "hollywood": flag,
        "stake": st.decimals(min_value=0, max_value=10**6, places=2, allow_nan=False),
    }
    return st.fixed_dictionaries(fields).map(build)


@given(valid_rules())
def test_dict_round_trip_through_json(rules: Rules) -> None:
    data = rules.to_dict()
    assert isinstance(data["stake"], str)
    assert Rules.from_dict(json.loads(json.dumps(data))) == rules


@given(valid_rules())
def test_describe_and_replace_never_fail_on_valid_rules(rules: Rules) -> None:
    assert rules.replace() == rules
    text = rules.describe()
    assert text and all(line.endswith(".") for line in text.splitlines())
    if rules.stake:
        assert f"Stake {rules.stake} per point." in text


def test_from_dict_fills_missing_options_with_defaults() -> None:
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"knock_limit": 0}) == Rules.preset("straight")


def test_from_dict_rejects_unknown_keys_and_non_mappings() -> None:
    with pytest.raises(InvalidRulesError, match=r"unknown rule option.*knock"):
        Rules.from_dict({"knock": 10})
    with pytest.raises(InvalidRulesError, match=r"unknown rule option.*1"):
        Rules.from_dict({1: 10})  # type: ignore[dict-item]
    with pytest.raises(InvalidRulesError, match="mapping"):
        Rules.from_dict([("knock_limit", 10)])  # type: ignore[arg-type]


def test_to_dict_stake_is_a_string() -> None:
    assert Rules().replace(stake="0.25").to_dict()["stake"] == "0.25"
    assert Rules().to_dict()["stake"] == "0"


# -- from words ----------------------------------------------------------------------------------


def as_words(rules: Rules) -> str:
    """Every option as ``OPTION=VALUE``, the way a person types them."""
    return " ".join(
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in rules.to_dict().items()
    )


@given(valid_rules())
def test_any_valid_rules_read_back_from_words(rules: Rules) -> None:
    assert Rules.from_words(as_words(rules)) == rules
    assert Rules.from_words(f"classic {as_words(rules)}") == rules


@pytest.mark.parametrize("name", Rules.presets())
def test_a_preset_alone_in_any_case(name: str) -> None:
    assert Rules.from_words(f"  {name.upper()} ") == Rules.preset(name)


def test_words_are_read_as_the_options_types() -> None:
    rules = Rules.from_words("modern Big-Gin=on must_gin=0 KNOCK_LIMIT=7 shutout=none stake=0.25")
    assert rules == Rules.preset(
        "modern", big_gin=True, must_gin=False, knock_limit=7, shutout="none", stake="0.25"
    )
    assert Rules.from_words("gin_bonus=20") == Rules(gin_bonus=20)  # no preset: the standard game
    assert Rules.from_words("gin_bonus=20 gin_bonus=30").gin_bonus == 30  # the last one wins
    assert Rules.from_words("") == Rules()


def test_changes_come_as_a_command_line_gives_them() -> None:
    rules = Rules.from_changes(" Classic ", ["gin_bonus = 30", "stake=0.10", "big_gin=yes"])
    assert rules == Rules.preset("classic", gin_bonus=30, stake="0.10", big_gin=True)


@pytest.mark.parametrize(
    ("text", "word", "message"),
    [
        ("texas", "texas", "unknown preset 'texas'; the presets are: standard, modern, classic"),
        ("classic 20", "20", "after the preset, give changes as OPTION=VALUE, not '20'"),
        ("classic =20", "=20", "a rule change is OPTION=VALUE, e.g. gin_bonus=20; not '=20'"),
        ("oklahoma knock=8", "knock=8", "unknown rule option 'knock'; the options are: big_gin,"),
        ("big_gin=maybe", "big_gin=maybe", "big_gin is true or false, not 'maybe'"),
        ("gin_bonus=lots", "gin_bonus=lots", "gin_bonus is a whole number, not 'lots'"),
        ("gin_bonus=-5", "gin_bonus=-5", "gin_bonus must be at least 0, not -5"),
        ("shutout=triple", "shutout=triple", "shutout must be one of bonus, double, none"),
        ("stake=abc", "stake=abc", "stake is not a decimal number: 'abc'"),
    ],
)
def test_a_bad_word_is_named(text: str, word: str, message: str) -> None:
    with pytest.raises(RulesWordError) as caught:
        Rules.from_words(text)
    assert caught.value.word == word
    assert message in str(caught.value)
    assert isinstance(caught.value, InvalidRulesError)


def test_the_first_bad_word_is_the_one_reported() -> None:
    # Every change is read before the preset is looked up, then checked in the options' order.
    with pytest.raises(RulesWordError, match="gin_bonus is a whole number"):
        Rules.from_words("texas gin_bonus=x")
    with pytest.raises(RulesWordError, match="unknown preset"):
        Rules.from_words("texas gin_bonus=-1")
    with pytest.raises(RulesWordError) as caught:
        Rules.from_words("gin_bonus=-1 knock_limit=11")
    assert caught.value.word == "knock_limit=11"


def test_options_that_clash_only_together_are_invalid_rules() -> None:
    with pytest.raises(InvalidRulesError, match="match_target 50 is below game_target") as caught:
        Rules.from_words("match_target=50")
    assert not isinstance(caught.value, RulesWordError)


# -- describe ------------------------------------------------------------------------------------


def test_describe_standard() -> None:
    assert Rules().describe() == (
        "Knock with 10 or less; gin +25; undercut +25 (ties are undercuts).\n"
        "Box 25 per hand won; game to 100, +100 game bonus, shutout +100.\n"
        "Match to 500.\n"
        "Cut for first deal; winner deals next; same dealer after a dead hand."
    )
    # A single game leaves the match out.
    assert Rules().describe(match=False) == Rules().describe().replace("Match to 500.\n", "")


def test_describe_eaai() -> None:
    text = Rules.preset("eaai").describe()
    assert "No box bonus; game to 100, no game bonus, no shutout bonus." in text
    assert "deal alternates; same dealer after a dead hand" in text


def test_describe_variants() -> None:
    assert "shutout doubles the winner's score" in Rules.preset("modern").describe()
    straight = Rules.preset("straight").describe()
    assert straight.startswith("Gin only (no knocking); gin +25.\n")
    assert "undercut" not in straight  # nobody knocks, so nobody is undercut
    assert "Hollywood: three games are scored at once." in Rules.preset("hollywood").describe()
    okla = Rules.preset("oklahoma").describe()
    assert okla.startswith("Gin +25;")
    assert (
        "Oklahoma: the first upcard sets the knock limit; ace: gin only; "
        "spade upcard doubles the hand." in okla
    )
    okla2 = Rules.preset("oklahoma", oklahoma_ace="one", oklahoma_double_boxes=True).describe()
    assert "ace: 1; spade upcard doubles the hand, boxes too." in okla2
    assert "spade" not in Rules.preset("oklahoma", oklahoma_spade_double=False).describe()


def test_describe_options() -> None:
    text = Rules(
        big_gin=True, must_gin=True, undercut_on_tie=False, deal="eleven", wall_pickup=True,
        first_dealer="fixed", first_dealer_seat=1, next_dealer="loser",
        dead_hand_dealer="alternate", match_target=0,
    ).replace(stake="0.05").describe()  # fmt: skip
    assert "big gin +31" in text and "gin is compulsory when possible" in text
    assert "ties score nothing" in text and "Match to" not in text
    assert "Eleven-card deal" in text and "the last discard may be taken to knock" in text
    assert "seat 1 deals first; loser deals next; deal passes after a dead hand." in text
    assert "Stake 0.05 per point." in text
    assert "winner deals next" not in text


# -- Oklahoma ------------------------------------------------------------------------------------

OKLAHOMA_LIMITS = [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


@pytest.mark.parametrize("rank", range(13))
@pytest.mark.parametrize("suit", range(4))
def test_oklahoma_knock_limit_for_every_upcard(rank: int, suit: int) -> None:
    card = Card(rank, suit)
    assert Rules.preset("oklahoma").knock_limit_for(card) == OKLAHOMA_LIMITS[rank]
    one = Rules.preset("oklahoma", oklahoma_ace="one")
    assert one.knock_limit_for(card) == (1 if rank == 0 else OKLAHOMA_LIMITS[rank])


@pytest.mark.parametrize("upcard", [None, Card.parse("As"), Card.parse("5h")])
def test_knock_limit_without_oklahoma_ignores_the_upcard(upcard: Card | None) -> None:
    assert Rules().knock_limit_for(upcard) == 10
    assert Rules(knock_limit=4).knock_limit_for(upcard) == 4
    assert Rules.preset("straight").knock_limit_for(upcard) == 0


@pytest.mark.parametrize("suit", range(4))
def test_spade_upcard_doubles_an_oklahoma_hand(suit: int) -> None:
    card = Card(6, suit)
    assert Rules.preset("oklahoma").hand_multiplier(card) == (2 if suit == 0 else 1)
    no_double = Rules.preset("oklahoma", oklahoma_spade_double=False)
    assert no_double.hand_multiplier(card) == 1
    assert Rules().hand_multiplier(card) == 1
    assert Rules().hand_multiplier(None) == 1


def test_oklahoma_needs_an_upcard() -> None:
    with pytest.raises(GinRummyError, match="upcard"):
        Rules.preset("oklahoma").knock_limit_for(None)
    with pytest.raises(GinRummyError, match="upcard"):
        Rules.preset("oklahoma").hand_multiplier(None)
    with pytest.raises(GinRummyError, match="upcard"):
        Rules.preset("oklahoma").knock_limit_for("As")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", Rules.presets())
def test_rules_in_words_read_back_as_the_same_rules(name: str) -> None:
    assert Rules.preset(name).to_words() == name
    for changes in (
        {"next_dealer": "alternate"},
        {"big_gin": True, "gin_bonus": 20},
        {"stake": "0.10", "shutout": "double", "knock_limit": 7},
    ):
        rules = Rules.preset(name, **changes)
        words = rules.to_words()
        assert Rules.from_words(words) == rules
        assert len(words.split()) <= 1 + len(changes)
