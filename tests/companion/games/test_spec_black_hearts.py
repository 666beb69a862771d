"""Black Hearts against the contract: hand-made logs, summaries worked out by hand."""

from __future__ import annotations

from typing import Any

from tests.companion.games.spec_table import (
    Case,
    Refusal,
    contract_tests,
    round_event,
    trick,
)

GAME = "black-hearts"
THREE = ["A", "B", "C"]
FOUR = ["A", "B", "C", "D"]
SIX = ["A", "B", "C", "D", "E", "F"]


def taken(**cards: list[str]) -> dict[str, Any]:
    return {name: {"taken": codes} for name, codes in cards.items()}


# Three players: the six Curse cards, F2 only, eight Random cards.
# A 3, B 9 (C6 C1 C2), C 9 (C5 C4); leaders A, B, C, B, A.
ROUND_1 = [
    round_event("A", gift=None, reversed=False),
    trick("F2", "C6", "W1"),  # B's 6 is highest
    trick("C5", "W5", "W2"),  # B, C both 5: C played later
    trick("C1", "C2", "W3"),  # C, A, B: B's W3
    trick("W4", "C3", "W4"),  # B, C, A: A's W4 ties B's, A is later
    trick("C4", "W6", "W6"),  # A, B, C: C's W6 is the latest 6
]
# Leader C. A 0, B 9 (C2 C3 C4), C 12 (C1 C6 C5): totals 3, 18, 21.
ROUND_2 = [
    round_event("C", gift="Everyone passes right", reversed=False),
    trick("F2", "W1", "W2"),  # C, A, B: B
    trick("C1", "C6", "W1"),  # B, C, A: C
    trick("C2", "W2", "W3"),  # C, A, B: B
    trick("W3", "C5", "W4"),  # B, C, A: C
    trick("C3", "C4", "W5"),  # C, A, B: B
]
# Four players; D takes every Curse card (21 points) and wins at once.
ALL_CURSES = [
    round_event("A"),
    trick("F2", "C6", "C1", "F6"),  # D's F6 is the latest 6
    trick("W6", "C2", "C3", "W1"),  # D, A, B, C: D
    trick("W6", "C4", "C5", "W1"),  # D
    trick("W6", "F1", "F3", "F4"),  # D
    trick("F5", "W2", "W3", "W4"),  # D
]

CASES = [
    Case(
        "new game",
        THREE,
        [],
        {
            "game": GAME,
            "finished": False,
            "winners": [],
            "rounds": [],
            "totals": {"A": 0, "B": 0, "C": 0},
            "leader": None,
            "players": taken(A=[], B=[], C=[]),
        },
    ),
    Case("round names the leader", THREE, [round_event("B")], {"leader": "B"}),
    Case(
        "tie goes to the latest card",
        THREE,
        ROUND_1[:3],
        {
            "leader": "C",
            "totals": {"A": 0, "B": 0, "C": 0},
            "players": taken(A=[], B=["F2", "C6", "W1"], C=["C5", "W5", "W2"]),
        },
    ),
    Case(
        "a tie with the lead card goes to the later card",
        FOUR,
        [
            round_event("A"),
            trick("F2", "W2", "W1", "W1"),
        ],
        {"leader": "B"},
    ),
    Case(
        "round end",
        THREE,
        ROUND_1,
        {
            "finished": False,
            "winners": [],
            "leader": None,
            "totals": {"A": 3, "B": 9, "C": 9},
            "rounds": [{"scores": {"A": 3, "B": 9, "C": 9}}],
            "players": taken(
                A=["W4", "C3", "W4"],
                B=["F2", "C6", "W1", "C1", "C2", "W3"],
                C=["C5", "W5", "W2", "C4", "W6", "W6"],
            ),
        },
    ),
    Case(
        "next round clears the taken cards",
        THREE,
        [*ROUND_1, round_event("C")],
        {
            "leader": "C",
            "players": taken(A=[], B=[], C=[]),
            "rounds": [{"scores": {"A": 3, "B": 9, "C": 9}}],
        },
    ),
    Case(
        "13 reached: lowest total wins",
        THREE,
        [*ROUND_1, *ROUND_2],
        {
            "finished": True,
            "winners": ["A"],
            "leader": None,
            "totals": {"A": 3, "B": 18, "C": 21},
            "rounds": [
                {"scores": {"A": 3, "B": 9, "C": 9}},
                {"scores": {"A": 0, "B": 9, "C": 12}},
            ],
        },
    ),
    Case(
        "all six Curse cards win, though over 13",
        FOUR,
        ALL_CURSES,
        {
            "finished": True,
            "winners": ["D"],
            "leader": None,
            "totals": {"A": 0, "B": 0, "C": 0, "D": 21},
            "rounds": [{"scores": {"A": 0, "B": 0, "C": 0, "D": 21}}],
        },
    ),
    Case(
        "all six Curse cards are checked at the round's end",
        FOUR,
        ALL_CURSES[:4],
        {"finished": False, "leader": "D"},
    ),
    Case(
        "reversed round: 1 is strongest, ties still to the latest",
        THREE,
        [
            round_event("A", reversed=True),
            trick("F2", "W1", "C1"),  # C's 1 is the latest 1
            trick("C6", "W6", "W5"),  # C, A, B: B's 5 beats the 6s
        ],
        {
            "leader": "B",
            "players": taken(
                A=[],
                B=["C6", "W6", "W5"],
                C=["F2", "W1", "C1"],
            ),
        },
    ),
    Case(
        "gift and reversed may be left out",
        FOUR,
        [
            round_event("D"),
            trick("F2", "F6", "C3", "W1"),
        ],
        {"leader": "A"},
    ),
    Case(
        "two_oclock option",
        FOUR,
        [
            round_event("B"),
            trick("F5", "F2", "W3", "C1"),
        ],
        {"leader": "B"},
        {"two_oclock": "F5"},
    ),
    Case(
        "two_oclock option with three players",
        THREE,
        [
            round_event("C"),
            trick("F4", "C2", "W1"),
        ],
        {"leader": "C"},
        {"two_oclock": "F4"},
    ),
    Case(
        "curse_points option counts other cards too",
        THREE,
        ROUND_1,
        {
            "totals": {"A": 3, "B": 12, "C": 11},
            "rounds": [{"scores": {"A": 3, "B": 12, "C": 11}}],
        },
        {"curse_points": {"C6": 8, "F2": 1, "W6": 1}},
    ),
    Case(
        "exactly 13 ends the game",
        THREE,
        ROUND_1,
        {
            "finished": True,
            "winners": ["A"],
            "totals": {"A": 3, "B": 13, "C": 9},
        },
        {"curse_points": {"C6": 10}},
    ),
    Case(
        "12 does not",
        THREE,
        ROUND_1,
        {
            "finished": False,
            "winners": [],
            "totals": {"A": 3, "B": 12, "C": 9},
        },
        {"curse_points": {"C6": 9}},
    ),
    Case(
        "tied lowest totals all win",
        THREE,
        ROUND_1,
        {
            "finished": True,
            "winners": ["A", "C"],
            "totals": {"A": 3, "B": 16, "C": 3},
        },
        {"curse_points": {"C6": 13, "C5": 0, "C4": 3}},
    ),
    Case(
        "six players use all eighteen Random cards",
        SIX,
        [
            round_event("F"),
            trick("F2", "W6", "W6", "W6", "W5", "W5"),  # F A B C D E: C's last 6
        ],
        {"leader": "C"},
    ),
]

REFUSALS = [
    Refusal("two players", ["A", "B"], [], 0, "3 to 6 players"),
    Refusal("seven players", [*SIX, "G"], [], 0, "3 to 6 players"),
    Refusal("trick before a round", THREE, [trick("F2", "C1", "C2")], 1, "round"),
    Refusal(
        "first trick not led by Two o'clock",
        THREE,
        [
            round_event("A"),
            trick("C6", "F2", "W1"),
        ],
        2,
        "Two o'clock",
    ),
    Refusal(
        "F3 is out of a three-player game",
        THREE,
        [
            round_event("A"),
            trick("F2", "F3", "W1"),
        ],
        2,
        "F3",
    ),
    Refusal(
        "F2 is not Two o'clock when F4 is",
        THREE,
        [
            round_event("A"),
            trick("F4", "F2", "W1"),
        ],
        2,
        "F2",
        {"two_oclock": "F4"},
    ),
    Refusal(
        "a ninth Random card with four players",
        FOUR,
        [
            round_event("A"),
            trick("F2", "W1", "W1", "W1"),
            trick("W2", "W2", "W2", "W3"),
            trick("W3", "W3", "C1", "C2"),
        ],
        4,
        "Random",
    ),
    Refusal(
        "a card twice",
        THREE,
        [
            round_event("A"),
            trick("F2", "C6", "W1"),
            trick("C6", "C1", "C2"),
        ],
        3,
        "C6 was already played",
    ),
    Refusal(
        "too few cards", THREE, [round_event("A"), trick("F2", "C6")], 2, "needs 3"
    ),
    Refusal("a sixth trick", THREE, [*ROUND_1, trick("F2", "C1", "C2")], 7, "round"),
    Refusal(
        "a round in the middle of a round",
        THREE,
        [
            round_event("A"),
            trick("F2", "C6", "W1"),
            round_event("B"),
        ],
        3,
        "still being played",
    ),
    Refusal("leader not a player", THREE, [round_event("Z")], 1, '"Z"'),
    Refusal("round without a leader", THREE, [{"type": "round"}], 1, "leader"),
    Refusal(
        "after the game is over",
        THREE,
        [*ROUND_1, *ROUND_2, round_event("A")],
        13,
        "over",
    ),
    Refusal(
        "two_oclock not a Fixed card", THREE, [], 0, "two_oclock", {"two_oclock": "C2"}
    ),
    Refusal("unknown option", THREE, [], 0, "not an option", {"gift": True}),
]


test_summary_follows_the_contract, test_refused_as_the_contract_says = contract_tests(
    GAME, CASES, REFUSALS
)
