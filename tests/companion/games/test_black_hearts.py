"""Black Hearts: every ruling and option of the spec, bad logs, random games."""

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
from companion.errors import CardError, FormatError, LogError, RuleError
from companion.games.black_hearts import (
    ENGINE,
    RANDOM_PER_ROUND,
    BlackHeartsState,
    round_deck,
)
from companion.games.tricks import clockwise
from companion.log import GameLog
from companion.replay import Replay, replay, start
from tests.companion.games.spec_table import cli_refusal

ROOT = Path(__file__).resolve().parents[3]
FOUR = ["Ann", "Ben", "Cy", "Dee"]
THREE = ["Ann", "Ben", "Cy"]
SUMMARY_KEYS = {"game", "finished", "winners", "totals", "rounds", "leader", "players"}

Events = list[dict[str, Any]]


def rnd(leader: str = "Ann", **extra: Any) -> dict[str, Any]:
    return {"type": "round", "leader": leader, **extra}


def trick(*cards: str) -> dict[str, Any]:
    return {"type": "trick", "cards": list(cards)}


def make_log(
    events: Events, players: list[str] | None = None, **options: Any
) -> GameLog:
    return GameLog("black-hearts", list(players or FOUR), options, events)


def play(events: Events, players: list[str] | None = None, **options: Any) -> Replay:
    return replay(make_log(events, players, **options))


def summary(
    events: Events, players: list[str] | None = None, **options: Any
) -> dict[str, Any]:
    return play(events, players, **options).summary()


def refused(
    kind: type[LogError],
    events: Events,
    players: list[str] | None = None,
    **options: Any,
) -> LogError:
    with pytest.raises(kind) as caught:
        play(events, players, **options)
    return caught.value


# A round worked out by hand (4 players, Ann holds Two o'clock):
#  1. Ann F2, Ben C1, Cy W6, Dee C2: Cy's 6 is highest; Cy takes 1 + 2 = 3
#  2. Cy W6, Dee C3, Ann C4, Ben W1: Cy again; 3 + 4 = 7 more (10)
#  3. Cy W6, Dee C5, Ann W2, Ben C6: a tie of sixes goes to Ben, who played
#     last; 5 + 6 = 11
#  4. Ben F6, Cy F1, Dee W3, Ann F3: Ben; no curse points
#  5. Ben F5, Cy W4, Dee W5, Ann F4: a tie of fives goes to Dee; none
ROUND_A = [
    trick("F2", "C1", "W6", "C2"),
    trick("W6", "C3", "C4", "W1"),
    trick("W6", "C5", "W2", "C6"),
    trick("F6", "F1", "W3", "F3"),
    trick("F5", "W4", "W5", "F4"),
]
SCORES_A = {"Ann": 0, "Ben": 11, "Cy": 10, "Dee": 0}

# Cy catches every curse (the second round of the all-curses example):
#  1. Ann F2, Ben C6, Cy W6, Dee C1: the tie of sixes goes to Cy, later
#  2. Cy W6, Dee C2, Ann C3, Ben W1: Cy
#  3. Cy W6, Dee C4, Ann W2, Ben C5: Cy, who now holds C1-C6
#  4. Cy F6, Dee F1, Ann W3, Ben F3: Cy
#  5. Cy F5, Dee W4, Ann W5, Ben F4: the tie of fives goes to Ann
ROUND_ALL = [
    trick("F2", "C6", "W6", "C1"),
    trick("W6", "C2", "C3", "W1"),
    trick("W6", "C4", "W2", "C5"),
    trick("F6", "F1", "W3", "F3"),
    trick("F5", "W4", "W5", "F4"),
]


# ---- setup: the cards of a round


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_a_round_holds_five_cards_per_player(count: int) -> None:
    deck = round_deck(count, "F2")
    random_cards = RANDOM_PER_ROUND[count]
    fixed = sum(n for card, n in deck.items() if card.suit == "F")
    assert sum(n for card, n in deck.items() if card.suit == "C") == 6
    assert fixed == (1 if count == 3 else 6)
    assert 6 + fixed + random_cards == 5 * count
    assert random_cards == {3: 8, 4: 8, 5: 13, 6: 18}[count]
    assert all(deck[Card("W", n)] == 3 for n in range(1, 7))


def test_three_players_use_only_the_two_oclock_fixed_card() -> None:
    error = refused(CardError, [rnd(), trick("F2", "F1", "C1")], THREE)
    assert error.event == 2
    assert "F1 is not a card of this game" in error.message
    assert summary([rnd(), trick("F2", "C3", "C1")], THREE)["leader"] == "Ben"
    text = play([rnd()], THREE).steps[0].outcome.reasons[0].text
    assert "of the Fixed cards only F2, and 8 Random cards" in text


def test_three_players_keep_the_chosen_two_oclock() -> None:
    error = refused(CardError, [rnd(), trick("F5", "F2", "C1")], THREE, two_oclock="F5")
    assert "F2 is not a card of this game" in error.message
    assert (
        summary([rnd(), trick("F5", "W6", "C1")], THREE, two_oclock="F5")["leader"]
        == "Ben"
    )


def test_a_ninth_random_card_with_four_players_is_refused() -> None:
    events = [
        rnd(),
        trick("F2", "W1", "W1", "W1"),  # Ann wins with the 2
        trick("W2", "W2", "W2", "W3"),  # Dee wins with the 3; 7 Random cards
        trick("W4", "W5", "C1", "C2"),  # Ann's W5 would be the ninth
    ]
    error = refused(CardError, events)
    assert error.event == 4
    assert "W5" in error.message
    assert "only 8 Random cards" in error.message


def test_a_fourth_copy_of_a_random_card_is_refused() -> None:
    events = [rnd(), trick("F2", "W6", "W6", "W6"), trick("W6", "C1", "C2", "C3")]
    error = refused(CardError, events)
    assert error.event == 3
    assert "W6 was already played 3 times this round" in error.message


def test_five_players_may_use_thirteen_random_cards() -> None:
    players = [*FOUR, "Eve"]
    events = [
        rnd(),
        trick("F2", "W1", "W1", "W1", "W2"),  # Eve wins
        trick("W2", "W2", "W3", "W3", "W3"),  # Dee wins, latest of the threes
        trick("W4", "W4", "W4", "W5", "C6"),  # Cy wins; 13 Random cards
    ]
    assert summary(events, players)["leader"] == "Cy"
    error = refused(CardError, [*events, trick("W5", "C1", "C2", "C3", "C4")], players)
    assert "only 13 Random cards" in error.message


# ---- two o'clock and the round event


def test_the_round_leader_must_lead_two_oclock() -> None:
    error = refused(RuleError, [rnd("Ben"), trick("W3", "F2", "C1", "C2")])
    assert error.event == 2
    assert "Ben holds Two o'clock (F2)" in error.message
    assert "W3" in error.message


def test_two_oclock_is_only_required_in_the_first_trick() -> None:
    result = play([rnd(), *ROUND_A[:2]])
    assert result.summary()["leader"] == "Cy"
    reasons = [r.text for r in result.steps[1].outcome.reasons]
    assert "Ann leads Two o'clock (F2)" in reasons


def test_another_fixed_card_can_be_two_oclock() -> None:
    events = [rnd("Dee"), trick("F5", "F2", "C1", "C2")]
    error = refused(RuleError, events)
    assert "must lead it" in error.message
    # With F5 as Two o'clock, Dee leads it and wins: nobody else plays a 5 or 6.
    assert summary(events, two_oclock="F5")["leader"] == "Dee"


def test_the_round_event_defaults_and_explains() -> None:
    result = play([rnd()])
    state = result.state
    assert isinstance(state, BlackHeartsState)
    assert (state.gift, state.reversed) == (None, False)
    texts = [r.text for r in result.steps[0].outcome.reasons]
    assert "Ann holds Two o'clock (F2) and leads it in the first trick" in texts
    assert "No gift card this round" in texts
    assert result.summary()["leader"] == "Ann"


def test_the_gift_is_recorded_and_told() -> None:
    result = play([rnd(gift="Pass three cards", reversed=False)])
    assert isinstance(result.state, BlackHeartsState)
    assert result.state.gift == "Pass three cards"
    reasons = result.steps[0].outcome.reasons
    assert any(r.topic == "gift" and "Pass three cards" in r.text for r in reasons)


# ---- who wins a trick


def test_the_highest_number_wins_and_leads_next() -> None:
    result = play([rnd(), trick("F2", "C1", "W6", "C2")])
    assert result.summary()["leader"] == "Cy"
    assert result.summary()["players"]["Cy"]["taken"] == ["F2", "C1", "W6", "C2"]
    texts = [r.text for r in result.steps[1].outcome.reasons]
    assert "Cy wins with W6, the highest number" in texts
    assert "Cy takes F2 C1 W6 C2: 3 curse points" in texts


def test_a_tie_goes_to_the_card_played_latest() -> None:
    result = play([rnd(), trick("F2", "W6", "C6", "W6")])
    assert result.summary()["leader"] == "Dee"
    text = result.steps[1].outcome.reasons[1].text
    assert text.startswith("Dee wins with W6: tied for the highest with")
    assert "Ben (W6), Cy (C6)" in text


def test_a_tie_counts_from_the_trick_leader_not_the_seating() -> None:
    # Cy leads trick 2, so Ben (last to play) beats Cy's earlier six.
    events = [rnd(), *ROUND_A[:2], ROUND_A[2]]
    assert summary(events)["leader"] == "Ben"


def test_reversed_rounds_make_the_lowest_win() -> None:
    # The cards of ROUND_A in a reversed round: the 1s and 2s win now.
    #  1. Ann F2, Ben C1, Cy W6, Dee C2: Ben (1); C1 + C2 = 3
    #  2. Ben W6, Cy C3, Dee C4, Ann W1: Ann (1); C3 + C4 = 7
    #  3. Ann W6, Ben C5, Cy W2, Dee C6: Cy (2); C5 + C6 = 11
    #  4. Cy F6, Dee F1, Ann W3, Ben F3: Dee (1)
    #  5. Dee F5, Ann W4, Ben W5, Cy F4: Cy (4)
    result = summary([rnd(reversed=True), *ROUND_A])
    assert result["rounds"] == [{"scores": {"Ann": 7, "Ben": 3, "Cy": 11, "Dee": 0}}]
    assert result["players"]["Cy"]["taken"] == [
        "W6",
        "C5",
        "W2",
        "C6",
        "F5",
        "W4",
        "W5",
        "F4",
    ]


def test_reversed_ties_still_go_to_the_latest() -> None:
    result = play([rnd(reversed=True), trick("F2", "W1", "C1", "W3")])
    assert result.summary()["leader"] == "Cy"
    texts = [r.text for r in result.steps[1].outcome.reasons]
    assert any(t.startswith("Cy wins with C1: tied for the lowest") for t in texts)


def test_the_reversed_order_lasts_one_round() -> None:
    events = [rnd(reversed=True), *ROUND_A, rnd(), trick("F2", "C1", "W6", "C2")]
    assert summary(events)["leader"] == "Cy"


# ---- curse points, rounds, the end


def test_a_round_adds_up_the_curse_points_taken() -> None:
    result = summary([rnd(), *ROUND_A])
    assert result["rounds"] == [{"scores": SCORES_A}]
    assert result["totals"] == SCORES_A
    assert result["finished"] is False
    assert result["winners"] == []
    assert result["leader"] is None
    assert result["players"] == {
        "Ann": {"taken": []},
        "Ben": {"taken": ["W6", "C5", "W2", "C6", "F6", "F1", "W3", "F3"]},
        "Cy": {"taken": ["F2", "C1", "W6", "C2", "W6", "C3", "C4", "W1"]},
        "Dee": {"taken": ["F5", "W4", "W5", "F4"]},
    }


def test_taken_cards_start_afresh_with_each_round() -> None:
    result = summary([rnd(), *ROUND_A, rnd("Dee")])
    assert result["players"] == {name: {"taken": []} for name in FOUR}
    assert result["leader"] == "Dee"
    assert result["totals"] == SCORES_A


def test_reaching_13_ends_the_game_and_all_lowest_tied_win() -> None:
    # Twice round A: Ben 22, Cy 20, Ann and Dee still 0.
    result = summary([rnd(), *ROUND_A, rnd(), *ROUND_A])
    assert result["totals"] == {"Ann": 0, "Ben": 22, "Cy": 20, "Dee": 0}
    assert len(result["rounds"]) == 2
    assert result["finished"] is True
    assert result["winners"] == ["Ann", "Dee"]
    assert result["leader"] is None


def test_exactly_13_ends_the_game() -> None:
    # F1 worth 2 gives Ben 11 + 2 = 13 in the first round.
    result = summary([rnd(), *ROUND_A], curse_points={"F1": 2})
    assert result["totals"]["Ben"] == 13
    assert result["finished"] is True
    assert result["winners"] == ["Ann", "Dee"]


def test_the_single_lowest_total_wins() -> None:
    # F1 worth 3 (Ben) and F4 worth 1 (Dee): Ben 14, Cy 10, Dee 1, Ann 0.
    result = summary([rnd(), *ROUND_A], curse_points={"F1": 3, "F4": 1})
    assert result["totals"] == {"Ann": 0, "Ben": 14, "Cy": 10, "Dee": 1}
    assert result["winners"] == ["Ann"]


def test_below_13_the_game_goes_on() -> None:
    result = play([rnd(), *ROUND_A])
    assert result.prompt().expects == ("round",)
    texts = [r.text for r in result.steps[-1].outcome.reasons]
    assert "Nobody has 13 curse points yet: a new round follows" in texts


def test_taking_all_six_curses_wins_at_once() -> None:
    result = play([rnd(), *ROUND_ALL])
    found = result.summary()
    assert found["finished"] is True
    assert found["winners"] == ["Cy"]
    # The winner's points still count, even far over 13.
    assert found["totals"] == {"Ann": 0, "Ben": 0, "Cy": 21, "Dee": 0}
    assert found["rounds"] == [{"scores": found["totals"]}]
    assert result.steps[-1].outcome.reasons[-1].topic == "all-curses"


def test_all_curses_wins_over_the_13_rule() -> None:
    # Round A first leaves Ann and Dee at 0; Cy ends on 31 but wins anyway.
    found = summary([rnd(), *ROUND_A, rnd(), *ROUND_ALL])
    assert found["totals"]["Cy"] == 31
    assert found["winners"] == ["Cy"]


def test_all_curses_is_about_the_cards_not_their_points() -> None:
    zero = {f"C{n}": 0 for n in range(1, 7)}
    found = summary([rnd(), *ROUND_ALL], curse_points=zero)
    assert found["totals"] == {name: 0 for name in FOUR}
    assert found["winners"] == ["Cy"]


def test_curse_points_merge_with_the_printed_defaults() -> None:
    options = ENGINE.options(FOUR, {"curse_points": {"c6": 10, "W1": 1}})
    points = options["curse_points"]
    assert points["C6"] == 10
    assert points["C5"] == 5
    assert points["W1"] == 1
    assert points["F2"] == 0
    assert options["two_oclock"] == "F2"
    # Each copy of W1 carries the point: Cy took one in round A (trick 2).
    found = summary([rnd(), *ROUND_A], curse_points={"W1": 1})
    assert found["totals"]["Cy"] == 11


# ---- options refused


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"two_oclock": "W2"}, '"two_oclock" must be a Fixed card'),
        ({"two_oclock": "F7"}, '"two_oclock" must be a Fixed card'),
        ({"two_oclock": 2}, '"two_oclock" must be a Fixed card'),
        ({"curse_points": [1, 2]}, '"curse_points" must map card codes'),
        ({"curse_points": {"C7": 7}}, '"C7", which is not a Black Hearts card'),
        ({"curse_points": {"hello": 7}}, '"hello", which is not a Black Hearts'),
        ({"curse_points": {"C1": -1}}, "curse points of C1 must be a whole number"),
        ({"curse_points": {"C1": 1.5}}, "curse points of C1 must be a whole number"),
        ({"curse_points": {"C1": True}}, "curse points of C1 must be a whole number"),
        ({"gifts": True}, '"gifts" is not an option of Black Hearts'),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(FormatError) as caught:
        start(make_log([], **options))
    assert caught.value.event == 0
    assert words in caught.value.message


@pytest.mark.parametrize("players", [["Ann", "Ben"], [*FOUR, "Eve", "Fay", "Gus"]])
def test_player_counts_outside_3_to_6_are_refused(players: list[str]) -> None:
    with pytest.raises(FormatError, match="3 to 6 players"):
        start(make_log([], players))


# ---- bad logs


@pytest.mark.parametrize(
    ("kind", "events", "number", "words"),
    [
        (RuleError, [trick("F2", "C1", "C2", "C3")], 1, "no round has started"),
        (RuleError, [rnd(), *ROUND_A[:1], rnd()], 3, "round 1 is still being played"),
        (RuleError, [rnd(), *ROUND_A, ROUND_A[0]], 7, "round 1 is over"),
        (RuleError, [rnd("Zed")], 1, '"Zed" is not a player'),
        (FormatError, [{"type": "round"}], 1, 'needs "leader"'),
        (FormatError, [rnd(gift=3)], 1, '"gift" is the gift card\'s text'),
        (FormatError, [rnd(reversed="yes")], 1, '"reversed" must be true or false'),
        (FormatError, [rnd(), {"type": "pass"}], 2, '"pass" is not an event'),
        (FormatError, [rnd(), {"type": "trick"}], 2, 'lists its cards in "cards"'),
        (RuleError, [rnd(), trick("F2", "C1", "C2")], 2, "needs 4 cards"),
        (CardError, [rnd(), trick("F2", "C1", "C2", "C7")], 2, "C7 is not a card"),
        (CardError, [rnd(), trick("F2", "C1", "X9", "C2")], 2, "X9 is not a card"),
        (CardError, [rnd(), trick("F2", "C1", "hi", "C2")], 2, '"hi" is not a card'),
        (CardError, [rnd(), trick("F2", "C1", "C1", "C2")], 2, "C1 was already"),
        (
            CardError,
            [rnd(), ROUND_A[0], trick("C1", "C3", "C4", "W1")],
            3,
            "C1 was already played this round",
        ),
        (
            RuleError,
            [rnd(), *ROUND_ALL, rnd()],
            7,
            "the game is already over",
        ),
    ],
)
def test_bad_logs_are_refused(
    kind: type[LogError], events: Events, number: int, words: str
) -> None:
    error = refused(kind, events)
    assert error.event == number
    assert words in error.message


def test_a_refused_event_leaves_the_replay_unchanged() -> None:
    result = play([rnd(), ROUND_A[0]])
    before = result.summary()
    with pytest.raises(RuleError):
        result.apply(rnd())
    assert result.summary() == before
    result.apply(ROUND_A[1])
    assert result.summary()["leader"] == "Cy"


def test_the_command_line_refuses_a_bad_log(tmp_path: Path) -> None:
    log = make_log([rnd("Ben"), trick("W3", "F2", "C1", "C2")])
    stderr = cli_refusal(tmp_path, log)
    assert stderr.startswith("error: event 2: Ben holds Two o'clock")


# ---- prompt and the examples


def test_the_prompt_follows_the_round() -> None:
    result = play([])
    assert result.prompt().expects == ("round",)
    result.apply(rnd("Cy"))
    prompt = result.prompt()
    assert prompt.expects == ("trick",)
    assert prompt.seats == ("Cy", "Dee", "Ann", "Ben")
    assert len(prompt.cards) == 30  # C1-C6, F1-F6, and W1-W6 three times each
    result = play([rnd(), *ROUND_ALL])
    assert result.prompt().expects == ()


def test_the_prompt_offers_no_random_card_once_all_are_played() -> None:
    result = play([rnd(), trick("F2", "W1", "W1", "W1"), trick("W2", "W2", "W2", "W3")])
    result.apply(trick("W4", "C3", "C1", "C2"))  # Dee leads; W count now 8
    assert all(card.suit != "W" for card in result.prompt().cards)


@pytest.mark.parametrize(
    ("name", "winners"),
    [("black-hearts.json", ["Ben"]), ("black-hearts-all-curses.json", ["Cy"])],
)
def test_the_examples_replay_to_their_end(name: str, winners: list[str]) -> None:
    with open(ROOT / "examples" / name, encoding="utf-8") as handle:
        result = replay(GameLog.from_dict(json.load(handle)))
    found = result.summary()
    assert found["finished"] is True
    assert found["winners"] == winners
    assert len(result.log.players) == 4
    if name == "black-hearts.json":
        assert max(found["totals"].values()) >= 13
    else:
        assert found["players"]["Cy"]["taken"].count("C1") == 1
        assert {c for c in found["players"]["Cy"]["taken"] if c[0] == "C"} == {
            f"C{n}" for n in range(1, 7)
        }


# ---- random legal games from real shuffled deals


def deal(rng: random.Random, players: list[str], two_oclock: str) -> dict[str, list]:
    """Deal a round as the table does, then pass two cards to the left."""
    count = len(players)
    randoms = [Card("W", n) for n in range(1, 7) for _ in range(3)]
    fixed = (
        [Card.parse(two_oclock)] if count == 3 else [Card("F", n) for n in range(1, 7)]
    )
    cards = [Card("C", n) for n in range(1, 7)] + fixed
    cards += rng.sample(randoms, RANDOM_PER_ROUND[count])
    rng.shuffle(cards)
    hands = {name: cards[i * 5 : i * 5 + 5] for i, name in enumerate(players)}
    passed = {name: rng.sample(hands[name], 2) for name in players}
    for at, name in enumerate(players):
        for card in passed[name]:
            hands[name].remove(card)
        hands[name].extend(passed[players[at - 1]])
    return hands


def check_state(result: Replay, hands: dict[str, list], dealt: Counter) -> None:
    state = result.state
    assert isinstance(state, BlackHeartsState)
    played = state.round_cards.played
    placed = sum(ENGINE.where_cards_are(state).values(), Counter())
    assert placed == played
    assert sum((Counter(h) for h in hands.values()), Counter()) + played == dealt
    found = result.summary()
    assert set(found) == SUMMARY_KEYS
    assert all(set(view) == {"taken"} for view in found["players"].values())
    recount = {
        name: sum(r["scores"][name] for r in found["rounds"]) for name in state.players
    }
    assert found["totals"] == recount
    if state.leader is not None and not state.finished:
        assert result.prompt().seats == tuple(clockwise(state.players, state.leader))


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    two_oclock=st.sampled_from([f"F{n}" for n in range(1, 7)]),
    points=st.dictionaries(
        st.sampled_from([f"C{n}" for n in range(1, 7)]), st.integers(1, 6)
    ),
)
def test_random_legal_games(
    count: int, seed: int, two_oclock: str, points: dict[str, int]
) -> None:
    rng = random.Random(seed)
    players = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:count]
    log = make_log([], players, two_oclock=two_oclock, curse_points=points)
    result = start(log)
    summaries = [result.summary()]
    while not result.state.finished:
        hands = deal(rng, players, two_oclock)
        dealt = sum((Counter(h) for h in hands.values()), Counter())
        leader = next(n for n in players if Card.parse(two_oclock) in hands[n])
        result.apply(rnd(leader, reversed=rng.random() < 0.3))
        summaries.append(result.summary())
        check_state(result, hands, dealt)
        for number in range(5):
            seats = clockwise(players, leader)
            cards = []
            for name in seats:
                if number == 0 and name == leader:
                    card = Card.parse(two_oclock)
                else:
                    card = rng.choice(hands[name])
                hands[name].remove(card)
                cards.append(str(card))
            result.apply(trick(*cards))
            summaries.append(result.summary())
            check_state(result, hands, dealt)
            leader = result.state.leader or leader
        assert not any(hands.values())

    found = result.summary()
    totals = found["totals"]
    every_curse = {f"C{n}" for n in range(1, 7)}
    catchers = [
        name
        for name, view in found["players"].items()
        if every_curse <= set(view["taken"])
    ]
    if catchers:
        assert found["winners"] == catchers
    else:
        assert max(totals.values()) >= 13
        lowest = min(totals.values())
        assert found["winners"] == [n for n in players if totals[n] == lowest]
    events = result.log.events
    for end in range(len(events) + 1):
        again = replay(log.with_events(events[:end])).summary()
        assert again == summaries[end]
    assert replay(log.with_events(events)).summary() == found
