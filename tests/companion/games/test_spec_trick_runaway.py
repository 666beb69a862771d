"""Trick Runaway against the contract: hand-written logs, summaries worked by hand.

Each case is a log and the summary fragments the spec predicts (or the event
the spec says must be refused and words the refusal should contain). Default
tracks: escape 0, -2, -3, -4; damage -2, 0, 3, then death (4 players).
"""

from __future__ import annotations

from typing import Any

from tests.companion.games.spec_table import (
    Case,
    Refusal,
    contract_tests,
    round_event,
)
from tests.companion.games.spec_table import (
    trick as any_trick,
)

GAME = "trick-runaway"
FOUR = ["A", "B", "C", "D"]
FIVE = ["A", "B", "C", "D", "E"]
PLAYERS = FOUR
Event = dict[str, Any]


def trick(*cards: str, **lower: str) -> Event:
    """A trick; ``lower`` names which track each level-cubed cursed player drops."""
    return any_trick(*cards, lower=lower) if lower else any_trick(*cards)


def fresh(**changes: Any) -> dict[str, Any]:
    view = {
        "life": 17,
        "side": "white",
        "escape": 0,
        "damage": -2,
        "curses": 0,
        "out": False,
        "eliminated": False,
    }
    return {**view, **changes}


# The rulebook's first example: A leads H8, B's H10 is cursed, C's C5 damaged.
CASE_1 = trick("H8", "H10", "C5", "H7", B="escape")


def club_rotation() -> list[Event]:
    """Thirteen tricks, each led with a club by the player left of the last
    leader while the others discard: the leader alone is cursed and damaged."""
    clubs = [3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 13, 15, 20]
    others = [f"{s}{n}" for s, ns in OTHER_SUITS.items() for n in ns]
    events: list[Event] = [round_event("A")]
    for index, number in enumerate(clubs):
        leader = FOUR[index % 4]
        discards = others[3 * index : 3 * index + 3]
        events.append(
            {
                "type": "trick",
                "cards": [f"C{number}", *discards],
                "lower": {leader: "escape"},
            }
        )
    return events


OTHER_SUITS = {
    "H": [4, 5, 6, 7, 8, 10, 11, 12, 13, 13, 15],
    "S": [3, 4, 6, 7, 8, 10, 11, 12, 13, 13, 15],
    "D": [4, 5, 6, 7, 8, 10, 11, 12, 13, 14],
    "T": [5, 7, 9, 9, 9, 11, 13],
}

# Life 3: two players out in each of three rounds; the third round's outs are
# all on the black side, so A alone survives.
SHORT_GAME = [
    round_event("A"),
    CASE_1,  # C takes 3 and is out; D leads
    trick("H12", "H13", "H11", A="damage"),  # D, A, B: B takes 9, out
    round_event(),  # left of B, damaged last: C
    trick("H8", "H10", "C5", "H7", D="escape"),  # C, D, A, B: A out; B leads
    trick("T5", "T9", "T7", C="escape"),  # B, C, D: B and D damaged, D out
    round_event(),  # left of D: A
    trick("H12", "H13", "C8", "H11", B="escape"),  # C takes 6, out; D leads
    trick("S10", "S11", "S12", A="damage"),  # D, A, B: D and B out
]

# B is cursed seven times in one round; D takes the damage and A keeps leading.
SEVEN_CURSES = [
    round_event("A"),
    trick("H5", "H15", "H6", "H4", B="escape"),
    trick("S6", "S15", "S7", "S3"),
    trick("D5", "D14", "D6", "D4", B="escape"),
    trick("C4", "C20", "C5", "C3"),
    trick("T7", "T13", "T9", "T5", B="escape"),
    trick("S8", "S13", "H7", "S4"),
    # clubs led: A's C11 and B's C15 (rank 15 - 4) tie for highest and lowest
    trick("C11", "C15", "H8", "H10", A="damage"),
]

CASES: list[Case] = [
    Case(
        "empty log: defaults for 4 players",
        PLAYERS,
        [],
        {
            "finished": False,
            "winners": [],
            "leader": None,
            "rounds": [],
            "totals": {"A": 17, "B": 17, "C": 17, "D": 17},
            "players": {name: fresh() for name in FOUR},
        },
    ),
    Case(
        "empty log: defaults for 5 players",
        FIVE,
        [],
        {
            "totals": {name: 15 for name in FIVE},
            "players": {"E": fresh(life=15, damage=-1)},
        },
    ),
    Case(
        "options: life and damage track",
        PLAYERS,
        [],
        {"totals": {"A": 9}, "players": {"A": fresh(life=9, damage=1)}},
        options={"life": 9, "damage_track": [1, 2]},
    ),
    Case(
        "first round: given leader",
        PLAYERS,
        [round_event("C")],
        {"leader": "C"},
    ),
    Case(
        "case 1: second suit counts; level cubes, the table lowers escape",
        PLAYERS,
        [round_event("A"), CASE_1],
        {
            "leader": "D",
            "totals": {"A": 17, "B": 17, "C": 14, "D": 17},
            "players": {
                "B": fresh(escape=-2, curses=1),
                "C": fresh(life=14),
            },
        },
    ),
    Case(
        "case 1: the table lowers damage instead",
        PLAYERS,
        [round_event("A"), trick("H8", "H10", "C5", "H7", B="damage")],
        {"players": {"B": fresh(damage=0, curses=1)}},
    ),
    Case(
        "case 2: a discard between; tie for highest curses both",
        PLAYERS,
        [round_event("A"), trick("H8", "T11", "C5", "H11", B="escape", D="damage")],
        {
            "leader": "B",
            "totals": {"A": 11, "B": 17, "C": 17, "D": 17},
            "players": {
                "B": fresh(escape=-2, curses=1),
                "D": fresh(damage=0, curses=1),
            },
        },
    ),
    Case(
        "case 3: clubs led, no second suit",
        PLAYERS,
        [round_event("A"), trick("C7", "H10", "C5", "S4", A="escape")],
        {
            "leader": "D",
            "totals": {"A": 17, "B": 17, "C": 14, "D": 17},
            "players": {"A": fresh(escape=-2, curses=1)},
        },
    ),
    Case(
        "one counting card is cursed first, then damaged with the new modifier",
        PLAYERS,
        [round_event("A"), trick("C13", "H4", "H5", "S3", A="damage")],
        {"leader": "B", "players": {"A": fresh(life=4, damage=0, curses=1)}},
    ),
    Case(
        "one counting card, escape lowered: damage keeps the old modifier",
        PLAYERS,
        [round_event("A"), trick("C13", "H4", "H5", "S3", A="escape")],
        {"leader": "B", "players": {"A": fresh(life=6, escape=-2, curses=1)}},
    ),
    Case(
        "escape lowers the rank; damage counts the printed number",
        PLAYERS,
        [round_event("A"), CASE_1, trick("S6", "S4", "S3", "S7", C="damage")],
        {
            "leader": "C",
            "totals": {"A": 17, "B": 16, "C": 14, "D": 17},
            "players": {"C": fresh(life=14, damage=0, curses=1)},
        },
    ),
    Case(
        "tie for lowest: both damaged, next leader left of the later one",
        PLAYERS,
        [round_event("A"), CASE_1, trick("S4", "S7", "S6", "S8", C="escape")],
        {
            "leader": "C",
            "totals": {"A": 17, "B": 13, "C": 14, "D": 15},
            "players": {"C": fresh(life=14, escape=-2, curses=1)},
        },
    ),
    Case(
        "rank never below 0",
        PLAYERS,
        [round_event("A"), CASE_1, trick("S3", "S6", "S8", "S7", C="damage")],
        {
            "leader": "C",
            "totals": {"B": 11},
            "players": {"B": fresh(life=11, escape=-10, curses=1)},
        },
        options={"escape_track": [0, -10]},
    ),
    Case(
        "second curse drops the higher cube by rule; lower given is not used",
        PLAYERS,
        [
            round_event("A"),
            CASE_1,
            trick("S3", "S4", "S15", "S6", B="escape"),
        ],
        {"players": {"B": fresh(escape=-2, damage=0, curses=2)}},
    ),
    Case(
        "lower given for a player who is not cursed is not used",
        PLAYERS,
        [round_event("A"), trick("H8", "H10", "C5", "H7", B="escape", A="damage")],
        {"players": {"A": fresh(), "B": fresh(escape=-2, curses=1)}},
    ),
    Case(
        "life 3: a player out leaves the seats; two out end the round, flips",
        PLAYERS,
        SHORT_GAME[:3],
        {
            "finished": False,
            "leader": None,
            "rounds": [{"scores": {"A": 3, "B": 5, "C": 5, "D": 3}}],
            "totals": {"A": 3, "B": 5, "C": 5, "D": 3},
            "players": {
                "B": {"side": "black", "life": 5, "eliminated": False},
                "C": {"side": "black", "life": 5, "eliminated": False},
                "A": {"side": "white"},
            },
        },
        options={"life": 3, "black_life": 5},
    ),
    Case(
        "between rounds: tracks, curses and outs as the last round ended",
        PLAYERS,
        SHORT_GAME[:3],
        {
            "players": {
                "A": fresh(life=3, damage=0, curses=1),
                "B": fresh(life=5, side="black", escape=-2, curses=1, out=True),
                "C": fresh(life=5, side="black", out=True),
                "D": fresh(life=3),
            }
        },
        options={"life": 3, "black_life": 5},
    ),
    Case(
        "a new round resets the tracks, curses and outs; life carries over",
        PLAYERS,
        SHORT_GAME[:4],
        {
            "players": {
                "A": fresh(life=3),
                "B": fresh(life=5, side="black"),
                "C": fresh(life=5, side="black"),
            }
        },
        options={"life": 3, "black_life": 5},
    ),
    Case(
        "later round: leader by rule, left of the last damaged player",
        PLAYERS,
        SHORT_GAME[:4],
        {"leader": "C", "players": {"A": fresh(life=3)}},
        options={"life": 3, "black_life": 5},
    ),
    Case(
        "later round: a given leader overrides the rule",
        PLAYERS,
        [*SHORT_GAME[:3], round_event("B")],
        {"leader": "B"},
        options={"life": 3, "black_life": 5},
    ),
    Case(
        "second round: damage ties, both out count",
        PLAYERS,
        SHORT_GAME[:6],
        {
            "rounds": [
                {"scores": {"A": 3, "B": 5, "C": 5, "D": 3}},
                {"scores": {"A": 5, "B": 2, "C": 5, "D": 5}},
            ],
            "leader": None,
        },
        options={"life": 3, "black_life": 5},
    ),
    Case(
        "third round: black-side players out are eliminated, the rest win",
        PLAYERS,
        SHORT_GAME,
        {
            "finished": True,
            "winners": ["A"],
            "leader": None,
            "totals": {"A": 5, "B": -8, "C": -1, "D": -3},
            "rounds": [
                {"scores": {"A": 3, "B": 5, "C": 5, "D": 3}},
                {"scores": {"A": 5, "B": 2, "C": 5, "D": 5}},
                {"scores": {"A": 5, "B": -8, "C": -1, "D": -3}},
            ],
            "players": {
                "A": {"eliminated": False, "damage": 0, "curses": 1},
                "B": {"eliminated": True, "side": "black", "out": True},
                "C": {"eliminated": True, "out": True},
                "D": {"eliminated": True, "out": True},
            },
        },
        options={"life": 3, "black_life": 5},
    ),
    Case(
        "hands empty with nobody out: least life is out by exhaustion",
        PLAYERS,
        club_rotation(),
        {
            "finished": False,
            "leader": None,
            "rounds": [{"scores": {"A": 101, "B": 77, "C": 74, "D": 70}}],
            "players": {"A": {"side": "black"}, "B": {"side": "white"}},
        },
        options={"life": 100},
    ),
    Case(
        "after exhaustion: next leader left of the last damaged",
        PLAYERS,
        [*club_rotation(), round_event()],
        {"leader": "B"},
        options={"life": 100},
    ),
    Case(
        "seven curses: completely eliminated, no damage, round goes on",
        PLAYERS,
        SEVEN_CURSES,
        {
            "finished": False,
            "leader": "C",
            "totals": {"A": 6, "B": 17, "C": 17, "D": 6},
            "players": {
                "A": fresh(life=6, damage=0, curses=1),
                "B": {
                    "life": 17,
                    "escape": -4,
                    "damage": "death",
                    "curses": 7,
                    "out": True,
                    "eliminated": True,
                },
            },
        },
    ),
    Case(
        "seven curses: the round ends with a second out, the game with it",
        PLAYERS,
        [*SEVEN_CURSES, trick("H12", "H11", "H13")],
        {
            "finished": True,
            "winners": ["A", "C", "D"],
            "leader": None,
            "rounds": [{"scores": {"A": 6, "B": 17, "C": 17, "D": 18}}],
            "players": {
                "D": {"side": "black", "eliminated": False},
                "A": {"escape": -2, "damage": 0, "curses": 2},
            },
        },
    ),
    Case(
        "5 players: a discard after the second suit; damage track -1",
        FIVE,
        [round_event("A"), trick("H8", "H10", "C5", "H7", "S4", B="escape")],
        {
            "leader": "D",
            "totals": {"A": 15, "C": 11, "E": 15},
            "players": {"B": fresh(life=15, escape=-2, damage=-1, curses=1)},
        },
    ),
    Case(
        "both copies of a doubled card in one trick",
        PLAYERS,
        [round_event("A"), trick("C13", "C13", "H4", "H5", A="escape", B="escape")],
        {"leader": "C", "totals": {"A": 6, "B": 6}},
    ),
]


REFUSALS: list[Refusal] = [
    Refusal(
        "three players",
        ["A", "B", "C"],
        [],
        0,
        "4 to 5",
    ),
    Refusal(
        "six players",
        [*FIVE, "F"],
        [],
        0,
        "4 to 5",
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
        "life zero",
        PLAYERS,
        [],
        0,
        "life",
        options={"life": 0},
    ),
    Refusal(
        "life as text",
        PLAYERS,
        [],
        0,
        "life",
        options={"life": "17"},
    ),
    Refusal(
        "empty track",
        PLAYERS,
        [],
        0,
        "escape_track",
        options={"escape_track": []},
    ),
    Refusal(
        "first round without leader",
        PLAYERS,
        [round_event()],
        1,
        "leader",
    ),
    Refusal(
        "first round with a null leader",
        PLAYERS,
        [{"type": "round", "leader": None}],
        1,
        "leader",
    ),
    Refusal(
        "leader not a player",
        PLAYERS,
        [round_event("Z")],
        1,
        "Z",
    ),
    Refusal(
        "trick before a round",
        PLAYERS,
        [CASE_1],
        1,
        "round",
    ),
    Refusal(
        "unknown event",
        PLAYERS,
        [{"type": "bid"}],
        1,
        "bid",
    ),
    Refusal(
        "round while one is in progress",
        PLAYERS,
        [round_event("A"), CASE_1, round_event("B")],
        3,
        "round",
    ),
    Refusal(
        "lower missing for a level cursed player",
        PLAYERS,
        [round_event("A"), trick("H8", "H10", "C5", "H7")],
        2,
        ("B", "lower"),
    ),
    Refusal(
        "lower missing for one of two cursed players",
        PLAYERS,
        [round_event("A"), trick("H8", "T11", "C5", "H11", B="escape")],
        2,
        ("D", "lower"),
    ),
    Refusal(
        "lower naming no track",
        PLAYERS,
        [round_event("A"), trick("H8", "H10", "C5", "H7", B="up")],
        2,
        "up",
    ),
    Refusal(
        "lower not a mapping",
        PLAYERS,
        [
            round_event("A"),
            {"type": "trick", "cards": ["H8", "H10", "C5", "H7"], "lower": "B"},
        ],
        2,
        "lower",
    ),
    Refusal(
        "a player out still listed",
        PLAYERS,
        [round_event("A"), CASE_1, trick("H12", "H13", "H11", "S4", A="damage")],
        3,
        "3 cards",
        options={"life": 3},
    ),
    Refusal(
        "card not in the deck",
        PLAYERS,
        [round_event("A"), trick("H3", "H10", "C5", "H7")],
        2,
        "H3",
    ),
    Refusal(
        "third copy of a doubled card",
        PLAYERS,
        [
            round_event("A"),
            trick("C13", "C13", "H4", "H5", A="escape", B="escape"),
            trick("C13", "H6", "H7", "H8", C="escape"),
        ],
        3,
        "C13",
    ),
    Refusal(
        "event after the game is over",
        PLAYERS,
        [*SHORT_GAME, round_event("A")],
        10,
        "over",
        options={"life": 3, "black_life": 5},
    ),
]


test_summary_follows_the_contract, test_refused_as_the_contract_says = contract_tests(
    GAME, CASES, REFUSALS
)
