"""Wolf x Trick against the contract: hand-made logs, summaries worked out by hand."""

from __future__ import annotations

from typing import Any

from tests.companion.games.spec_table import (
    Case,
    Refusal,
    contract_tests,
    trick,
)

GAME = "wolf-x-trick"
TWO = ["A", "B"]
THREE = ["A", "B", "C"]
FOUR = ["A", "B", "C", "D"]
FIVE = ["A", "B", "C", "D", "E"]
END = {"type": "end"}


def pile(player: str, full: int = 0, super_: int = 0) -> dict[str, Any]:
    return {"type": "pile", "player": player, "full": full, "super": super_}


def piles(**points: list[int]) -> dict[str, Any]:
    return {name: {"piles": p, "eliminated": False} for name, p in points.items()}


def out(*names: str) -> dict[str, Any]:
    return {name: {"eliminated": True} for name in names}


MOONS_3_6 = {"full_moon_ranks": [3, 6]}
# Two players, red and blue, Full Moons on 3 and 6. The winner's left leads.
DUEL = [
    {"type": "round", "leader": "A"},
    trick("R1", "R2"),  # B: -1; A leads
    trick("R3", "R4"),  # B: 1 (R3)
    trick("B8", "B1"),  # A: 2 (Super); B leads
    trick("R5", "R6"),  # B, A: A wins 1 (R6); B leads
    trick("R8", "B3"),  # B, A: B wins 3 (R8 2, B3 1); A leads
    trick("R7", "R9"),  # B: -1
    trick("R10", "R11"),  # B: -1
    trick("B2", "B4"),  # B: -1
    trick("B5", "B6"),  # B: 1
    trick("B7", "B9"),  # B: -1
    trick("B10", "B11"),  # B: -1
]
DUEL_B = [-1, 1, 3, -1, -1, -1, 1, -1, -1]

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
            "leader": None,
            "totals": {"A": 0, "B": 0, "C": 0},
            "players": piles(A=[], B=[], C=[]),
        },
    ),
    Case("the deal names the leader", FIVE, DUEL[:1], {"leader": "A"}),
    Case(
        "mid-game: piles so far, no rounds yet",
        TWO,
        DUEL[:4],
        {
            "finished": False,
            "leader": "B",
            "rounds": [],
            "totals": {"A": 2, "B": 0},
            "players": piles(A=[2], B=[-1, 1]),
        },
        MOONS_3_6,
    ),
    Case(
        "eleven tricks end the game; the lowest of 0 or less wins",
        TWO,
        DUEL,
        {
            "finished": True,
            "winners": ["B"],
            "leader": None,
            "totals": {"A": 3, "B": -1},
            "rounds": [{"scores": {"A": 3, "B": -1}}],
            "players": piles(A=[2, 1], B=DUEL_B),
        },
        MOONS_3_6,
    ),
    Case(
        "no marked Full Moons: only the 8s count",
        TWO,
        DUEL,
        {
            "totals": {"A": 1, "B": -6},
            "players": piles(A=[2, -1], B=[-1, -1, 2, -1, -1, -1, -1, -1, -1]),
        },
    ),
    Case(
        "8 marked as a Full Moon still counts 2",
        TWO,
        DUEL[:4],
        {"players": piles(A=[2], B=[-1, -1])},
        {"full_moon_ranks": [8]},
    ),
    Case(
        "off-suit cards never win, the lead suit's highest does",
        THREE,
        [{"type": "round", "leader": "C"}, trick("Y2", "R11", "B11")],
        {"leader": "A", "players": piles(A=[], B=[], C=[-1])},
    ),
    Case(
        "ranks option: as many tricks as numbers",
        THREE,
        [
            {"type": "round", "leader": "A"},
            trick("R1", "R2", "R3"),  # C; A leads
            trick("B1", "B2", "B3"),  # C; A leads
            trick("Y3", "Y1", "Y2"),  # A
        ],
        {
            "finished": True,
            "winners": ["C"],
            "totals": {"A": -1, "B": 0, "C": -2},
            "rounds": [{"scores": {"A": -1, "B": 0, "C": -2}}],
        },
        {"ranks": [1, 2, 3]},
    ),
    Case(
        "piles without marked Full Moons",
        THREE,
        [pile("A", 2), pile("B", 0, 1), pile("C"), pile("C", 1)],
        {
            "finished": False,
            "leader": None,
            "rounds": [],
            "totals": {"A": 2, "B": 2, "C": 0},
            "players": piles(A=[2], B=[2], C=[-1, 1]),
        },
    ),
    Case(
        "tied players are out; the one left wins though highest",
        THREE,
        [pile("A", 0, 1), pile("B", 0, 1), pile("C", 1, 1), pile("C", 2), END],
        {
            "finished": True,
            "winners": ["C"],
            "totals": {"A": 2, "B": 2, "C": 5},
            "rounds": [{"scores": {"A": 2, "B": 2, "C": 5}}],
            "players": {**out("A", "B"), "C": {"eliminated": False}},
        },
    ),
    Case(
        "everyone tied: a draw",
        THREE,
        [pile("A", 1), pile("B", 1), pile("C", 1), END],
        {"finished": True, "winners": [], "players": out("A", "B", "C")},
    ),
    Case(
        "nobody at 0 or less: the second highest wins",
        FOUR,
        [pile("A", 1, 2), pile("B", 1, 1), pile("C", 1), pile("D", 4), END],
        {
            "finished": True,
            "winners": ["D"],
            "totals": {"A": 5, "B": 3, "C": 1, "D": 4},
        },
    ),
    Case(
        "second highest among those left after ties",
        FOUR,
        [pile("A", 1, 2), pile("B", 1, 2), pile("C", 3), pile("D", 2), END],
        {"finished": True, "winners": ["D"], "players": out("A", "B")},
    ),
    Case(
        "tied at 0 or less are out before the lowest is looked for",
        FOUR,
        [pile("A"), pile("B"), pile("C", 0, 1), pile("D", 1, 1), END],
        {
            "finished": True,
            "winners": ["C"],
            "totals": {"A": -1, "B": -1, "C": 2, "D": 3},
            "players": out("A", "B"),
        },
    ),
    Case(
        "a player with no pile has 0 and can win with it",
        THREE,
        [pile("A", 1), pile("A", 2), pile("C", 0, 1), END],
        {"finished": True, "winners": ["B"], "totals": {"A": 3, "B": 0, "C": 2}},
    ),
    Case(
        "eleven piles end the game without an end event",
        TWO,
        [pile("A")] * 10 + [pile("B", 1)],
        {
            "finished": True,
            "winners": ["A"],
            "totals": {"A": -10, "B": 1},
            "rounds": [{"scores": {"A": -10, "B": 1}}],
        },
    ),
]

REFUSALS = [
    Refusal("one player", ["A"], [], 0, "2 to 5 players"),
    Refusal("six players", [*FIVE, "F"], [], 0, "2 to 5 players"),
    Refusal("trick before the deal", TWO, [trick("R1", "R2")], 1, "round"),
    Refusal(
        "a third suit with two players", TWO, [*DUEL[:1], trick("R1", "Y2")], 2, "Y2"
    ),
    Refusal("a number beyond 11", TWO, [*DUEL[:1], trick("R12", "R2")], 2, "R12"),
    Refusal("a card twice", TWO, [*DUEL[:2], trick("R2", "R3")], 3, "R2"),
    Refusal("a twelfth trick", TWO, [*DUEL, trick("R1", "R2")], 13, "over"),
    Refusal("a second deal", TWO, [*DUEL[:2], DUEL[0]], 3, "already started"),
    Refusal("piles after tricks", TWO, [*DUEL[:2], pile("A")], 3, "trick by trick"),
    Refusal("tricks after piles", TWO, [pile("A"), DUEL[0]], 2, "counted at the end"),
    Refusal("end in a trick game", TWO, [*DUEL[:2], END], 3, "last trick"),
    Refusal("end before any pile", TWO, [END], 1, "no pile"),
    Refusal("a pile holds one card each", TWO, [pile("A", 2, 1)], 1, "cannot hold 3"),
    Refusal("more 8s than suits", TWO, [pile("A", 0, 2), pile("B", 0, 1)], 2, "Super"),
    Refusal(
        "more Full Moons than the marked numbers give",
        TWO,
        [pile("A", 2), pile("B", 1)],
        2,
        "Full Moon",
        {"full_moon_ranks": [3]},
    ),
    Refusal("pile of a stranger", TWO, [pile("Z")], 1, '"Z"'),
    Refusal("a negative count", TWO, [pile("A", -1)], 1, "0 or more"),
    Refusal("after the end", TWO, [pile("A"), END, pile("B")], 3, "over"),
    Refusal(
        "Full Moon number not in the deck",
        TWO,
        [],
        0,
        "full_moon_ranks",
        {"full_moon_ranks": [12]},
    ),
]


test_summary_follows_the_contract, test_refused_as_the_contract_says = contract_tests(
    GAME, CASES, REFUSALS
)
