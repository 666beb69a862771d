"""Trick Runaway: counting cards, curses, damage, leaders, round and game end."""

from __future__ import annotations

import json
import random
import subprocess
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
    assert summary["rounds"] == [{"scores": {"Ann": 50, "Ben": 46, "Cy": 46, "Dee": 51}}]
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
