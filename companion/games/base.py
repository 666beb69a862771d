"""The contract every game's rules engine keeps, and what engines share.

An engine is stateless; it starts a :class:`State` from the log's header and
applies events to it one by one. Each applied event yields an
:class:`Outcome`: the reasons a player can check against the table, and
warnings that never stop the replay.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.cards import Card
from companion.errors import FormatError, RuleError
from companion.log import HEADER

Event = dict[str, Any]


@dataclass(frozen=True)
class Reason:
    """One sentence of explanation and the rules-reference topic it rests on.

    ``key`` ("<slug>.<name>" or "common.<name>") names the message so that a
    screen can show it in another language with the same ``params``; ``text``
    is the English sentence, put together only when someone reads it (a replay
    makes hundreds of reasons and most are never shown).
    """

    key: str
    topic: str
    template: str = field(repr=False)
    params: dict[str, str] = field(default_factory=dict, hash=False)

    @property
    def text(self) -> str:
        return self.template.format(**self.params)


@dataclass
class Outcome:
    reasons: list[Reason] = field(default_factory=list)
    warnings: list[Reason] = field(default_factory=list)


# Messages every game may use: name -> (topic, English template).
COMMON_TEXTS: dict[str, tuple[str, str]] = {
    "showed-out": (
        "follow-suit",
        "{player} plays {card} but did not follow {suit} earlier this round: "
        "check the cards",
    ),
}


@dataclass
class State:
    """What every game's state has; each engine extends it."""

    players: list[str]
    options: dict[str, Any]
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    leader: str | None = None


@dataclass(frozen=True)
class Prompt:
    """What the table records next, for a screen to offer.

    ``expects`` are the event types allowed now (empty once the game is over);
    ``seats`` who plays the next trick, leader first; ``cards`` the cards that
    may still turn up this round, in suit and number order, a card held in
    several copies once per copy still unplayed.
    """

    expects: tuple[str, ...]
    seats: tuple[str, ...] = ()
    cards: tuple[Card, ...] = ()


class Engine(ABC):
    slug: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[range]
    # topic id -> short title; every Reason.topic an engine uses is listed here
    topics: ClassVar[dict[str, str]]
    # message name -> (topic, English template with {named} fields)
    texts: ClassVar[dict[str, tuple[str, str]]]

    def check_players(self, players: list[str]) -> None:
        low, high = self.player_counts.start, self.player_counts.stop - 1
        if len(players) not in self.player_counts:
            raise FormatError(
                f"{self.title} is for {low} to {high} players, "
                f"this game has {len(players)}",
                HEADER,
            )

    @abstractmethod
    def options(self, players: list[str], given: dict[str, Any]) -> dict[str, Any]:
        """Every option with its default filled in; raise FormatError if invalid."""

    @abstractmethod
    def start(self, players: list[str], options: dict[str, Any]) -> State: ...

    # event type -> name of the method that applies an event of that type
    handlers: ClassVar[dict[str, str]]

    def apply(self, state: State, event: Event) -> Outcome:
        """Change ``state`` by one event, or raise a LogError."""
        kind = event.get("type")
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise unknown_event(self, event)
        return getattr(self, handler)(state, event)

    @abstractmethod
    def totals(self, state: State) -> dict[str, Any]: ...

    @abstractmethod
    def player_view(self, state: State, name: str) -> dict[str, Any]: ...

    @abstractmethod
    def prompt(self, state: State) -> Prompt: ...

    def where_cards_are(self, state: State) -> dict[str, Counter[Card]]:
        """Every card played this round, by where it lies now (for checks)."""
        return {}

    def reason(self, name: str, **params: object) -> Reason:
        if name in self.texts:
            key, (topic, template) = f"{self.slug}.{name}", self.texts[name]
        else:
            key, (topic, template) = f"common.{name}", COMMON_TEXTS[name]
        return Reason(key, topic, template, {k: str(v) for k, v in params.items()})

    def say(self, outcome: Outcome, name: str, **params: object) -> None:
        outcome.reasons.append(self.reason(name, **params))

    def warn(self, outcome: Outcome, name: str, **params: object) -> None:
        outcome.warnings.append(self.reason(name, **params))

    def summary(self, state: State) -> dict[str, Any]:
        return {
            "game": self.slug,
            "finished": state.finished,
            "winners": list(state.winners) if state.finished else [],
            "totals": self.totals(state),
            "rounds": [dict(r) for r in state.rounds],
            "leader": None if state.finished else state.leader,
            "players": {name: self.player_view(state, name) for name in state.players},
        }


# Reading events: each helper raises a FormatError naming the missing or bad field.


def unknown_event(engine: Engine, event: Event) -> FormatError:
    return FormatError(
        f'"{event.get("type")}" is not an event of {engine.title}'
    )


def need(event: Event, key: str) -> Any:
    if key not in event:
        raise FormatError(f'the {event.get("type")} event needs "{key}"')
    return event[key]


def need_player(state: State, event: Event, key: str) -> str:
    name = need(event, key)
    if name not in state.players:
        raise RuleError(f"{json.dumps(name)} is not a player in this game")
    return name


def need_choice(event: Event, key: str, allowed: list[str]) -> str:
    value = need(event, key)
    if value not in allowed:
        raise FormatError(
            f'"{key}" must be one of {", ".join(allowed)}, not {json.dumps(value)}'
        )
    return value


def reject_unknown_options(
    engine: Engine, given: dict[str, Any], known: set[str]
) -> None:
    for name in given:
        if name not in known:
            raise FormatError(
                f'"{name}" is not an option of {engine.title} '
                f"(its options: {', '.join(sorted(known)) or 'none'})",
                HEADER,
            )


def option_error(message: str) -> FormatError:
    return FormatError(message, HEADER)
