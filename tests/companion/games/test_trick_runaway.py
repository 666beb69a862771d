"""Trick Runaway: counting cards, curses, damage, leaders, round and game end."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import Card
from companion.errors import CardError, ChoiceNeeded, FormatError, LogError, RuleError
from companion.games.trick_runaway import CLUBS, DECK, ENGINE, HAND_SIZE
from companion.log import GameLog
from companion.replay import Replay, replay, start
from tests.companion.games.spec_table import cli_refusal

ROOT = Path(__file__).resolve().parents[3]
P4 = ["Ann", "Ben", "Cy", "Dee"]
P5 = ["Ann", "Ben", "Cy", "Dee", "Eve"]
KEYS = {"game", "finished", "winners", "totals", "rounds", "leader", "players"}
PLAYER_KEYS = {"life", "side", "escape", "damage", "curses", "out", "eliminated"}
Event = dict[str, Any]


def rnd(leader: str | None = None) -> Event:
    return {"type": "round"} if leader is None else {"type": "round", "leader": leader}


def trick(*cards: str, **lower: str) -> Event:
    event: Event = {"type": "trick", "cards": list(cards)}
    if lower:
        event["lower"] = lower
    return event


def run(events: list[Event], players: list[str] = P4, **options: Any) -> Replay:
    return replay(GameLog("trick-runaway", list(players), options, events))


def refused(events: list[Event], players: list[str] = P4, **options: Any) -> LogError:
    with pytest.raises(LogError) as error:
        run(events, players, **options)
    return error.value


def fresh(players: list[str] = P4, **options: Any) -> Replay:
    return start(GameLog("trick-runaway", list(players), options))


def seat_trick(rep: Replay, cards: dict[str, str], **lower: str) -> Event:
    """Record a trick given player by player, in the order the seats play."""
    event = trick(*(cards[name] for name in rep.prompt().seats), **lower)
    rep.apply(event)
    return event


def view(rep: Replay, name: str) -> dict[str, Any]:
    return rep.summary()["players"][name]


# Setup and options


def test_a_fresh_four_player_game() -> None:
    summary = run([]).summary()
    assert summary == {
        "game": "trick-runaway",
        "finished": False,
        "winners": [],
        "totals": {name: 17 for name in P4},
        "rounds": [],
        "leader": None,
        "players": {
            name: {
                "life": 17,
                "side": "white",
                "escape": 0,
                "damage": -2,
                "curses": 0,
                "out": False,
                "eliminated": False,
            }
            for name in P4
        },
    }


def test_the_deck_has_52_cards_with_its_duplicates() -> None:
    assert sum(DECK.values()) == 52
    assert DECK[Card("C", 13)] == 2 and DECK[Card("T", 9)] == 3
    assert Counter(card.suit for card in DECK.elements()) == {
        "C": 13, "H": 11, "S": 11, "D": 10, "T": 7
    }


def test_default_options_depend_on_the_player_count() -> None:
    assert ENGINE.options(P4, {}) == {
        "life": 17,
        "black_life": 18,
        "escape_track": [0, -2, -3, -4],
        "damage_track": [-2, 0, 3],
    }
    assert ENGINE.options(P5, {}) == {
        "life": 15,
        "black_life": 16,
        "escape_track": [0, -2, -3, -4],
        "damage_track": [-1, 1, 4],
    }


def test_black_life_follows_a_given_life_unless_given_itself() -> None:
    assert ENGINE.options(P4, {"life": 20})["black_life"] == 21
    assert ENGINE.options(P4, {"life": 20, "black_life": 5})["black_life"] == 5


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"lives": 3}, '"lives" is not an option'),
        ({"life": "many"}, '"life" must be a whole number'),
        ({"life": 0}, '"life" must be a whole number'),
        ({"life": True}, '"life" must be a whole number'),
        ({"black_life": -1}, '"black_life" must be a whole number'),
        ({"escape_track": []}, '"escape_track" must be a non-empty list'),
        ({"escape_track": "0,-2"}, '"escape_track" must be a non-empty list'),
        ({"damage_track": [1, "x"]}, '"damage_track" must be a non-empty list'),
        ({"damage_track": [1.5]}, '"damage_track" must be a non-empty list'),
    ],
)
def test_bad_options_are_refused_in_the_header(
    options: dict[str, Any], words: str
) -> None:
    error = refused([], **options)
    assert isinstance(error, FormatError)
    assert error.event == 0
    assert words in error.message


@pytest.mark.parametrize("count", [3, 6])
def test_only_four_or_five_players(count: int) -> None:
    error = refused([], players=[f"P{n}" for n in range(count)])
    assert isinstance(error, FormatError) and error.event == 0
    assert "4 to 5 players" in error.message


def test_round_start_says_who_leads() -> None:
    rep = run([rnd("Cy")])
    assert rep.summary()["leader"] == "Cy"
    assert rep.prompt().expects == ("trick",)
    assert rep.prompt().seats == ("Cy", "Dee", "Ann", "Ben")
    assert rep.steps[0].outcome.reasons[0].text == (
        "Round 1 begins: 13 cards each, Cy leads"
    )
    assert "10 cards each" in run([rnd("Eve")], P5).steps[0].outcome.reasons[0].text


# The rulebook's cases: which cards count


def test_case_1_a_second_suit_counts() -> None:
    rep = run([rnd("Ann"), trick("H8", "H10", "C5", "H7", Ben="escape")])
    summary = rep.summary()
    assert view(rep, "Ben")["curses"] == 1  # H10, the highest
    assert summary["totals"] == {"Ann": 17, "Ben": 17, "Cy": 14, "Dee": 17}
    assert summary["leader"] == "Dee"  # left of Cy, damaged by C5 (5 − 2)


def test_case_2_a_third_suit_is_a_discard_and_ties_are_all_cursed() -> None:
    rep = run([rnd("Ann"), trick("H8", "T11", "C5", "H11", Ben="escape", Dee="damage")])
    assert [view(rep, name)["curses"] for name in P4] == [0, 1, 0, 1]
    assert (view(rep, "Ben")["escape"], view(rep, "Dee")["damage"]) == (-2, 0)
    # The lead H8 is the lowest counting card: C5 is a discard and hurts nobody.
    assert rep.summary()["totals"] == {"Ann": 11, "Ben": 17, "Cy": 17, "Dee": 17}
    assert rep.summary()["leader"] == "Ben"
    texts = [reason.text for reason in rep.steps[1].outcome.reasons]
    assert "Cy's C5 is a discard: no curse, no damage" in texts


def test_case_3_after_a_club_lead_only_clubs_count() -> None:
    rep = run([rnd("Ann"), trick("C7", "H10", "C5", "S4", Ann="escape")])
    assert view(rep, "Ann")["curses"] == 1
    assert view(rep, "Ben")["curses"] == 0
    assert rep.summary()["totals"] == {"Ann": 17, "Ben": 17, "Cy": 14, "Dee": 17}
    assert rep.summary()["leader"] == "Dee"


def test_a_lone_counting_card_is_cursed_then_damaged_after_the_curse() -> None:
    # Clubs led and nobody follows: the lead alone counts, so it is both the
    # highest and the lowest; the curse lands first and changes the damage.
    hurt = run([rnd("Ann"), trick("C7", "H10", "S4", "D5", Ann="damage")])
    assert view(hurt, "Ann")["damage"] == 0
    assert hurt.summary()["totals"]["Ann"] == 17 - 7
    eased = run([rnd("Ann"), trick("C7", "H10", "S4", "D5", Ann="escape")])
    assert eased.summary()["totals"]["Ann"] == 17 - 5
    assert eased.summary()["leader"] == "Ben"


def test_the_rulebook_damage_example() -> None:
    """A: H7 at escape −2, damage +3 takes 10; B: C5 untouched takes 3."""
    rep = fresh()
    rep.apply(rnd("Ann"))
    seat_trick(rep, {"Ann": "H15", "Ben": "H4", "Cy": "H5", "Dee": "H6"}, Ann="escape")
    seat_trick(rep, {"Ann": "S15", "Ben": "S7", "Cy": "S4", "Dee": "S6"})
    seat_trick(rep, {"Ann": "D14", "Ben": "D5", "Cy": "D6", "Dee": "D4"}, Ann="damage")
    assert view(rep, "Ann") == {
        "life": 17,
        "side": "white",
        "escape": -2,
        "damage": 3,
        "curses": 3,
        "out": False,
        "eliminated": False,
    }
    before = rep.summary()["totals"]
    assert rep.summary()["leader"] == "Ann"
    rep.apply(trick("H7", "C5", "H12", "C10", Cy="escape"))
    after = rep.summary()["totals"]
    assert before["Ann"] - after["Ann"] == 10
    assert before["Ben"] - after["Ben"] == 3
    texts = [reason.text for reason in rep.steps[-1].outcome.reasons]
    assert "Ann's H7 has rank 5 (7 − 2, never below 0)" in texts
    assert "Ann takes 10 damage (7 + 3) with H7, the lowest rank (5): life 7" in texts
    # Several damaged: the next leader sits left of Ben, who played last of them.
    assert rep.summary()["leader"] == "Cy"


# Curses


def test_a_curse_with_level_cubes_needs_the_tables_choice() -> None:
    error = refused([rnd("Ann"), trick("H8", "H10", "C5", "H7")])
    assert isinstance(error, ChoiceNeeded)
    assert (error.event, error.field, error.player) == (2, "lower", "Ben")
    assert error.options == ["escape", "damage"]
    assert "Ben" in error.message and "level" in error.message


def test_the_first_cursed_player_missing_a_choice_is_asked() -> None:
    cards = ("H8", "T11", "C5", "H11")
    missing_ben = refused([rnd("Ann"), trick(*cards, Dee="escape")])
    assert isinstance(missing_ben, ChoiceNeeded) and missing_ben.player == "Ben"
    missing_dee = refused([rnd("Ann"), trick(*cards, Ben="escape")])
    assert isinstance(missing_dee, ChoiceNeeded) and missing_dee.player == "Dee"


def test_uneven_cubes_drop_the_higher_one_whatever_is_asked() -> None:
    rep = run(
        [
            rnd("Ann"),
            trick("H15", "H4", "H5", "H6", Ann="escape"),
            # Left of Ben leads; Ann is cursed again and her damage cube is the
            # higher one, so it drops even though "escape" is asked.
            trick("S4", "S6", "S15", "S7", Ann="escape"),
        ]
    )
    assert (view(rep, "Ann")["escape"], view(rep, "Ann")["damage"]) == (-2, 0)


def test_rank_never_drops_below_zero_and_damage_uses_the_printed_number() -> None:
    rep = run(
        [
            rnd("Ann"),
            trick("H15", "H4", "H5", "H6", Ann="escape"),
            # Ann's H8 ranks 8 − 10 → 0, the lowest; her damage is 8 − 2.
            trick("S4", "S6", "H8", "S7", Ben="escape"),
        ],
        escape_track=[0, -10],
    )
    assert rep.summary()["totals"] == {"Ann": 11, "Ben": 15, "Cy": 17, "Dee": 17}
    texts = [reason.text for reason in rep.steps[2].outcome.reasons]
    assert "Ann's H8 has rank 0 (8 − 10, never below 0)" in texts
    assert rep.summary()["leader"] == "Ben"


def test_damage_never_drops_below_zero() -> None:
    rep = run(
        [rnd("Ann"), trick("H15", "H4", "H5", "H6", Ann="escape")],
        damage_track=[-5, 0],
    )
    assert rep.summary()["totals"]["Ben"] == 17
    assert "Ben takes 0 damage" in rep.steps[1].outcome.reasons[-2].text
    assert rep.summary()["leader"] == "Cy"


def test_the_instant_death_space_sets_life_to_zero() -> None:
    # One-space tracks: the first curse can only drop the damage cube, onto
    # the death space.
    rep = run(
        [rnd("Ann"), trick("C7", "H10", "S4", "D5")],
        escape_track=[0],
        damage_track=[0],
    )
    assert view(rep, "Ann") == {
        "life": 0,
        "side": "white",
        "escape": 0,
        "damage": "death",
        "curses": 1,
        "out": True,
        "eliminated": False,
    }
    texts = [reason.text for reason in rep.steps[1].outcome.reasons]
    assert "Ann's damage cube is the only one that can still drop: damage is now " \
        "instant death" in texts
    assert "Ann is out of the round with life 0" in texts
    assert rep.prompt().seats == ("Ben", "Cy", "Dee")


def test_the_seventh_curse_with_default_tracks_eliminates() -> None:
    rep = fresh()
    rep.apply(rnd("Ann"))
    tricks = [
        ({"Ann": "H15", "Ben": "H4", "Cy": "H5", "Dee": "H6"}, "damage"),
        ({"Ann": "C20", "Ben": "C4", "Cy": "C3", "Dee": "C5"}, None),
        ({"Ann": "S15", "Ben": "S4", "Cy": "S6", "Dee": "S3"}, "damage"),
        ({"Ann": "D14", "Ben": "D4", "Cy": "D5", "Dee": "D6"}, None),
        ({"Ann": "C15", "Ben": "C7", "Cy": "C6", "Dee": "C8"}, "damage"),
        ({"Ann": "T13", "Ben": "T7", "Cy": "T9", "Dee": "T5"}, None),
    ]
    expected = [(0, 0), (-2, 0), (-2, 3), (-3, 3), (-3, "death"), (-4, "death")]
    for (cards, choice), (escape, damage) in zip(tricks, expected, strict=True):
        if choice:
            seat_trick(rep, cards, Ann=choice)
        else:
            seat_trick(rep, cards)
        assert (view(rep, "Ann")["escape"], view(rep, "Ann")["damage"]) == (
            escape,
            damage,
        )
    seat_trick(rep, {"Ann": "S13", "Ben": "S7", "Cy": "S8", "Dee": "H8"})
    ann = view(rep, "Ann")
    assert (ann["curses"], ann["out"], ann["eliminated"]) == (7, True, True)
    assert ann["life"] == 17
    assert "Ann" not in rep.prompt().seats
    assert not rep.summary()["finished"]  # the round goes on: one player out


def test_eliminated_by_a_curse_takes_no_damage_and_does_not_flip() -> None:
    rep = run(
        [
            rnd("Ann"),
            trick("H15", "H4", "H5", "H6"),  # Ann cursed: death space
            trick("S4", "S6", "S15", "S7"),  # Ann cursed again: eliminated
            trick("C7", "H10", "S3"),  # Dee's lone C7: death, life 0, out
        ],
        escape_track=[0],
        damage_track=[0],
        life=50,
    )
    summary = rep.summary()
    assert summary["finished"] is True
    assert summary["winners"] == ["Ben", "Cy", "Dee"]
    assert summary["players"]["Ann"]["eliminated"] is True
    assert summary["players"]["Ann"]["side"] == "white"
    assert summary["players"]["Dee"] == {
        "life": 51,
        "side": "black",
        "escape": 0,
        "damage": "death",
        "curses": 1,
        "out": True,
        "eliminated": False,
    }
    scores = {"Ann": 50, "Ben": 46, "Cy": 46, "Dee": 51}
    assert summary["rounds"] == [{"scores": scores}]
    assert summary["leader"] is None


def test_a_lone_card_whose_curse_eliminates_is_spared_the_damage() -> None:
    rep = run(
        [
            rnd("Ann"),
            trick("H15", "H4", "H5", "H6"),  # Ann cursed: death space
            trick("S8", "S4", "S6", "S7"),  # Cy cursed; Dee damaged
            # Ann leads clubs alone: 2nd curse eliminates her, no damage.
            trick("C7", "H10", "S3", "D5"),
        ],
        escape_track=[0],
        damage_track=[0],
        life=50,
    )
    texts = [reason.text for reason in rep.steps[3].outcome.reasons]
    assert (
        "Ann has the lowest rank but takes no damage: completely eliminated by "
        "this trick's curse"
    ) in texts
    assert view(rep, "Ann")["life"] == 50
    assert view(rep, "Ann")["eliminated"] is True
    assert rep.summary()["leader"] == "Ben"


# Next leader


def test_the_next_leader_skips_players_out_of_the_round() -> None:
    options = {"life": 5, "escape_track": [0], "damage_track": [0]}
    rep = fresh(P5, **options)
    rep.apply(rnd("Ann"))
    # Ann's curse puts her damage cube on the death space; Cy's H5 costs 5.
    first = {"Ann": "H15", "Ben": "H10", "Cy": "H5", "Dee": "H11", "Eve": "H12"}
    seat_trick(rep, first)
    assert view(rep, "Cy")["out"] is True
    assert rep.prompt().seats == ("Dee", "Eve", "Ann", "Ben")
    seat_trick(rep, {"Ann": "S11", "Ben": "S4", "Dee": "S15", "Eve": "S10"})
    # Left of Ben sits Cy, out of the round: Dee leads again.
    assert rep.summary()["leader"] == "Dee"
    assert rep.prompt().seats == ("Dee", "Eve", "Ann", "Ben")
    assert view(rep, "Ben")["life"] == 1
    # Dee's second curse: completely eliminated, the second player out.
    seat_trick(rep, {"Ann": "D10", "Ben": "D12", "Dee": "D14", "Eve": "D4"})
    summary = rep.summary()
    assert summary["finished"] is True
    assert summary["winners"] == ["Ann", "Ben", "Cy", "Eve"]
    assert summary["rounds"] == [
        {"scores": {"Ann": 5, "Ben": 1, "Cy": 6, "Dee": 5, "Eve": 1}}
    ]
    assert summary["players"]["Cy"]["side"] == "black"
    assert summary["players"]["Dee"]["side"] == "white"
    assert rep.prompt().expects == ()


# Round end and game end

TWO_ROUNDS = [
    rnd("Ann"),
    trick("H8", "H10", "H5", "C6", Ben="escape"),  # Cy 3 − 3 = 0: out
    trick("S7", "S15", "S12", Ann="escape"),  # Dee 3 − 5 = −2: out, round over
    rnd(),  # left of Dee, damaged in the last trick: Ann
    trick("H15", "H11", "H6", "H10", Ann="damage"),  # Cy 4 − 4 = 0: out
    trick("S7", "S15", "S12"),  # Dee 4 − 5 = −1: out; both were black
]


def test_the_second_player_out_ends_the_round_and_both_flip() -> None:
    rep = run(TWO_ROUNDS[:3], life=3)
    summary = rep.summary()
    assert summary["rounds"] == [{"scores": {"Ann": 3, "Ben": 3, "Cy": 4, "Dee": 4}}]
    assert summary["leader"] is None and summary["finished"] is False
    assert [summary["players"][name]["side"] for name in P4] == [
        "white", "white", "black", "black"
    ]
    # Until the next round starts the table sees how this one ended.
    assert summary["players"]["Ann"] == {
        "life": 3,
        "side": "white",
        "escape": -2,
        "damage": -2,
        "curses": 1,
        "out": False,
        "eliminated": False,
    }
    assert [summary["players"][name]["out"] for name in P4] == [
        False, False, True, True
    ]
    assert rep.prompt().expects == ("round",)
    texts = [reason.text for reason in rep.steps[2].outcome.reasons]
    assert "The round ends: 2 players are out of it" in texts
    assert "Cy flips the Life card to black: life 4" in texts


def test_a_later_round_leader_follows_the_rule_or_the_table() -> None:
    by_rule = run(TWO_ROUNDS[:4], life=3)
    assert by_rule.summary()["leader"] == "Ann"
    assert by_rule.steps[3].outcome.reasons[0].text == (
        "Ann leads: the player left of Dee, who took damage in the last trick "
        "of the previous round"
    )
    chosen = run([*TWO_ROUNDS[:3], rnd("Cy")], life=3)
    assert chosen.summary()["leader"] == "Cy"


def test_going_out_on_the_black_side_ends_the_game() -> None:
    summary = run(TWO_ROUNDS, life=3).summary()
    assert summary["finished"] is True
    assert summary["winners"] == ["Ann", "Ben"]
    assert summary["leader"] is None
    assert summary["totals"] == {"Ann": 3, "Ben": 3, "Cy": 0, "Dee": -1}
    assert summary["rounds"][1] == {"scores": summary["totals"]}
    assert [summary["players"][name]["eliminated"] for name in P4] == [
        False, False, True, True
    ]
    # The final state is kept as the last trick left it.
    assert summary["players"]["Ann"]["curses"] == 2
    error = refused([*TWO_ROUNDS, rnd("Ann")], life=3)
    assert isinstance(error, RuleError) and error.event == 7
    assert "already over" in error.message


def quiet_tricks(
    opening: list[list[str]], seats: int, tricks: int, players: list[str] = P4
) -> list[Event]:
    """The opening tricks, then tricks led by a card of 9 or less.

    With every damage modifier at −9 such a lead keeps every later trick's
    damage at 0.
    """
    used = Counter(Card.parse(code) for cards in opening for code in cards)
    pool = sorted((DECK - used).elements(), key=lambda card: card.number)
    lows, rest = pool[: tricks - len(opening)], pool[tricks - len(opening) :]
    everyone = {name: "escape" for name in players}
    events = [trick(*cards, **everyone) for cards in opening]
    for low in lows:
        cards = [low, *(rest.pop() for _ in range(seats - 1))]
        events.append(trick(*(str(card) for card in cards), **everyone))
    return events


LONG_TRACKS = {"life": 40, "escape_track": [0] * 13, "damage_track": [-9] * 13}


def test_empty_hands_end_the_round_and_the_least_life_is_exhausted() -> None:
    opening = [["C20", "H15", "S15", "D14"]]  # Ann's lone club: 20 − 9 = 11
    events = [rnd("Ann"), *quiet_tricks(opening, 4, 13)]
    rep = run(events[:-1], **LONG_TRACKS)
    assert rep.summary()["rounds"] == []
    rep = run(events, **LONG_TRACKS)
    summary = rep.summary()
    assert summary["rounds"] == [
        {"scores": {"Ann": 41, "Ben": 40, "Cy": 40, "Dee": 40}}
    ]
    assert summary["players"]["Ann"]["side"] == "black"
    texts = [reason.text for reason in rep.steps[-1].outcome.reasons]
    assert "The round ends: the hands are empty" in texts
    assert "Ann is out by exhaustion, with the least life among the survivors " \
        "(29)" in texts
    error = refused([*events, trick("C3", "C4", "C5", "C6")], **LONG_TRACKS)
    assert isinstance(error, RuleError) and error.event == 15
    assert "no round is in progress" in error.message


def test_exhaustion_takes_every_survivor_tied_on_least_life() -> None:
    events = [rnd("Ann"), *quiet_tricks([], 4, 13)]
    summary = run(events, **LONG_TRACKS).summary()
    assert summary["rounds"] == [{"scores": {name: 41 for name in P4}}]
    assert all(summary["players"][name]["side"] == "black" for name in P4)


def test_one_out_and_one_exhausted_after_ten_tricks_with_five() -> None:
    # Ann's lone C20 puts her out (life 11); Ben, leading next, takes 15 − 9.
    opening = [["C20", "H15", "S15", "D14", "T13"], ["C15", "H13", "S13", "D13"]]
    events = [rnd("Ann"), *quiet_tricks(opening, 4, 10, P5)]
    rep = run(events, P5, **(LONG_TRACKS | {"life": 11}))
    summary = rep.summary()
    assert summary["rounds"] == [
        {"scores": {"Ann": 12, "Ben": 12, "Cy": 11, "Dee": 11, "Eve": 11}}
    ]
    texts = [reason.text for reason in rep.steps[-1].outcome.reasons]
    assert "Ben is out by exhaustion, with the least life among the survivors " \
        "(5)" in texts


# Refusals


@pytest.mark.parametrize(
    ("events", "kind", "number", "words"),
    [
        ([trick("H8", "H10", "C5", "H7")], RuleError, 1, "no round is in progress"),
        ([rnd("Ann"), rnd("Ben")], RuleError, 2, "still in progress"),
        ([rnd()], FormatError, 1, 'the first round needs a "leader"'),
        ([rnd("Zed")], RuleError, 1, '"Zed" is not a player'),
        ([rnd("Ann"), trick("H8", "H10", "C5")], RuleError, 2, "needs 4 cards"),
        ([rnd("Ann"), trick("H8", "X10", "C5", "H7")], CardError, 2, "X10 is not"),
        ([rnd("Ann"), trick("H8", "C9", "C5", "H7")], CardError, 2, "C9 is not"),
        ([rnd("Ann"), trick("H8", "Hx", "C5", "H7")], CardError, 2, '"Hx" is not'),
        (
            [rnd("Ann"), trick("H15", "H4", "H5", "H15", Ann="escape")],
            CardError,
            2,
            "H15 was already played",
        ),
        (
            [
                rnd("Ann"),
                trick("T9", "T9", "T5", "T7", Ann="escape", Ben="escape"),
                trick("C3", "C4", "T9", "T9"),
            ],
            CardError,
            3,
            "T9 was already played",
        ),
        ([rnd("Ann"), {"type": "trick"}], FormatError, 2, '"cards"'),
        (
            [rnd("Ann"), trick("H8", "H10", "C5", "H7", Zed="escape")],
            RuleError,
            2,
            '"lower" names "Zed"',
        ),
        (
            [rnd("Ann"), trick("H8", "H10", "C5", "H7", Ben="up")],
            FormatError,
            2,
            '"lower" for Ben must be',
        ),
        (
            [rnd("Ann"), trick("H8", "H10", "C5", "H7") | {"lower": "Ben"}],
            FormatError,
            2,
            '"lower" must map',
        ),
        ([{"type": "deal"}], FormatError, 1, '"deal" is not an event'),
    ],
)
def test_bad_logs_are_refused(
    events: list[Event], kind: type[LogError], number: int, words: str
) -> None:
    error = refused(events)
    assert isinstance(error, kind)
    assert error.event == number
    assert words in error.message


def test_a_player_out_of_the_round_has_no_card_in_the_trick() -> None:
    events = [rnd("Ann"), trick("H8", "H10", "H5", "H6", Ben="escape")]
    error = refused([*events, trick("S7", "S15", "S12", "S4")], life=3)
    assert isinstance(error, RuleError) and error.event == 3
    assert "needs 3 cards, one each from Dee, Ann, Ben" in error.message


def test_a_refused_event_leaves_the_replay_as_it_was() -> None:
    rep = fresh()
    rep.apply(rnd("Ann"))
    before = rep.summary()
    with pytest.raises(ChoiceNeeded):
        rep.apply(trick("H8", "H10", "C5", "H7"))
    assert rep.summary() == before
    assert rep.prompt().cards == tuple(sorted(DECK.elements()))


def test_the_command_line_refuses_a_bad_log(tmp_path: Path) -> None:
    log = GameLog("trick-runaway", P4, {}, [rnd("Ann"), trick("H8", "H10", "C5")])
    stderr = cli_refusal(tmp_path, log)
    assert stderr.startswith("error: event 2: this trick needs 4 cards")


# Must-follow warnings


def warnings(rep: Replay, step: int) -> list[str]:
    return [warning.text for warning in rep.steps[step].outcome.warnings]


def test_showing_out_of_both_suits_is_remembered_for_the_round() -> None:
    rep = fresh()
    rep.apply(rnd("Ann"))
    # Ben shows out of hearts; Dee (after clubs became second) of both.
    seat_trick(rep, {"Ann": "H8", "Ben": "C5", "Cy": "H10", "Dee": "S4"}, Cy="escape")
    assert rep.summary()["leader"] == "Cy"
    everyone = {name: "escape" for name in P4}
    seat_trick(rep, {"Ann": "S6", "Ben": "H4", "Cy": "S7", "Dee": "C6"}, **everyone)
    assert warnings(rep, 2) == [
        "Dee plays C6 but did not follow clubs earlier this round: check the cards",
        "Ben plays H4 but did not follow hearts earlier this round: check the cards",
    ]
    assert warnings(rep, 1) == []


def test_after_a_club_lead_a_non_club_shows_out_of_clubs_only() -> None:
    rep = fresh()
    rep.apply(rnd("Ann"))
    everyone = {name: "escape" for name in P4}
    seat_trick(rep, {"Ann": "C7", "Ben": "H10", "Cy": "C5", "Dee": "S4"}, **everyone)
    # Ben and Dee played no club: neither has shown out of anything else.
    seat_trick(rep, {"Ann": "S6", "Ben": "S8", "Cy": "S7", "Dee": "S10"}, **everyone)
    assert warnings(rep, 2) == []
    assert rep.summary()["leader"] == "Ben"
    seat_trick(rep, {"Ann": "C11", "Ben": "C8", "Cy": "C10", "Dee": "H5"}, **everyone)
    assert warnings(rep, 3) == [
        "Ben plays C8 but did not follow clubs earlier this round: check the cards"
    ]


def test_warnings_forget_voids_at_the_end_of_a_round() -> None:
    # Dee showed out of hearts in round 1 and plays one in round 2.
    rep = run(TWO_ROUNDS[:5], life=3)
    assert warnings(rep, 4) == []
    assert rep.state.watch.voids == {}  # type: ignore[attr-defined]


# Whole games from real shuffled deals


class Table:
    """Real cards: a shuffled deal each round, legal plays, choices when asked."""

    def __init__(self, players: list[str], seed: int, **options: Any) -> None:
        self.players = players
        self.rng = random.Random(seed)
        self.rep = fresh(players, **options)
        self.dealt: dict[str, Counter[Card]] = {}
        self.hands: dict[str, Counter[Card]] = {}

    def deal(self) -> None:
        cards = list(DECK.elements())
        self.rng.shuffle(cards)
        size = HAND_SIZE[len(self.players)]
        self.dealt = {
            name: Counter(cards[at * size : (at + 1) * size])
            for at, name in enumerate(self.players)
        }
        self.hands = {name: Counter(hand) for name, hand in self.dealt.items()}

    def pick(self, name: str, lead: str | None, second: str | None) -> Card:
        hand = sorted(self.hands[name].elements())
        if lead is not None:
            required = {lead} if second is None else {lead, second}
            hand = [card for card in hand if card.suit in required] or hand
        return self.rng.choice(hand)

    def next_event(self) -> Event:
        prompt = self.rep.prompt()
        if prompt.expects == ("round",):
            self.deal()
            if not self.rep.summary()["rounds"] or self.rng.random() < 0.2:
                return rnd(self.rng.choice(self.players))
            return rnd()
        lead: str | None = None
        second: str | None = None
        cards = []
        for name in prompt.seats:
            card = self.pick(name, lead, second)
            cards.append(card)
            if lead is None:
                lead = card.suit
            elif lead != CLUBS and second is None and card.suit != lead:
                second = card.suit
        event = trick(*(str(card) for card in cards))
        while True:
            try:
                self.rep.preview(event)
                return event
            except ChoiceNeeded as need:
                event.setdefault("lower", {})[need.player] = self.rng.choice(
                    need.options
                )

    def step(self) -> Event:
        event = self.next_event()
        seats = self.rep.prompt().seats
        self.rep.apply(event)
        if event["type"] == "trick":
            for name, code in zip(seats, event["cards"], strict=True):
                self.hands[name][Card.parse(code)] -= 1
        return event

    def play_out(self, limit: int = 200) -> list[Event]:
        while not self.rep.state.finished and len(self.rep.log.events) < limit:
            self.step()
        return list(self.rep.log.events)


def recount_life(rep: Replay, players: list[str]) -> dict[str, int]:
    """Life worked out again from the reasons alone."""
    life = {name: rep.state.options["life"] for name in players}
    for step in rep.steps:
        for reason in step.outcome.reasons:
            name = reason.params.get("player", "")
            if reason.key == "trick-runaway.damaged":
                life[name] -= int(reason.params["amount"])
            elif reason.key == "trick-runaway.death":
                life[name] = 0
            elif reason.key == "trick-runaway.flip":
                life[name] = int(reason.params["life"])
    return life


def check_table(table: Table) -> None:
    rep, players = table.rep, table.players
    summary = rep.summary()
    assert set(summary) == KEYS
    assert all(set(summary["players"][name]) == PLAYER_KEYS for name in players)
    assert summary["totals"] == {n: summary["players"][n]["life"] for n in players}
    assert summary["totals"] == recount_life(rep, players)
    where = ENGINE.where_cards_are(rep.state)
    played = sum(where.values(), Counter())
    if rep.prompt().expects == ("trick",):
        for name in players:
            mine = where.get(f"played:{name}", Counter())
            assert mine + table.hands[name] == table.dealt[name]
        assert set(rep.prompt().cards) == set(DECK - played)
        assert len(rep.prompt().seats) == sum(
            not summary["players"][n]["out"] for n in players
        )
        assert summary["leader"] == rep.prompt().seats[0]
    else:
        assert played == Counter()
        assert summary["leader"] is None
    if summary["finished"]:
        out = [n for n in players if summary["players"][n]["eliminated"]]
        assert out and summary["winners"] == [n for n in players if n not in out]
        assert rep.prompt().expects == ()


OPTION_SETS = [{}, {"life": 8}, {"escape_track": [0, -1], "damage_track": [1]}]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    count=st.sampled_from([4, 5]),
    options=st.sampled_from(OPTION_SETS),
)
def test_random_legal_games_replay_consistently(
    seed: int, count: int, options: dict[str, Any]
) -> None:
    players = P5[:count]
    table = Table(players, seed, **options)
    while not table.rep.state.finished:
        assert len(table.rep.log.events) < 200
        table.step()
        check_table(table)
        # Every play follows suit as the rules ask: never a warning.
        assert table.rep.steps[-1].outcome.warnings == []
    events = list(table.rep.log.events)
    log = GameLog("trick-runaway", players, options, events)
    final = replay(log).summary()
    assert final == replay(log).summary() == table.rep.summary()
    assert final["finished"] is True
    assert [entry["scores"] for entry in final["rounds"]][-1] == final["totals"]
    for cut in range(len(events)):
        replay(log.with_events(events[:cut]))


# The example games


@pytest.mark.parametrize(
    ("name", "winners"),
    [
        ("trick-runaway.json", ["Ben", "Cy"]),
        ("trick-runaway-5p.json", ["Ann", "Ben", "Dee", "Eve"]),
    ],
)
def test_the_example_games_replay_to_their_end(name: str, winners: list[str]) -> None:
    log = GameLog.from_dict(json.loads((ROOT / "examples" / name).read_text()))
    assert log.game == "trick-runaway"
    summary = replay(log).summary()
    assert summary["finished"] is True
    assert summary["winners"] == winners
    assert len(summary["rounds"]) >= 2
