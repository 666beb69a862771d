"""Where each event of a log stands: its round, its trick within the round, who won.

Pure functions over a log's events and a replay's steps, shared by the table
and the history so that both number tricks the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.base import Event, Outcome
from companion.replay import Step

# The reasons that name a trick's winner (as "player"), by message name.
WINNER_REASONS = frozenset(
    {
        "wins-highest",
        "wins-lowest",
        "wins-tie-highest",
        "wins-tie-lowest",
        "wins-one",
        "trick-winner",
    }
)


# The reasons that name who a trick hurt, when no single player takes it.
CURSED_REASONS = frozenset({"cursed"})
DAMAGED_REASONS = frozenset({"damaged", "death"})


@dataclass(frozen=True)
class Mark:
    """Event ``number`` (1-based) of a log and where it stands.

    ``round`` counts the log's round events (0 before the first one, as in a
    game of CURSED! or piles before any round); ``trick`` counts the tricks
    of that round, None for an event that is not a trick; ``winner`` is who
    took the trick when the game has a single taker, else None.
    """

    number: int
    type: str
    round: int
    trick: int | None
    winner: str | None = None


def winner_of(outcome: Outcome) -> str | None:
    """Who took a trick, read from the reasons its replay gave."""
    for reason in outcome.reasons:
        name = reason.key.split(".", 1)[-1]
        if name in WINNER_REASONS and "player" in reason.params:
            return reason.params["player"]
    return None


def named_by(outcome: Outcome, reasons: frozenset[str]) -> tuple[str, ...]:
    """The players the given reasons name (as "player"), in the order given."""
    found: list[str] = []
    for reason in outcome.reasons:
        name = reason.params.get("player")
        if reason.key.split(".", 1)[-1] in reasons and name and name not in found:
            found.append(name)
    return tuple(found)


@dataclass(frozen=True)
class Line:
    """One event as the history reads it: where it stands and whom it names.

    ``pile`` counts the piles of a game counted at the end (None otherwise);
    ``cursed`` and ``damaged`` are who a trick hurt where nobody takes it.
    """

    mark: Mark
    pile: int | None = None
    cursed: tuple[str, ...] = ()
    damaged: tuple[str, ...] = ()


def lines(steps: Sequence[Step]) -> list[Line]:
    """Every replayed step as a line of the game's story."""
    events = [step.event for step in steps]
    found: list[Line] = []
    piles = 0
    for mark, step in zip(marks(events, steps), steps, strict=True):
        pile = None
        if mark.type == "pile":
            piles += 1
            pile = piles
        found.append(
            Line(
                mark,
                pile,
                named_by(step.outcome, CURSED_REASONS),
                named_by(step.outcome, DAMAGED_REASONS),
            )
        )
    return found


def marks(events: Sequence[Event], steps: Sequence[Step] = ()) -> list[Mark]:
    """Every event's mark; pass the replay's steps to learn the trick winners."""
    outcomes = {step.number: step.outcome for step in steps}
    found: list[Mark] = []
    round_number = trick = 0
    for number, event in enumerate(events, start=1):
        kind = str(event.get("type"))
        if kind == "round":
            round_number += 1
            trick = 0
        if kind != "trick":
            found.append(Mark(number, kind, round_number, None))
            continue
        trick += 1
        outcome = outcomes.get(number)
        winner = winner_of(outcome) if outcome is not None else None
        found.append(Mark(number, kind, round_number, trick, winner))
    return found


def mark_of(events: Sequence[Event], number: int) -> Mark:
    """The mark of event ``number`` alone (no winner: that needs the steps)."""
    if not 1 <= number <= len(events):
        raise IndexError(f"there is no event {number} (the log has {len(events)})")
    return marks(events[:number])[-1]


def ordinal(events: Sequence[Event], number: int) -> int:
    """Which one of its type event ``number`` is: the 3rd pile, the 2nd spell."""
    kind = events[number - 1].get("type")
    return sum(event.get("type") == kind for event in events[:number])


def round_start(events: Sequence[Event]) -> int:
    """Index of the first event of the round in progress (after its ``round``)."""
    for at in range(len(events) - 1, -1, -1):
        if events[at].get("type") == "round":
            return at + 1
    return 0
