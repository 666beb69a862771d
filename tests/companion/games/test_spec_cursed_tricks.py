"""Cursed Tricks against the contract: hand-written logs, summaries worked by hand.

Each case is a log and the summary fragments the spec predicts (or the event
the spec says must be refused and words the refusal should contain). Logs go
through JSON text, as `companion replay` reads them, and the summary is
compared after a JSON round trip, as it is printed.
"""

from __future__ import annotations

from typing import Any

from tests.companion.games.spec_table import (
    Case,
    Refusal,
    contract_tests,
    round_event,
    trick,
)

GAME = "cursed-tricks"
FOUR = ["Ann", "Ben", "Cy", "Dee"]
THREE = ["Ann", "Ben", "Cy"]
PLAYERS = FOUR
Event = dict[str, Any]


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
        events.append(round_event(FOUR[seat]))
        events.extend(lead_and_win(order, 14))
    return events


def two_curse_round() -> list[Event]:
    """Ann takes P14 and G14; Ben then wins eleven P tricks that stay in his pile."""
    return [
        round_event("Ann"),
        trick("P14", "G1", "R1", "Y1"),
        trick("G14", "R2", "Y2", "P1"),
        trick("P2", "P13", "G2", "Y3"),
        *[trick(f"P{n}", f"G{n}", f"R{n}", f"Y{n + 1}") for n in range(3, 13)],
    ]


# The two-curse setup: Dee holds P14 and G14, Ann holds Y12, Ann leads next.
DEE_TWO_CURSES = [
    round_event("Ann"),
    trick("P5", "P3", "P4", "P14"),
    trick("G14", "G2", "G5", "G6"),
    trick("Y2", "Y12", "Y3", "Y4"),
]
# Ann leads, Cy wins with R12 and Dee's R3 is the lowest: Dee must break.
DEE_BREAKS = ("R10", "R11", "R12", "R3")

CASES: list[Case] = [
    Case(
        "empty log",
        PLAYERS,
        [],
        {
            "finished": False,
            "winners": [],
            "leader": None,
            "rounds": [],
            "totals": {"Ann": 0, "Ben": 0, "Cy": 0, "Dee": 0},
            "players": {"Ann": {"curses": [], "pile": 0, "tricks": 0}},
        },
    ),
    Case(
        "round only: leader set",
        PLAYERS,
        [round_event("Cy")],
        {"leader": "Cy", "rounds": []},
    ),
    Case(
        "highest lead card wins and becomes a curse; breaker holds none",
        PLAYERS,
        [round_event("Ann"), trick("R7", "R12", "G3", "R2")],
        {
            "leader": "Ben",
            "players": {
                "Ben": {"curses": ["R12"], "pile": 3, "tricks": 1},
                "Dee": {"curses": [], "pile": 0, "tricks": 0},
            },
        },
    ),
    Case(
        "lead card lowest: nobody breaks",
        PLAYERS,
        [round_event("Ann"), trick("R2", "R7", "R12", "G3")],
        {"leader": "Cy", "players": {"Cy": {"curses": ["R12"], "pile": 3}}},
    ),
    Case(
        "1 beats 14 of the lead suit and becomes the curse",
        PLAYERS,
        [round_event("Ann"), trick("R14", "R1", "R5", "R3")],
        {"leader": "Ben", "players": {"Ben": {"curses": ["R1"], "pile": 3}}},
    ),
    Case(
        "1 without 14: 13 still wins",
        PLAYERS,
        [round_event("Ann"), trick("R13", "R1", "R5", "R2")],
        {"leader": "Ann", "players": {"Ann": {"curses": ["R13"], "pile": 3}}},
    ),
    Case(
        "1 of another suit does not beat the lead 14",
        PLAYERS,
        [round_event("Ann"), trick("R14", "G1", "R5", "R2")],
        {"leader": "Ann", "players": {"Ann": {"curses": ["R14"]}}},
    ),
    Case(
        "higher card replaces the winner's own curse; old one to the pile",
        PLAYERS,
        [
            round_event("Ann"),
            trick("R12", "R7", "R3", "G2"),
            trick("R13", "R4", "R5", "R6"),
        ],
        {"leader": "Ann", "players": {"Ann": {"curses": ["R13"], "pile": 7}}},
    ),
    Case(
        "lower card stays in the trick and goes to the winner's pile",
        PLAYERS,
        [
            round_event("Ann"),
            trick("R12", "R7", "R3", "G2"),
            trick("R13", "R4", "R5", "R6"),
            trick("R10", "R8", "R11", "R2"),
        ],
        {
            "leader": "Cy",
            "players": {
                "Ann": {"curses": ["R13"], "pile": 7, "tricks": 2},
                "Cy": {"curses": [], "pile": 4, "tricks": 1},
            },
        },
    ),
    Case(
        "higher card takes another player's curse; old one to that player's pile",
        PLAYERS,
        [
            round_event("Ann"),
            trick("R12", "R7", "R3", "G2"),
            trick("R4", "R13", "R5", "R6"),
        ],
        {
            "leader": "Ben",
            "players": {
                "Ann": {"curses": [], "pile": 4, "tricks": 1},
                "Ben": {"curses": ["R13"], "pile": 3, "tricks": 1},
            },
        },
    ),
    Case(
        "the break comes first: a broken curse no longer blocks a lower winner",
        PLAYERS,
        [
            round_event("Ann"),
            trick("R4", "R13", "R3", "G1"),
            trick("P10", "P11", "P12", "P9"),
            trick("R5", "R9", "R2", "R8"),
        ],
        {
            "leader": "Ann",
            "players": {
                "Ann": {"curses": ["R9"], "pile": 3, "tricks": 1},
                "Ben": {"curses": [], "pile": 4, "tricks": 1},
                "Dee": {"curses": ["P12"], "pile": 3},
            },
        },
    ),
    Case(
        "two curses: break names the one removed",
        PLAYERS,
        [*DEE_TWO_CURSES, trick(*DEE_BREAKS, **{"break": "G"})],
        {
            "leader": "Cy",
            "players": {
                "Dee": {"curses": ["P14"], "pile": 7, "tricks": 2},
                "Cy": {"curses": ["R12"], "pile": 3},
                "Ann": {"curses": ["Y12"]},
            },
        },
    ),
    Case(
        "one curse: no break needed, and a matching break is accepted",
        PLAYERS,
        [
            round_event("Ann"),
            trick("R12", "R7", "R3", "G2"),
            trick("G5", "G6", "G7", "G4"),
            trick("P5", "P7", "P4", "P6", **{"break": "R"}),
        ],
        {
            "leader": "Dee",
            "players": {
                "Ann": {"curses": [], "pile": 4, "tricks": 1},
                "Dee": {"curses": ["P7"], "pile": 3},
            },
        },
    ),
    Case(
        "break given when nobody breaks is ignored",
        PLAYERS,
        [round_event("Ann"), trick("R2", "R7", "R12", "G3", **{"break": "R"})],
        {"leader": "Cy", "players": {"Cy": {"curses": ["R12"]}}},
    ),
    Case(
        "third curse ends the round; no-trick players score 0, others by pile",
        PLAYERS,
        [
            round_event("Ann"),
            trick("P12", "G1", "G2", "G3"),
            trick("P2", "P10", "G4", "G5"),
            trick("R5", "R6", "R7", "R8"),
            trick("Y5", "G6", "G7", "G8"),
        ],
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
    Case(
        "full round: one curse scores non-matching cards, no trick scores 10",
        PLAYERS,
        [round_event("Ann"), *lead_and_win("PGRY", 14)],
        {
            "leader": None,
            "rounds": [{"scores": {"Ann": 39, "Ben": 10, "Cy": 10, "Dee": 10}}],
            "players": {"Ann": {"curses": ["P13"], "pile": 51, "tricks": 13}},
        },
    ),
    Case(
        "next round: leader is free and the players' state restarts",
        PLAYERS,
        [round_event("Ann"), *lead_and_win("PGRY", 14), round_event("Dee")],
        {
            "leader": "Dee",
            "totals": {"Ann": 39, "Ben": 10},
            "players": {"Ann": {"curses": [], "pile": 0, "tricks": 0}},
        },
    ),
    Case(
        "two curses score 0; a player winning only low tricks scores the pile",
        PLAYERS,
        two_curse_round(),
        {
            "leader": None,
            "rounds": [{"scores": {"Ann": 0, "Ben": 44, "Cy": 10, "Dee": 10}}],
            "players": {
                "Ann": {"curses": ["P14", "G14"], "pile": 6, "tricks": 2},
                "Ben": {"curses": [], "pile": 44, "tricks": 11},
            },
        },
    ),
    Case(
        "four rounds: game over, highest total wins",
        PLAYERS,
        [round_event("Ann"), *lead_and_win("PGRY", 14)] * 4,
        {
            "finished": True,
            "winners": ["Ann"],
            "leader": None,
            "totals": {"Ann": 156, "Ben": 40, "Cy": 40, "Dee": 40},
            "players": {"Ann": {"curses": ["P13"], "pile": 51}},
        },
    ),
    Case(
        "four rounds: all tied players win",
        PLAYERS,
        rotating_rounds(),
        {
            "finished": True,
            "winners": FOUR,
            "totals": {"Ann": 69, "Ben": 69, "Cy": 69, "Dee": 69},
        },
    ),
    Case(
        "3 players: yellow removed by default, three curses cost 6",
        THREE,
        [
            round_event("Ann"),
            trick("P5", "G1", "G2"),
            trick("G5", "R1", "R2"),
            trick("R5", "P1", "P2"),
        ],
        {
            "rounds": [{"scores": {"Ann": -6, "Ben": 0, "Cy": 0}}],
            "players": {"Ann": {"curses": ["P5", "G5", "R5"], "pile": 6}},
        },
    ),
    Case(
        "3 players: removed_suit chosen, yellow is back in",
        THREE,
        [round_event("Ben"), trick("Y5", "Y7", "G1")],
        {"leader": "Cy", "players": {"Cy": {"curses": ["Y7"], "pile": 2}}},
        options={"removed_suit": "P"},
    ),
    Case(
        "standard deck: 12 tricks, the ace (1) beats the king (13)",
        PLAYERS,
        [round_event("Ann"), trick("S13", "S1", "S5", "S2")],
        {"leader": "Ben", "players": {"Ben": {"curses": ["S1"], "pile": 3}}},
        options={"deck": "standard"},
    ),
    Case(
        "standard deck: a round is 12 tricks",
        PLAYERS,
        [round_event("Ann"), *lead_and_win("SHDC", 13)],
        {
            "leader": None,
            "rounds": [{"scores": {"Ann": 36, "Ben": 10, "Cy": 10, "Dee": 10}}],
            "players": {"Ann": {"curses": ["S12"], "pile": 47, "tricks": 12}},
        },
        options={"deck": "standard"},
    ),
    Case(
        "standard deck with 3 players: clubs removed, 12 tricks",
        THREE,
        [round_event("Ann"), *lead_and_win("SHD", 13)],
        {
            "leader": None,
            "rounds": [{"scores": {"Ann": 24, "Ben": 10, "Cy": 10}}],
        },
        options={"deck": "standard"},
    ),
    Case(
        "options given at their defaults",
        THREE,
        [round_event("Ann")],
        {"leader": "Ann"},
        options={"deck": "original", "removed_suit": "Y"},
    ),
    Case(
        "removed_suit null with 4 players",
        PLAYERS,
        [round_event("Ann")],
        {"leader": "Ann"},
        options={"removed_suit": None},
    ),
    Case(
        "removed_suit given with 4 players is not used: every suit plays",
        PLAYERS,
        [round_event("Ann"), trick("Y5", "Y7", "G1", "Y2")],
        {"leader": "Ben", "players": {"Ben": {"curses": ["Y7"]}}},
        options={"removed_suit": "Y"},
    ),
    Case(
        "not following suit is only a warning",
        PLAYERS,
        [
            round_event("Ann"),
            trick("R7", "G12", "R3", "R2"),
            trick("R8", "R12", "G3", "R4"),
        ],
        {"leader": "Ben"},
    ),
    Case(
        "card codes in lower case are read",
        PLAYERS,
        [round_event("Ann"), trick("r7", "r12", "g3", "r2")],
        {"players": {"Ben": {"curses": ["R12"]}}},
    ),
]


REFUSALS: list[Refusal] = [
    Refusal(
        "two players",
        ["Ann", "Ben"],
        [],
        0,
        "3 to 4",
    ),
    Refusal(
        "five players",
        [*FOUR, "Eve"],
        [],
        0,
        "3 to 4",
    ),
    Refusal(
        "unknown option",
        PLAYERS,
        [],
        0,
        "hand",
        options={"hand": 13},
    ),
    Refusal(
        "unknown deck",
        PLAYERS,
        [],
        0,
        "tarot",
        options={"deck": "tarot"},
    ),
    Refusal(
        "deck not text",
        PLAYERS,
        [],
        0,
        "deck",
        options={"deck": ["x"]},
    ),
    Refusal(
        "removed suit not of the deck",
        THREE,
        [],
        0,
        "Y",
        options={"deck": "standard", "removed_suit": "Y"},
    ),
    Refusal(
        "trick before a round",
        PLAYERS,
        [trick("R1", "R2", "R3", "R4")],
        1,
        "round",
    ),
    Refusal(
        "round without leader",
        PLAYERS,
        [{"type": "round"}],
        1,
        "leader",
    ),
    Refusal(
        "leader not a player",
        PLAYERS,
        [round_event("Zed")],
        1,
        "Zed",
    ),
    Refusal(
        "unknown event",
        PLAYERS,
        [{"type": "bid"}],
        1,
        "bid",
    ),
    Refusal(
        "too few cards",
        PLAYERS,
        [round_event("Ann"), trick("R1", "R2", "R3")],
        2,
        "4 cards",
    ),
    Refusal(
        "card played twice in a round",
        PLAYERS,
        [
            round_event("Ann"),
            trick("R7", "R8", "R9", "R10"),
            trick("R7", "G1", "G2", "G3"),
        ],
        3,
        ("R7", "already played"),
    ),
    Refusal(
        "card not in the deck",
        PLAYERS,
        [round_event("Ann"), trick("R15", "R8", "R9", "R10")],
        2,
        "R15",
    ),
    Refusal(
        "removed suit played with 3 players",
        THREE,
        [round_event("Ann"), trick("Y1", "R8", "R9")],
        2,
        "Y1",
    ),
    Refusal(
        "standard deck has no 14",
        PLAYERS,
        [round_event("Ann"), trick("S14", "S8", "S9", "S1")],
        2,
        "S14",
        options={"deck": "standard"},
    ),
    Refusal(
        "new round while one is being played",
        PLAYERS,
        [round_event("Ann"), trick("R7", "R8", "R9", "R10"), round_event("Ben")],
        3,
        "round",
    ),
    Refusal(
        "break missing when the breaker holds two curses",
        PLAYERS,
        [*DEE_TWO_CURSES, trick(*DEE_BREAKS)],
        5,
        ("Dee", "break"),
    ),
    Refusal(
        "break naming a curse the breaker does not hold",
        PLAYERS,
        [*DEE_TWO_CURSES, trick(*DEE_BREAKS, **{"break": "Y"})],
        5,
        ("Dee", "Y"),
    ),
    Refusal(
        "break given to a breaker who holds no curse (engine's reading)",
        PLAYERS,
        [round_event("Ann"), trick("R7", "R12", "G3", "R2", **{"break": "R"})],
        2,
        ("Dee", "none"),
    ),
    Refusal(
        "break that is not a suit",
        PLAYERS,
        [*DEE_TWO_CURSES, trick(*DEE_BREAKS, **{"break": "X"})],
        5,
        "X",
    ),
    Refusal(
        "trick after a round ended on a third curse",
        PLAYERS,
        [
            round_event("Ann"),
            trick("P5", "G1", "G2", "G3"),
            trick("R5", "G4", "G5", "G6"),
            trick("Y5", "G7", "G8", "G9"),
            trick("P1", "P2", "P3", "P4"),
        ],
        5,
        "round",
    ),
    Refusal(
        "event after the game is over",
        PLAYERS,
        [*rotating_rounds(), round_event("Ann")],
        57,
        "over",
    ),
]


test_summary_follows_the_contract, test_refused_as_the_contract_says = contract_tests(
    GAME, CASES, REFUSALS
)
