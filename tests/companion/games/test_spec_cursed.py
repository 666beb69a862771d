"""CURSED! against the contract: hand-made logs, summaries worked out by hand."""

from __future__ import annotations

from typing import Any

from tests.companion.games.spec_table import (
    Case,
    Refusal,
    contract_tests,
)

GAME = "cursed"
TWO = ["A", "B"]
THREE = ["A", "B", "C"]
SIX = ["A", "B", "C", "D", "E", "F"]
FORTUNES = ("wealth", "health", "love", "fate", "luck")


def spell(caster: str, target: str, fortune: str, effect: str) -> dict[str, Any]:
    return {
        "type": "spell",
        "caster": caster,
        "target": target,
        "fortune": fortune,
        "effect": effect,
    }


def bless(caster: str, target: str, fortune: str = "wealth") -> dict[str, Any]:
    return spell(caster, target, fortune, "bless")


def curse(caster: str, target: str, fortune: str = "wealth") -> dict[str, Any]:
    return spell(caster, target, fortune, "curse")


def neutralize(caster: str, target: str, fortune: str = "wealth") -> dict[str, Any]:
    return spell(caster, target, fortune, "neutralize")


def set_(player: str, fortune: str, state: str) -> dict[str, Any]:
    return {"type": "set", "player": player, "fortune": fortune, "state": state}


def wealth(state: str) -> dict[str, Any]:
    return {"fortunes": {"wealth": state}}


def curse_all(caster: str, target: str) -> list[dict[str, Any]]:
    return [curse(caster, target, fortune) for fortune in FORTUNES]


NEUTRAL = dict.fromkeys(FORTUNES, "neutral")
FRESH = {"fortunes": NEUTRAL, "altar": None, "eliminated": False}

CASES = [
    Case(
        "new game",
        TWO,
        [],
        {
            "game": GAME,
            "finished": False,
            "winners": [],
            "totals": {"A": 5, "B": 5},
            "rounds": [],
            "leader": None,
            "players": {"A": FRESH, "B": FRESH},
        },
    ),
    Case(
        "bless: neutral to blessed",
        TWO,
        [bless("A", "B")],
        {
            "players": {"B": wealth("blessed")},
            "totals": {"B": 5},
        },
    ),
    Case(
        "bless: blessed stays",
        TWO,
        [bless("A", "B")] * 2,
        {
            "players": {"B": wealth("blessed")},
        },
    ),
    Case(
        "bless: cursed to neutral",
        TWO,
        [curse("A", "B"), bless("A", "B")],
        {
            "players": {"B": wealth("neutral")},
        },
    ),
    Case(
        "curse: neutral to cursed",
        TWO,
        [curse("A", "B")],
        {
            "players": {"B": wealth("cursed")},
            "totals": {"A": 5, "B": 4},
        },
    ),
    Case(
        "curse: blessed to neutral",
        TWO,
        [bless("B", "B"), curse("A", "B")],
        {
            "players": {"B": wealth("neutral")},
        },
    ),
    Case(
        "curse: cursed stays cursed",
        TWO,
        [curse("A", "B")] * 2,
        {
            "players": {"B": wealth("cursed")},
        },
    ),
    Case(
        "double curse: neutral to ruined",
        TWO,
        [bless("A", "A"), curse("A", "B")],
        {
            "players": {"A": wealth("blessed"), "B": wealth("ruined")},
            "totals": {"A": 5, "B": 4},
        },
    ),
    Case(
        "double curse: blessed to cursed",
        TWO,
        [
            bless("A", "A"),
            bless("B", "B"),
            curse("A", "B"),
        ],
        {"players": {"B": wealth("cursed")}},
    ),
    Case(
        "double curse: cursed to ruined",
        TWO,
        [
            curse("A", "B"),
            bless("A", "A"),
            curse("A", "B"),
        ],
        {"players": {"B": wealth("ruined")}},
    ),
    Case(
        "only the same fortune makes a curse double",
        TWO,
        [
            bless("A", "A", "love"),
            curse("A", "B"),
        ],
        {"players": {"B": wealth("cursed")}},
    ),
    Case(
        "the target may be the caster: a double curse on oneself",
        TWO,
        [
            bless("A", "A"),
            curse("A", "A"),
        ],
        {"players": {"A": wealth("cursed")}},
    ),
    Case(
        "neutralize: blessed and cursed to neutral",
        TWO,
        [
            bless("A", "A"),
            curse("A", "B", "luck"),
            neutralize("B", "A"),
            neutralize("A", "B", "luck"),
        ],
        {"players": {"A": {"fortunes": NEUTRAL}, "B": {"fortunes": NEUTRAL}}},
    ),
    Case(
        "a ruined fortune ignores every spell",
        TWO,
        [
            bless("A", "A"),
            curse("A", "B"),
            bless("B", "B"),
            neutralize("A", "B"),
            curse("A", "B"),
        ],
        {"players": {"B": wealth("ruined")}},
    ),
    Case(
        "set moves a ruined fortune",
        TWO,
        [
            bless("A", "A"),
            curse("A", "B"),
            set_("B", "wealth", "blessed"),
        ],
        {"players": {"B": wealth("blessed")}, "totals": {"B": 5}},
    ),
    Case(
        "set to any state",
        TWO,
        [set_("A", "fate", "ruined")],
        {
            "players": {"A": {"fortunes": {"fate": "ruined", "luck": "neutral"}}},
            "totals": {"A": 4},
        },
    ),
    Case(
        "altar holds a sacrifice",
        TWO,
        [
            {"type": "altar", "player": "A", "text": "Both plays outgoing"},
        ],
        {"players": {"A": {"altar": "Both plays outgoing"}, "B": {"altar": None}}},
    ),
    Case(
        "altar cleared",
        TWO,
        [
            {"type": "altar", "player": "A", "text": "Redirect a play"},
            {"type": "altar", "player": "A", "text": None},
        ],
        {"players": {"A": {"altar": None}}},
    ),
    Case(
        "four down is not out",
        TWO,
        curse_all("A", "B")[:4],
        {
            "finished": False,
            "players": {"B": {"eliminated": False}},
            "totals": {"B": 1},
        },
    ),
    Case(
        "five down is out; the last standing wins",
        TWO,
        curse_all("A", "B"),
        {
            "finished": True,
            "winners": ["A"],
            "leader": None,
            "rounds": [],
            "totals": {"A": 5, "B": 0},
            "players": {"A": {"eliminated": False}, "B": {"eliminated": True}},
        },
    ),
    Case(
        "cursed and ruined together are out",
        TWO,
        [
            bless("A", "A"),
            curse("A", "B"),
            *curse_all("A", "B")[1:],
        ],
        {"finished": True, "winners": ["A"]},
    ),
    Case(
        "a set can put a player out",
        TWO,
        [
            *curse_all("A", "B")[:4],
            set_("B", "luck", "ruined"),
        ],
        {"finished": True, "winners": ["A"]},
    ),
    Case(
        "out by one's own curse",
        TWO,
        curse_all("B", "B"),
        {
            "finished": True,
            "winners": ["A"],
        },
    ),
    Case(
        "one out of three: the game goes on",
        THREE,
        curse_all("A", "C"),
        {
            "finished": False,
            "winners": [],
            "totals": {"A": 5, "B": 5, "C": 0},
            "players": {"C": {"eliminated": True}},
        },
    ),
    Case("six players", SIX, [curse("F", "A")], {"totals": {"A": 4, "F": 5}}),
]

REFUSALS = [
    Refusal("one player", ["A"], [], 0, "2 to 6 players"),
    Refusal("seven players", [*SIX, "G"], [], 0, "2 to 6 players"),
    Refusal("no options", TWO, [], 0, "not an option", {"deck": "standard"}),
    Refusal("unknown fortune", TWO, [curse("A", "B", "money")], 1, "money"),
    Refusal("unknown effect", TWO, [spell("A", "B", "love", "hex")], 1, "hex"),
    Refusal(
        "state by the rulebook's name",
        TWO,
        [set_("A", "love", "devastated")],
        1,
        "devastated",
    ),
    Refusal("caster not a player", TWO, [curse("Z", "B")], 1, '"Z"'),
    Refusal("target not a player", TWO, [curse("A", "Z")], 1, '"Z"'),
    Refusal(
        "an out player casts",
        THREE,
        [*curse_all("A", "C"), bless("C", "C")],
        6,
        "C is out",
    ),
    Refusal(
        "an out player is targeted",
        THREE,
        [*curse_all("A", "C"), bless("B", "C")],
        6,
        "C is out",
    ),
    Refusal(
        "after the winner is known",
        TWO,
        [*curse_all("A", "B"), bless("A", "A")],
        6,
        "over",
    ),
    Refusal("a trick", TWO, [{"type": "trick", "cards": []}], 1, "trick"),
]


test_summary_follows_the_contract, test_refused_as_the_contract_says = contract_tests(
    GAME, CASES, REFUSALS
)
