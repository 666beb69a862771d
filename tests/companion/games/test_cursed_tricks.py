"""Cursed Tricks: the spec's rulings, worked by hand, and random legal games."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import Card
from companion.errors import CardError, ChoiceNeeded, FormatError, LogError, RuleError
from companion.games.cursed_tricks import ENGINE, CursedTricksState
from companion.log import GameLog, loads
from companion.replay import Replay, replay, start
from tests.companion.games.spec_table import cli_refusal

ROOT = Path(__file__).resolve().parents[3]
FOUR = ["Ann", "Ben", "Cy", "Dee"]
THREE = ["Ann", "Ben", "Cy"]
SUMMARY_KEYS = {"game", "finished", "winners", "totals", "rounds", "leader", "players"}

Event = dict[str, Any]


def game_log(
    events: list[Event], players: list[str] | None = None, **options: Any
) -> GameLog:
    return GameLog("cursed-tricks", list(players or FOUR), options, events)


def run(events: list[Event], players: list[str] | None = None, **options: Any):
    return replay(game_log(events, players, **options))


def summary(events: list[Event], players: list[str] | None = None, **options: Any):
    return run(events, players, **options).summary()


def refused(events: list[Event], players: list[str] | None = None, **options: Any):
    with pytest.raises(LogError) as caught:
        run(events, players, **options)
    return caught.value


def rnd(leader: str) -> Event:
    return {"type": "round", "leader": leader}


def trick(codes: str, brk: str | None = None) -> Event:
    event: Event = {"type": "trick", "cards": codes.split()}
    if brk is not None:
        event["break"] = brk
    return event


def view(curses: list[str], pile: int, tricks: int) -> dict[str, Any]:
    return {"curses": curses, "pile": pile, "tricks": tricks}


def texts(result: Replay, step: int) -> list[str]:
    return [r.text for r in result.steps[step - 1].outcome.reasons]


# -- hand-worked rounds -----------------------------------------------------------


def full_round(cy_wins_nothing: bool = False) -> list[Event]:
    """A 13-trick round, 4 players, Ann leads; worked out in the tests below.

    After four tricks every colour's curse is a 14, so later winning cards stay
    in their tricks until Ann's breaks free the purple and green curses.
    """
    if cy_wins_nothing:
        # Ben keeps the lead and takes yellow too; Cy never wins a trick.
        t4, t5 = trick("Y14 Y2 Y3 Y4"), trick("P5 P6 P13 P7")
    else:
        t4, t5 = trick("Y2 Y14 Y3 Y4"), trick("P5 P13 P6 P7")
    return [
        rnd("Ann"),
        trick("P14 P2 P3 P4"),  # Ann: curse P14
        trick("G14 G2 G3 G4"),  # Ann: curse G14
        trick("R2 R14 R3 R4"),  # Ben: curse R14 (the lead R2 cannot break)
        t4,  # yellow curse Y14 (Cy, or Ben)
        t5,  # Dee wins with P13, below Ann's P14: it stays
        trick("P12 P1 P8 P9"),  # Dee again; the 1 cannot break
        trick("G13 G5 G6 G7", brk="P"),  # Ann breaks and picks P14
        trick("P11 P10 Y5 R5"),  # Ann breaks G14; P11 becomes Dee's curse
        trick("G12 G8 G9 G10"),  # G12 becomes Dee's second curse
        trick("R13 R6 R7 R8"),  # stays: Ben holds R14
        trick("Y13 Y6 Y7 Y8"),  # stays: Y14 is held
        trick("R9 R10 R12 G11"),  # Ben wins with R12, stays under his R14
        trick("Y10 Y11 Y12 Y9"),  # Dee wins with Y12, stays
    ]


def quick_round(leader: str) -> list[Event]:
    """The leader takes three curses in three tricks; the round ends at once."""
    return [
        rnd(leader),
        trick("P14 P2 P3 P4"),
        trick("G14 G2 G3 G4"),
        trick("R14 R2 R3 R4"),
    ]


def test_full_round_scores() -> None:
    result = run(full_round())
    assert all(not step.outcome.warnings for step in result.steps)
    got = result.summary()
    assert got["rounds"] == [{"scores": {"Ann": 8, "Ben": 1, "Cy": 0, "Dee": 0}}]
    assert got["totals"] == {"Ann": 8, "Ben": 1, "Cy": 0, "Dee": 0}
    assert got["players"] == {
        "Ann": view([], 8, 2),  # 6 won cards plus the broken P14 and G14
        "Ben": view(["R14"], 7, 2),  # only G11 is not red
        "Cy": view(["Y14"], 3, 1),  # all yellow: 0
        "Dee": view(["P11", "G12"], 30, 8),  # two curses: 0
    }
    assert got["leader"] is None
    assert got["finished"] is False
    assert result.prompt().expects == ("round",)


def test_ten_points_for_no_trick_and_no_curse() -> None:
    got = summary(full_round(cy_wins_nothing=True))
    assert got["rounds"] == [{"scores": {"Ann": 8, "Ben": 0, "Cy": 10, "Dee": 0}}]
    assert got["players"]["Ben"] == view(["R14", "Y14"], 10, 3)
    assert got["players"]["Cy"] == view([], 0, 0)


def test_a_fourteenth_trick_is_refused() -> None:
    error = refused([*full_round(), trick("G1 R1 Y1 R11")])
    assert isinstance(error, RuleError)
    assert error.event == 15
    assert "round 1 is over" in error.message


def test_third_curse_ends_the_round_at_once() -> None:
    events = [
        rnd("Ann"),
        trick("P14 P2 P3 P4"),  # Ann: curse P14
        trick("P5 P13 P6 P7"),  # Ben wins, P13 stays (below P14); lead can't break
        trick("G2 G3 G4 G14"),  # Ann: curse G14; Ben's lead G2 cannot break
        trick("R14 R5 R2 R3"),  # Ann's third curse; Cy breaks nothing
    ]
    result = run(events)
    got = result.summary()
    # Ann -8; Ben has no curse and 4 pile cards; Cy and Dee won nothing: 0, not 10.
    assert got["rounds"] == [{"scores": {"Ann": -8, "Ben": 4, "Cy": 0, "Dee": 0}}]
    assert got["players"]["Ann"] == view(["P14", "G14", "R14"], 9, 3)
    assert any("third curse" in text for text in texts(result, 5))
    error = refused([*events, trick("Y2 Y3 Y4 Y5")])
    assert isinstance(error, RuleError) and error.event == 6
    assert "next event must start a new round" in error.message


def test_third_curse_with_three_players_costs_six() -> None:
    events = [
        rnd("Cy"),
        trick("P14 P2 P3"),
        trick("G14 G2 G3"),
        trick("R14 R2 R3"),
    ]
    got = summary(events, THREE)
    assert got["rounds"] == [{"scores": {"Ann": 0, "Ben": 0, "Cy": -6}}]


def test_rulebook_example_the_one_wins_but_does_not_take_a_higher_curse() -> None:
    events = [
        rnd("Ann"),
        trick("R13 R5 R6 R7"),  # Ann's curse: R13
        trick("R14 G2 R1 R8"),  # Cy's R1 beats R14 but is below R13
    ]
    result = run(events)
    got = result.summary()
    assert got["players"]["Ann"] == view(["R13"], 3, 1)
    assert got["players"]["Cy"] == view([], 4, 1)  # the R1 went to the pile
    assert got["leader"] == "Cy"
    assert texts(result, 3) == [
        "Nobody breaks a curse: the red 1 and 14 are both in the trick",
        "Cy wins with R1: the red 1 beats the 14 when both are in the trick",
        "R1 does not take the red curse: lower than R13, so it stays in the trick",
        "Cy adds 4 cards to their pile and leads next",
    ]


def test_the_one_takes_a_curse_when_nobody_holds_its_colour() -> None:
    got = summary([rnd("Ann"), trick("R5 R2 R1 R14")])
    assert got["players"]["Cy"] == view(["R1"], 3, 1)


def test_the_one_beats_the_thirteen_with_the_standard_deck() -> None:
    result = run([rnd("Ann"), trick("S13 S1 S5 S6")], deck="standard")
    assert result.summary()["players"]["Ben"] == view(["S1"], 3, 1)
    assert "the spades 1 beats the 13" in texts(result, 2)[1]


def test_the_one_does_not_beat_the_top_card_when_it_is_absent() -> None:
    got = summary([rnd("Ann"), trick("R13 R1 R5 R6")])
    assert got["players"]["Ann"] == view(["R13"], 3, 1)


def test_highest_of_the_lead_suit_wins_over_higher_other_suits() -> None:
    got = summary([rnd("Ann"), trick("R3 G14 R9 Y13")])
    assert got["players"]["Cy"] == view(["R9"], 3, 1)
    assert got["leader"] == "Cy"


def test_higher_card_replaces_another_players_curse() -> None:
    events = [
        rnd("Ann"),
        trick("P10 P2 P3 P4"),  # Ann: curse P10
        trick("P5 P11 P6 P7"),  # Ben's P11 is higher: P10 to Ann's pile
    ]
    result = run(events)
    got = result.summary()
    assert got["players"]["Ann"] == view([], 4, 1)
    assert got["players"]["Ben"] == view(["P11"], 3, 1)
    assert texts(result, 3)[2] == (
        "P11 replaces P10 as the purple curse, now Ben's (P11 is higher); "
        "P10 goes to Ann's pile"
    )


def test_higher_card_replaces_the_winners_own_curse() -> None:
    events = [
        rnd("Ann"),
        trick("P10 P2 P3 P4"),
        trick("P5 P11 P6 P7"),  # Ben: curse P11
        trick("P12 P8 P9 P1"),  # Ben's own P11 goes to his pile; the 1 can't break
    ]
    got = summary(events)
    assert got["players"]["Ben"] == view(["P12"], 7, 2)


def test_breaking_comes_before_taking_the_winning_card() -> None:
    events = [
        rnd("Ann"),
        trick("R2 R10 R3 R4"),  # Ben: curse R10
        trick("G2 G3 G4 G5"),  # Ann: curse G5
        trick("R7 R5 R9 R8"),
    ]
    result = run(events)
    got = result.summary()
    # Ben breaks his only curse R10; then nobody holds red, so Cy's R9 is a curse.
    assert got["players"]["Ben"] == view([], 4, 1)
    assert got["players"]["Cy"] == view(["R9"], 3, 1)
    assert texts(result, 4)[0] == (
        "Ben breaks a curse with R5, the lowest red: R10 goes to their pile"
    )


# Dee holds the green curse G5 and Cy leads the third trick.
DEE_CURSED = [rnd("Ann"), trick("G2 G3 G4 G5"), trick("P2 P3 P4 P5")]


def test_the_lead_card_cannot_break() -> None:
    got = summary(DEE_CURSED)
    # Dee led the lowest purple and keeps G5; Cy's P5 is a new curse
    assert got["players"]["Dee"] == view(["G5"], 3, 1)
    assert got["players"]["Cy"] == view(["P5"], 3, 1)
    assert got["leader"] == "Cy"


def test_breaker_may_shed_a_curse_of_another_colour() -> None:
    got = summary([*DEE_CURSED, trick("R6 R2 R7 R8")])
    assert got["players"]["Dee"] == view([], 4, 1)
    assert got["players"]["Ben"] == view(["R8"], 3, 1)


def test_the_one_cannot_break() -> None:
    result = run([*DEE_CURSED, trick("R6 R1 R7 R8")])
    assert result.summary()["players"]["Dee"] == view(["G5"], 3, 1)
    assert texts(result, 4)[0] == "Nobody breaks a curse: the lowest red is the 1 (R1)"


def test_one_and_top_in_the_trick_means_nobody_breaks() -> None:
    result = run([*DEE_CURSED, trick("R6 R1 R14 R2")])
    assert result.summary()["players"]["Dee"] == view(["G5", "R1"], 6, 2)
    assert texts(result, 4)[0] == (
        "Nobody breaks a curse: the red 1 and 14 are both in the trick"
    )


def test_off_suit_cards_never_break() -> None:
    got = summary([*DEE_CURSED, trick("R7 P6 R8 R9")])
    assert got["players"]["Dee"] == view(["G5"], 3, 1)


def test_break_choice_needed_with_two_curses() -> None:
    events = full_round()[:8]
    events[7] = trick("G13 G5 G6 G7")
    error = refused(events)
    assert isinstance(error, ChoiceNeeded)
    assert (error.event, error.field, error.player) == (8, "break", "Ann")
    assert error.options == ["P", "G"]
    assert "Ann" in error.message and "G5" in error.message


def test_break_choice_picks_the_curse() -> None:
    events = full_round()[:8]
    events[7] = trick("G13 G5 G6 G7", brk="G")
    got = summary(events)
    assert got["players"]["Ann"] == view(["P14"], 7, 2)


def test_break_naming_a_curse_not_held_is_refused() -> None:
    events = full_round()[:8]
    events[7] = trick("G13 G5 G6 G7", brk="R")
    error = refused(events)
    assert isinstance(error, RuleError) and not isinstance(error, ChoiceNeeded)
    assert error.event == 8
    assert '"break": R names a curse Ann does not hold' in error.message


def test_break_matching_the_only_curse_is_accepted() -> None:
    events = [*DEE_CURSED, trick("R6 R2 R7 R8", brk="G")]
    assert summary(events)["players"]["Dee"] == view([], 4, 1)


def test_break_naming_another_colour_than_the_only_curse_is_refused() -> None:
    error = refused([*DEE_CURSED, trick("R6 R2 R7 R8", brk="R")])
    assert isinstance(error, RuleError) and error.event == 4
    assert "Dee does not hold" in error.message


def test_break_when_the_breaker_holds_no_curse_is_refused() -> None:
    error = refused([rnd("Ann"), trick("R6 R7 R8 R2", brk="R")])
    assert isinstance(error, RuleError) and error.event == 2
    assert "Dee's curses: none" in error.message


def test_break_when_nobody_breaks_is_ignored() -> None:
    result = run([rnd("Ann"), trick("R2 R7 R8 R6", brk="G")])
    assert result.summary()["players"]["Dee"] == view([], 0, 0)
    assert 'The choice "break": G is not used' in texts(result, 2)[1]


def test_break_must_be_a_suit_of_the_game() -> None:
    error = refused([rnd("Ann"), trick("R6 R7 R8 R2", brk="X")])
    assert isinstance(error, FormatError) and error.event == 2
    assert "'X'" in error.message
    error = refused([rnd("Ann"), trick("R6 R7 R2", brk="Y")], THREE)
    assert isinstance(error, FormatError) and "P, G, R" in error.message


def test_game_ends_after_four_rounds_with_a_single_winner() -> None:
    events = [*full_round(), *quick_round("Ben"), *quick_round("Cy")]
    events += quick_round("Dee")
    result = run(events)
    got = result.summary()
    assert got["totals"] == {"Ann": 8, "Ben": -7, "Cy": -8, "Dee": -8}
    assert got["finished"] is True
    assert got["winners"] == ["Ann"]
    assert got["leader"] is None
    assert len(got["rounds"]) == 4
    assert result.prompt().expects == ()
    assert texts(result, len(events))[-1] == (
        "After 4 rounds the game is over: the highest total is 8, won by Ann"
    )


def test_tied_players_all_win() -> None:
    events = [*quick_round("Ann"), *quick_round("Ann"), *quick_round("Ben")]
    events += quick_round("Ben")
    got = summary(events)
    assert got["totals"] == {"Ann": -16, "Ben": -16, "Cy": 0, "Dee": 0}
    assert got["winners"] == ["Cy", "Dee"]


def test_events_after_the_game_are_refused() -> None:
    events = [quick_round(n) for n in FOUR]
    flat = [e for r in events for e in r]
    error = refused([*flat, rnd("Ann")])
    assert isinstance(error, RuleError) and error.event == 17
    assert "already over" in error.message


def test_per_player_view_keeps_the_ended_round_until_the_next_starts() -> None:
    events = [*quick_round("Ann"), rnd("Ben")]
    got = summary(events[:-1])
    assert got["players"]["Ann"] == view(["P14", "G14", "R14"], 9, 3)
    got = summary(events)
    assert got["players"]["Ann"] == view([], 0, 0)
    assert got["leader"] == "Ben"
    assert got["totals"]["Ann"] == -8


def test_follow_suit_warning_never_refuses() -> None:
    events = [rnd("Ann"), trick("R2 G3 R4 R5"), trick("R6 R7 R8 R9")]
    result = run(events)
    assert not result.steps[1].outcome.warnings
    (warning,) = result.steps[2].outcome.warnings
    assert warning.text.startswith("Ben plays R8 but did not follow red earlier")
    assert warning.topic == "follow-suit"


def test_every_reason_uses_a_listed_topic() -> None:
    result = run(full_round())
    for step in result.steps:
        assert step.outcome.reasons
        for reason in step.outcome.reasons:
            assert reason.topic in ENGINE.topics
    for topic, _template in ENGINE.texts.values():
        assert topic in ENGINE.topics


# -- options ----------------------------------------------------------------------


def test_default_options() -> None:
    assert start(game_log([])).state.options == {
        "deck": "original",
        "removed_suit": None,
    }
    assert start(game_log([], THREE)).state.options["removed_suit"] == "Y"
    three_std = start(game_log([], THREE, deck="standard")).state
    assert three_std.options["removed_suit"] == "C"


@pytest.mark.parametrize(
    ("players", "options", "words"),
    [
        (FOUR, {"colour": "red"}, '"colour" is not an option'),
        (FOUR, {"deck": "jumbo"}, "'jumbo'"),
        (FOUR, {"removed_suit": "X"}, "one of P, G, R, Y"),
        (THREE, {"removed_suit": "S"}, "one of P, G, R, Y"),
        (THREE, {"deck": "standard", "removed_suit": "Y"}, "one of S, H, D, C"),
        (THREE, {"removed_suit": 3}, "not 3"),
    ],
)
def test_bad_options_are_refused(
    players: list[str], options: dict[str, Any], words: str
) -> None:
    with pytest.raises(FormatError) as caught:
        start(game_log([], players, **options))
    assert caught.value.event == 0
    assert words in caught.value.message


def test_player_count() -> None:
    with pytest.raises(FormatError) as caught:
        start(game_log([], ["Ann", "Ben"]))
    assert "3 to 4 players" in caught.value.message


def test_removed_suit_cards_are_refused() -> None:
    error = refused([rnd("Ann"), trick("R2 Y3 R4")], THREE)
    assert isinstance(error, CardError) and error.event == 2
    assert "Y3 is not in this game" in error.message
    assert "yellow" in error.message


def test_chosen_removed_suit() -> None:
    got = summary([rnd("Ann"), trick("Y2 Y3 Y4")], THREE, removed_suit="P")
    assert got["players"]["Cy"] == view(["Y4"], 2, 1)
    error = refused([rnd("Ann"), trick("P2 R3 R4")], THREE, removed_suit="P")
    assert "purple" in error.message and error.event == 2


def test_standard_deck_has_no_fourteen() -> None:
    error = refused([rnd("Ann"), trick("S14 S2 S3 S4")], deck="standard")
    assert isinstance(error, CardError) and error.event == 2
    assert "S14 is not a card of this game" in error.message


def test_standard_deck_round_ends_after_twelve_tricks() -> None:
    rng = random.Random(5)
    for _ in range(20):
        log = simulate(rng, FOUR, {"deck": "standard"})
        if log.events[13]["type"] == "round":
            break
    else:  # pragma: no cover - a seed where round one ends on a third curse
        pytest.skip("no 12-trick round in these seeds")
    result = replay(log.with_events(log.events[:13]))
    assert result.summary()["rounds"]
    assert result.prompt().expects == ("round",)


# -- refusals ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "kind", "number", "words"),
    [
        ([trick("R2 R3 R4 R5")], RuleError, 1, "no round has started"),
        ([rnd("Ann"), rnd("Ben")], RuleError, 2, "still being played"),
        ([rnd("Zed")], RuleError, 1, '"Zed" is not a player'),
        ([{"type": "round"}], FormatError, 1, 'needs "leader"'),
        ([rnd("Ann"), {"type": "bid"}], FormatError, 2, '"bid" is not an event'),
        ([rnd("Ann"), trick("R2 R3 R4 R15")], CardError, 2, "R15 is not a card"),
        ([rnd("Ann"), trick("R2 R3 R4 Q5")], CardError, 2, "Q5 is not a card"),
        ([rnd("Ann"), trick("R2 R3 R4 zz")], CardError, 2, '"zz" is not a card'),
        ([rnd("Ann"), trick("R2 R3 R4")], RuleError, 2, "needs 4 cards"),
        ([rnd("Ann"), trick("R2 R3 R4 R2")], CardError, 2, "R2 was already played"),
        (
            [rnd("Ann"), trick("R2 R3 R4 R5"), trick("R5 R6 R7 R8")],
            CardError,
            3,
            "R5 was already played this round",
        ),
        ([rnd("Ann"), {"type": "trick"}], FormatError, 2, '"cards"'),
    ],
)
def test_bad_events_are_refused(
    events: list[Event], kind: type[LogError], number: int, words: str
) -> None:
    error = refused(events)
    assert isinstance(error, kind)
    assert error.event == number
    assert words in error.message


def test_cards_may_come_back_next_round() -> None:
    events = [*quick_round("Ann"), *quick_round("Ben")]
    assert len(summary(events)["rounds"]) == 2


def test_refusal_through_the_command_line(tmp_path: Path) -> None:
    events = [rnd("Ann"), trick("R2 R3 R4 R5"), trick("R5 R6 R7 R8")]
    stderr = cli_refusal(tmp_path, game_log(events))
    assert stderr.startswith("error: event 3: R5 was already played")


# -- prompt -----------------------------------------------------------------------


def test_prompt() -> None:
    game = start(game_log([]))
    prompt = game.prompt()
    assert prompt.expects == ("round",)
    assert len(prompt.cards) == 56
    game.apply(rnd("Cy"))
    game.apply(trick("R2 R3 R4 R5"))
    prompt = game.prompt()
    assert prompt.expects == ("trick",)
    assert prompt.seats == ("Ben", "Cy", "Dee", "Ann")  # Ben won with R5
    assert len(prompt.cards) == 52
    assert Card("R", 2) not in prompt.cards


# -- random legal games -----------------------------------------------------------


def deal(rng: random.Random, state: CursedTricksState) -> dict[str, list[Card]]:
    deck = sorted(ENGINE.deck(state).elements())
    rng.shuffle(deck)
    per_hand = 12 if state.options["deck"] == "standard" else 13
    return {
        name: deck[i * per_hand : (i + 1) * per_hand]
        for i, name in enumerate(state.players)
    }


def legal_card(rng: random.Random, hand: list[Card], lead: str | None) -> Card:
    following = [c for c in hand if c.suit == lead]
    return rng.choice(following or hand)


def check(game: Replay, hands: dict[str, list[Card]], dealt: Counter[Card]) -> None:
    state = game.state
    assert isinstance(state, CursedTricksState)
    placed: Counter[Card] = Counter()
    for cards in ENGINE.where_cards_are(state).values():
        placed += cards
    assert placed == state.cards.played
    in_hands = Counter(c for hand in hands.values() for c in hand)
    assert in_hands + state.cards.played == dealt
    got = game.summary()
    assert set(got) == SUMMARY_KEYS
    assert got["totals"] == {
        name: sum(r["scores"][name] for r in got["rounds"]) for name in state.players
    }
    for seen in got["players"].values():
        assert set(seen) == {"curses", "pile", "tricks"}
        assert len(seen["curses"]) <= 3
    suits = [Card.parse(c).suit for p in got["players"].values() for c in p["curses"]]
    assert len(suits) == len(set(suits))  # one curse per colour at most


def simulate(
    rng: random.Random,
    players: list[str],
    options: dict[str, Any],
    checks: bool = False,
) -> GameLog:
    """A game of legal plays from real deals, with choices made where needed."""
    game = start(GameLog("cursed-tricks", list(players), dict(options)))
    while not game.state.finished:
        game.apply(rnd(rng.choice(players)))
        state = game.state
        assert isinstance(state, CursedTricksState)
        hands = deal(rng, state)
        dealt = Counter(c for hand in hands.values() for c in hand)
        while game.prompt().expects == ("trick",):
            seats = game.prompt().seats
            cards: list[Card] = []
            for seat in seats:
                lead = cards[0].suit if cards else None
                cards.append(legal_card(rng, hands[seat], lead))
            event: Event = {"type": "trick", "cards": [str(c) for c in cards]}
            try:
                game.preview(event)
            except ChoiceNeeded as choice:
                event["break"] = rng.choice(choice.options)
            outcome = game.apply(event)
            assert not outcome.warnings
            assert outcome.reasons
            for seat, card in zip(seats, cards, strict=True):
                hands[seat].remove(card)
            if checks:
                check(game, hands, dealt)
        # A round ends with every hand empty, or early on a third curse.
        state = game.state
        assert isinstance(state, CursedTricksState)
        third = any(len(c) == 3 for c in state.curses.values())
        assert third or not any(hands.values())
    return game.log


CONFIGS = [
    (FOUR, {}),
    (FOUR, {"deck": "standard"}),
    (THREE, {}),
    (THREE, {"deck": "standard", "removed_suit": "S"}),
    (THREE, {"removed_suit": "G"}),
]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), config=st.sampled_from(CONFIGS))
def test_random_legal_games(seed: int, config: tuple[list[str], dict]) -> None:
    players, options = config
    log = simulate(random.Random(seed), players, options, checks=True)
    final = replay(log)
    assert final.summary()["finished"] is True
    assert len(final.summary()["rounds"]) == 4
    assert final.summary() == replay(log).summary()  # deterministic
    for cut in range(len(log.events)):
        replay(log.with_events(log.events[:cut])).summary()


# -- the examples ----------------------------------------------------------------

EXAMPLES = [
    (
        "cursed-tricks.json",
        FOUR,
        {},
        {"Ann": 27, "Ben": 35, "Cy": 28, "Dee": 14},
        ["Ben"],
    ),
    (
        "cursed-tricks-standard-3p.json",
        THREE,
        {"deck": "standard"},
        {"Ann": 0, "Ben": 29, "Cy": 27},
        ["Ben"],
    ),
]


@pytest.mark.parametrize(("name", "players", "options", "totals", "winners"), EXAMPLES)
def test_examples(
    name: str,
    players: list[str],
    options: dict[str, Any],
    totals: dict[str, int],
    winners: list[str],
) -> None:
    log = loads((ROOT / "examples" / name).read_text(encoding="utf-8"))
    assert (log.players, log.options) == (players, options)
    got = replay(log).summary()
    assert got["finished"] is True
    assert len(got["rounds"]) == 4
    assert got["totals"] == totals
    assert got["winners"] == winners
