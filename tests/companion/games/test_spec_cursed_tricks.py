"""Cursed Tricks against the contract: hand-written logs, summaries worked by hand.

Each case is a log and the summary fragments the spec predicts (or the event
the spec says must be refused and words the refusal should contain). Logs go
through JSON text, as `companion replay` reads them, and the summary is
compared after a JSON round trip, as it is printed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.log import loads
from companion.replay import replay
from tests.companion.games.spec_table import (
    assert_fragment,
    assert_refused,
    log_json,
)

FOUR = ["Ann", "Ben", "Cy", "Dee"]
THREE = ["Ann", "Ben", "Cy"]
Event = dict[str, Any]


def log_text(
    events: list[Event], players: list[str] | None = None, options: Any = None
) -> str:
    return log_json("cursed-tricks", players or FOUR, events, options)


def summary_of(text: str) -> dict[str, Any]:
    return json.loads(json.dumps(replay(loads(text)).summary()))


def round_ev(leader: str) -> Event:
    return {"type": "round", "leader": leader}


def trick(*cards: str, **extra: Any) -> Event:
    return {"type": "trick", "cards": list(cards), **extra}


def lead_and_win(suits: str, top: int) -> list[Event]:
    """A round where the first seat leads its suit 1 upwards and wins every trick.

    The others play the other three suits in the same order, so the leader ends
    with one curse (the top lead card) and every old curse in their pile.
    """
    return [trick(*(f"{suit}{n}" for suit in suits)) for n in range(1, top)]


def rotating_rounds() -> list[Event]:
    """Four rounds, each won trick by trick by a different player."""
    events: list[Event] = []
    for seat in range(4):
        order = "PGRY"[seat:] + "PGRY"[:seat]
        events.append(round_ev(FOUR[seat]))
        events.extend(lead_and_win(order, 14))
    return events


def two_curse_round() -> list[Event]:
    """Ann takes P14 and G14; Ben then wins eleven P tricks that stay in his pile."""
    return [
        round_ev("Ann"),
        trick("P14", "G1", "R1", "Y1"),
        trick("G14", "R2", "Y2", "P1"),
        trick("P2", "P13", "G2", "Y3"),
        *[trick(f"P{n}", f"G{n}", f"R{n}", f"Y{n + 1}") for n in range(3, 13)],
    ]


# The two-curse setup: Dee holds P14 and G14, Ann holds Y12, Ann leads next.
DEE_TWO_CURSES = [
    round_ev("Ann"),
    trick("P5", "P3", "P4", "P14"),
    trick("G14", "G2", "G5", "G6"),
    trick("Y2", "Y12", "Y3", "Y4"),
]
# Ann leads, Cy wins with R12 and Dee's R3 is the lowest: Dee must break.
DEE_BREAKS = ("R10", "R11", "R12", "R3")

CASES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "empty log",
        log_text([]),
        {
            "finished": False,
            "winners": [],
            "leader": None,
            "rounds": [],
            "totals": {"Ann": 0, "Ben": 0, "Cy": 0, "Dee": 0},
            "players": {"Ann": {"curses": [], "pile": 0, "tricks": 0}},
        },
    ),
    (
        "round only: leader set",
        log_text([round_ev("Cy")]),
        {"leader": "Cy", "rounds": []},
    ),
    (
        "highest lead card wins and becomes a curse; breaker holds none",
        log_text([round_ev("Ann"), trick("R7", "R12", "G3", "R2")]),
        {
            "leader": "Ben",
            "players": {
                "Ben": {"curses": ["R12"], "pile": 3, "tricks": 1},
                "Dee": {"curses": [], "pile": 0, "tricks": 0},
            },
        },
    ),
    (
        "lead card lowest: nobody breaks",
        log_text([round_ev("Ann"), trick("R2", "R7", "R12", "G3")]),
        {"leader": "Cy", "players": {"Cy": {"curses": ["R12"], "pile": 3}}},
    ),
    (
        "1 beats 14 of the lead suit and becomes the curse",
        log_text([round_ev("Ann"), trick("R14", "R1", "R5", "R3")]),
        {"leader": "Ben", "players": {"Ben": {"curses": ["R1"], "pile": 3}}},
    ),
    (
        "1 without 14: 13 still wins",
        log_text([round_ev("Ann"), trick("R13", "R1", "R5", "R2")]),
        {"leader": "Ann", "players": {"Ann": {"curses": ["R13"], "pile": 3}}},
    ),
    (
        "1 of another suit does not beat the lead 14",
        log_text([round_ev("Ann"), trick("R14", "G1", "R5", "R2")]),
        {"leader": "Ann", "players": {"Ann": {"curses": ["R14"]}}},
    ),
    (
        "higher card replaces the winner's own curse; old one to the pile",
        log_text(
            [
                round_ev("Ann"),
                trick("R12", "R7", "R3", "G2"),
                trick("R13", "R4", "R5", "R6"),
            ]
        ),
        {"leader": "Ann", "players": {"Ann": {"curses": ["R13"], "pile": 7}}},
    ),
    (
        "lower card stays in the trick and goes to the winner's pile",
        log_text(
            [
                round_ev("Ann"),
                trick("R12", "R7", "R3", "G2"),
                trick("R13", "R4", "R5", "R6"),
                trick("R10", "R8", "R11", "R2"),
            ]
        ),
        {
            "leader": "Cy",
            "players": {
                "Ann": {"curses": ["R13"], "pile": 7, "tricks": 2},
                "Cy": {"curses": [], "pile": 4, "tricks": 1},
            },
        },
    ),
    (
        "higher card takes another player's curse; old one to that player's pile",
        log_text(
            [
                round_ev("Ann"),
                trick("R12", "R7", "R3", "G2"),
                trick("R4", "R13", "R5", "R6"),
            ]
        ),
        {
            "leader": "Ben",
            "players": {
                "Ann": {"curses": [], "pile": 4, "tricks": 1},
                "Ben": {"curses": ["R13"], "pile": 3, "tricks": 1},
            },
        },
    ),
    (
        "the break comes first: a broken curse no longer blocks a lower winner",
        log_text(
            [
                round_ev("Ann"),
                trick("R4", "R13", "R3", "G1"),
                trick("P10", "P11", "P12", "P9"),
                trick("R5", "R9", "R2", "R8"),
            ]
        ),
        {
            "leader": "Ann",
            "players": {
                "Ann": {"curses": ["R9"], "pile": 3, "tricks": 1},
                "Ben": {"curses": [], "pile": 4, "tricks": 1},
                "Dee": {"curses": ["P12"], "pile": 3},
            },
        },
    ),
    (
        "two curses: break names the one removed",
        log_text([*DEE_TWO_CURSES, trick(*DEE_BREAKS, **{"break": "G"})]),
        {
            "leader": "Cy",
            "players": {
                "Dee": {"curses": ["P14"], "pile": 7, "tricks": 2},
                "Cy": {"curses": ["R12"], "pile": 3},
                "Ann": {"curses": ["Y12"]},
            },
        },
    ),
    (
        "one curse: no break needed, and a matching break is accepted",
        log_text(
            [
                round_ev("Ann"),
                trick("R12", "R7", "R3", "G2"),
                trick("G5", "G6", "G7", "G4"),
                trick("P5", "P7", "P4", "P6", **{"break": "R"}),
            ]
        ),
        {
            "leader": "Dee",
            "players": {
                "Ann": {"curses": [], "pile": 4, "tricks": 1},
                "Dee": {"curses": ["P7"], "pile": 3},
            },
        },
    ),
    (
        "break given when nobody breaks is ignored",
        log_text([round_ev("Ann"), trick("R2", "R7", "R12", "G3", **{"break": "R"})]),
        {"leader": "Cy", "players": {"Cy": {"curses": ["R12"]}}},
    ),
    (
        "third curse ends the round; no-trick players score 0, others by pile",
        log_text(
            [
                round_ev("Ann"),
                trick("P12", "G1", "G2", "G3"),
                trick("P2", "P10", "G4", "G5"),
                trick("R5", "R6", "R7", "R8"),
                trick("Y5", "G6", "G7", "G8"),
            ]
        ),
        {
            "leader": None,
            "finished": False,
            "rounds": [{"scores": {"Ann": -8, "Ben": 4, "Cy": 0, "Dee": 0}}],
            "totals": {"Ann": -8, "Ben": 4, "Cy": 0, "Dee": 0},
            "players": {
                "Ann": {"curses": ["P12", "R8", "Y5"], "pile": 9, "tricks": 3},
                "Ben": {"curses": [], "pile": 4, "tricks": 1},
            },
        },
    ),
    (
        "full round: one curse scores non-matching cards, no trick scores 10",
        log_text([round_ev("Ann"), *lead_and_win("PGRY", 14)]),
        {
            "leader": None,
            "rounds": [{"scores": {"Ann": 39, "Ben": 10, "Cy": 10, "Dee": 10}}],
            "players": {"Ann": {"curses": ["P13"], "pile": 51, "tricks": 13}},
        },
    ),
    (
        "next round: leader is free and the players' state restarts",
        log_text([round_ev("Ann"), *lead_and_win("PGRY", 14), round_ev("Dee")]),
        {
            "leader": "Dee",
            "totals": {"Ann": 39, "Ben": 10},
            "players": {"Ann": {"curses": [], "pile": 0, "tricks": 0}},
        },
    ),
    (
        "two curses score 0; a player winning only low tricks scores the pile",
        log_text(two_curse_round()),
        {
            "leader": None,
            "rounds": [{"scores": {"Ann": 0, "Ben": 44, "Cy": 10, "Dee": 10}}],
            "players": {
                "Ann": {"curses": ["P14", "G14"], "pile": 6, "tricks": 2},
                "Ben": {"curses": [], "pile": 44, "tricks": 11},
            },
        },
    ),
    (
        "four rounds: game over, highest total wins",
        log_text([round_ev("Ann"), *lead_and_win("PGRY", 14)] * 4),
        {
            "finished": True,
            "winners": ["Ann"],
            "leader": None,
            "totals": {"Ann": 156, "Ben": 40, "Cy": 40, "Dee": 40},
            "players": {"Ann": {"curses": ["P13"], "pile": 51}},
        },
    ),
    (
        "four rounds: all tied players win",
        log_text(rotating_rounds()),
        {
            "finished": True,
            "winners": FOUR,
            "totals": {"Ann": 69, "Ben": 69, "Cy": 69, "Dee": 69},
        },
    ),
    (
        "3 players: yellow removed by default, three curses cost 6",
        log_text(
            [
                round_ev("Ann"),
                trick("P5", "G1", "G2"),
                trick("G5", "R1", "R2"),
                trick("R5", "P1", "P2"),
            ],
            THREE,
        ),
        {
            "rounds": [{"scores": {"Ann": -6, "Ben": 0, "Cy": 0}}],
            "players": {"Ann": {"curses": ["P5", "G5", "R5"], "pile": 6}},
        },
    ),
    (
        "3 players: removed_suit chosen, yellow is back in",
        log_text(
            [round_ev("Ben"), trick("Y5", "Y7", "G1")], THREE, {"removed_suit": "P"}
        ),
        {"leader": "Cy", "players": {"Cy": {"curses": ["Y7"], "pile": 2}}},
    ),
    (
        "standard deck: 12 tricks, the ace (1) beats the king (13)",
        log_text(
            [round_ev("Ann"), trick("S13", "S1", "S5", "S2")],
            options={"deck": "standard"},
        ),
        {"leader": "Ben", "players": {"Ben": {"curses": ["S1"], "pile": 3}}},
    ),
    (
        "standard deck: a round is 12 tricks",
        log_text(
            [round_ev("Ann"), *lead_and_win("SHDC", 13)], options={"deck": "standard"}
        ),
        {
            "leader": None,
            "rounds": [{"scores": {"Ann": 36, "Ben": 10, "Cy": 10, "Dee": 10}}],
            "players": {"Ann": {"curses": ["S12"], "pile": 47, "tricks": 12}},
        },
    ),
    (
        "standard deck with 3 players: clubs removed, 12 tricks",
        log_text(
            [round_ev("Ann"), *lead_and_win("SHD", 13)],
            THREE,
            {"deck": "standard"},
        ),
        {
            "leader": None,
            "rounds": [{"scores": {"Ann": 24, "Ben": 10, "Cy": 10}}],
        },
    ),
    (
        "options given at their defaults",
        log_text([round_ev("Ann")], THREE, {"deck": "original", "removed_suit": "Y"}),
        {"leader": "Ann"},
    ),
    (
        "removed_suit null with 4 players",
        log_text([round_ev("Ann")], options={"removed_suit": None}),
        {"leader": "Ann"},
    ),
    (
        "removed_suit given with 4 players is not used: every suit plays",
        log_text(
            [round_ev("Ann"), trick("Y5", "Y7", "G1", "Y2")],
            options={"removed_suit": "Y"},
        ),
        {"leader": "Ben", "players": {"Ben": {"curses": ["Y7"]}}},
    ),
    (
        "not following suit is only a warning",
        log_text(
            [
                round_ev("Ann"),
                trick("R7", "G12", "R3", "R2"),
                trick("R8", "R12", "G3", "R4"),
            ]
        ),
        {"leader": "Ben"},
    ),
    (
        "card codes in lower case are read",
        log_text([round_ev("Ann"), trick("r7", "r12", "g3", "r2")]),
        {"players": {"Ben": {"curses": ["R12"]}}},
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [(text, expected) for _, text, expected in CASES],
    ids=[name for name, _, _ in CASES],
)
def test_summary(text: str, expected: dict[str, Any]) -> None:
    result = summary_of(text)
    assert result["game"] == "cursed-tricks"
    assert_fragment(result, expected)


REFUSED: list[tuple[str, str, int, list[str]]] = [
    ("two players", log_text([], ["Ann", "Ben"]), 0, ["3 to 4"]),
    ("five players", log_text([], [*FOUR, "Eve"]), 0, ["3 to 4"]),
    ("unknown option", log_text([], options={"hand": 13}), 0, ["hand"]),
    ("unknown deck", log_text([], options={"deck": "tarot"}), 0, ["tarot"]),
    ("deck not text", log_text([], options={"deck": ["x"]}), 0, ["deck"]),
    (
        "removed suit not of the deck",
        log_text([], THREE, {"deck": "standard", "removed_suit": "Y"}),
        0,
        ["Y"],
    ),
    ("trick before a round", log_text([trick("R1", "R2", "R3", "R4")]), 1, ["round"]),
    ("round without leader", log_text([{"type": "round"}]), 1, ["leader"]),
    ("leader not a player", log_text([round_ev("Zed")]), 1, ["Zed"]),
    ("unknown event", log_text([{"type": "bid"}]), 1, ["bid"]),
    (
        "too few cards",
        log_text([round_ev("Ann"), trick("R1", "R2", "R3")]),
        2,
        ["4 cards"],
    ),
    (
        "card played twice in a round",
        log_text(
            [
                round_ev("Ann"),
                trick("R7", "R8", "R9", "R10"),
                trick("R7", "G1", "G2", "G3"),
            ]
        ),
        3,
        ["R7", "already played"],
    ),
    (
        "card not in the deck",
        log_text([round_ev("Ann"), trick("R15", "R8", "R9", "R10")]),
        2,
        ["R15"],
    ),
    (
        "removed suit played with 3 players",
        log_text([round_ev("Ann"), trick("Y1", "R8", "R9")], THREE),
        2,
        ["Y1"],
    ),
    (
        "standard deck has no 14",
        log_text(
            [round_ev("Ann"), trick("S14", "S8", "S9", "S1")],
            options={"deck": "standard"},
        ),
        2,
        ["S14"],
    ),
    (
        "new round while one is being played",
        log_text([round_ev("Ann"), trick("R7", "R8", "R9", "R10"), round_ev("Ben")]),
        3,
        ["round"],
    ),
    (
        "break missing when the breaker holds two curses",
        log_text([*DEE_TWO_CURSES, trick(*DEE_BREAKS)]),
        5,
        ["Dee", "break"],
    ),
    (
        "break naming a curse the breaker does not hold",
        log_text([*DEE_TWO_CURSES, trick(*DEE_BREAKS, **{"break": "Y"})]),
        5,
        ["Dee", "Y"],
    ),
    (
        "break given to a breaker who holds no curse (engine's reading)",
        log_text([round_ev("Ann"), trick("R7", "R12", "G3", "R2", **{"break": "R"})]),
        2,
        ["Dee", "none"],
    ),
    (
        "break that is not a suit",
        log_text([*DEE_TWO_CURSES, trick(*DEE_BREAKS, **{"break": "X"})]),
        5,
        ["X"],
    ),
    (
        "trick after a round ended on a third curse",
        log_text(
            [
                round_ev("Ann"),
                trick("P5", "G1", "G2", "G3"),
                trick("R5", "G4", "G5", "G6"),
                trick("Y5", "G7", "G8", "G9"),
                trick("P1", "P2", "P3", "P4"),
            ]
        ),
        5,
        ["round"],
    ),
    (
        "event after the game is over",
        log_text([*rotating_rounds(), round_ev("Ann")]),
        57,
        ["over"],
    ),
]


@pytest.mark.parametrize(
    ("text", "number", "words"),
    [(text, number, words) for _, text, number, words in REFUSED],
    ids=[name for name, *_ in REFUSED],
)
def test_refused(text: str, number: int, words: list[str]) -> None:
    assert_refused(text, number, words)
