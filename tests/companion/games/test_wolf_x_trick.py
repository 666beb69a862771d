"""Wolf x Trick: tricks become piles, piles score Full Moons, the second-best wins."""

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
from companion.games.wolf_x_trick import ENGINE, SUITS
from companion.log import GameLog
from companion.replay import Replay, replay
from tests.companion.games.spec_table import cli_refusal

ROOT = Path(__file__).resolve().parents[3]
FOUR = ["Ann", "Ben", "Cy", "Dee"]
THREE = FOUR[:3]
KEYS = {"game", "finished", "winners", "totals", "rounds", "leader", "players"}


def trick(*cards: str) -> dict[str, Any]:
    return {"type": "trick", "cards": list(cards)}


def pile(player: str, full: int = 0, super_: int = 0) -> dict[str, Any]:
    return {"type": "pile", "player": player, "full": full, "super": super_}


ROUND = {"type": "round", "leader": "Ann"}
END = {"type": "end"}


def play(
    events: list[dict[str, Any]],
    players: list[str] | None = None,
    **options: Any,
) -> Replay:
    return replay(GameLog("wolf-x-trick", players or THREE, options, events))


def refused(
    events: list[dict[str, Any]], players: list[str] | None = None, **options: Any
) -> LogError:
    with pytest.raises(LogError) as error:
        play(events, players, **options)
    return error.value


def texts(result: Replay) -> list[str]:
    return [reason.text for reason in result.steps[-1].outcome.reasons]


# Setup and options


def test_a_new_game_waits_for_a_deal_or_piles() -> None:
    result = play([])
    assert result.summary() == {
        "game": "wolf-x-trick",
        "finished": False,
        "winners": [],
        "totals": {"Ann": 0, "Ben": 0, "Cy": 0},
        "rounds": [],
        "leader": None,
        "players": {n: {"piles": [], "eliminated": False} for n in THREE},
    }
    assert result.prompt().expects == ("round", "pile")


@pytest.mark.parametrize(
    ("count", "last_suit", "missing"),
    [(2, "B", "Y1"), (3, "Y", "G1"), (4, "G", "P1"), (5, "P", None)],
)
def test_one_suit_per_player(count: int, last_suit: str, missing: str | None) -> None:
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"][:count]
    result = play([ROUND], players)
    cards = result.prompt().cards
    assert len(cards) == 11 * count
    assert {c.suit for c in cards} == set(SUITS[:count])
    assert Card(last_suit, 11) in cards
    assert result.prompt().seats == tuple(players)
    if missing:
        error = refused([ROUND, trick(missing, *["R1"] * (count - 1))], players)
        assert isinstance(error, CardError)
        assert error.event == 2
        assert f"{missing} is not a card of this game" in error.message


@pytest.mark.parametrize("count", [1, 6])
def test_player_count(count: int) -> None:
    error = refused([], [f"P{i}" for i in range(count)])
    assert error.event == 0
    assert "2 to 5 players" in error.message


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"moons": [3]}, '"moons" is not an option of Wolf x Trick'),
        ({"ranks": "1-11"}, '"ranks" must be a list of card numbers'),
        ({"ranks": [1, True]}, '"ranks" must be a list of card numbers'),
        ({"ranks": []}, '"ranks" needs at least one number'),
        ({"ranks": [1, 2, 2]}, '"ranks" lists 2 twice'),
        ({"ranks": [0, 1]}, "from 1 to 99"),
        ({"full_moon_ranks": [12]}, "lists 12, which is not a number of this deck"),
        ({"full_moon_ranks": [3, 3]}, '"full_moon_ranks" lists 3 twice'),
        ({"full_moon_ranks": 3}, '"full_moon_ranks" must be a list'),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], words: str) -> None:
    error = refused([], **options)
    assert isinstance(error, FormatError)
    assert error.event == 0
    assert words in error.message


def test_options_get_defaults() -> None:
    assert ENGINE.options(THREE, {}) == {
        "ranks": list(range(1, 12)),
        "full_moon_ranks": [],
    }


# Tricks


def test_highest_of_the_lead_suit_wins_and_the_left_neighbour_leads() -> None:
    result = play([ROUND, trick("R2", "B11", "R9")], full_moon_ranks=[2])
    assert texts(result) == [
        "Cy wins with R9, the highest red",
        "Cy's new pile scores 1: 1 Full Moon, 0 Super Full Moon (2 each)",
        "Ann leads next, left of Cy",
    ]
    summary = result.summary()
    assert summary["leader"] == "Ann"
    assert summary["players"]["Cy"]["piles"] == [1]
    assert result.prompt().seats == ("Ann", "Ben", "Cy")
    # Ben wins the next one, so Cy, on his left, leads after it.
    result = play([ROUND, trick("R2", "B11", "R9"), trick("Y1", "Y4", "R10")])
    assert result.summary()["leader"] == "Cy"
    assert result.prompt().seats == ("Cy", "Ann", "Ben")


def test_each_trick_is_a_pile_of_its_own() -> None:
    events = [ROUND, trick("R8", "R1", "R2"), trick("B1", "B2", "B8")]
    result = play(events, ["Ann", "Ben", "Cy"])
    # Ann wins the first (2 points); Ben leads the second, Ann plays B8 and wins.
    assert result.summary()["players"]["Ann"]["piles"] == [2, 2]
    assert result.summary()["totals"]["Ann"] == 4
    where = result.engine.where_cards_are(result.state)
    assert where["pile:Ann"] == Counter(
        map(Card.parse, ["R8", "R1", "R2", "B1", "B2", "B8"])
    )
    assert where["pile:Ben"] == Counter()


@pytest.mark.parametrize(
    ("moons", "cards", "points"),
    [
        ([], ["R1", "R2", "R3"], -1),
        ([3], ["R1", "R2", "R3"], 1),
        ([1, 2, 3], ["R1", "R2", "R3"], 3),
        ([], ["R8", "B8", "Y8"], 6),
        ([8], ["R8", "B1", "Y1"], 2),
        ([1, 8], ["R8", "R1", "Y1"], 4),
    ],
)
def test_pile_scoring(moons: list[int], cards: list[str], points: int) -> None:
    result = play([ROUND, trick(*cards)], full_moon_ranks=moons)
    assert sum(result.summary()["totals"].values()) == points


def test_warns_when_a_player_plays_a_suit_they_showed_out_of() -> None:
    events = [ROUND, trick("R1", "B1", "R2"), trick("Y1", "R3", "Y2")]
    result = play(events)
    assert result.steps[1].outcome.warnings == []
    warnings = result.steps[2].outcome.warnings
    assert [w.text for w in warnings] == [
        "Ben plays R3 but did not follow red earlier this round: check the cards"
    ]
    assert warnings[0].topic == "follow-suit"
    assert result.summary()["players"]["Cy"]["piles"] == [-1, -1]


def test_fewer_ranks_make_a_shorter_game() -> None:
    ranks = [1, 2, 3]
    events = [
        {"type": "round", "leader": "Ben"},
        trick("R3", "B3", "R1"),  # Ben, Cy, Ann: Ben wins, Cy leads
        trick("B1", "R2", "B2"),  # Cy, Ann, Ben: Ben wins, Cy leads
        trick("Y1", "Y2", "Y3"),  # Cy, Ann, Ben: Ben wins
    ]
    result = play(events, ranks=ranks, full_moon_ranks=[3])
    summary = result.summary()
    assert summary["finished"] is True
    assert summary["totals"] == {"Ann": 0, "Ben": 2, "Cy": 0}
    assert summary["players"]["Ben"]["piles"] == [2, -1, 1]
    # Ann and Cy tie on 0 and are out; Ben alone remains and wins.
    assert summary["winners"] == ["Ben"]
    assert summary["rounds"] == [{"scores": {"Ann": 0, "Ben": 2, "Cy": 0}}]
    error = refused([events[0], trick("R4", "B1", "R1")], ranks=ranks)
    assert "R4 is not a card of this game" in error.message


# Deciding the winner


def piles_to(points: dict[str, int]) -> list[dict[str, Any]]:
    """Pile events giving each player ``points`` (0 takes an empty pile and a 1)."""
    events = []
    for name, n in points.items():
        if n <= 0:
            events.append(pile(name))
        if n >= 0:
            events.append(pile(name, full=max(n % 2, 1 - n), super_=n // 2))
    return events


@pytest.mark.parametrize(
    ("points", "winners", "eliminated", "words"),
    [
        # Everyone tied: a draw.
        ({"Ann": 2, "Ben": 2, "Cy": 2}, [], ["Ann", "Ben", "Cy"], "draw"),
        # Two tie, one is left and wins even with the most points.
        ({"Ann": 3, "Ben": 1, "Cy": 1}, ["Ann"], ["Ben", "Cy"], "only player left"),
        # Someone on 0 or less wins.
        ({"Ann": 3, "Ben": 0, "Cy": 1}, ["Ben"], [], "lowest total of 0 or less"),
        # Several on 0 or less: the lowest.
        ({"Ann": -1, "Ben": 0, "Cy": 2}, ["Ann"], [], "lowest total of 0 or less"),
        # Nobody at 0 or less: the second highest.
        ({"Ann": 1, "Ben": 3, "Cy": 2}, ["Cy"], [], "the second highest after Ben"),
    ],
)
def test_winner_rules(
    points: dict[str, int], winners: list[str], eliminated: list[str], words: str
) -> None:
    result = play([*piles_to(points), END], full_moon_ranks=[1, 2, 3])
    summary = result.summary()
    assert summary["finished"] is True
    assert summary["totals"] == points
    assert summary["rounds"] == [{"scores": points}]
    assert summary["winners"] == winners
    assert [n for n, p in summary["players"].items() if p["eliminated"]] == eliminated
    assert any(words in text for text in texts(result))


def test_ties_go_before_the_zero_or_less_rule() -> None:
    # Ben and Cy share -1 and are out; Dee's 0 is the only total at or below 0.
    events = [pile("Ann", 0, 2), pile("Ben"), pile("Cy"), pile("Dee"), pile("Dee", 1)]
    result = play([*events, END], FOUR, full_moon_ranks=[1])
    summary = result.summary()
    assert summary["totals"] == {"Ann": 4, "Ben": -1, "Cy": -1, "Dee": 0}
    assert summary["winners"] == ["Dee"]
    assert "Ben, Cy are tied on -1 points and are all eliminated" in texts(result)


def test_ties_go_before_the_second_highest_rule() -> None:
    # Ann and Ben share the top; of Cy and Dee left, Cy is the second highest.
    events = [pile("Ann", 0, 2), pile("Ben", 2, 1), pile("Cy", 1), pile("Dee", 0, 1)]
    summary = play([*events, END], FOUR, full_moon_ranks=[1]).summary()
    assert summary["totals"] == {"Ann": 4, "Ben": 4, "Cy": 1, "Dee": 2}
    assert summary["winners"] == ["Cy"]


# Counting piles at the end


def test_pile_mode_ends_after_as_many_piles_as_tricks() -> None:
    events = [pile("Ann", 1)] * 10
    result = play(events, full_moon_ranks=[1, 2, 3, 4])
    assert result.summary()["finished"] is False
    assert result.summary()["leader"] is None
    assert result.prompt().expects == ("pile", "end")
    result = play([*events, pile("Ben")], full_moon_ranks=[1, 2, 3, 4])
    summary = result.summary()
    assert summary["finished"] is True
    assert summary["totals"] == {"Ann": 10, "Ben": -1, "Cy": 0}
    assert summary["winners"] == ["Ben"]
    assert result.prompt().expects == ()


def test_pile_counts_match_the_tricks_they_stand_for() -> None:
    tricks = play(
        [ROUND, trick("R8", "R3", "B3"), trick("Y1", "Y2", "Y5")], full_moon_ranks=[3]
    ).summary()
    piles = play([pile("Ann", 2, 1), pile("Ann"), END], full_moon_ranks=[3]).summary()
    assert tricks["totals"] == {"Ann": 3, "Ben": 0, "Cy": 0}
    assert piles["totals"] == {"Ann": 3, "Ben": 0, "Cy": 0}


@pytest.mark.parametrize(
    ("events", "options", "kind", "words"),
    [
        ([pile("Ann", -1)], {}, FormatError, "a whole number 0 or more, not -1"),
        ([pile("Ann", 1.5)], {}, FormatError, "not 1.5"),  # type: ignore[arg-type]
        ([pile("Ann", True)], {}, FormatError, "not true"),
        (
            [{"type": "pile", "player": "Ann", "full": 1}],
            {},
            FormatError,
            'needs "super"',
        ),
        ([pile("Dan")], {}, RuleError, '"Dan" is not a player'),
        (
            [pile("Ann", 2, 2)],
            {"full_moon_ranks": [1, 2]},
            RuleError,
            "one trick of 3 cards, so it cannot hold 4",
        ),
        (
            [pile("Ann", 1)],
            {"full_moon_ranks": [8]},
            RuleError,
            "the deck has only 0 Full Moon cards",
        ),
        (
            [pile("Ann", 2, 0), pile("Ben", 2, 0)],
            {"full_moon_ranks": [1]},
            RuleError,
            "the deck has only 3 Full Moon cards",
        ),
        (
            [pile("Ann", 0, 2), pile("Ben", 0, 2)],
            {},
            RuleError,
            "only 3 Super Full Moon cards",
        ),
        (
            [pile("Ann", 0, 1)],
            {"ranks": [1, 2, 3]},
            RuleError,
            "only 0 Super Full Moon cards",
        ),
        ([pile("Ann"), ROUND], {}, RuleError, "piles are being counted at the end"),
        ([ROUND, pile("Ann")], {}, RuleError, "recorded trick by trick"),
        (
            [ROUND, trick("R1", "R2", "R3"), END],
            {},
            RuleError,
            "ends by itself after its last trick",
        ),
        ([END], {}, RuleError, "no pile has been counted yet"),
        ([ROUND, ROUND], {}, RuleError, "the deal has already started"),
        ([trick("R1", "R2", "R3")], {}, RuleError, 'record a "round"'),
        ([ROUND, trick("R1", "R2")], {}, RuleError, "this trick needs 3 cards"),
        ([ROUND, trick("R1", "R2", "R1")], {}, CardError, "R1 was already played"),
        ([ROUND, trick("R1", "R2", "X")], {}, CardError, '"X" is not a card code'),
        ([ROUND, {"type": "spell"}], {}, FormatError, '"spell" is not an event'),
        ([{"type": "round"}], {}, FormatError, 'needs "leader"'),
        ([*[pile("Ann")] * 11, pile("Ann")], {}, RuleError, "already over"),
    ],
)
def test_bad_events_are_refused(
    events: list[dict[str, Any]],
    options: dict[str, Any],
    kind: type[LogError],
    words: str,
) -> None:
    error = refused(events, **options)
    assert isinstance(error, kind)
    assert error.event == len(events)
    assert words in error.message


def test_cli_refuses_a_bad_log_in_one_line(tmp_path: Path) -> None:
    log = GameLog("wolf-x-trick", THREE, {}, [ROUND, trick("R1", "R2", "G3")])
    stderr = cli_refusal(tmp_path, log)
    assert stderr == "error: event 2: G3 is not a card of this game\n"


# The examples


def load(name: str) -> Replay:
    return replay(GameLog.from_dict(json.loads((ROOT / "examples" / name).read_text())))


def test_example_trick_by_trick() -> None:
    result = load("wolf-x-trick.json")
    summary = result.summary()
    assert result.log.players == FOUR
    assert len(result.log.events) == 12
    assert summary["finished"] is True
    assert summary["totals"] == {"Ann": 9, "Ben": 5, "Cy": 2, "Dee": 2}
    # Cy and Dee tie and are out; of Ann and Ben, Ben is second highest.
    assert summary["winners"] == ["Ben"]
    assert summary["players"]["Cy"]["eliminated"] is True
    assert summary["players"]["Dee"]["eliminated"] is True


def test_example_counted_in_piles() -> None:
    summary = load("wolf-x-trick-piles.json").summary()
    assert summary["finished"] is True
    assert summary["totals"] == {"Ann": 6, "Ben": -1, "Cy": 7}
    assert summary["winners"] == ["Ben"]


# Random games from real deals


def deal_and_play(
    seed: int, count: int, moons: list[int]
) -> tuple[list[str], dict[str, list[Card]], list[dict[str, Any]]]:
    """A legal game: shuffled deal, everyone following suit when they can."""
    rng = random.Random(seed)
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"][:count]
    deck = [Card(s, n) for s in SUITS[:count] for n in range(1, 12)]
    rng.shuffle(deck)
    hands = {p: deck[i * 11 : (i + 1) * 11] for i, p in enumerate(players)}
    dealt = {p: list(h) for p, h in hands.items()}
    state = ENGINE.start(players, ENGINE.options(players, {"full_moon_ranks": moons}))
    events: list[dict[str, Any]] = [{"type": "round", "leader": rng.choice(players)}]
    ENGINE.apply(state, events[0])
    while not state.finished:
        cards: list[Card] = []
        for seat in ENGINE.prompt(state).seats:
            hand = hands[seat]
            follow = [c for c in hand if cards and c.suit == cards[0].suit]
            card = rng.choice(follow or hand)
            hand.remove(card)
            cards.append(card)
        events.append(trick(*map(str, cards)))
        ENGINE.apply(state, events[-1])
    return players, dealt, events


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(2, 5),
    moons=st.lists(st.integers(1, 11), unique=True, max_size=5),
)
def test_random_games_keep_every_card_and_point(
    seed: int, count: int, moons: list[int]
) -> None:
    players, dealt, events = deal_and_play(seed, count, moons)
    result = play([], players, full_moon_ranks=moons)
    played: Counter[Card] = Counter()
    for number, event in enumerate(events, start=1):
        expected_seats = result.prompt().seats
        assert not result.apply(event).warnings
        if event["type"] == "trick":
            played.update(Card.parse(c) for c in event["cards"])
            assert len(expected_seats) == count
        where = result.engine.where_cards_are(result.state)
        assert sum(where.values(), Counter()) == played
        unplayed = Counter(result.prompt().cards)
        assert unplayed + played == Counter(c for h in dealt.values() for c in h)
        summary = result.summary()
        assert set(summary) == KEYS
        assert summary["totals"] == {
            name: sum(view["piles"]) for name, view in summary["players"].items()
        }
        assert sum(len(v["piles"]) for v in summary["players"].values()) == number - 1
        again = play(events[:number], players, full_moon_ranks=moons).summary()
        assert again == summary
        assert play(events[:number], players, full_moon_ranks=moons).summary() == again
    summary = result.summary()
    assert summary["finished"] is True
    assert summary["rounds"] == [{"scores": summary["totals"]}]
    assert len(summary["winners"]) <= 1
    totals = summary["totals"]
    for name, view in summary["players"].items():
        tied = list(totals.values()).count(totals[name]) > 1
        assert view["eliminated"] == tied
        assert name not in summary["winners"] or not tied

    # The same game counted pile by pile at the end comes out the same.
    counted = []
    for step in result.steps[1:]:
        winner = step.outcome.reasons[0].params["player"]
        cards = [Card.parse(c) for c in step.event["cards"]]
        full = sum(c.number in moons and c.number != 8 for c in cards)
        supers = sum(c.number == 8 for c in cards)
        counted.append(pile(winner, full, supers))
    by_piles = play(counted, players, full_moon_ranks=moons).summary()
    assert by_piles["totals"] == summary["totals"]
    assert by_piles["winners"] == summary["winners"]
